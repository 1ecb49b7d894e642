// EXPECT: shardplan: a tpu v5p slice is at most 16x20x28
// Rule: a TPU v5p slice fits in one 16x20x28 pod (8960 chips); larger jobs are several slices
// joined over DCN (the `Slices` argument). The twin is the largest slice, 16x20x28.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::tpu_v5p_slice<32, 20, 28>;
#else
using s = shardplan::systems::tpu_v5p_slice<16, 20, 28>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
