// EXPECT: shardplan: data parallelism times the micro-batch must divide the global batch@@replicas_divide_batch<[a-z_:]*{64}, [a-z_:]*{2000}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: every data-parallel replica runs the same whole number of micro-batches. 64 replicas of
// micro-batch 1 split 2048 sequences (the twin) into 32 each, but 2000 sequences into 31.25.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t sequences = 2000;
#else
constexpr std::int64_t sequences = 2048;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_sequences<sequences>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
