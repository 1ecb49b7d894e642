// EXPECT: shardplan: the memory margin is a percentage from 0 up to 100
// Rule: `memory_margin<percent{M}>` is the headroom the memory verdict asks for, a share of the
// need: from 0% up to (not including) 100%; a margin of 100% or more no plan could meet, and a
// negative one means nothing. The twin asks for 10%.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr double margin = 100.0;
#else
constexpr double margin = 10.0;
#endif

using plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<1>, mesh<axis<"tp", 8>>,
                           tensor<"tp", sequence_parallel>,
                           batch<global_sequences<16>, seq_len<8192>>, recompute::selective,
                           precision::bf16_mixed_adam, memory_margin<percent{margin}>>;
static_assert(plan::memory_verdict() != memory_verdict::does_not_fit);
SHARDPLAN_REQUIRE_FEASIBLE(plan);
