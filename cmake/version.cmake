# Writes the version header at build time, so that a rebuild after a commit (or an edit)
# names the source it was built from, not the one CMake was configured with. Run with
# cmake -DSOURCE_DIR=... -DTEMPLATE=... -DOUTPUT=... -DPROJECT_VERSION=... [-DGIT=...] -P.
# configure_file rewrites the header only when its text changes: nothing recompiles otherwise.
set(MB_GIT_COMMIT "unknown")
if(GIT AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT}" describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(commit)
    set(MB_GIT_COMMIT "${commit}")
  endif()
endif()
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
