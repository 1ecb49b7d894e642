// EXPECT: shardplan: an nvlink fat tree node has 1, 2, 4 or 8 gpus
// Rule: the fat tree has one leaf rail per GPU of a node and a 64-port leaf has 32 ports down,
// so the GPUs of a node (the rails) must divide 32 leaves of a pod: 1, 2, 4 or 8. The broken
// variant has 3 GPUs a node; the twin 4.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 16, 3>;
#else
using s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 16, 4>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
