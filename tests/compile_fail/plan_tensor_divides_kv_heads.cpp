// EXPECT: shardplan: tensor parallelism must divide the kv heads@@tensor_parallel_divides_kv_heads<[a-z_:]*{16}, [a-z_:]*{8}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: Megatron tensor parallelism gives each rank whole kv heads (no replication of K and V).
// LLaMA-3 70B has 64 query heads but 8 kv heads (GQA): tensor parallelism 16 divides the 64
// heads and the 28672-wide MLP but not the 8 kv heads. The twin has tensor parallelism 8.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tp = 16;
#else
constexpr std::int64_t tp = 8;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 32>, axis<"pp", 8>, axis<"tp", tp>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
