// EXPECT: shardplan: a torus of 2 or 3 axes is the first level: its extents multiply to the degree of that level@@torus_is_first_level<[a-z_:]*{3}, [a-z_:]*{64}, [a-z_:]*{8}, false>
// DIAGNOSTIC: 1 error, lines under 500 characters
// Rule: a torus (TPU ICI) is the system's first level, its extents multiplying to that level's
// degree. A 4x4x4 torus over an 8-chip level is a contradiction; the twin has no torus.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::system_figures s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 2>::figures;
  s.name = "my cluster";
#ifdef SHARDPLAN_COMPILE_FAIL
  s.torus = {.extent = {4, 4, 4}, .wraps = {true, true, true}, .rank = 3};
#endif
  return s;
}

struct my_system {
  static constexpr shardplan::system_figures figures = made();
};

[[maybe_unused]] constexpr const shardplan::system_figures& checked =
    shardplan::checked_system<my_system>();
