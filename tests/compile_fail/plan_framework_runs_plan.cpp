// EXPECT: shardplan: the framework of the plan cannot run it@@framework_supports_plan<[a-z_:]*{1}, [a-z_:]*{2}, [a-z_:]*{8}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: DeepSpeed's pipeline engine asserts "ZeRO-2 and ZeRO-3 are incompatible with pipeline
// parallelism" (deepspeed/runtime/pipe/engine.py at 38327e07f6cd39b63418f60cedd1651b0be3e7c3):
// ZeRO-2 on 8 stages is refused (limit 1, stage 2, 8 stages); the twin's ZeRO-1 runs.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr int stage = 2;
#else
constexpr int stage = 1;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<stage, "dp">, pipeline<"pp", schedule::one_f_one_b>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam, framework::deepspeed>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
