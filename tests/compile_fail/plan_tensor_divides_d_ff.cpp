// EXPECT: shardplan: tensor parallelism must divide the mlp width@@tensor_parallel_divides_mlp_width<[a-z_:]*{10}, [a-z_:]*{13824}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: Megatron tensor parallelism splits the MLP's hidden width into equal column blocks.
// LLaMA-2 13B has 40 heads (and 40 kv heads), so tensor parallelism 10 splits its attention, but
// its d_ff 13824 = 2^9 x 3^3 has no factor 5. The twin has tensor parallelism 8.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tp = 10;
#else
constexpr std::int64_t tp = 8;
#endif

using plan = training_plan<
    models::llama2_13b, systems::dgx_h100_superpod<64>,
    mesh<axis<"dp", 32>, axis<"tp", tp>>,
    zero<1, "dp">, tensor<"tp", sequence_parallel>,
    batch<global_tokens<4'194'304>, seq_len<4096>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
