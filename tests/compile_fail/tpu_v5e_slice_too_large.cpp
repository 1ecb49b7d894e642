// EXPECT: shardplan: a tpu v5e slice is at most 16x16 chips
// Rule: a TPU v5e pod is one 16x16 torus, so a slice is at most 16x16; larger jobs are several
// slices joined over DCN (the Slices argument). 32x16 is two pods; the twin is one, 16x16.
#include <shardplan/hardware/systems.hpp>

#ifdef SHARDPLAN_COMPILE_FAIL
using s = shardplan::systems::tpu_v5e_slice<32, 16>;
#else
using s = shardplan::systems::tpu_v5e_slice<16, 16>;
#endif

constexpr auto n = s::figures.chips;
static_assert(n > 0);
