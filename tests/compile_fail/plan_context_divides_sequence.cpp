// EXPECT: shardplan: context parallelism must divide the sequence@@context_divides_sequence<[a-z_:]*{6}, [a-z_:]*{32768}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: load-balanced ring attention cuts each sequence into 2 x cp equal chunks (rank i takes
// chunks i and 2cp-1-i). Context parallelism 3 needs 6 chunks, and 6 does not divide 32768 = 2^15;
// the twin's context parallelism 4 cuts 8 chunks of 4096 tokens.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t cp = 3;
#else
constexpr std::int64_t cp = 4;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 16>, axis<"cp", cp>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, context<"cp">, pipeline<"pp", schedule::interleaved<5>>,
    tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<32768>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
