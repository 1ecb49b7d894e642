// EXPECT: shardplan: tensor parallelism must divide the attention heads@@tensor_parallel_divides_heads<[a-z_:]*{128}, [a-z_:]*{64}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: Megatron tensor parallelism gives each rank whole query heads. LLaMA-3 70B has 64 heads;
// 128-way tensor parallelism over 16 DGX H100 nodes is a multiple of its 8 kv heads and divides
// its 28672-wide MLP, but not the heads. The twin uses 64 ways.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tp = 128;
#else
constexpr std::int64_t tp = 64;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<16>,
                          mesh<axis<"tp", tp>>, tensor<"tp">, serve_batch<128>,
                          prompt_tokens<4000>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
