// EXPECT: shardplan: the plan needs more memory per device than the chip has@@fits_in_device_memory<[a-z_:]*{142}, [a-z_:]*{80}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: everything a device holds fits in its memory, 80 GB on an H100 SXM. Without
// recomputation eager attention keeps its softmax output, 2·a·s²·b/t = 2 x 64 x 8192² / 8 bytes
// = 1.0737 GB per layer, for the 10 x 8 x (1 + 7/40) = 94 layer-micro-batches the first
// interleaved stage holds (Korthikanti et al. 2022, Sec. 4.2.3): 100.93 GB, 105.98 GB with the
// 5% reserve, on top of the twin's 35.05 GB (which recomputes attention's softmax: selective
// recomputation): 141.03 GB, printed rounded up as 142.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using recomputation = recompute::none;
#else
using recomputation = recompute::selective;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recomputation, eager_attention, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
