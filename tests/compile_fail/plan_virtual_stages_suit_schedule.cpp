// EXPECT: shardplan: the interleaved schedule needs at least 2 virtual stages, any other schedule 1@@schedule_has_its_virtual_stages<[a-z_:]*interleaved, [a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: interleaved 1F1B (Narayanan et al. 2021) gives each pipeline stage V >= 2 chunks of
// layers; with one chunk it is plain 1F1B (`schedule::one_f_one_b`). The check sits with the
// plan's rules: inside `schedule::interleaved<1>` it used to give clang 20 errors. The twin
// interleaves 2 (8 stages x 2 = 16 chunks divide LLaMA-3 70B's 80 layers).
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t chunks_per_stage = 1;
#else
constexpr std::int64_t chunks_per_stage = 2;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<chunks_per_stage>>,
    tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
