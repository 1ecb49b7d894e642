// EXPECT: shardplan: the layers the embedding or the output count as must not exceed@@end_weights_are_within_share<[^{]*{3},[^{]*{2}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a framework that counts the embedding (or the output) as layers when it splits them over
// the pipeline (`pipeline_embedding_weight`, torchtitan's pipeline_parallel_first_stage_less_layers)
// shortens the first chunk by that many; more than a chunk's share leaves it fewer than none,
// which torchtitan refuses (_generate_llm_fqn_per_model_part at b5bcd76). LLaMA-3 70B's 80 layers
// and an embedding counted as 3 make 83 over 8 x 5 = 40 chunks, a share of 2. The twin counts it
// as 2.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t embedding_weight = 3;
#else
constexpr std::int64_t embedding_weight = 2;
#endif

constexpr framework_profile heavy_embedding = [] {
  framework_profile p = profiles::torchtitan;
  p.pipeline_embedding_weight = embedding_weight;
  p.pipeline_loss_weight = 0;
  return p;
}();

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    fsdp<"dp">, pipeline<"pp", schedule::interleaved<5>>,
    tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam, framework::described<heavy_embedding>>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
