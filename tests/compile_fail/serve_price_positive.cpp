// EXPECT: shardplan: a price per chip-hour is positive@@price_is_positive<[a-z_:]*{0\.0
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `price<dollars_per_hour{P}>` is what a chip-hour costs, and every dollar figure of the
// plan scales with it: a free or negative price is a mistake (a given 0 is not the example
// price, which an absent option leaves). The check sits with the plan's rules, so the broken
// option gives this one error (inside the option clang used to add two more). The twin pays $2.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr double dollars = 0.0;
#else
constexpr double dollars = 2.0;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                          mesh<axis<"dp", 2>, axis<"tp", 8>>, data<"dp">, tensor<"tp">,
                          serve_batch<4>, prompt_tokens<4000>, generated_tokens<96>,
                          price<dollars_per_hour{dollars}>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
