// Tests of system_presets.hpp: run-time systems equal the templates' and keep their rules.
#include <doctest/doctest.h>

#include <shardplan/hardware/system_presets.hpp>

using namespace shardplan;

namespace {

void same(const system_figures& a, const system_figures& b) {
  CHECK(a.name == b.name);
  CHECK(a.chips == b.chips);
  CHECK(a.chip.name == b.chip.name);
  REQUIRE(a.level_count == b.level_count);
  for (std::size_t i = 0; i < static_cast<std::size_t>(a.level_count); ++i) {
    CHECK(a.levels[i].name == b.levels[i].name);
    CHECK(a.levels[i].degree == b.levels[i].degree);
    CHECK(a.levels[i].unit_egress.value() == b.levels[i].unit_egress.value());
  }
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(a.torus.extent[i] == b.torus.extent[i]);
    CHECK(a.torus.wraps[i] == b.torus.wraps[i]);
  }
}

}  // namespace

TEST_CASE("every preset builds the same system as its template") {
  same(make_system({.preset = "dgx_h100_superpod", .nodes = 512}).figures,
       systems::dgx_h100_superpod<512>::figures);
  same(make_system({.preset = "dgx_a100_superpod", .nodes = 140}).figures,
       systems::dgx_a100_superpod<140>::figures);
  same(make_system({.preset = "dgx_b200_superpod", .nodes = 32}).figures,
       systems::dgx_b200_superpod<32>::figures);
  same(make_system({.preset = "h800_cluster", .nodes = 256}).figures,
       systems::h800_cluster<256>::figures);
  same(make_system({.preset = "nvlink_fat_tree", .nodes = 16, .chip = "mi300x"}).figures,
       systems::nvlink_fat_tree<hardware::mi300x, 16>::figures);
  same(make_system({.preset = "gb200_nvl72", .racks = 8}).figures, systems::gb200_nvl72<8>::figures);
  same(make_system({.preset = "tpu_v5p_slice", .shape = {16, 16, 16}, .slices = 2}).figures,
       systems::tpu_v5p_slice<16, 16, 16, 2>::figures);
  same(make_system({.preset = "tpu_v5e_slice", .shape = {8, 16, 1}}).figures,
       systems::tpu_v5e_slice<8, 16>::figures);
  same(make_system({.preset = "tpu7x_slice", .shape = {8, 8, 8}}).figures,
       systems::tpu7x_slice<8, 8, 8>::figures);
}

TEST_CASE("a request the templates would reject gets the same rule") {
  CHECK(make_system({.preset = "dgx_h100_superpod", .nodes = 4096}).error ==
        "shardplan: a dgx h100 superpod has at most 2048 nodes (64 scalable units)");
  CHECK(make_system({.preset = "tpu_v5p_slice", .shape = {32, 20, 28}}).error ==
        "shardplan: a tpu v5p slice is at most 16x20x28 chips");
  CHECK(make_system({.preset = "tpu_v5p_slice", .shape = {6, 4, 4}}).error ==
        "shardplan: a tpu v5p slice larger than one 4x4x4 cube is made of whole cubes");
  CHECK(make_system({.preset = "nvlink_fat_tree", .nodes = 2, .chip = "no such chip"}).error ==
        "shardplan: unknown chip for nvlink_fat_tree");
  CHECK(make_system({.preset = "dgx_z100"}).error == "shardplan: unknown system preset");
  CHECK(make_system({.preset = "gb200_nvl72", .racks = 0}).error ==
        "shardplan: a gb200 nvl72 system has at least one rack");
}

TEST_CASE("a name matches whatever its case, spaces, underscores and hyphens") {
  static_assert(same_name("h100 sxm", "h100_sxm"));
  static_assert(same_name("h100 sxm", "H100-SXM"));
  static_assert(same_name("dgx_h100_superpod", "DGX H100 Superpod"));
  static_assert(!same_name("h100 sxm", "h100sxm"));  // a separator is not nothing
  static_assert(!same_name("h100 sxm", "h100 sxm5"));
  static_assert(!same_name("b200", "b100"));
  CHECK(find_chip("h100_sxm") == find_chip("h100 sxm"));
  REQUIRE(find_chip("MI300X") != nullptr);
  // AMD Instinct MI300X datasheet: 192 GB HBM3.
  CHECK(find_chip("MI300X")->memory.value() == doctest::Approx(192e9).scale(0.0));
  CHECK(find_chip("h100") == nullptr);
  same(make_system({.preset = "DGX-H100 superpod", .nodes = 4}).figures,
       systems::dgx_h100_superpod<4>::figures);
  same(make_system({.preset = "nvlink_fat_tree", .nodes = 2, .chip = "H100_SXM"}).figures,
       systems::nvlink_fat_tree<hardware::h100_sxm, 2>::figures);
}

TEST_CASE("a broken rule names the request's field it concerns") {
  CHECK(make_system({.preset = "dgx_h100_superpod", .nodes = 4096}).field == "nodes");
  CHECK(make_system({.preset = "dgx_h100_superpod", .nodes = 0}).field == "nodes");
  CHECK(make_system({.preset = "nvlink_fat_tree", .nodes = 1, .chip = "nope"}).field == "chip");
  CHECK(make_system({.preset = "nvlink_fat_tree", .nodes = 1, .gpus_per_node = 3, .chip = "b200"})
            .field == "gpus_per_node");
  CHECK(make_system({.preset = "gb200_nvl72", .racks = 911}).field == "racks");
  CHECK(make_system({.preset = "tpu_v5p_slice", .shape = {6, 4, 4}}).field == "shape");
  CHECK(make_system({.preset = "tpu_v5e_slice", .shape = {4, 4, 1}, .slices = 0}).field == "slices");
  CHECK(make_system({.preset = "dgx_z100"}).field == "preset");
  CHECK(make_system({.preset = "dgx_h100_superpod", .nodes = 8}).field.empty());
}
