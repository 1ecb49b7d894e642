// EXPECT: shardplan: a tpu system has at least one slice
// Rule: a system of tpu_v5e_slices has at least one slice (the Slices argument joins slices over
// DCN); 0 slices are empty. The twin is one 16x16 slice.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::tpu_v5e_slice<16, 16, 0>;
#else
using s = shardplan::systems::tpu_v5e_slice<16, 16, 1>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n >= 0);  // 0 in the broken variant: only the rule fails
