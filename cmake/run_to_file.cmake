# cmake/run_to_file.cmake: runs a program and saves its standard output in a file, failing the
# build if the program fails. Used to generate the man page and completions from `attn` itself:
#   cmake -DPROGRAM=<exe> "-DARGS=man" -DOUTPUT=<file> -P cmake/run_to_file.cmake
# ATTN_LESSON_DIR is cleared, so a binary of the build tree reads the source tree's lessons/
# whatever the shell that runs the build has set.
# What it is not: a way to run anything at configure time.
cmake_minimum_required(VERSION 3.20)
unset(ENV{ATTN_LESSON_DIR})
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND "${PROGRAM}" ${args} OUTPUT_FILE "${OUTPUT}.tmp" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUTPUT}.tmp")
  message(FATAL_ERROR "`${PROGRAM} ${ARGS}` failed (${rc}): ${err}")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
