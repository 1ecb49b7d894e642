// EXPECT: shardplan: a tpu v4p slice is at most 16x16x16 chips
// Rule: a TPU v4 slice fits in one 16x16x16 pod (4096 chips); larger jobs are several slices
// joined over DCN (the Slices argument). 16x16x20 is whole cubes but too long; the twin is the
// largest slice, 16x16x16.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::tpu_v4p_slice<16, 16, 20>;
#else
using s = shardplan::systems::tpu_v4p_slice<16, 16, 16>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
