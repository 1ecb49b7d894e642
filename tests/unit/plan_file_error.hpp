// What reading a plan file's text says is wrong with it: the one line of `io::bad_input`, or ""
// when it reads. Shared by the unit tests of the plan-file reader.
#pragma once

#include <string>

#include <shardplan/io/plan_file.hpp>

inline std::string error_of(const std::string& text) {
  try {
    (void)shardplan::io::read_plan_file(text);
  } catch (const shardplan::io::bad_input& e) {
    return e.what();
  }
  return "";
}
