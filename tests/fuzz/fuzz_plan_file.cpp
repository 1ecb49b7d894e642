// libFuzzer target for the plan-file reader: any input either becomes a plan that is checked and
// costed, or is rejected with `bad_input`; nothing else may happen (no crash, no hang, no other
// exception, no undefined behaviour under the sanitizers).
#include <cstddef>
#include <cstdint>
#include <string>

#include <shardplan/training/cost.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/run/reliability.hpp>

#include <shardplan/io/plan_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const shardplan::io::plan_file file = shardplan::io::read_plan_file(text);
    if (file.inference) {
      const shardplan::serving_plan_values s = file.serving_values();
      const shardplan::serving_violations sv = shardplan::check(s);
      for (std::size_t i = 0; i < sv.count; ++i) (void)shardplan::describe(sv.items[i]);
      (void)shardplan::max_batch(s);
      (void)shardplan::smallest_slice(s);
      if (shardplan::costable(sv)) (void)shardplan::estimate_cost(s);
      return 0;
    }
    const shardplan::training_plan_values p = file.values();
    const shardplan::plan_violations v = shardplan::check(p);
    for (std::size_t i = 0; i < v.count; ++i) (void)shardplan::describe(v.items[i]);
    if (shardplan::costable(v)) (void)shardplan::run_estimate(p, file.run);
  } catch (const shardplan::io::bad_input&) {
  }
  return 0;
}
