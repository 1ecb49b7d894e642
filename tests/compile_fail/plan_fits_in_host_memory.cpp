// EXPECT: shardplan: the plan offloads more to host memory than the host has per device@@fits_in_host_memory_of_device<[a-z_:]*{1015}, [a-z_:]*{256}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: what a plan offloads fits in the host's memory per device, 2 TB per 8 GPUs in a DGX H100
// (256 GB). DeepSpeed's ZeRO-Infinity on the CPU (ZeRO-3 with offload_optimizer and
// offload_param) keeps per parameter of a device's shard its fp32 master weight (4 bytes), Adam's
// two fp32 moments (8), the fp32 gradient (4), the bf16 gradient partition (2) and the bf16
// parameter (2): 20 bytes. LLaMA 3 405B's 405.853e9 parameters over 8 GPUs are 50.73e9 a GPU,
// 1014.63 GB (printed rounded up as 1015); over the twin's 64 GPUs 126.83 GB.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
inline constexpr int gpus = 8;
#else
inline constexpr int gpus = 64;
#endif

using plan = training_plan<
    models::llama3_405b, systems::dgx_h100_superpod<gpus / 8>, mesh<axis<"dp", gpus>>,
    zero<3, "dp">, batch<global_tokens<gpus * 4096>, seq_len<4096>, micro_batch<1>>,
    recompute::full, offload<offloads::zero3_offload_parameters>, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
