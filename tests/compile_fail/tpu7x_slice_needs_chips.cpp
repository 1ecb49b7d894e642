// EXPECT: shardplan: a tpu slice has at least one chip along every axis
// Rule: a tpu7x_slice has at least one chip along every axis; a 4x4x0 slice is empty. The twin is
// 4x4x1.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::tpu7x_slice<4, 4, 0>;
#else
using s = shardplan::systems::tpu7x_slice<4, 4, 1>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n >= 0);  // 0 in the broken variant: only the rule fails
