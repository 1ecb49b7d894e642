// EXPECT: shardplan: every mesh axis must carry a parallelism@@axis_carries_a_parallelism<[a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: every mesh axis carries a strategy. Two DGX H100 nodes as 2 x 8 with tensor parallelism on
// "tp" leave axis 0, "dp", idle. The twin makes it two data-parallel replicas.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

using common = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                            mesh<axis<"dp", 2>, axis<"tp", 8>>, tensor<"tp">, serve_batch<8>,
                            prompt_tokens<4000>, generated_tokens<96>
#ifndef SHARDPLAN_COMPILE_FAIL
                            , data<"dp">
#endif
                            >;
SHARDPLAN_REQUIRE_SERVABLE(common);
