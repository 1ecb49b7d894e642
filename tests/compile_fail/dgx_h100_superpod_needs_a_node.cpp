// EXPECT: shardplan: a dgx superpod has at least one node
// Rule: a DGX H100 SuperPOD has at least one node (0 is a typo, or a count computed to 0); the
// twin is one node.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::dgx_h100_superpod<0>;
#else
using s = shardplan::systems::dgx_h100_superpod<1>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n >= 0);  // 0 in the broken variant: only the rule fails
