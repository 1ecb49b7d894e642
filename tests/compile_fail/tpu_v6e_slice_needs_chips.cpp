// EXPECT: shardplan: a tpu slice has at least one chip along every axis
// Rule: a tpu_v6e_slice has at least one chip along every axis; a 16x0 slice is empty. The twin is
// 16x1.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::tpu_v6e_slice<16, 0>;
#else
using s = shardplan::systems::tpu_v6e_slice<16, 1>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n >= 0);  // 0 in the broken variant: only the rule fails
