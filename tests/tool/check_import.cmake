# `shardplan import` writes a plan file that `check` reads, and `check --from` gives the same report
# and exit code (0 feasible, 1 infeasible) as importing first: for a sample config of each target
# (tests/import/samples, from the projects' own repositories: tests/import/SOURCES.md).
set(cases
  "megatron|megatron/train_llama3_8b_h100_fp8.sh|--system|dgx_h100_superpod:1"
  "megatron|megatron/train_mixtral_8x7b_distributed.sh|--system|dgx_h100_superpod:8|--world-size|64"
  "torchtitan|torchtitan/llama3_70b.toml|--system|dgx_h100_superpod:8"
  "torchtitan|torchtitan/deepseek_v3_671b.toml|--system|dgx_h100_superpod:32"
  "torchtitan|torchtitan/deepseek_v3_16b.toml|--system|dgx_h100_superpod:1"
  "maxtext|maxtext/gpu_llama3_8b.yml|--system|dgx_h100_superpod:1"
  "deepspeed|deepspeed/ds_config_zero3.json|--system|dgx_h100_superpod:1|--model|llama3-8b|seq_len=4096")
file(MAKE_DIRECTORY ${WORK_DIR})
set(n 0)
foreach(c IN LISTS cases)
  string(REPLACE "|" ";" args "${c}")
  list(POP_FRONT args from file)
  set(config ${SAMPLES}/${file})
  set(out ${WORK_DIR}/import_${n}.json)
  execute_process(COMMAND ${TOOL} import --from ${from} ${config} ${args} --output ${out}
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "import --from ${from} ${file} exited ${status}: ${err}")
  endif()
  execute_process(COMMAND ${TOOL} check ${out} RESULT_VARIABLE a OUTPUT_VARIABLE report_a)
  execute_process(COMMAND ${TOOL} check --from ${from} ${config} ${args}
                  RESULT_VARIABLE b OUTPUT_VARIABLE report_b ERROR_VARIABLE err_b)
  if(NOT (a EQUAL 0 OR a EQUAL 1) OR NOT a EQUAL b)
    message(FATAL_ERROR "${file}: check of the import exited ${a}, check --from ${b}: ${err_b}")
  endif()
  if(NOT report_a STREQUAL report_b)
    message(FATAL_ERROR "${file}: check --from reports other than check of the import")
  endif()
  if(NOT report_a MATCHES "Plan\n====\n[^\n]+: (feasible|INFEASIBLE)")
    message(FATAL_ERROR "${file}: no verdict in\n${report_a}")
  endif()
  # The same config on standard input ("-"), read from its folder as its relative paths need:
  # the same report, its model named after stdin where the config's shape is not the catalogue's.
  get_filename_component(folder ${config} DIRECTORY)
  get_filename_component(stem ${config} NAME_WE)
  execute_process(COMMAND ${TOOL} check --from ${from} - ${args} INPUT_FILE ${config}
                  WORKING_DIRECTORY ${folder}
                  RESULT_VARIABLE s OUTPUT_VARIABLE report_s ERROR_VARIABLE err_s)
  string(REPLACE "imported stdin" "imported ${stem}" report_s "${report_s}")
  if(NOT s EQUAL a OR NOT report_s STREQUAL report_a)
    message(FATAL_ERROR "${file} on standard input: exit ${s} (file: ${a}), report "
                        "${report_s}\nagainst\n${report_a}\n${err_s}")
  endif()
  string(REGEX MATCH "Plan\n====\n[^\n]+" verdict "${report_a}")
  string(REPLACE "Plan\n====\n" "" verdict "${verdict}")
  message(STATUS "${from} ${file}: ${verdict} (exit ${a})")
  math(EXPR n "${n} + 1")
endforeach()
