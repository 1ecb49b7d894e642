# The import corpus (tests/import/corpus, each config's source in CASES.md): every case of
# cases.txt is checked with `check --from`. `imports`: exit 0 or 1; `refuses: TEXT`: exit 2 with
# one line on stderr that starts with "shardplan: FILE: TEXT". Where the authors state the
# hardware the verdict is theirs, feasible (exit 0), unless the case is listed as known wrong,
# when it must still be INFEASIBLE (exit 1) until the model is fixed and the list with it. The
# corpus must hold at least 60 cases, at least 57 of them importing.
file(STRINGS ${CORPUS}/cases.txt lines)
set(total 0)
set(imported 0)
set(stated 0)
set(agree 0)
set(known_wrong "")
foreach(line IN LISTS lines)
  string(REPLACE ";" "@SEMICOLON@" line "${line}")  # a message may hold one
  string(REPLACE " | " ";" fields "${line}")
  list(LENGTH fields n)
  if(NOT n EQUAL 5)
    message(FATAL_ERROR "cases.txt: not five fields: ${line}")
  endif()
  list(GET fields 0 from)
  list(GET fields 1 file)
  list(GET fields 2 flags)
  list(GET fields 3 expect)
  list(GET fields 4 verdict)
  separate_arguments(args UNIX_COMMAND "${flags}")
  execute_process(COMMAND ${TOOL} check --from ${from} ${file} ${args}
                  WORKING_DIRECTORY ${CORPUS} RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  math(EXPR total "${total} + 1")
  if(expect STREQUAL "imports")
    if(NOT (status EQUAL 0 OR status EQUAL 1))
      message(FATAL_ERROR "${file}: expected to import, exit ${status}: ${err}")
    endif()
    math(EXPR imported "${imported} + 1")
    if(verdict MATCHES "^stated: feasible")
      math(EXPR stated "${stated} + 1")
      if(verdict MATCHES "known wrong")
        if(NOT status EQUAL 1)
          message(FATAL_ERROR "${file}: listed as wrongly infeasible, but exit ${status}: "
                              "update cases.txt and CASES.md")
        endif()
        list(APPEND known_wrong ${file})
      elseif(NOT status EQUAL 0)
        message(FATAL_ERROR "${file}: its authors ran it on this hardware; exit ${status}\n${out}")
      else()
        math(EXPR agree "${agree} + 1")
      endif()
    endif()
  else()
    string(REGEX REPLACE "^refuses: " "" text "${expect}")
    string(REPLACE "@SEMICOLON@" ";" text "${text}")
    string(REGEX MATCHALL "\n" newlines "${err}")
    list(LENGTH newlines lines_out)
    string(FIND "${err}" "shardplan: ${file}: ${text}" at)
    if(NOT status EQUAL 2 OR NOT lines_out EQUAL 1 OR NOT at EQUAL 0)
      message(FATAL_ERROR "${file}: expected exit 2 and one line starting '${text}', exit "
                          "${status}: ${err}")
    endif()
  endif()
endforeach()
if(total LESS 60 OR imported LESS 57)
  message(FATAL_ERROR "the corpus holds ${total} cases, ${imported} importing (at least 60, 57)")
endif()
list(LENGTH known_wrong wrong)
message(STATUS "${total} real configs: ${imported} import; of ${stated} on the hardware their "
               "authors state, ${agree} are called feasible and ${wrong} wrongly infeasible: "
               "${known_wrong}")
