// EXPECT: shardplan: tensor parallelism must divide the attention heads@@tensor_parallel_divides_heads<[a-z_:]*{256}, [a-z_:]*{128}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: Megatron tensor parallelism gives each rank whole attention heads. DeepSeek-V3 has 128
// heads; tensor parallelism 256 would need half heads. The twin has 128. (With MHA or GQA a
// degree that does not divide the heads cannot divide the kv heads either, since kv heads divide
// heads; DeepSeek-V3's MLA has no kv heads to split, so this plan breaks the heads rule alone.
// Its d_ff 18432 and expert d_ff 2048 are both multiples of 256.)
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tp = 256;
#else
constexpr std::int64_t tp = 128;
#endif

using plan = training_plan<
    models::deepseek_v3, systems::dgx_h100_superpod<256>,
    mesh<axis<"dp", 8>, axis<"tp", tp>>,
    zero<1, "dp">, tensor<"tp", sequence_parallel>,
    batch<global_sequences<1024>, seq_len<4096>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
