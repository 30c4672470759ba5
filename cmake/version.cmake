# SPDX-License-Identifier: BSD-3-Clause
# Writes the version header at build time, so that a rebuild after a commit (or an edit)
# names the source it was built from, not the one CMake was configured with. Run with
# cmake -DSOURCE_DIR=... -DTEMPLATE=... -DOUTPUT=... -DPROJECT_VERSION=... [-DGIT=...] -P.
# configure_file rewrites the header only when its text changes: nothing recompiles otherwise.
#
# The version comes from the git tag (docs/adr/licence-and-names.md): on a release tag
# (v0.1.0 or 0.1.0) it is "0.1.0"; after it "0.1.0-5-gabcdef1"; before the first tag the
# version in CMakeLists.txt with the commits so far and the commit, "0.1.0-123-gabcdef1";
# "-dirty" for an edited tree. Outside a git checkout (a tarball) it is the version in
# CMakeLists.txt. MB_GIT_COMMIT is always the commit itself (12 hex digits, "-dirty").
set(MB_VERSION "${PROJECT_VERSION}")
set(MB_GIT_COMMIT "unknown")

# Strips the "v" of a tag such as v0.1.0 from `git describe` output; anything else is kept.
function(mb_version_from_describe describe out)
  string(REGEX REPLACE "^v([0-9])" "\\1" v "${describe}")
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

if(GIT AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT}" describe --always --dirty --abbrev=12 "--exclude=*"
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(commit)
    set(MB_GIT_COMMIT "${commit}")
  endif()
  # Release tags only: v1.2.3 or 1.2.3 (with an optional suffix such as -rc1).
  execute_process(COMMAND "${GIT}" describe --tags --dirty "--match=v[0-9]*" "--match=[0-9]*"
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE no_tag ERROR_QUIET)
  if(NOT no_tag AND described)
    mb_version_from_describe("${described}" MB_VERSION)
  elseif(commit)
    # No release tag yet: count the commits as describe would count them after a tag.
    execute_process(COMMAND "${GIT}" rev-list --count HEAD
                    WORKING_DIRECTORY "${SOURCE_DIR}"
                    OUTPUT_VARIABLE count OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND "${GIT}" describe --always --dirty "--exclude=*"
                    WORKING_DIRECTORY "${SOURCE_DIR}"
                    OUTPUT_VARIABLE short OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(count AND short)
      set(MB_VERSION "${PROJECT_VERSION}-${count}-g${short}")
    endif()
  endif()
endif()
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
