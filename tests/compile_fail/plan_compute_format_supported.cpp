// EXPECT: shardplan: the chip has no matrix units for the compute format of the plan@@chip_computes_in_format<[^>]*, [a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: the plan's compute format needs matrix units on the chip. A TPU v5e has bf16 and int8
// MXU rates and no fp8 one (Google Cloud: 197 TFLOP/s bf16, 394 TOP/s int8), so DeepSeek-V3's
// fp8 recipe has no rate to run at; the twin trains in bf16. Found by the long fuzz run, which
// produced a NaN step time from such a plan.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using recipe = precision::fp8_deepseek_v3;
#else
using recipe = precision::bf16_mixed_adam;
#endif

using plan = training_plan<models::llama3_8b, systems::tpu_v5e_slice<16, 16>,
                           mesh<axis<"fsdp", 256>>, zero<3, "fsdp">,
                           batch<global_sequences<256>, seq_len<2048>, micro_batch<1>>,
                           recompute::full, recipe>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
