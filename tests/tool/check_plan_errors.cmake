# `shardplan check` on plan files at the edges of what the reader takes (the malformed ones are in
# the bad-input table, tests/tool/bad_inputs.cmake): other spellings of the same plan print the
# same report, standard input is read for `-`, a directory is not "malformed JSON".
set(dir ${WORK_DIR}/plan_errors)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
set(good [=[{"model": "llama3-8b", "system": {"preset": "nvlink_fat_tree", "nodes": 1, "chip": "h100 sxm"}, "training": {"parallelism": {"data": 8, "zero_stage": 3}, "batch": {"global_sequences": 64, "seq_len": 4096}}}]=])
file(WRITE ${dir}/good.json "${good}")
execute_process(COMMAND ${TOOL} check ${dir}/good.json RESULT_VARIABLE status
                OUTPUT_VARIABLE expected ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the good plan file exited ${status}: ${err}")
endif()

# The same plan written another way must give the same report, byte for byte.
set(case_index 0)
function(expect_same_plan what content)
  math(EXPR i "${case_index} + 1")
  set(case_index ${i} PARENT_SCOPE)
  file(WRITE ${dir}/same_${i}.json "${content}")
  execute_process(COMMAND ${TOOL} check ${dir}/same_${i}.json RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT out STREQUAL expected)
    message(FATAL_ERROR "${what}: exit ${status} (${err}), or a report other than the good plan's")
  endif()
endfunction()
# Integral numbers are whole numbers: 8.0 sequences, 4.096e3 tokens.
expect_same_plan("integral numbers" [=[{"model": "llama3-8b", "system": {"preset": "nvlink_fat_tree", "nodes": 1.0, "chip": "h100 sxm"}, "training": {"parallelism": {"data": 8.0, "zero_stage": 3}, "batch": {"global_sequences": 64.0, "seq_len": 4.096e3}}}]=])
# One spelling everywhere: case, spaces, underscores and hyphens do not matter in names.
expect_same_plan("a chip spelled with an underscore" [=[{"model": "llama3-8b", "system": {"preset": "nvlink_fat_tree", "nodes": 1, "chip": "h100_sxm"}, "training": {"parallelism": {"data": 8, "zero_stage": 3}, "batch": {"global_sequences": 64, "seq_len": 4096}}}]=])
expect_same_plan("names spelled with capitals, spaces and hyphens" [=[{"model": "LLaMA3_8B", "system": {"preset": "NVLink Fat-Tree", "nodes": 1, "chip": "H100-SXM"}, "training": {"parallelism": {"data": 8, "zero_stage": 3}, "batch": {"global_sequences": 64, "seq_len": 4096}}}]=])

# `-` reads the plan from standard input, and names it `stdin` in a message.
execute_process(COMMAND ${TOOL} check - INPUT_FILE ${dir}/good.json RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out STREQUAL expected)
  message(FATAL_ERROR "check - exited ${status} (${err}), or printed another report")
endif()
file(WRITE ${dir}/no_model.json [=[{"system": {"preset": "dgx_h100_superpod", "nodes": 1}, "training": {}}]=])
execute_process(COMMAND ${TOOL} check - INPUT_FILE ${dir}/no_model.json RESULT_VARIABLE status
                ERROR_VARIABLE err)
if(NOT status EQUAL 2 OR NOT err STREQUAL "shardplan: stdin: model: missing\n")
  message(FATAL_ERROR "a bad plan on stdin exited ${status}: ${err}")
endif()
execute_process(COMMAND ${TOOL} export - --to megatron INPUT_FILE ${dir}/good.json
                RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 0 OR NOT out MATCHES "WORLD_SIZE=8 ranks")
  message(FATAL_ERROR "export - exited ${status}: ${out}")
endif()

# A directory cannot be read as a plan; saying "malformed JSON" would send the user astray.
execute_process(COMMAND ${TOOL} check ${dir} RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 2 OR NOT err STREQUAL "shardplan: cannot read ${dir}: is a directory\n")
  message(FATAL_ERROR "a directory exited ${status}: ${err}")
endif()
execute_process(COMMAND ${TOOL} check ${dir}/no_such_file.json RESULT_VARIABLE status
                ERROR_VARIABLE err)
if(NOT status EQUAL 2 OR NOT err STREQUAL "shardplan: cannot read ${dir}/no_such_file.json: no such file\n")
  message(FATAL_ERROR "a missing file exited ${status}: ${err}")
endif()
message(STATUS "${case_index} spellings of one plan, stdin and a directory read as they should be")
