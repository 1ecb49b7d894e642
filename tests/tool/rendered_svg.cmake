# check_rendered_svg(SVG RENDER OUT): SVG is a standalone SVG document and the render script
# (tests/tool/render_svg.sh) draws it with headless Chromium as a picture that is not blank; OUT
# receives the script's figures.
function(check_rendered_svg svg_path render_script out_var)
  file(READ ${svg_path} svg LIMIT 400)
  if(NOT svg MATCHES "<svg[^>]*xmlns=\"http://www.w3.org/2000/svg\"")
    message(FATAL_ERROR "not a standalone SVG: ${svg}")
  endif()
  # An optional fourth argument names the chart's colours (render_svg.sh's SVG_COLOURS).
  set(colours "${ARGV3}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "SVG_COLOURS=${colours}"
                          bash ${render_script} ${svg_path} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the chart did not render (${status}): ${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
