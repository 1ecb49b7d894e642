// Unit tests of the chips added to the catalogue after the first fifteen (their figures are
// static tests in tests/static/catalog_chips.cpp): each is found by name, builds a system and
// costs a small training plan to a finite step, and a chip without bf16 refuses a bf16 plan.
#include <doctest/doctest.h>

#include <cmath>
#include <shardplan/hardware/catalog.hpp>
#include <shardplan/hardware/system_presets.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/training/plan.hpp>
#include <string>
#include <string_view>

namespace {

using namespace shardplan;
namespace hw = shardplan::hardware;

/// The added chips a GPU-style node (8 per node on a fat tree) describes, bf16 ones first.
constexpr std::string_view added_node_chips[] = {"h100 pcie", "h100 nvl", "h200 nvl", "l40s",
                                                 "b300",      "gb300",    "mi250x",   "mi325x",
                                                 "mi355x",    "trainium2", "gaudi 3", "v100"};
constexpr std::size_t added_bf16_chips = 11;

/// LLaMA-3 8B (32 layers, 32 heads, 8 kv heads; Dubey et al. 2024, Table 3) on 2 nodes of 8:
/// 2-way ZeRO-1 data parallelism x 8-way tensor parallelism, 2^20 tokens in sequences of 4096,
/// mixed-precision Adam in `compute`.
training_plan_values small_plan(const system_figures& s, number_format compute) {
  training_plan_values p;
  p.model = models::llama3_8b::shape;
  p.system = s;
  p.axes[0] = {"dp", 2, role_data | role_zero, {}};
  p.axes[1] = {"tp", 8, role_tensor, {}};
  p.axis_count = 2;
  p.setup.degrees.zero_stage = 1;
  p.setup.degrees.sequence_parallel = true;
  p.setup.batch = {.global_tokens = 1 << 20, .seq_len = 4096, .micro_batch = 1};
  p.setup.recompute = {recompute_kind::selective};
  p.setup.precision = precision::bf16_mixed_adam::policy;
  p.setup.precision.compute = compute;
  return with_degrees(p);
}

system_figures two_nodes_of(std::string_view chip) {
  const system_result r = make_system({.preset = "nvlink_fat_tree", .nodes = 2, .chip = chip});
  REQUIRE(r.error.empty());
  return r.figures;
}

}  // namespace

TEST_CASE("every added chip is found by its catalogue name, whatever the separators and case") {
  for (std::string_view name : added_node_chips) {
    CAPTURE(std::string(name));
    const chip_figures* c = find_chip(name);
    REQUIRE(c != nullptr);
    CHECK(c->name == name);
  }
  CHECK(find_chip("TPU_V2")->name == "tpu v2");
  CHECK(find_chip("tpu-v3")->name == "tpu v3");
  CHECK(find_chip("Gaudi-3")->name == "gaudi 3");
  CHECK(find_chip("gaudi3") == nullptr);  // the separator is part of the name
}

namespace {

/// The plan on two nodes of `chip`, computing in `compute`, is feasible and costs a finite step
/// no faster than its roofline.
void costs_a_finite_step(std::string_view chip, number_format compute) {
  CAPTURE(std::string(chip));
  const system_figures s = two_nodes_of(chip);
  CHECK(s.chips == 16);
  const training_plan_values p = small_plan(s, compute);
  const plan_violations v = check(p);
  CAPTURE(v.count);
  REQUIRE(v.count == 0);
  const step_cost c = estimate_step(p);
  CHECK(std::isfinite(c.step.value()));
  CHECK(c.step.value() > 0.0);
  CHECK(c.mfu > 0.0);
  CHECK(c.mfu < 1.0);
  CHECK(c.step.value() >= c.roofline.value());
}

}  // namespace

TEST_CASE("a small llama-3 8b plan on two nodes of each added bf16 chip costs a finite step") {
  for (std::size_t i = 0; i < added_bf16_chips; ++i)
    costs_a_finite_step(added_node_chips[i], number_format::bf16);
}

// The logits GEMM follows a 16-bit compute format (fp16 here): on a chip without bf16 it must not
// be charged at a zero bf16 peak (which made the step NaN).
TEST_CASE("an fp16 plan on the v100, which has no bf16, costs a finite step") {
  costs_a_finite_step("v100", number_format::fp16);
}

TEST_CASE("a bf16 plan on the v100, which has no bf16, breaks compute_format_supported") {
  const training_plan_values p = small_plan(two_nodes_of("v100"), number_format::bf16);
  const plan_violations v = check(p);
  bool found = false;
  for (std::size_t i = 0; i < v.count; ++i)
    found = found || v.items[i].rule == plan_rule::compute_format_supported;
  CHECK(found);
}

TEST_CASE("the same plan runs faster on the later chip of each pair") {
  const auto step = [](std::string_view chip) {
    return estimate_step(small_plan(two_nodes_of(chip), number_format::bf16)).step.value();
  };
  // H200 NVL: the H100 NVL's rates with more memory bandwidth (4.8 against 3.9 TB/s) and links.
  CHECK(step("h200 nvl") < step("h100 nvl"));
  // MI355X: twice the MI325X's bf16 peak ([mamf] 2500 against 1307.4 TFLOPS).
  CHECK(step("mi355x") < step("mi325x"));
  // GB300 against B300: a higher clock for the same GPU.
  CHECK(step("gb300") < step("b300"));
}

TEST_CASE("the added chips never claim a measured step error their family did not measure") {
  for (std::string_view name : {"l40s", "mi250x", "mi325x", "mi355x", "v100", "tpu v2", "tpu v3",
                                "trainium2", "gaudi 3"}) {
    CAPTURE(std::string(name));
    CHECK(measured_step_error(*find_chip(name)) == 0.0);
  }
  // The Hopper and Blackwell variants share their generation's measured error.
  CHECK(measured_step_error(*find_chip("h100 pcie")) == measured_step_error(hw::h100_sxm::figures));
  CHECK(measured_step_error(*find_chip("b300")) == measured_step_error(hw::b200::figures));
}
