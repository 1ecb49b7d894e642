# Runs a libFuzzer target for RUNS inputs, seeded with the files in SEEDS; fails on any crash,
# leak, sanitizer report or timeout.
file(MAKE_DIRECTORY ${CORPUS})
file(GLOB seeds ${SEEDS}/*)
file(COPY ${seeds} DESTINATION ${CORPUS})
execute_process(COMMAND ${FUZZER} ${CORPUS} -runs=${RUNS} -max_len=2048 -timeout=10
                        -max_total_time=300 -dict=${DICT} -artifact_prefix=${CORPUS}/
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the fuzzer failed (${status}):\n${err}")
endif()
string(REGEX MATCH "Done [0-9]+ runs in [0-9]+ second" done "${err}")
message(STATUS "${done}s, no crash")
