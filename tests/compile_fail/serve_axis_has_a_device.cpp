// EXPECT: shardplan: a mesh axis needs at least one device@@axis_has_devices<[a-z_:]*axis_name<'t', 'p'>, [a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a mesh axis has at least one device; an axis of 0 is a typo. The serving plan checks
// it before its other rules (each would divide by the tensor degree 0), so the broken axis gives
// this one error. The twin's tensor axis has 8 devices.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tensor_devices = 0;
#else
constexpr std::int64_t tensor_devices = 8;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<2>,
                          mesh<axis<"dp", 2>, axis<"tp", tensor_devices>>, data<"dp">, tensor<"tp">,
                          serve_batch<4>, prompt_tokens<4000>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
