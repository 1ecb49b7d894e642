// EXPECT: shardplan: the framework of the plan cannot run it@@framework_supports_plan<[a-z_:]*{5}, [a-z_:]*{8}, [a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: torchtitan refuses async TP unless the model is compiled ("Async TP requires 'model' in
// --compile.components and --compile.enable", CompileConfig.__post_init__,
// torchtitan/config/configs.py at b5bcd76c66): eager TP 8 with async TP is refused (limit 5,
// tensor degree 8); the twin compiles its layers.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

template <class... Compile>
using titan_plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<8>, mesh<axis<"dp", 8>, axis<"tp", 8>>,
    fsdp<"dp">, tensor<"tp", sequence_parallel>,
    batch<global_sequences<64>, seq_len<4096>, micro_batch<1>>, recompute::full,
    precision::bf16_mixed_adam, framework::torchtitan, tp_comm_overlap, Compile...>;

#ifdef SHARDPLAN_COMPILE_FAIL
using plan = titan_plan<>;
#else
using plan = titan_plan<compiled_layers>;
#endif
SHARDPLAN_REQUIRE_FEASIBLE(plan);
