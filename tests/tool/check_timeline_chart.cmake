# `shardplan check TRAINING_PLAN --svg timeline.svg` writes the plan's pipeline timeline as a
# standalone SVG Gantt chart: LLaMA-3 70B on 512 DGX H100 nodes, 8 interleaved stages of 5 chunks,
# 2048 sequences over 64 replicas = 32 micro-batches each; one bar per pass, 8 x 5 x 32 forwards
# and as many backwards, and headless Chromium renders it as a picture that is not blank.
execute_process(COMMAND ${TOOL} check ${PLAN} --svg ${SVG} RESULT_VARIABLE status
                OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "check exited ${status}: ${err}")
endif()
file(READ ${SVG} svg)
string(REGEX MATCHALL "class=\"pass forward\"" forwards "${svg}")
string(REGEX MATCHALL "class=\"pass backward\"" backwards "${svg}")
list(LENGTH forwards f)
list(LENGTH backwards b)
if(NOT f EQUAL 1280 OR NOT b EQUAL 1280)
  message(FATAL_ERROR "${f} forward and ${b} backward bars, expected 1280 each")
endif()
if(NOT svg MATCHES "interleaved 1F1B, 8 stages x 5 chunks, 32 micro-batches")
  message(FATAL_ERROR "the subtitle does not name the schedule")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/rendered_svg.cmake)
check_rendered_svg(${SVG} ${RENDER} out "blue (forward)=1f77b4,green (backward)=54a24b")
message(STATUS "${out}")
