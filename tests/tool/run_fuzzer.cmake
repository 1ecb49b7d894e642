# Runs a libFuzzer target for RUNS inputs (or SECONDS, whichever ends first), seeded with the
# files in SEEDS (folders separated by "|"); fails on any crash, broken invariant, leak,
# sanitizer report or timeout, and prints the executions and the crashes.
file(MAKE_DIRECTORY ${CORPUS})
string(REPLACE "|" ";" seed_dirs "${SEEDS}")
foreach(seed_dir IN LISTS seed_dirs)
  file(GLOB seeds ${seed_dir}/*)
  file(COPY ${seeds} DESTINATION ${CORPUS})
endforeach()
if(NOT SECONDS)
  set(SECONDS 300)
endif()
execute_process(COMMAND ${FUZZER} ${CORPUS} -runs=${RUNS} -max_len=2048 -timeout=10
                        -max_total_time=${SECONDS} -dict=${DICT} -artifact_prefix=${CORPUS}/
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "Done ([0-9]+) runs in ([0-9]+) second" done "${err}")
set(runs "${CMAKE_MATCH_1}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the fuzzer failed (${status}): executions ${runs}, crashes 1\n${err}")
endif()
message(STATUS "${done}s; executions ${runs}, crashes 0")
