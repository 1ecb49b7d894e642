// EXPECT: shardplan: the batch must split into whole sequences over replicas, data-parallel attention and kv batch shards@@batch_splits_into_whole_sequences<[a-z_:]*{2}, [a-z_:]*{3}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: replicas (and data-parallel attention, and tensor ranks beyond the kv heads) each hold
// whole sequences. 3 sequences do not split over 2 replicas of LLaMA-3 70B; the twin decodes 4.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t sequences = 3;
#else
constexpr std::int64_t sequences = 4;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                          mesh<axis<"dp", 2>, axis<"tp", 8>>, data<"dp">, tensor<"tp">,
                          serve_batch<sequences>, prompt_tokens<4000>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
