// EXPECT: shardplan: a serving plan generates at least one token@@generates_a_token<[a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `generated_tokens<N>` is the tokens decoded per sequence; a serving plan decodes at
// least one (a plan of prefill alone has no decode step to cost). The check sits with the
// plan's rules, so the broken option gives this one error (inside the option clang used to add
// two more). The twin generates 1.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tokens = 0;
#else
constexpr std::int64_t tokens = 1;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                          mesh<axis<"dp", 2>, axis<"tp", 8>>, data<"dp">, tensor<"tp">,
                          serve_batch<4>, prompt_tokens<4000>, generated_tokens<tokens>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
