// EXPECT: shardplan: a gb200 nvl72 cluster has at most 910 racks
// Rule: racks are joined by a three-tier fat tree of 64-port switches, 65536 NIC ports, so at
// most 910 racks of 72 GPUs. The twin is the largest cluster, 910 racks.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::gb200_nvl72<911>;
#else
using s = shardplan::systems::gb200_nvl72<910>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
