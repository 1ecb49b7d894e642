// EXPECT: shardplan: decode at this batch is not memory-bound@@decode_is_memory_bound<[a-z_:]*{256}, [a-z_:]*{120}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule (asserted by the user): decode at this batch stays memory-bound, below the critical batch.
// With int8 weights and bf16 FLOPs a v5e turns compute-bound at (1/2) x 197/0.819 = 120 tokens;
// 256 sequences of LLaMA-3 8B are past it, the twin's 64 are not.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t sequences = 256;
#else
constexpr std::int64_t sequences = 64;
#endif

using plan = serving_plan<models::llama3_8b, systems::tpu_v5e_slice<2, 4>, mesh<axis<"tp", 8>>,
                          tensor<"tp">, weights<number_format::int8>,
                          kv_cache<number_format::int8>, serve_batch<sequences>,
                          prompt_tokens<1000>, generated_tokens<24>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
SHARDPLAN_REQUIRE_MEMORY_BOUND(plan);
