// EXPECT: shardplan: every mesh axis must carry a parallelism@@axis_carries_a_parallelism<[a-z_:]*axis_name<'r', 'e', 'p', 'l', 'i', 'c', 'a'>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a mesh axis that no strategy uses leaves its devices doing the same work twice. The plan
// is hybrid sharded data parallelism: ZeRO-1 within 8-way "shard" groups, 8 plain replicas of
// those across "replica". The broken plan forgets `data<"replica">`, so axis 0 ("replica")
// carries nothing; the twin names it.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"replica", 8>, axis<"shard", 8>, axis<"pp", 8>, axis<"tp", 8>>,
#ifndef SHARDPLAN_COMPILE_FAIL
    data<"replica">,
#endif
    zero<1, "shard">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
