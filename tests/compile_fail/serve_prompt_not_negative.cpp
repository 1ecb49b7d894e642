// EXPECT: shardplan: a prompt has no fewer than zero tokens@@prompt_not_negative<[a-z_:]*{-1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `prompt_tokens<N>` is the prompt prefilled per sequence: 0 (generation from nothing)
// or more, never negative. The check sits with the plan's rules, so the broken option gives
// this one error (inside the option clang used to add two more). The twin has an empty prompt.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tokens = -1;
#else
constexpr std::int64_t tokens = 0;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                          mesh<axis<"dp", 2>, axis<"tp", 8>>, data<"dp">, tensor<"tp">,
                          serve_batch<4>, prompt_tokens<tokens>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
