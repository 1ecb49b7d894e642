// EXPECT: shardplan: expert parallelism must divide the experts of a mixture-of-experts model@@expert_parallel_divides_experts<[a-z_:]*{24}, [a-z_:]*{256}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: expert parallelism gives each rank the same number of whole routed experts. DeepSeek-V3's
// 256 routed experts do not split 24 ways (3 DGX H100 nodes); the twin uses 16 ways.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t ep = 24;
#else
constexpr std::int64_t ep = 16;
#endif

using plan = serving_plan<models::deepseek_v3, systems::dgx_h100_superpod<3>,
                          mesh<axis<"ep", ep>>, expert<"ep">, attention_data<"ep">,
                          weights<number_format::fp8>, compute_in<number_format::fp8>,
                          serve_batch<96>, prompt_tokens<2000>, generated_tokens<48>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
