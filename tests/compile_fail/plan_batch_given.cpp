// EXPECT: shardplan: the batch needs positive global tokens, sequence length and micro-batch@@batch_is_given<[a-z_:]*{16777216}, [a-z_:]*{8192}, [a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a plan has a batch: positive global tokens, sequence length and micro-batch. The twin
// uses micro-batches of one sequence.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t sequences_per_micro_batch = 0;
#else
constexpr std::int64_t sequences_per_micro_batch = 1;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<sequences_per_micro_batch>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
