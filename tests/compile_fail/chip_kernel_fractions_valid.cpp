// EXPECT: shardplan: the kernel fractions of a chip are between 0 and 1@@chip_kernel_fractions_valid<[a-z_:]*{false}>
// DIAGNOSTIC: 1 error, lines under 500 characters
// Rule: kernel fractions are shares of a peak: between 0 and 1 (0: the family default). A GEMM
// reaching 1.2 of its peak is a typo for 0.12 or a sparse peak; the twin gives 0.8.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::chip_figures c = shardplan::hardware::h100_sxm::figures;
  c.name = "my h100";
#ifdef SHARDPLAN_COMPILE_FAIL
  c.kernels.gemm = 1.2;
#else
  c.kernels.gemm = 0.8;
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
