// EXPECT: shardplan: the sizes of the plan multiply beyond a 64-bit integer@@products_fit_in_64_bits<[a-z_:]*mesh_devices, [a-z_:]*{1\.844674[0-9]*e\+19}, [a-z_:]*{9\.223372[0-9]*e\+18}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: every product of the plan's sizes fits in a signed 64-bit integer. Four axes of 65536
// make 65536^4 = 2^64 = 1.8446744e19 devices, beyond 2^63 = 9.2233720e18 (the limit printed is
// 2^63, the first count that does not fit); the product used to overflow inside the plan and
// give 130-424 lines naming no rule. The twin is the reference plan with a context axis of 1.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t dp = 65536, cp = 65536, pp = 65536, tp = 65536;
#else
constexpr std::int64_t dp = 64, cp = 1, pp = 8, tp = 8;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", dp>, axis<"cp", cp>, axis<"pp", pp>, axis<"tp", tp>>,
    zero<1, "dp">, context<"cp">, pipeline<"pp", schedule::interleaved<5>>,
    tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
