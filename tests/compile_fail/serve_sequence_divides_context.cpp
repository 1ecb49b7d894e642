// EXPECT: shardplan: sequence sharding must divide the context@@sequence_shards_divide_context<[a-z_:]*{4}, [a-z_:]*{131073}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: sequence sharding splits each sequence's tokens evenly. A context of 131072 + 1 tokens
// does not split 4 ways; the twin's 131072 does.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t prompt = 131072;
#else
constexpr std::int64_t prompt = 131071;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<4>,
                          mesh<axis<"sp", 4>, axis<"tp", 8>>, context<"sp">, tensor<"tp">,
                          serve_batch<2>, prompt_tokens<prompt>, generated_tokens<1>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
