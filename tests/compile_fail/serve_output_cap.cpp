// EXPECT: shardplan: the longest output of an exponential spread exceeds twice its mean@@output_cap_above_twice_the_mean<[a-z_:]*{300}, [a-z_:]*{179}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `exponential_outputs<Longest>` conditions an exponential spread of output lengths on at
// most `Longest` tokens and keeps its mean at `generated_tokens`; conditioned on [0, L], an
// exponential's mean is below L/2 whatever its scale, so a cap of at most twice the mean has no
// such spread. The twin caps ShareGPT's mean of 179 at 1846 (vLLM's benchmark drops samples over
// 2048 tokens with prompts of 202).
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::size_t longest = 300;
#else
constexpr std::size_t longest = 1846;
#endif

using plan = serving_plan<models::llama3_8b, systems::dgx_h100_superpod<1>,
                          mesh<axis<"dp", 8>>, data<"dp">, serve_batch<256>, prompt_tokens<202>,
                          generated_tokens<179>, benchmark_requests<500>,
                          exponential_outputs<longest>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
