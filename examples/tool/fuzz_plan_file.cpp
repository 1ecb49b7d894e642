// libFuzzer target for the plan-file reader: any input either becomes a plan that is checked and
// costed, or is rejected with `bad_input`; nothing else may happen (no crash, no hang, no other
// exception, no undefined behaviour under the sanitizers).
#include <cstddef>
#include <cstdint>
#include <string>

#include <shardplan/cost.hpp>

#include "plan_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const shardplan::tool::plan_file file = shardplan::tool::read_plan_file(text);
    const shardplan::training_plan_values p = file.values();
    const shardplan::plan_violations v = shardplan::check(p);
    for (std::size_t i = 0; i < v.count; ++i) (void)shardplan::describe(v.items[i]);
    if (!v.has(shardplan::plan_rule::batch_given) &&
        !v.has(shardplan::plan_rule::tokens_divide_into_sequences) &&
        !v.has(shardplan::plan_rule::batch_divides) &&
        !v.has(shardplan::plan_rule::context_divides_sequence))
      (void)shardplan::estimate_step(p);
  } catch (const shardplan::tool::bad_input&) {
  }
  return 0;
}
