// EXPECT: shardplan: an nvlink fat tree has at least one node
// Rule: a fat tree has at least one node. 0 nodes is empty (a typo, or a count computed to 0);
// the twin is one node of 8 H100.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 0>;
#else
using s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 1>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n >= 0);  // 0 in the broken variant: only the rule fails
