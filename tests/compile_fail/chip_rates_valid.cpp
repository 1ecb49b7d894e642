// EXPECT: shardplan: a chip needs a positive peak rate in at least one number format and no negative one@@chip_rates_valid<[a-z_:]*{5}, [a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a chip computes in some format at a positive peak, and no peak is negative (a zero peak
// means the format is missing). A negative fp8 peak is a typo; the twin leaves it as it is.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::chip_figures c = shardplan::hardware::h100_sxm::figures;
  c.name = "my h100";
#ifdef SHARDPLAN_COMPILE_FAIL
  c.peak_fp8 = -1979.0 * shardplan::tera * shardplan::flop / shardplan::second;
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
