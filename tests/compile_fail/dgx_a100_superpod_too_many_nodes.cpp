// EXPECT: shardplan: a dgx a100 superpod has at most 140 nodes
// Rule: the DGX A100 SuperPOD reference design ends at 7 scalable units of 20 nodes; beyond it,
// use nvlink_fat_tree<hardware::a100_80gb, Nodes>. The twin is the largest superpod, 140 nodes.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::dgx_a100_superpod<141>;
#else
using s = shardplan::systems::dgx_a100_superpod<140>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
