// EXPECT: shardplan: expert parallelism must divide data parallelism@@expert_parallel_divides_data_parallel<[a-z_:]*{8}, [a-z_:]*{4}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: expert groups are carved out of the data-parallel replicas (Megatron-LM, DeepSpeed-MoE),
// so the expert degree divides the data degree. Mixtral 8x7B on 32 GPUs: ZeRO-1 over "dp" (4)
// alone leaves the expert axis "ep" (8) outside the data axes: 8 does not divide 4. The twin
// shards over both axes (data parallelism 32).
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using sharding = zero<1, "dp">;
#else
using sharding = zero<1, "dp", "ep">;
#endif

using plan = training_plan<
    models::mixtral_8x7b, systems::dgx_h100_superpod<4>,
    mesh<axis<"dp", 4>, axis<"ep", 8>>, sharding, expert<"ep">,
    batch<global_sequences<64>, seq_len<4096>, micro_batch<1>>, recompute::full>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
