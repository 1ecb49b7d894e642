# `shardplan header` writes every member of a training plan's values: for each training plan of
# examples/plans the header is written, compiled into a program with the plan-file reader, and the
# program compares the header's constexpr values with the values the reader builds at run time,
# member by member (plan_difference) and by their step time, MFU and memory per device.
file(GLOB plans ${PLANS}/*.json)
# The headers go in a folder of their own on the include path (a file there named like a standard
# header, such as a program called `compare`, would be included in its place).
set(header_dir ${WORK_DIR}/include)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${header_dir})
set(includes "")
set(checks "")
set(count 0)
set(serving 0)
foreach(plan IN LISTS plans)
  get_filename_component(stem ${plan} NAME_WE)
  string(MAKE_C_IDENTIFIER "plan_${stem}" name)
  execute_process(COMMAND ${TOOL} header ${plan} --name ${name} --output ${header_dir}/${name}.hpp
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "shardplan header ${plan} exited ${status}: ${err}")
  endif()
  string(APPEND includes "#include \"${name}.hpp\"\n")
  file(READ ${plan} text)
  if(text MATCHES "\"inference\"")
    string(APPEND checks "  bad += serving_differs<${name}>(\"${plan}\");\n")
    math(EXPR serving "${serving} + 1")
  else()
    string(APPEND checks "  bad += differs<${name}>(\"${plan}\");\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count LESS 5 OR serving LESS 2)
  message(FATAL_ERROR "only ${count} training and ${serving} serving plans in ${PLANS}")
endif()
file(WRITE ${WORK_DIR}/header_values.cpp "${includes}
#include <iostream>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/serving/workload.hpp>
template <class Plan>
int differs(const char* path) {
  const shardplan::io::plan_file f = shardplan::io::load_plan_file(path);
  const shardplan::training_plan_values read = f.values();
  const std::string d = shardplan::io::plan_difference(Plan::values, read);
  const auto a = shardplan::estimate_step(Plan::values);
  const auto b = shardplan::estimate_step(read);
  const double m = shardplan::memory_per_device(Plan::values.model, Plan::values.setup).total.value();
  const double n = shardplan::memory_per_device(read.model, read.setup).total.value();
  const bool same = d.empty() && a.step.value() == b.step.value() && a.mfu == b.mfu && m == n &&
                    Plan::violations.count == shardplan::check(read).count;
  std::cout << path << \": \" << (same ? \"same values\" : \"DIFFERS at \" + d) << \"\\n\";
  return same ? 0 : 1;
}
// A serving plan's header: the same rules broken, and the same estimate at the plan's batch.
template <class Plan>
int serving_differs(const char* path) {
  const shardplan::io::plan_file f = shardplan::io::load_plan_file(path);
  const shardplan::serving_plan_values read = f.serving_values();
  const auto a = shardplan::estimate_serving(Plan::values);
  const auto b = shardplan::estimate_serving(read);
  const bool same = Plan::violations.count == shardplan::check(read).count &&
                    a.time_per_output_token.value() == b.time_per_output_token.value() &&
                    a.output_tokens_per_second == b.output_tokens_per_second &&
                    shardplan::max_concurrency(Plan::values) == shardplan::max_concurrency(read);
  std::cout << path << \": \" << (same ? \"same values\" : \"DIFFERS\") << \"\\n\";
  return same ? 0 : 1;
}
int main() {
  int bad = 0;
${checks}  return bad;
}
")
execute_process(COMMAND ${COMPILER} -std=c++20 -I${INCLUDE_DIR} -I${header_dir} ${WORK_DIR}/header_values.cpp
                        -o ${WORK_DIR}/header_values
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the headers do not compile:\n${out}")
endif()
execute_process(COMMAND ${WORK_DIR}/header_values RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
message(STATUS "${out}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "a header's values differ from its plan file's")
endif()
