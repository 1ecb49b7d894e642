// EXPECT: shardplan: a chip needs a name@@chip_has_a_name<[a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a chip has a name (reports, diagnostics and plan files name it). The twin names it.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::chip_figures c = shardplan::hardware::h100_sxm::figures;
  c.name = "my h100";
#ifdef SHARDPLAN_COMPILE_FAIL
  c.name = "";
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
