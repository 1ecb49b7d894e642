// EXPECT: shardplan: a mesh axis needs at least one device@@axis_has_devices<[a-z_:]*axis_name<'t', 'p'>, [a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a mesh axis has at least one device; an axis of 0 is a typo (an axis of 1 is allowed and
// does nothing). The check sits with the plan's rules and stops them (each would divide by the
// tensor degree 0): inside `axis<"tp", 0>` it used to give clang 20 errors. The twin's tensor
// axis has 8 devices.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tensor_devices = 0;
#else
constexpr std::int64_t tensor_devices = 8;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", tensor_devices>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
