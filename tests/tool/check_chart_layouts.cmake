# Every chart the tool draws for the examples, read back from headless Chromium by
# tests/tool/chart_layout.py: no text over other text, none clipped, no marked point hidden, no
# legend over a point. The charts: each example plan that has one (`check --svg`: a serving plan's
# latency-throughput curve, a pipelined training plan's timeline), the same 70B plan under ZB-H1
# (its weight-gradient passes) and under 1F1B on 16 stages (twice the rows), each job's
# comparison (`compare --svg`), and the 405B search (`search --svg`).
# Arguments: TOOL, EXAMPLES (the examples folder), WORK_DIR, LAYOUT (chart_layout.py).
file(MAKE_DIRECTORY ${WORK_DIR}/charts)
set(charts)
file(GLOB plans ${EXAMPLES}/plans/*.json)
file(READ ${EXAMPLES}/plans/llama3_70b_h100.json plan_70b)
string(REPLACE "\"schedule\": \"interleaved\", \"virtual_stages\": 5" "\"schedule\": \"zero_bubble\""
       zero_bubble "${plan_70b}")
file(WRITE ${WORK_DIR}/charts/zero_bubble.json "${zero_bubble}")
string(REPLACE "\"data\": 64, \"tensor\": 8, \"pipeline\": 8" "\"data\": 32, \"tensor\": 8, \"pipeline\": 16"
       sixteen "${plan_70b}")
string(REPLACE "\"schedule\": \"interleaved\", \"virtual_stages\": 5" "\"schedule\": \"1f1b\""
       sixteen "${sixteen}")
file(WRITE ${WORK_DIR}/charts/sixteen_stages.json "${sixteen}")
list(APPEND plans ${WORK_DIR}/charts/zero_bubble.json ${WORK_DIR}/charts/sixteen_stages.json)
foreach(plan IN LISTS plans)
  get_filename_component(name ${plan} NAME_WE)
  set(svg ${WORK_DIR}/charts/check_${name}.svg)
  execute_process(COMMAND ${TOOL} check ${plan} --svg ${svg} RESULT_VARIABLE status
                  OUTPUT_QUIET ERROR_VARIABLE err)
  if(status EQUAL 0)
    list(APPEND charts ${svg})
  elseif(NOT err MATCHES "has no pipeline|breaks a rule")
    message(FATAL_ERROR "check ${name} --svg exited ${status}: ${err}")
  endif()
endforeach()
file(GLOB jobs ${EXAMPLES}/jobs/*.json)
foreach(job IN LISTS jobs)
  get_filename_component(name ${job} NAME_WE)
  set(svg ${WORK_DIR}/charts/compare_${name}.svg)
  execute_process(COMMAND ${TOOL} compare ${job} --svg ${svg} RESULT_VARIABLE status
                  OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "compare ${name} --svg exited ${status}: ${err}")
  endif()
  list(APPEND charts ${svg})
endforeach()
set(svg ${WORK_DIR}/charts/search.svg)
execute_process(COMMAND ${TOOL} search ${EXAMPLES}/plans/llama3_405b_search.json --svg ${svg}
                RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "search --svg exited ${status}: ${err}")
endif()
list(APPEND charts ${svg})
list(LENGTH charts count)
if(count LESS 10)
  message(FATAL_ERROR "only ${count} charts drawn: ${charts}")
endif()
set(failed "")
foreach(svg IN LISTS charts)
  execute_process(COMMAND python3 ${LAYOUT} ${svg} RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  get_filename_component(name ${svg} NAME)
  message(STATUS "${name}: ${out}${err}")
  if(NOT status EQUAL 0)
    string(APPEND failed "${name} ")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "charts a reader cannot read: ${failed}")
endif()
message(STATUS "${count} charts laid out cleanly")
