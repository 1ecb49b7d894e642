// EXPECT: shardplan: pipeline stages times virtual stages must divide the layers@@pipeline_chunks_divide_layers<[a-z_:]*{24}, [a-z_:]*{80}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: the interleaved schedule cuts the model into pipeline x virtual-stage chunks of whole,
// equal layer counts. LLaMA-3 70B has 80 layers: 8 stages x 5 virtual stages = 40 chunks of 2
// layers (the twin), but 8 x 3 = 24 chunks would need 3.33 layers each.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t virtual_stages = 3;
#else
constexpr std::int64_t virtual_stages = 5;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<virtual_stages>>,
    tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
