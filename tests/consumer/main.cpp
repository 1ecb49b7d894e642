// A consumer of the installed (find_package) or vendored (add_subdirectory) shardplan package:
// the header-only core through shardplan::shardplan, and a plan file read and checked through
// the optional shardplan::io target. Usage: consumer PLAN.json (a feasible training plan).
#include <iostream>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/shardplan.hpp>

using namespace shardplan;

// The book's v5e threshold, 1.97e14 / 8.2e11 = 240 FLOP/byte, from the catalogue's types.
static_assert(memory_intensity(hardware::tpu_v5e::figures).value() > 235.0);
// Meta's released LLaMA-3 8B checkpoint has 8,030,261,248 parameters.
static_assert(parameters(models::llama3_8b::shape).total == 8'030'261'248);

int main(int argc, char** argv) {
  std::cout << "H100 SXM bf16: " << format(hardware::h100_sxm::figures.peak_bf16) << "\n";
  if (format(hardware::h100_sxm::figures.memory) != "80 GB") return 1;
  if (argc != 2) {
    std::cerr << "usage: consumer PLAN.json\n";
    return 2;
  }
  try {
    const io::plan_file file = io::load_plan_file(argv[1]);
    const training_plan_values plan = file.values();
    const plan_violations v = check(plan);
    std::cout << argv[1] << ": " << plan.model.name << " on " << plan.system.chips << " x "
              << plan.system.chip.name << ": " << (v.empty() ? "feasible" : "infeasible") << "\n";
    // The example plan is LLaMA-3 70B (Meta's 70,553,706,496 parameters) on 4096 H100.
    if (parameters(plan.model).total != 70'553'706'496 || plan.system.chips != 4096) return 1;
    return v.empty() ? 0 : 1;
  } catch (const io::bad_input& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 2;
  }
}
