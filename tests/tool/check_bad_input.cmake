# Bad command lines get a one-line message on stderr naming what is wrong, and exit code 2.
function(expect_bad_input expected_message)
  execute_process(COMMAND ${TOOL} ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT status EQUAL 2)
    message(FATAL_ERROR "`shardplan ${ARGN}` exited with ${status}, expected 2\n${out}${err}")
  endif()
  if(NOT err MATCHES "${expected_message}")
    message(FATAL_ERROR "`shardplan ${ARGN}` said `${err}`, expected `${expected_message}`")
  endif()
endfunction()

expect_bad_input("--format: xml not in" catalog --format xml)
expect_bad_input("frobnicate" frobnicate)
expect_bad_input("plan is required" check)
expect_bad_input("subcommand" )
expect_bad_input("--bogus" catalog --bogus)
expect_bad_input("--format" catalog --format)
