// EXPECT: shardplan: every network level joins at least one unit@@levels_join_units<[a-z_:]*{1}>
// Rule: a plan checks its system's rules too (hardware/system_rules.hpp), so a system type a user
// writes by hand fails the plan's build naming the broken rule. Here the leaf level joins no
// node; the twin keeps the template's 64 nodes of one leaf and spine.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

constexpr system_figures made() {
  system_figures s = systems::dgx_h100_superpod<64>::figures;
  s.name = "my superpod";
#ifdef SHARDPLAN_COMPILE_FAIL
  s.levels[1].degree = 0;
#endif
  return s;
}
struct my_superpod {
  static constexpr system_figures figures = made();
};

using plan = training_plan<
    models::llama3_70b, my_superpod, mesh<axis<"dp", 8>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>, recompute::selective,
    precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
