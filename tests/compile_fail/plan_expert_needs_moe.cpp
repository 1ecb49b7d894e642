// EXPECT: shardplan: expert parallelism needs a mixture-of-experts model@@expert_parallel_needs_experts<[a-z_:]*{64}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: expert parallelism spreads the experts of MoE layers; a dense model has none. The broken
// plan adds `expert<"dp">` (degree 64, the data axis) to dense LLaMA-3 70B; the twin does not.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
#ifdef SHARDPLAN_COMPILE_FAIL
    expert<"dp">,
#endif
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
