// EXPECT: shardplan: the first and last stages must leave every chunk between them@@stage_ends_leave_a_share<false,[^{]*{10},[^{]*{80},[^{]*{6}>
// DIAGNOSTIC: 1 error, lines under 500 characters
// Rule: with the first and the last stage's layers given (Megatron-Core's
// --decoder-first-pipeline-num-layers and --decoder-last-pipeline-num-layers), the stages
// between them split the rest evenly (TransformerConfig.__post_init__ at d98e8a64): LLaMA-3
// 70B's 80 layers on 8 stages with 5 and 5 at the ends leave 70 for 6 stages, not a whole
// number each. The twin gives the ends 4 and 4: 72 over 6 stages, 12 each.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t end_layers = 5;
#else
constexpr std::int64_t end_layers = 4;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::one_f_one_b, stage_ends<end_layers, end_layers>>,
    tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
