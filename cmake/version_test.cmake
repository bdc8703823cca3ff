# version_test.cmake: cmake/version.cmake outside a git checkout writes the fallback commit,
# and in this checkout a commit id (the `version_from_git` CTest).
#   cmake -DSOURCE_DIR=<repo> -DWORK=<scratch folder> -P version_test.cmake
file(MAKE_DIRECTORY ${WORK}/not-a-checkout)
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${WORK}/not-a-checkout -DOUT=${WORK}/fallback.cc -DVERSION=9.9.9
                        -P ${SOURCE_DIR}/cmake/version.cmake)
file(READ ${WORK}/fallback.cc fallback)
if(NOT fallback MATCHES "unknown \\(not built from a git checkout\\)" OR NOT fallback MATCHES "9\\.9\\.9")
  message(FATAL_ERROR "no fallback outside a checkout:\n${fallback}")
endif()
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${SOURCE_DIR}/.git)  # a checkout (a worktree's .git is a file)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${SOURCE_DIR} -DOUT=${WORK}/here.cc -DVERSION=9.9.9
                          -P ${SOURCE_DIR}/cmake/version.cmake)
  file(READ ${WORK}/here.cc here)
  if(NOT here MATCHES "return \"[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f](-dirty)?\"")
    message(FATAL_ERROR "no commit id in a checkout:\n${here}")
  endif()
endif()
