# SPDX-License-Identifier: BSD-3-Clause
# cmake --install into a scratch prefix, then: bin holds mpibench alone; the original names are
# links in libexec/mpibench/classic that reach bin/mpibench; install_manifest.txt lists every
# file and link of the tree, nothing more; the classic IMB-MPI1 runs a short PingPong under
# mpiexec; `uninstall` leaves nothing (docs/adr/install-layout.md).
#   -DBUILD_DIR= -DPREFIX= -DNAMES= -DMPIEXEC= -DMANPAGES=ON|OFF
cmake_policy(VERSION 3.18)
include(${CMAKE_CURRENT_LIST_DIR}/tree_check.cmake)
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
mb_check_tree("${PREFIX}" "")

# The classic name, as a script would call it with the directory first on PATH.
set(work "${PREFIX}-run")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
file(WRITE "${work}/lengths" "0\n1024\n")
separate_arguments(launcher UNIX_COMMAND "${MPIEXEC}")
set(ENV{PATH} "${PREFIX}/libexec/mpibench/classic:$ENV{PATH}")
execute_process(COMMAND ${launcher} -np 2 IMB-MPI1 PingPong -iter 10 -msglen lengths
                WORKING_DIRECTORY "${work}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 120)
file(REMOVE_RECURSE "${work}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "Benchmarking PingPong" OR NOT out MATCHES "\n +1024 +10 ")
  message(FATAL_ERROR "the installed classic IMB-MPI1 did not run (status ${rc}):\n${out}\n${err}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target uninstall
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "uninstall failed (${rc}):\n${out}\n${err}")
endif()
if(EXISTS "${PREFIX}")
  file(GLOB_RECURSE left LIST_DIRECTORIES true "${PREFIX}/*")
  message(FATAL_ERROR "uninstall left ${PREFIX}: ${left}")
endif()
message(STATUS "installed, ran the classic IMB-MPI1 and uninstalled: nothing left")
