// EXPECT: shardplan: an h800 cluster has at least one node
// Rule: an H800 cluster has at least one node (0 is a typo, or a count computed to 0); the twin
// is one node.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::h800_cluster<0>;
#else
using s = shardplan::systems::h800_cluster<1>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n >= 0);  // 0 in the broken variant: only the rule fails
