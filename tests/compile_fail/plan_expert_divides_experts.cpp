// EXPECT: shardplan: expert parallelism must divide the experts@@expert_parallel_divides_experts<[a-z_:]*{16}, [a-z_:]*{8}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: each expert-parallel rank holds the same whole number of experts. Mixtral 8x7B has 8
// experts per layer: expert parallelism 8 (the twin) gives one each, 16 would need half experts.
// The expert axis "ep" is also a data axis, as in DeepSpeed-MoE.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t ep = 16;
#else
constexpr std::int64_t ep = 8;
#endif

using plan = training_plan<
    models::mixtral_8x7b, systems::dgx_h100_superpod<32>,
    mesh<axis<"dp", 4>, axis<"ep", ep>, axis<"tp", 4>>,
    zero<1, "dp", "ep">, expert<"ep">, tensor<"tp", sequence_parallel>,
    batch<global_tokens<4'194'304>, seq_len<4096>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
