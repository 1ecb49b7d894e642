// EXPECT: shardplan: a tpu7x slice is at most 9216 chips
// Rule: a TPU7x pod has 9216 chips, so a slice is at most 9216 chips; larger jobs are several
// slices joined over DCN (the Slices argument). 16x24x28 (10752) is whole cubes but too many;
// the twin is 16x24x24, 9216 chips.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::tpu7x_slice<16, 24, 28>;
#else
using s = shardplan::systems::tpu7x_slice<16, 24, 24>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
