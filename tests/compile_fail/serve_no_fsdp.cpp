// EXPECT: shardplan: a serving plan takes no zero, fsdp or pipeline strategy@@strategies_serve<[a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: generation reads every weight every step, so it cannot gather them over the network: the
// book's "FSDP is impossible" for generation (inference.md). A training recipe's fsdp<"dp"> left
// in a serving plan fails; the twin serves whole replicas with data<"dp">.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using replicas = fsdp<"dp">;
#else
using replicas = data<"dp">;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                          mesh<axis<"dp", 2>, axis<"tp", 8>>, replicas, tensor<"tp">,
                          serve_batch<8>, prompt_tokens<4000>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
