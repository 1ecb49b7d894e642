// EXPECT: shardplan: tensor parallelism must divide the mlp width@@tensor_parallel_divides_mlp_width<[a-z_:]*{40}, [a-z_:]*{13824}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: Megatron tensor parallelism splits the MLP's hidden width evenly. LLaMA-2 13B's 40 heads
// (all kv heads) split 40 ways, but its 13824-wide MLP (2^9 x 27) does not. The twin uses 8 ways.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tp = 40;
#else
constexpr std::int64_t tp = 8;
#endif

using plan = serving_plan<models::llama2_13b, systems::dgx_h100_superpod<5>,
                          mesh<axis<"tp", tp>>, tensor<"tp">, serve_batch<8>,
                          prompt_tokens<4000>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
