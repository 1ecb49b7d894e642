// EXPECT: shardplan: on a tpu torus every mesh axis must tile the torus axes it lands on@@axis_tiles_its_torus_axes<[a-z_:]*axis_name<'d', 'p'>, [a-z_:]*{63}, [a-z_:]*{64}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: JAX lays each mesh axis of a TPU slice onto whole rings of its torus axes. On a v5p
// 4x4x4 (64 chips, rings of 4), data 21 x tensor 3 uses 63 chips: tensor 3's groups ({3, 4, 5}
// crosses from the first x ring into the next) and data 21's (63 chips of the 64-chip cube) tile
// nothing. The twin, data 16 x tensor 4, is one x ring per tensor group and the whole cube for
// data. Megatron GPT 1.7B (24 heads, d_ff 9216) is divisible by 3 and 4, so only this rule breaks.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t dp = 21;
constexpr std::int64_t tp = 3;
#else
constexpr std::int64_t dp = 16;
constexpr std::int64_t tp = 4;
#endif

using plan = training_plan<
    models::megatron_gpt_1_7b, systems::tpu_v5p_slice<4, 4, 4>,
    mesh<axis<"dp", dp>, axis<"tp", tp>>, data<"dp">, tensor<"tp">,
    batch<global_sequences<336>, seq_len<2048>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
