// EXPECT: shardplan: the global batch must be whole sequences@@batch_is_whole_sequences<[a-z_:]*{16000000}, [a-z_:]*{8192}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a step's tokens come in whole sequences. 16,000,000 tokens are 1953.125 sequences of
// 8192; the twin's 16,777,216 = 2048 x 8192.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tokens = 16'000'000;
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
