// EXPECT: shardplan: efficiency is a percentage between 0 and 100@@efficiency_is_a_percentage<[a-z_:]*{0\.0
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `efficiency<percent{E}>` is the fraction of peak the chip sustains on matmuls, more than
// 0% and at most 100%; a given 0% is a mistake, not the chip's default (leave the option out for
// that). The check sits with the plan's rules, so the broken option gives this one error (inside
// the option clang used to add two more). The twin sustains 50%.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr double sustained = 0.0;
#else
constexpr double sustained = 50.0;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam, efficiency<percent{sustained}>>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
