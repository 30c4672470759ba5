# SPDX-License-Identifier: BSD-3-Clause
# What `cmake --install` writes (docs/adr/install-layout.md): bin/mpibench only; the original
# program names (IMB-MPI1, com, ...) as links in libexec/mpibench/classic, a directory to put
# first on PATH when a script wants them, and in bin only when asked for; the man pages and the
# bash completion generated from the binary's --help; the documentation. Every file and link
# goes through install(FILES|DIRECTORY|TARGETS), so install_manifest.txt lists all of them and
# the `uninstall` target removes exactly those.

option(MB_INSTALL_CLASSIC_NAMES_IN_BIN
       "Also install the original names (IMB-MPI1, com, rma, ...) in bin, where they replace other programs of those names" OFF)
set(MB_CLASSIC_DIR "${CMAKE_INSTALL_LIBEXECDIR}/mpibench/classic")
set(MB_COMPLETION_DIR "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")
if(MB_INSTALL_CLASSIC_NAMES_IN_BIN)
  string(REPLACE ";" ", " _names "${MB_LEGACY_NAMES}")
  message(WARNING "MB_INSTALL_CLASSIC_NAMES_IN_BIN=ON: cmake --install writes ${_names} "
                  "into ${CMAKE_INSTALL_BINDIR} and their man pages into ${CMAKE_INSTALL_MANDIR}/man1, "
                  "replacing any program (a real Intel MPI Benchmarks, Presta) installed there under those names.")
endif()

# Directories this installation may create, so that `uninstall` removes the ones it created
# (and only those) once they are empty. The prefix is the one given when installing
# (cmake --install --prefix), read then. As install_manifest.txt, the record leaves DESTDIR out
# (uninstall puts it back), and DESTDIR itself is never the installation's.
set(_dirs ${CMAKE_INSTALL_BINDIR} ${MB_CLASSIC_DIR} ${CMAKE_INSTALL_MANDIR}/man1
    ${MB_COMPLETION_DIR} ${CMAKE_INSTALL_DOCDIR})
install(CODE "
  set(_record \"${CMAKE_BINARY_DIR}/install_created_dirs.txt\")
  set(_created \"\")
  if(EXISTS \"\${_record}\")
    file(STRINGS \"\${_record}\" _created)
  endif()
  set(_root \"\$ENV{DESTDIR}\")
  foreach(_d ${_dirs})
    if(IS_ABSOLUTE \"\${_d}\")
      set(_p \"\${_d}\")
    else()
      set(_p \"\${CMAKE_INSTALL_PREFIX}/\${_d}\")
    endif()
    while(NOT EXISTS \"\${_root}\${_p}\" AND NOT \"\${_p}\" STREQUAL \"/\" AND NOT \"\${_p}\" STREQUAL \"\")
      list(APPEND _created \"\${_p}\")
      get_filename_component(_p \"\${_p}\" DIRECTORY)
    endwhile()
  endforeach()
  list(REMOVE_DUPLICATES _created)
  string(REPLACE \";\" \"\\n\" _text \"\${_created}\")
  file(WRITE \"\${_record}\" \"\${_text}\\n\")")

install(TARGETS mpibench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The links are made now, in the build directory, and installed as files: CMake copies a link
# as a link and records it in the manifest (a link made by install(CODE) is not recorded). The
# classic links point to bin/mpibench by a relative path, so that the tree can move (DESTDIR,
# cmake --install --prefix); with an absolute BINDIR or LIBEXECDIR, by the absolute one.
set(_links "${CMAKE_BINARY_DIR}/install-links")
file(REMOVE_RECURSE "${_links}")
file(MAKE_DIRECTORY "${_links}/classic" "${_links}/bin")
if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}" OR IS_ABSOLUTE "${MB_CLASSIC_DIR}")
  set(_target "${CMAKE_INSTALL_FULL_BINDIR}/mpibench")
else()
  file(RELATIVE_PATH _target "/prefix/${MB_CLASSIC_DIR}" "/prefix/${CMAKE_INSTALL_BINDIR}/mpibench")
endif()
set(_classic "")
set(_inbin "")
foreach(name IN LISTS MB_LEGACY_NAMES)
  file(CREATE_LINK "${_target}" "${_links}/classic/${name}" SYMBOLIC)
  file(CREATE_LINK mpibench "${_links}/bin/${name}" SYMBOLIC)
  list(APPEND _classic "${_links}/classic/${name}")
  list(APPEND _inbin "${_links}/bin/${name}")
endforeach()
install(FILES ${_classic} DESTINATION ${MB_CLASSIC_DIR})
if(MB_INSTALL_CLASSIC_NAMES_IN_BIN)
  install(FILES ${_inbin} DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# Man pages (help2man, Debian package help2man) and the bash completion, written from
# `mpibench help` after every build of the binary (cmake/gen_manpages.sh,
# cmake/gen_completion.sh). Without help2man the build goes on without man pages.
set(_gen_env ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0)
set(_gen_deps mpibench ${CMAKE_SOURCE_DIR}/cmake/help_pages.sh)
find_program(MB_HELP2MAN help2man)
if(MB_HELP2MAN)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/man/stamp
    COMMAND ${_gen_env} sh ${CMAKE_SOURCE_DIR}/cmake/gen_manpages.sh $<TARGET_FILE:mpibench>
            ${MB_HELP2MAN} ${CMAKE_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_BINARY_DIR}/man/stamp
    DEPENDS ${_gen_deps} ${CMAKE_SOURCE_DIR}/cmake/gen_manpages.sh
            ${CMAKE_SOURCE_DIR}/cmake/help2man_wrapper.sh
    COMMENT "Generating the man pages from mpibench help" VERBATIM)
  add_custom_target(mb_manpages ALL DEPENDS ${CMAKE_BINARY_DIR}/man/stamp)
  install(DIRECTORY ${CMAKE_BINARY_DIR}/man/man1 DESTINATION ${CMAKE_INSTALL_MANDIR})
  if(MB_INSTALL_CLASSIC_NAMES_IN_BIN)
    install(DIRECTORY ${CMAKE_BINARY_DIR}/man/classic/man1 DESTINATION ${CMAKE_INSTALL_MANDIR})
  endif()
else()
  message(STATUS "help2man not found: the man pages are skipped (Debian: apt-get install help2man)")
endif()
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/completion/mpibench
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/completion
  COMMAND ${_gen_env} sh ${CMAKE_SOURCE_DIR}/cmake/gen_completion.sh $<TARGET_FILE:mpibench>
          ${CMAKE_BINARY_DIR}/completion/mpibench
  DEPENDS ${_gen_deps} ${CMAKE_SOURCE_DIR}/cmake/gen_completion.sh
  COMMENT "Generating the bash completion from mpibench help" VERBATIM)
add_custom_target(mb_completion ALL DEPENDS ${CMAKE_BINARY_DIR}/completion/mpibench)
install(FILES ${CMAKE_BINARY_DIR}/completion/mpibench DESTINATION ${MB_COMPLETION_DIR})

install(FILES README.md LICENSE CHANGELOG.md CITATION.cff DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# `cmake --build BUILD --target uninstall` (with the same DESTDIR as the install, if any):
# removes every file and link of install_manifest.txt, then the directories the installation
# created, once empty.
add_custom_target(uninstall
  COMMAND ${CMAKE_COMMAND} -DMANIFEST=${CMAKE_BINARY_DIR}/install_manifest.txt
          -DCREATED=${CMAKE_BINARY_DIR}/install_created_dirs.txt
          -P ${CMAKE_SOURCE_DIR}/cmake/uninstall.cmake
  VERBATIM)
