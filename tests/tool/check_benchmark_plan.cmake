# `shardplan check` of the vLLM v0.6.0 blog's ShareGPT benchmark (examples/plans/
# llama3_8b_sharegpt_vllm.json: LLaMA-3 8B on one H100, 500 prompts at once, max_num_seqs 512):
# the JSON carries the benchmark served to its end, and its requests per second come within the
# serving model's held-out error (15%) of the blog's chart reading, about 37 requests/s
# (vllm-project/vllm-project.github.io @c3a01c4, overall_throughput.png).
execute_process(COMMAND ${TOOL} check ${PLAN} --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "check exited ${status}: ${err}")
endif()
string(JSON requests GET "${out}" benchmark requests)
string(JSON spread GET "${out}" benchmark output_lengths)
string(JSON rate GET "${out}" requests_per_second)
string(JSON concurrency GET "${out}" concurrency)
if(NOT requests EQUAL 500 OR NOT spread STREQUAL "exponential" OR NOT concurrency EQUAL 500)
  message(FATAL_ERROR "benchmark of ${requests} ${spread} requests at ${concurrency}")
endif()
if(rate LESS 31.45 OR rate GREATER 42.55)
  message(FATAL_ERROR "${rate} requests/s, the blog's is about 37")
endif()
message(STATUS "${rate} requests/s against the blog's 37")
