// EXPECT: shardplan: a strategy names an axis the mesh does not have@@strategies_name_mesh_axes<[a-z_:]*{1}, [a-z_:]*axis_name<'m', 'p'>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: every axis a strategy names is an axis of the mesh; a typo ("mp" for "tp") must not
// silently drop the strategy. The twin names "tp".
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>,
#ifdef SHARDPLAN_COMPILE_FAIL
    tensor<"mp", sequence_parallel>,
#else
    tensor<"tp", sequence_parallel>,
#endif
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
