# `shardplan check TRAINING_PLAN --svg timeline.svg` writes the plan's pipeline timeline as a
# standalone SVG Gantt chart: LLaMA-3 70B on 512 DGX H100 nodes, 8 interleaved stages of 5 chunks,
# 2048 sequences over 64 replicas = 32 micro-batches each; one bar per pass, 8 x 5 x 32 forwards
# and as many backwards, the stages' communication streams under them, and headless Chromium
# renders it as a picture that is not blank, in the passes' and the streams' colours.
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
# Its streams: a send after each forward of virtual stages 0-38 and each backward of 1-39 (39 x
# 32 each), the tensor-parallel collectives inside each of the 2560 passes, and one
# data-parallel bar per stage.
foreach(stream_count "pipeline;2496" "layer;2560" "data;8")
  list(GET stream_count 0 stream)
  list(GET stream_count 1 want)
  string(REGEX MATCHALL "class=\"transfer ${stream}\"" bars "${svg}")
  list(LENGTH bars n)
  if(NOT n EQUAL want)
    message(FATAL_ERROR "${n} ${stream} transfer bars, expected ${want}")
  endif()
endforeach()
if(NOT svg MATCHES "interleaved 1F1B, 8 stages x 5 chunks, 32 micro-batches")
  message(FATAL_ERROR "the subtitle does not name the schedule")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/rendered_svg.cmake)
check_rendered_svg(${SVG} ${RENDER} out
                   "blue (forward)=1f77b4,green (backward)=54a24b,purple (in-pass collectives)=9467bd,teal (data parallel)=17becf")
message(STATUS "${out}")
