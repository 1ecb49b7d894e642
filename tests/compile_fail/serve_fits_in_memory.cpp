// EXPECT: shardplan: the weights and the kv cache of the batch do not fit in device memory@@fits_in_device_memory<[a-z_:]*{[0-9]+}, [a-z_:]*{16}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: the weights, the whole batch's caches at prompt + generated tokens and the reserve fit in
// each device's memory. LLaMA-3 70B in bf16 needs 141 GB of weights: a 2x2 v5e (4 x 16 GB) cannot
// hold them (35 GB a chip); the twin's 4x4 holds 8.8 GB a chip beside one 8k cache.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using slice = systems::tpu_v5e_slice<2, 2>;
constexpr std::int64_t tp = 4;
#else
using slice = systems::tpu_v5e_slice<4, 4>;
constexpr std::int64_t tp = 16;
#endif

using plan = serving_plan<models::llama3_70b, slice, mesh<axis<"tp", tp>>, tensor<"tp">,
                          serve_batch<2>, prompt_tokens<8000>, generated_tokens<192>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
