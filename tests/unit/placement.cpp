// Tests of placement.hpp: which levels each mesh axis crosses, judged by its worst group.
#include <doctest/doctest.h>

#include <shardplan/hardware/collectives.hpp>
#include <shardplan/hardware/placement.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/training/plan_builder.hpp>

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

TEST_CASE("the collectives of an axis that does not divide the node use the leaf links too") {
  // 3 DGX H100 nodes: tensor 3's worst group {6, 7, 8} sits on two nodes, so its ring crosses
  // InfiniBand; tensor 4 and tensor 8 stay on NVLink.
  const placement_levels levels = levels_of(systems::dgx_h100_superpod<3>::figures);
  const axis_network tp3 = network_of(levels, 1, 3);
  REQUIRE(tp3.count == 2);
  CHECK(tp3.uses[0].level.name == "node");
  CHECK(tp3.uses[0].degree == 3);
  CHECK(tp3.uses[1].level.name == "leaf");
  CHECK(tp3.uses[1].degree == 2);
  CHECK(network_of(levels, 1, 4).count == 1);
  CHECK(network_of(levels, 1, 8).count == 1);
  // On the links, tensor 3 is slower than tensor 4 for the same array: the InfiniBand hop of
  // its worst group costs more than NVLink's.
  const bytes array = 1e9 * byte;
  const collective_options opts{};
  const double tp3_time = collective_time(collective_kind::all_reduce, array, tp3, opts).value();
  CHECK(tp3_time >
        collective_time(collective_kind::all_reduce, array, network_of(levels, 1, 4), opts).value());
  // The straddling hop goes through GPU 7's one 400 Gb/s NIC (50 GB/s, the node's 400 GB/s over
  // 8 rails): a reduce-scatter and an all-gather over two units move V/2 each way through it,
  // 2 · 0.5 GB / 50 GB/s = 20 ms; a flat ring of 3 would push 2·(2/3)·V through it, 26.7 ms.
  CHECK(tp3_time >= 0.020);
  CHECK(tp3_time < 0.0267);
}

TEST_CASE("check rejects a tpu mesh axis that does not tile the torus, naming the axis") {
  // data 21 x tensor 3 on a v5p 4x4x4 (the case): 63 of 64 chips, no axis tiles rings
  // of 4. data 16 x tensor 4 tiles them.
  training_setup setup;
  setup.batch = {336 * 2048, 2048, 1};
  auto plan = [&](std::int64_t dp, std::int64_t tp) {
    parallel_config c;
    c.data = dp;
    c.tensor = tp;
    return make_training_plan(models::megatron_gpt_1_7b::shape,
                              systems::tpu_v5p_slice<4, 4, 4>::figures, c, setup);
  };
  const plan_violations bad = check(plan(21, 3));
  REQUIRE(bad.has(plan_rule::axis_tiles_torus));
  violation x{};
  for (std::size_t i = 0; i < bad.count; ++i)
    if (bad.items[i].rule == plan_rule::axis_tiles_torus) {
      x = bad.items[i];
      break;
    }
  CHECK(x.axis == "dp");
  CHECK(x.a == 63.0);
  CHECK(x.b == 64.0);
  CHECK(describe(x) ==
        "mesh axis 'dp' spans 63 chips, which do not tile the 64 chips of the torus axes it "
        "lands on");
  CHECK_FALSE(check(plan(16, 4)).has(plan_rule::axis_tiles_torus));
  // GPUs have no torus: tensor 3 is allowed there (it pays for crossing nodes instead).
  parallel_config c;
  c.data = 8;
  c.tensor = 3;
  setup.batch = {48 * 2048, 2048, 1};
  CHECK_FALSE(check(make_training_plan(models::megatron_gpt_1_7b::shape,
                                       systems::dgx_h100_superpod<3>::figures, c, setup))
                  .has(plan_rule::axis_tiles_torus));
}
