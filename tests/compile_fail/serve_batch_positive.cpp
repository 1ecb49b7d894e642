// EXPECT: shardplan: a serving batch has at least one sequence@@batch_has_a_sequence<[a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `serve_batch<N>` decodes N sequences together on the whole mesh: at least one. The
// check sits with the plan's rules, so the broken option gives this one error (inside the
// option clang used to add two more: the option failing `ServingOptionSpec` and the plan
// undeclared). The twin decodes 4.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t sequences = 0;
#else
constexpr std::int64_t sequences = 4;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                          mesh<axis<"dp", 2>, axis<"tp", 8>>, data<"dp">, tensor<"tp">,
                          serve_batch<sequences>, prompt_tokens<4000>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
