# The consumer project of check_plan/ with an infeasible plan file must fail to build, and the
# build log must name each broken rule with its numbers (EXPECT: regexes joined by @@).
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G ${GENERATOR}
                        -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CXX_COMPILER=${COMPILER}
                        -DPLAN=${PLAN} -DSAMPLE=${SAMPLE}
                        -DSERVING_PLAN=${SERVING_PLAN}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer project does not configure:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(status EQUAL 0)
  message(FATAL_ERROR "the infeasible plan file ${PLAN} built:\n${out}")
endif()
string(REPLACE "@@" ";" expected "${EXPECT}")
foreach(pattern IN LISTS expected)
  if(NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "the failed build does not say `${pattern}`:\n${out}")
  endif()
endforeach()
message(STATUS "the infeasible plan file fails the build with every rule: ${EXPECT}")
