// EXPECT: shardplan: a tpu7x slice larger than one 4x4x4 cube is made of whole cubes
// Rule: v4, v5p and TPU7x slices are built from 4x4x4 cubes: a slice fits in one cube or is
// whole cubes (wraparound needs whole cubes). 4x4x6 is neither; the twin is 4x4x8, two cubes.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::tpu7x_slice<4, 4, 6>;
#else
using s = shardplan::systems::tpu7x_slice<4, 4, 8>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
