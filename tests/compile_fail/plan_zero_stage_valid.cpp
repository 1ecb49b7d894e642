// EXPECT: shardplan: the zero stage must be 0, 1, 2 or 3@@zero_stage_exists<[a-z_:]*{4}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: ZeRO has stages 1 (optimizer states), 2 (and gradients) and 3 (and parameters)
// (Rajbhandari et al. 2020); 0 is plain data parallelism. There is no stage 4; the twin uses 1.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr int stage = 4;
#else
constexpr int stage = 1;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<stage, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
