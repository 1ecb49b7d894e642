# `shardplan check SERVING_PLAN --svg chart.svg --format json` prints the engine's estimate at the
# plan's own batch beside the book's roofline, writes the latency-throughput chart as a standalone
# SVG, and headless Chromium renders it as a picture that is not blank (tests/tool/render_svg.sh:
# the curve has points that fit, points over memory and the plan's own point marked).
execute_process(COMMAND ${TOOL} check ${PLAN} --svg ${SVG} --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "check exited ${status}: ${err}")
endif()
string(JSON engine GET "${out}" engine)
string(JSON concurrency GET "${out}" concurrency)
string(JSON largest GET "${out}" max_concurrency)
string(JSON tpot GET "${out}" time_per_output_token_seconds)
string(JSON ttft GET "${out}" prefill_seconds)
string(JSON bound GET "${out}" roofline decode_step_seconds)
string(JSON step GET "${out}" decode_step_seconds)
if(NOT engine STREQUAL "tensorrt_llm" OR NOT concurrency EQUAL 256 OR largest LESS 256)
  message(FATAL_ERROR "engine ${engine}, concurrency ${concurrency}, largest ${largest}")
endif()
# The engine's step is slower than the book's bound (shares of bandwidth below 1, fixed costs),
# and the time per output token, with prefill in the steps, slower than the decode step.
if(NOT step GREATER bound OR NOT tpot GREATER step OR NOT ttft GREATER 0)
  message(FATAL_ERROR "decode ${step} s against the bound ${bound} s, per token ${tpot} s")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/rendered_svg.cmake)
check_rendered_svg(${SVG} ${RENDER} out)
message(STATUS "${out}")
