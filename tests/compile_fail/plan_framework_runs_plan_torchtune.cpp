// EXPECT: shardplan: the framework of the plan cannot run it@@framework_supports_plan<[a-z_:]*{3}, [a-z_:]*{4}, [a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: torchtune refuses optimizer_in_bwd with gradient accumulation ("Requires
// gradient_accumulation_steps=1", recipes/full_finetune_single_device.py at 1814feb17a): 8
// sequences a step in micro-batches of 2 are 4 micro-batches (limit 3, 4 micro-batches, 1
// stage); the twin's micro-batch of 8 is one.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t per_micro_batch = 2;
#else
constexpr std::int64_t per_micro_batch = 8;
#endif

using plan = training_plan<
    models::llama3_8b, systems::dgx_h100_superpod<1>, mesh<axis<"dp", 8>>, fsdp<"dp">,
    batch<global_sequences<64>, seq_len<2048>, micro_batch<per_micro_batch>>, recompute::full,
    precision::bf16_mixed_adam, framework::torchtune, optimizer_in_backward>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
