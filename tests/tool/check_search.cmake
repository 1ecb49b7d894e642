# `shardplan search SPEC --svg chart.svg` ranks the plans (exit 0), writes a standalone SVG, and
# headless Chromium renders it as a picture that is not blank (tests/tool/render_svg.sh).
execute_process(COMMAND ${TOOL} search ${SPEC} --svg ${SVG} --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "search exited ${status}: ${err}")
endif()
string(JSON found GET "${out}" found)
string(JSON feasible GET "${out}" counts feasible)
string(JSON best_mfu GET "${out}" best mfu)
if(NOT found STREQUAL "ON" OR feasible LESS 1 OR best_mfu LESS_EQUAL 0)
  message(FATAL_ERROR "search found ${found}, ${feasible} feasible, best MFU ${best_mfu}")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/rendered_svg.cmake)
check_rendered_svg(${SVG} ${RENDER} out)
message(STATUS "${feasible} feasible plans; ${out}")
