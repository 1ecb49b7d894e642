# `shardplan check PLAN --format json` prints the documented fields in base units; exit code 0
# for a feasible plan and 1 for an infeasible one, whose violations name each broken rule.
execute_process(COMMAND ${TOOL} check ${PLANS}/llama3_70b_h100.json --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the README's plan exited ${status}")
endif()
function(expect_key)
  string(JSON value ERROR_VARIABLE err GET "${out}" ${ARGN})
  if(err)
    message(FATAL_ERROR "missing ${ARGN}: ${err}")
  endif()
endfunction()
foreach(key feasible violations parameters flops_per_step model_flops_per_token communication
            mfu tokens_per_second_per_device)
  expect_key(${key})
endforeach()
foreach(key parameters gradients optimizer activations kv_cache buffers total capacity)
  expect_key(memory_per_device_bytes ${key})
endforeach()
foreach(key compute communication_exposed bubble step)
  expect_key(time_seconds ${key})
endforeach()
foreach(key collective axis bytes_per_device seconds)
  expect_key(communication 0 ${key})
endforeach()
string(JSON feasible GET "${out}" feasible)
string(JSON total GET "${out}" parameters total)
string(JSON capacity GET "${out}" memory_per_device_bytes capacity)
# Meta's released LLaMA-3 70B checkpoint: 70,553,706,496 parameters; H100 SXM: 80 GB.
if(NOT feasible STREQUAL "ON" OR NOT total EQUAL 70553706496 OR NOT capacity EQUAL 80000000000)
  message(FATAL_ERROR "feasible ${feasible}, parameters ${total}, capacity ${capacity}")
endif()

execute_process(COMMAND ${TOOL} check ${PLANS}/infeasible.json --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "the infeasible plan exited ${status}")
endif()
string(JSON rule0 GET "${out}" violations 0 rule)
string(JSON rule1 GET "${out}" violations 1 rule)
string(JSON message0 GET "${out}" violations 0 message)
if(NOT rule0 STREQUAL "tensor_divides_kv_heads" OR NOT rule1 STREQUAL "fits_in_memory" OR
   NOT message0 STREQUAL "tensor parallelism 16 does not divide 8 kv heads")
  message(FATAL_ERROR "violations: ${rule0} (${message0}), ${rule1}")
endif()
message(STATUS "check prints the documented JSON; exit codes 0 and 1")

# The reliability section of a training plan with a run.
execute_process(COMMAND ${TOOL} check ${PLANS}/llama3_70b_h100.json --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out)
string(JSON chips GET "${out}" reliability chips)
string(JSON per_day GET "${out}" reliability unexpected_interruptions_per_day)
if(NOT chips EQUAL 4096 OR per_day LESS_EQUAL 0)
  message(FATAL_ERROR "reliability: ${chips} chips, ${per_day} interruptions a day")
endif()

# A serving plan: LLaMA-3 70B, int8 KV cache: 2 (K and V) x 8 kv heads x 128 x 80 layers x 1 byte
# = 163,840 bytes a token (the book, inference.md, counts 2·8·128·80 = 160 KiB a token in int8).
execute_process(COMMAND ${TOOL} check ${PLANS}/llama3_70b_serving_v5e.json --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the serving plan exited ${status}")
endif()
string(JSON kv GET "${out}" kv_cache_bytes_per_token)
if(NOT kv EQUAL 163840)
  message(FATAL_ERROR "kv cache bytes a token: ${kv}")
endif()
foreach(key max_batch decode_step_seconds prefill_seconds tokens_per_second_per_device)
  string(JSON value ERROR_VARIABLE err GET "${out}" ${key})
  if(err)
    message(FATAL_ERROR "serving JSON lacks ${key}")
  endif()
endforeach()
