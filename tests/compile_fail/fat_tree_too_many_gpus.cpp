// EXPECT: shardplan: an nvlink fat tree of 64-port switches has at most 65536 gpus
// Rule: a three-tier fat tree of 64-port switches has 64^3 / 4 = 65536 ports for NICs, one per
// GPU. 8193 nodes of 8 GPUs are one node too many; the twin is the largest, 8192 nodes.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 8193, 8>;
#else
using s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 8192, 8>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
