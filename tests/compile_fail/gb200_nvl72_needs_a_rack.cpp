// EXPECT: shardplan: a gb200 nvl72 system has at least one rack
// Rule: a GB200 NVL72 system has at least one rack (0 is a typo, or a count computed to 0); the
// twin is one rack of 72 GPUs.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::gb200_nvl72<0>;
#else
using s = shardplan::systems::gb200_nvl72<1>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n >= 0);  // 0 in the broken variant: only the rule fails
