// EXPECT: shardplan: an h800 multi-plane fat tree has at most 2048 nodes
// Rule: each plane of DeepSeek's H800 cluster is a two-layer fat tree of 64-port switches:
// 64 leaves of 32 nodes, 2048 nodes. The twin is the largest cluster, 2048 nodes.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::h800_cluster<2049>;
#else
using s = shardplan::systems::h800_cluster<2048>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
