// EXPECT: shardplan: decode at this batch is not compute-bound@@decode_is_compute_bound<[a-z_:]*{64}, [a-z_:]*{240}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule (asserted by the user): decode at this batch is compute-bound, at the critical batch or
// above. bf16 weights on a v5e need 197/0.819 = 240 tokens; 64 sequences of LLaMA-3 8B are short
// of it, the twin's 256 are past it.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t sequences = 64;
#else
constexpr std::int64_t sequences = 256;
#endif

using plan = serving_plan<models::llama3_8b, systems::tpu_v5e_slice<2, 4>, mesh<axis<"tp", 8>>,
                          tensor<"tp">, serve_batch<sequences>, prompt_tokens<1000>,
                          generated_tokens<24>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
SHARDPLAN_REQUIRE_COMPUTE_BOUND(plan);
