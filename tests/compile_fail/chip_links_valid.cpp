// EXPECT: shardplan: the scale-up fabric of a chip needs at least one link with positive bandwidth, and no link figure may be negative@@chip_links_valid<[a-z_:]*{0}, [a-z_:]*{25}, false>
// DIAGNOSTIC: 1 error, lines under 500 characters
// Rule: a chip with a scale-up fabric (NVLink here) has links to send over. 0 links with a
// switched fabric is a contradiction; the twin has the H100's 18.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::chip_figures c = shardplan::hardware::h100_sxm::figures;
  c.name = "my h100";
#ifdef SHARDPLAN_COMPILE_FAIL
  c.scale_up_links = 0;
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
