// EXPECT: shardplan: the framework of the plan cannot run it@@framework_supports_plan<[a-z_:]*{4}, [a-z_:]*{8}, [a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: Megatron-LM asserts "Tensor parallel communication/GEMM overlap can happen only when
// sequence parallelism is enabled" (validate_args, megatron/training/arguments.py): TP 8 with
// --tp-comm-overlap and no sequence parallelism is refused (limit 4, tensor degree 8); the
// twin's sequence-parallel TP runs.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using tp = tensor<"tp">;
#else
using tp = tensor<"tp", sequence_parallel>;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<8>, mesh<axis<"dp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, tp, batch<global_sequences<64>, seq_len<4096>, micro_batch<1>>,
    recompute::full, precision::bf16_mixed_adam, framework::megatron_core, tp_comm_overlap>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
