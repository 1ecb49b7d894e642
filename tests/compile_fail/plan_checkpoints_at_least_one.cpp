// EXPECT: shardplan: recompute::checkpoints keeps at least 1 tensor per layer@@checkpoints_keep_a_tensor<[a-z_:]*{-4}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `recompute::checkpoints<N>` keeps N d_model-wide tensors per layer (How to Scale Your
// Model's "N checkpoints per layer"), at least 1: the layer's input. -4 used to compile, "fit"
// and report -8.6 GB of activations. The twin keeps 4.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t kept_per_layer = -4;
#else
constexpr std::int64_t kept_per_layer = 4;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::checkpoints<kept_per_layer>, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
