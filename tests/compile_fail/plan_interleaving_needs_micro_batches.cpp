// EXPECT: shardplan: the interleaved schedule needs micro-batches in multiples of the pipeline stages@@micro_batches_fill_interleaving<[a-z_:]*{8}, [a-z_:]*{20}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: Megatron-LM's interleaved 1F1B schedule runs micro-batches in groups of the pipeline
// size (Narayanan et al. 2021). 10,485,760 tokens are 1280 sequences of 8192, 20 per replica of
// the 64 data-parallel replicas: not a multiple of 8 stages. The twin's 16,777,216 tokens give 32.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tokens = 10'485'760;
#else
constexpr std::int64_t tokens = 16'777'216;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<tokens>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
