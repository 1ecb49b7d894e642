// libFuzzer target for the plan-file reader and everything the tool does after it: any input is
// either refused with one line (`bad_input`) or becomes a plan whose `check` text and JSON, four
// launch exports and (on at most 16 chips) search hold the invariants of invariants.hpp. Nothing
// else may happen: no crash, hang, other exception or undefined behaviour under the sanitizers.
#include <cstddef>
#include <cstdint>
#include <string>

#include "invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  shardplan::fuzz::check_plan_text(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
