// EXPECT: shardplan: the chips of a system are at most the product of the degrees of its levels and leave no unit of the outermost level empty@@chips_fill_levels<[a-z_:]*{24}, [a-z_:]*{16}, [a-z_:]*{2}>
// DIAGNOSTIC: 1 error, lines under 500 characters
// Rule: the levels hold the chips: 2 nodes of 8 GPUs hold 16, not 24; the twin says 16.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::system_figures s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 2>::figures;
  s.name = "my cluster";
#ifdef SHARDPLAN_COMPILE_FAIL
  s.chips = 24;
#endif
  return s;
}

struct my_system {
  static constexpr shardplan::system_figures figures = made();
};

[[maybe_unused]] constexpr const shardplan::system_figures& checked =
    shardplan::checked_system<my_system>();
