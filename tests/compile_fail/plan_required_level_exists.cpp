// EXPECT: shardplan: an axis is placed on a level the system does not have@@axis_level_exists<[a-z_:]*axis_name<'t', 'p'>, [a-z_:]*level_name<'i', 'c', 'i', '-', 'x'>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: an axis placed `on<"level">` names a level of the system; "ici-x" is a TPU torus axis, a
// DGX system has node, leaf, spine and core. The twin places tp on the node.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using tp_axis = axis<"tp", 8, on<"ici-x">>;
#else
using tp_axis = axis<"tp", 8, on<"node">>;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, tp_axis>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
