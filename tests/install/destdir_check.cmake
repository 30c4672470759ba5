# SPDX-License-Identifier: BSD-3-Clause
# A distribution's staged install (Debian's debian/tmp, Spack's stage): prefix /usr, DESTDIR a
# scratch directory. The staged tree must pass the same checks as a plain install, every
# manifest entry must lie under DESTDIR, nothing may appear under the real /usr, and uninstall
# with the same DESTDIR must empty the stage (docs/adr/install-layout.md).
#   -DBUILD_DIR= -DSTAGE= -DNAMES= -DMANPAGES=ON|OFF
cmake_policy(VERSION 3.18)
include(${CMAKE_CURRENT_LIST_DIR}/tree_check.cmake)
file(REMOVE_RECURSE "${STAGE}")
set(outside /usr/bin/mpibench /usr/libexec/mpibench /usr/share/doc/mpibench
    /usr/share/bash-completion/completions/mpibench /usr/share/man/man1/mpibench.1)
set(before "")
foreach(p IN LISTS outside)
  if(EXISTS "${p}")
    list(APPEND before "${p}")
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "DESTDIR=${STAGE}"
                        "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix /usr
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "DESTDIR=${STAGE} cmake --install --prefix /usr failed: ${rc}")
endif()
foreach(p IN LISTS outside)
  if(EXISTS "${p}" AND NOT p IN_LIST before)
    message(FATAL_ERROR "the staged install wrote ${p}, outside DESTDIR")
  endif()
endforeach()
mb_check_tree("${STAGE}/usr" "${STAGE}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "DESTDIR=${STAGE}"
                        "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target uninstall
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# DESTDIR itself is the packager's: it stays, empty.
file(GLOB left LIST_DIRECTORIES true "${STAGE}/*")
if(NOT rc EQUAL 0 OR left)
  message(FATAL_ERROR "uninstall failed (${rc}) or left ${left}:\n${out}\n${err}")
endif()
file(REMOVE_RECURSE "${STAGE}")
message(STATUS "staged under DESTDIR=${STAGE} with prefix /usr; uninstall emptied the stage")
