// The checked plan's values at compile time and at run time, and an imported launch script.
#include <checked_plan.hpp>
#include <checked_serving.hpp>
#include <iostream>
#include <shardplan/io/import.hpp>
#include <shardplan/io/plan_file.hpp>

static_assert(checked_plan::violations.empty());
constexpr shardplan::step_cost step = shardplan::estimate_step(checked_plan::values);

int main() {
  std::cout << checked_plan::values.model.name << " on " << checked_plan::values.system.chips
            << " x " << checked_plan::values.system.chip.name << ": step " << step.step.value()
            << " s, MFU " << step.mfu << "\n";
  std::cout << "serving: " << checked_serving::values.model.name << " on "
            << checked_serving::values.system.chip.name << ", "
            << (checked_serving::violations.empty() ? "servable" : "not servable") << "\n";
  shardplan::io::import_request r;
  r.from = shardplan::io::import_format::megatron;
  r.path = SAMPLE;
  r.system = {{"preset", "dgx_h100_superpod"}, {"nodes", 1}};
  const shardplan::io::plan_file f =
      shardplan::io::read_plan_file(shardplan::io::import_config(r).plan.dump());
  const shardplan::training_plan_values p = f.values();
  std::cout << "imported: " << p.model.layers << " layers on " << p.system.chips << " x "
            << p.system.chip.name << ", tensor " << p.setup.degrees.tensor << "\n";
}
