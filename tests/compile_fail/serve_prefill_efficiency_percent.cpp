// EXPECT: shardplan: efficiency is a percentage between 0 and 100@@prefill_efficiency_is_a_percentage<[a-z_:]*{0\.0
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `prefill_efficiency<percent{E}>` (a serving plan option) is the fraction of peak
// prefill sustains, in percent: more than 0 and at most 100. 0% would make prefill take forever
// (and a given 0 is not the default, which an absent option leaves). The check sits with the
// plan's rules, so the broken option gives this one error. The twin sustains 50%.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr double sustained = 0.0;
#else
constexpr double sustained = 50.0;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                          mesh<axis<"dp", 2>, axis<"tp", 8>>, data<"dp">, tensor<"tp">,
                          serve_batch<4>, prompt_tokens<4000>, generated_tokens<96>,
                          prefill_efficiency<percent{sustained}>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
