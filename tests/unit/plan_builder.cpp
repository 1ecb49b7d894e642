// Tests of plan_builder.hpp: degrees become the same values as the equivalent plan type.
#include <doctest/doctest.h>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

TEST_CASE("degrees build the mesh [pp, dp, tp] of the matching plan type") {
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                             mesh<axis<"pp", 8>, axis<"dp", 64>, axis<"tp", 8>>, zero<1, "dp">,
                             pipeline<"pp", schedule::interleaved<5>>,
                             tensor<"tp", sequence_parallel>,
                             batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>>;
  const training_plan_values built = make_training_plan(
      models::llama3_70b::shape, systems::dgx_h100_superpod<512>::figures,
      {.data = 64, .tensor = 8, .pipeline = 8, .zero_stage = 1, .sequence_parallel = true,
       .schedule = pipeline_schedule::interleaved, .virtual_stages = 5},
      plan::values.setup);
  REQUIRE(built.axis_count == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(built.axes[i].name == plan::values.axes[i].name);
    CHECK(built.axes[i].size == plan::values.axes[i].size);
    CHECK(built.axes[i].roles == plan::values.axes[i].roles);
  }
  CHECK(memory_per_device(built.model, built.setup).total.value() ==
        doctest::Approx(plan::memory_per_device().total.value()).scale(0.0));
  CHECK(estimate_step(built).step.value() == doctest::Approx(plan::step().step.value()).scale(0.0));
}

TEST_CASE("expert parallelism is carved out of the data axis") {
  const training_plan_values p = make_training_plan(
      models::mixtral_8x7b::shape, systems::dgx_h100_superpod<2>::figures,
      {.data = 16, .expert = 8, .zero_stage = 3},
      {.batch = {.global_tokens = 16 * 4096, .seq_len = 4096, .micro_batch = 1},
       .recompute = {recompute_kind::full}});
  REQUIRE(p.axis_count == 2);
  CHECK(p.axes[0].name == "dp");
  CHECK(p.axes[0].size == 2);
  CHECK(p.axes[1].name == "ep");
  CHECK(p.setup.degrees.data == 16);
  CHECK(p.setup.degrees.expert == 8);
  CHECK(p.setup.degrees.zero_expert == 2);
  CHECK(check(p).empty());
}

TEST_CASE("an expert degree that does not divide the data degree breaks expert_divides_data") {
  // 12 replicas cannot be split into groups of 8 experts. The rule names the user's two degrees;
  // it used to report an axis "dp/ep" the user never wrote as carrying no parallelism.
  const training_plan_values p = make_training_plan(
      models::mixtral_8x7b::shape, systems::dgx_h100_superpod<2>::figures,
      {.data = 12, .expert = 8}, {.batch = {.global_tokens = 12 * 4096, .seq_len = 4096}});
  REQUIRE(p.axis_count == 1);
  CHECK(p.axes[0].name == "dp");
  CHECK(p.axes[0].size == 12);
  const plan_violations v = check(p);
  CHECK_FALSE(v.has(plan_rule::axis_has_a_role));
  REQUIRE(v.has(plan_rule::expert_divides_data));
  const violation x = v.items[0];
  CHECK(x.rule == plan_rule::expert_divides_data);
  CHECK(x.a == 8);
  CHECK(x.b == 12);
  CHECK(describe(x) == "expert parallelism (8) must divide data parallelism (12)");
  CHECK_FALSE(costable(v));
}

TEST_CASE("four degrees of 65536 from a plan file break sizes_fit_in_64_bits") {
  // data x tensor x pipeline x context = 65536^4 = 2^64 devices: the tool used to call this
  // "feasible" with 0 chips (the product wrapped round), MFU -nan and WORLD_SIZE=0. Built in a
  // constant expression, which refuses signed overflow.
  constexpr training_plan_values p = make_training_plan(
      models::llama3_70b::shape, systems::dgx_h100_superpod<512>::figures,
      {.data = 65536, .tensor = 65536, .pipeline = 65536, .context = 65536},
      {.batch = {.global_tokens = 16'777'216, .seq_len = 8192}});
  constexpr plan_violations v = check(p);
  REQUIRE(v.count == 1);
  CHECK(v.items[0].rule == plan_rule::sizes_fit_in_64_bits);
  CHECK(v.items[0].a == 18446744073709551616.0);
  CHECK_FALSE(costable(v));
  CHECK(mesh_devices(p) == int64_max);
}
