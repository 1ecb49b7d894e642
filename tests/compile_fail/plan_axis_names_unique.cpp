// EXPECT: shardplan: mesh axis names must be unique@@axis_names_are_unique<[a-z_:]*axis_name<'d', 'p'>
// DIAGNOSTIC: 2 errors, lines under 400 characters
// Rule: a mesh names each axis once; strategies find axes by name, so a repeated name would give
// one strategy two axes. (The mesh then has no "pp", so the pipeline strategy breaks
// strategy_axes_in_mesh too: two errors, each naming its axis.) The twin names the second axis
// "pp".
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
#ifdef SHARDPLAN_COMPILE_FAIL
    mesh<axis<"dp", 64>, axis<"dp", 8>, axis<"tp", 8>>,
#else
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
#endif
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
