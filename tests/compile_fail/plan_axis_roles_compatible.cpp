// EXPECT: shardplan: tensor, context and pipeline parallelism each need an axis of their own@@axis_roles_are_compatible<[a-z_:]*axis_name<'t', 'p'>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: tensor, context and pipeline parallelism each split the work along their axis, so two of
// them cannot share one (data, ZeRO and expert parallelism may share a data axis). The broken
// plan also puts context parallelism on axis 2 ("tp"); the twin leaves it out.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
#ifdef SHARDPLAN_COMPILE_FAIL
    context<"tp">,
#endif
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
