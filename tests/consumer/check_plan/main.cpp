// The checked plan's values at compile time and at run time.
#include <checked_plan.hpp>
#include <iostream>

static_assert(checked_plan::violations.empty());
constexpr shardplan::step_cost step = shardplan::estimate_step(checked_plan::values);

int main() {
  std::cout << checked_plan::values.model.name << " on " << checked_plan::values.system.chips
            << " x " << checked_plan::values.system.chip.name << ": step " << step.step.value()
            << " s, MFU " << step.mfu << "\n";
}
