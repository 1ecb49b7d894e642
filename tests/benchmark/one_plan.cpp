// Compile-time subject: one full training plan, converted to values, checked, asserted feasible.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;
using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                           mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>, zero<1, "dp">,
                           pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
                           batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
                           recompute::selective, precision::bf16_mixed_adam>;
static_assert(plan::fits);
static_assert(plan::memory_per_device().total < 80.0 * giga * byte);
SHARDPLAN_REQUIRE_FEASIBLE(plan);

int main() {}
