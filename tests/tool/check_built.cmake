# Builds TARGET in BUILD_DIR (CONFIG for multi-config generators) and checks that each of its
# OBJECTS ("|"-separated) exists: a test that passes only when every file of the target compiles.
# EXPECTED, when given, is how many objects there must be.
set(config_args "")
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
# The build's output goes straight to the test's log (the compiler's lines unwrapped).
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET} ${config_args}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TARGET} did not build (${status})")
endif()
string(REPLACE "|" ";" objects "${OBJECTS}")
list(LENGTH objects count)
if(count EQUAL 0)
  message(FATAL_ERROR "${TARGET} has no objects")
endif()
if(DEFINED EXPECTED AND NOT count EQUAL EXPECTED)
  message(FATAL_ERROR "${TARGET} has ${count} objects, expected ${EXPECTED}")
endif()
foreach(object IN LISTS objects)
  if(NOT EXISTS ${object})
    message(FATAL_ERROR "${TARGET} built, but its object ${object} is missing")
  endif()
endforeach()
message(STATUS "${TARGET}: ${count} files compiled")
