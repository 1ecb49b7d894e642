// EXPECT: shardplan: a network level joining more than one unit needs a positive bandwidth, and no level a negative bandwidth or latency@@levels_have_bandwidth<[a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a level that joins two or more units moves bytes between them: its bandwidth is
// positive. The twin keeps the leaf's NIC egress.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::system_figures s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 2>::figures;
  s.name = "my cluster";
#ifdef SHARDPLAN_COMPILE_FAIL
  s.levels[1].unit_egress = {};
#endif
  return s;
}

struct my_system {
  static constexpr shardplan::system_figures figures = made();
};

[[maybe_unused]] constexpr const shardplan::system_figures& checked =
    shardplan::checked_system<my_system>();
