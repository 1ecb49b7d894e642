// EXPECT: shardplan: uneven stages still need a layer in every chunk@@pipeline_chunks_within_layers<[a-z_:]*{128}, [a-z_:]*{80}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `uneven_stages` lets stages hold different numbers of layers, but every one of the
// p x v chunks still needs a layer: 16 stages x 8 virtual stages = 128 chunks for LLaMA-3 70B's
// 80 layers leave 48 empty. (Without uneven_stages the rule is stages_divide_layers.) The twin
// has 16 x 5 = 80 chunks of one layer each.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t chunks_per_stage = 8;
#else
constexpr std::int64_t chunks_per_stage = 5;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 32>, axis<"pp", 16>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<chunks_per_stage>, uneven_stages>,
    tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
