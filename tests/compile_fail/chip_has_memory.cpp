// EXPECT: shardplan: a chip needs a positive memory capacity and memory bandwidth@@chip_has_memory<[a-z_:]*{80}, [a-z_:]*{0}, false>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a chip holds weights in its memory and reads them at its bandwidth: both positive. A
// bandwidth of 0 would make every memory-bound kernel take forever; the twin gives 3350 GB/s.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::chip_figures c = shardplan::hardware::h100_sxm::figures;
  c.name = "my h100";
#ifdef SHARDPLAN_COMPILE_FAIL
  c.memory_bandwidth = 0.0 * shardplan::giga * shardplan::byte / shardplan::second;
#endif
  shardplan::system_figures s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 2>::figures;
  s.chip = c;
  return s;
}

struct my_system {
  static constexpr shardplan::system_figures figures = made();
};

[[maybe_unused]] constexpr const shardplan::system_figures& checked =
    shardplan::checked_system<my_system>();
