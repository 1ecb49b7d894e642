// EXPECT: shardplan: an axis claims more chips than the level it is placed on holds@@axis_fits_its_level<[a-z_:]*axis_name<'t', 'p'>, [a-z_:]*{16}, [a-z_:]*{8}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: an axis placed `on<"node">` must fit in one node. A DGX H100 node (level "node" of
// systems::dgx_h100_superpod) holds 8 GPUs; tensor parallelism 16 on the innermost axis (axis 2)
// spans 16 chips. The twin has tensor parallelism 8. GPT-3 175B (96 heads, d_ff 49152) is
// divisible by both, so only the level rule breaks.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tp = 16;
#else
constexpr std::int64_t tp = 8;
#endif

using plan = training_plan<
    models::gpt3_175b, systems::dgx_h100_superpod<128>,
    mesh<axis<"dp", 8>, axis<"pp", 8>, axis<"tp", tp, on<"node">>>,
    zero<1, "dp">, pipeline<"pp">, tensor<"tp", sequence_parallel>,
    batch<global_sequences<1536>, seq_len<2048>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
