// EXPECT: shardplan: a dgx b200 superpod has at most 2048 nodes
// Rule: the DGX B200 SuperPOD reference design ends at 64 scalable units of 32 nodes; beyond it,
// use nvlink_fat_tree<hardware::b200, Nodes>. The twin is the largest superpod, 2048 nodes.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::dgx_b200_superpod<2049>;
#else
using s = shardplan::systems::dgx_b200_superpod<2048>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
