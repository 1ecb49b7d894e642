// Tests of placement.hpp: which levels each mesh axis crosses, judged by its worst group.
#include <doctest/doctest.h>

#include <shardplan/hardware/placement.hpp>
#include <shardplan/hardware/systems.hpp>

using namespace shardplan;

TEST_CASE("groups lie inside blocks exactly when their stretch divides the block") {
  // Tensor 3 on nodes of 8 GPUs, 24 GPUs in all: groups {0,1,2}, {3,4,5}, {6,7,8}: the third
  // crosses from node 0 into node 1.
  CHECK_FALSE(groups_within(8, 1, 3, 24));
  // Tensor 4 and tensor 8 tile a node.
  CHECK(groups_within(8, 1, 4, 24));
  CHECK(groups_within(8, 1, 8, 24));
  // Data 2 outside tensor 4 (stretch 8) tiles a node too; outside tensor 8 (stretch 16) it
  // crosses nodes.
  CHECK(groups_within(8, 4, 2, 64));
  CHECK_FALSE(groups_within(8, 8, 2, 64));
  // When every device fits in one block, nothing crosses it: 3 GPUs of one node.
  CHECK(groups_within(8, 1, 3, 3));
  // A size-1 axis has no group to cross anything.
  CHECK(groups_within(8, 1, 1, 24));
}

TEST_CASE("an axis that does not divide the node crosses the leaf switches") {
  // 3 DGX H100 nodes: 8 GPUs a node on NVLink, the 3 nodes under one leaf (one scalable unit).
  const placement_levels levels = levels_of(systems::dgx_h100_superpod<3>::figures);
  REQUIRE(levels.count >= 2);
  CHECK(levels.level[0].degree == 8);
  // data 8 x tensor 3: tensor (inner 1, size 3) has the group {6, 7, 8} on two nodes.
  const axis_placement tp = place_axis(levels, 1, 3);
  CHECK(tp.first_level == 0);
  CHECK(tp.last_level == 1);
  // tensor 8 stays in its node.
  const axis_placement tp8 = place_axis(levels, 1, 8);
  CHECK(tp8.first_level == 0);
  CHECK(tp8.last_level == 0);
  // data 3 outside tensor 8: one GPU of each node in a group, over the leaf only.
  const axis_placement dp = place_axis(levels, 8, 3);
  CHECK(dp.first_level == 1);
  CHECK(dp.last_level == 1);
}

TEST_CASE("a size that does not tile a torus axis is not aligned and does not wrap") {
  // v5p 4x4x4: ici-x, ici-y, ici-z of 4 chips with wraparound.
  const placement_levels levels = levels_of(systems::tpu_v5p_slice<4, 4, 4>::figures);
  REQUIRE(levels.count >= 3);
  // tensor 4 is one whole x ring: aligned and wrapping.
  const axis_placement t4 = place_axis(levels, 1, 4);
  CHECK(t4.last_level == 0);
  CHECK(t4.aligned);
  CHECK(t4.wraps);
  // tensor 3 inside data 21 (63 of 64 chips): the group {3, 4, 5} leaves the first x ring, and
  // groups keep crossing rings up to the whole cube, which holds all 64 chips.
  const axis_placement t3 = place_axis(levels, 1, 3);
  CHECK(t3.first_level == 0);
  CHECK(t3.last_level == 2);
  CHECK_FALSE(t3.aligned);
  CHECK_FALSE(t3.wraps);
}
