// Hardware of the user's own in a plan file: `system.chip` as a chip object (every chip_figures
// member) and `system.levels` as a topology, under the chip and system rules of
// hardware/system_rules.hpp, read and written back exactly.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/training/memory.hpp>

#include "plan_file_error.hpp"

using namespace shardplan;

namespace {

namespace fs = std::filesystem;

/// examples/plans, found from this file's path (tests/unit/custom_hardware.cpp).
fs::path example_plans() {
  return fs::path(__FILE__).parent_path().parent_path().parent_path() / "examples" / "plans";
}

/// A training plan of LLaMA-3 8B on `system` (JSON), TP 8 and ZeRO-1 over the rest.
std::string plan_on(const std::string& system, int data = 2) {
  return R"({"model": "llama3-8b", "system": )" + system +
         R"(, "training": {"parallelism": {"data": )" + std::to_string(data) +
         R"(, "tensor": 8, "zero_stage": 1}, "batch": {"global_sequences": 32, "seq_len": 8192}}})";
}

/// Two DGX A100 nodes written out as levels, as `systems::detail::make_fat_tree` builds them:
/// NVLink at the chip's scale-up egress inside a node (the level-0 default), the nodes on one
/// InfiniBand leaf at the chips' scale-out bandwidth times 8 (the default above level 0), the
/// presets' 3.4 and 14 us hops (the link defaults: NCCL's ring steps) and SHARP on the leaf.
constexpr const char* two_a100_nodes = R"({
  "name": "dgx a100 superpod",
  "chip": "a100 sxm4 80gb",
  "levels": [
    {"name": "node", "link": "nvlink", "degree": 8},
    {"name": "leaf", "link": "infiniband", "degree": 2, "in_network_reduction": true}
  ]})";

}  // namespace

TEST_CASE("the example's chip object and levels become the figures they state") {
  const io::plan_file f = io::load_plan_file((example_plans() / "llama3_8b_a100_pcie_custom.json").string());
  const training_plan_values p = f.values();
  const chip_figures& c = p.system.chip;
  // NVIDIA A100 PCIe 80GB datasheet figures as the file states them.
  CHECK(c.name == "a100 pcie 80gb");
  CHECK(c.peak_bf16.value() == doctest::Approx(312e12).scale(0.0));
  CHECK(c.peak_int8.value() == doctest::Approx(624e12).scale(0.0));
  CHECK(c.peak_fp8.value() == 0.0);
  CHECK(c.memory.value() == doctest::Approx(80e9).scale(0.0));
  CHECK(c.memory_bandwidth.value() == doctest::Approx(1935e9).scale(0.0));
  // 108 SMs x 2048 bf16 FLOP per clock x 1.41 GHz = 311.9 TFLOP/s, the datasheet's 312.
  CHECK(matrix_peak(c.arch, number_format::bf16).value() ==
        doctest::Approx(312e12).epsilon(0.01).scale(0.0));
  // Three levels, innermost first: 2 x 4 x 4 = 32 chips.
  REQUIRE(p.system.level_count == 3);
  CHECK(p.system.chips == 32);
  CHECK(p.system.levels[0].name == "pair");
  // The pair's level defaults to the chip's scale-up egress: 1 link x 300 GB/s.
  CHECK(p.system.levels[0].unit_egress.value() == doctest::Approx(300e9).scale(0.0));
  // The node level says 32 GB/s and 2 us; the leaf has 4 NICs of 25 GB/s a node: 100 GB/s,
  // and the RoCE default hop (14 us, as the presets' InfiniBand; in microseconds, as doctest's
  // Approx has an absolute floor of its epsilon).
  CHECK(p.system.levels[1].unit_egress.value() == doctest::Approx(32e9).scale(0.0));
  CHECK(p.system.levels[1].hop_latency.value() * 1e6 == doctest::Approx(2.0).scale(0.0));
  CHECK(p.system.levels[2].unit_egress.value() == doctest::Approx(100e9).scale(0.0));
  CHECK(p.system.levels[2].hop_latency.value() * 1e6 == doctest::Approx(14.0).scale(0.0));
  CHECK(p.system.levels[2].link == link_kind::roce);
  // It checks and costs: 8.03 B parameters fit 80 GB with ZeRO-1, and a step has a time.
  CHECK(check(p).empty());
  const step_cost s = estimate_step(p);
  CHECK(s.step.value() > 0.0);
  CHECK(s.mfu > 0.0);
  CHECK(s.mfu < 1.0);
}

TEST_CASE("a topology written as the preset's levels costs exactly as the preset") {
  // The preset dgx_a100_superpod with 2 nodes, and the same two nodes as levels.
  const io::plan_file preset_file =
      io::read_plan_file(plan_on(R"({"preset": "dgx_a100_superpod", "nodes": 2})"));
  const training_plan_values preset = preset_file.values();
  const io::plan_file own_file = io::read_plan_file(plan_on(two_a100_nodes));
  const training_plan_values own = own_file.values();
  CHECK(io::plan_difference(preset, own) == "");
  CHECK(estimate_step(own).step.value() == estimate_step(preset).step.value());
  CHECK(memory_per_device(own.model, own.setup).total.value() ==
        memory_per_device(preset.model, preset.setup).total.value());
}

TEST_CASE("a chip of its own starts from a catalogue chip and changes what it gives") {
  // An H100 SXM with 96 GB, as on the 96 GB HBM3 boards: only the memory changes.
  const std::string system = R"({"preset": "nvlink_fat_tree", "nodes": 1, "chip":
      {"base": "h100 sxm", "name": "h100 sxm 96gb", "memory_gb": 96}})";
  const io::plan_file f = io::read_plan_file(plan_on(system, 1));
  const chip_figures& c = f.values().system.chip;
  CHECK(c.name == "h100 sxm 96gb");
  CHECK(c.memory.value() == doctest::Approx(96e9).scale(0.0));
  // Everything else is the catalogue H100's: 989 TFLOP/s bf16, 3.35 TB/s.
  CHECK(c.peak_bf16.value() == hardware::h100_sxm::figures.peak_bf16.value());
  CHECK(c.memory_bandwidth.value() == hardware::h100_sxm::figures.memory_bandwidth.value());
  CHECK(c.arch.compute_units == hardware::h100_sxm::figures.arch.compute_units);
}

TEST_CASE("a chip of its own states its rated power as power_w, and keeps its base's otherwise") {
  const auto chip_of = [](const std::string& chip) {
    return io::read_plan_file(plan_on(R"({"preset": "nvlink_fat_tree", "nodes": 1, "chip": )" +
                                          chip + "}",
                                      1))
        .values()
        .system.chip;
  };
  // An H100 capped at 500 W, as torchtitan's cluster ran them.
  CHECK(chip_of(R"({"base": "h100 sxm", "name": "h100 500w", "power_w": 500})").power_watts ==
        500.0);
  CHECK(chip_of(R"({"base": "h100 sxm", "name": "h100 copy"})").power_watts == 700.0);
  // Written back and read again: the same figure.
  const io::plan_file f = io::read_plan_file(plan_on(
      R"({"preset": "nvlink_fat_tree", "nodes": 1, "chip": {"base": "h100 sxm", "name": "h100 500w", "power_w": 500.5}})",
      1));
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values()));
  CHECK(back.values().system.chip.power_watts == 500.5);
  CHECK(io::plan_difference(f.values(), back.values()) == "");
}

TEST_CASE("custom chips and topologies are written back and read to the same plan") {
  for (const char* name : {"llama3_8b_a100_pcie_custom.json"}) {
    CAPTURE(name);
    const io::plan_file f = io::load_plan_file((example_plans() / name).string());
    const std::string text = io::plan_file_text(f.values(), f.run);
    const io::plan_file back = io::read_plan_file(text);
    CHECK(io::plan_difference(f.values(), back.values()) == "");
  }
  // A chip from a base with kernel fractions and a torus of its own: every member round-trips.
  const std::string torus = R"({"name": "my torus", "chip": {"base": "tpu v5p", "name": "tpu v5p lite",
      "memory_gb": 47.5, "kernels": {"gemm": 0.8, "sustained": 0.9, "reduction_overhead": 312.5},
      "arch": {"l2_bytes": 1048576, "boost_clock_mhz": 1750.25, "vector_flop_per_lane": 1.5}},
      "levels": [{"name": "ici", "link": "ici", "degree": 64}, {"name": "dcn", "link": "dcn",
      "degree": 2, "unit_egress_gb_per_s": 400.5, "hop_latency_us": 12.5}],
      "torus": {"shape": [4, 4, 4], "wraps": [true, true, false]}})";
  const io::plan_file t = io::read_plan_file(plan_on(torus, 16));
  CHECK(t.values().system.chips == 128);
  CHECK(t.values().system.torus.rank == 3);
  CHECK_FALSE(t.values().system.torus.wraps[2]);
  CHECK(t.values().system.chip.kernels.gemm == 0.8);
  CHECK(t.values().system.chip.arch.boost_clock == 1750.25e6);
  CHECK(t.values().system.chip.arch.vector_flop_per_lane == 1.5);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(t.values()));
  CHECK(io::plan_difference(t.values(), back.values()) == "");
}

TEST_CASE("a chip or topology that breaks a rule is one line naming the key and the rule") {
  const auto system_with_chip = [](const std::string& chip) {
    return plan_on(R"({"preset": "nvlink_fat_tree", "nodes": 1, "chip": )" + chip + "}", 1);
  };
  CHECK(error_of(system_with_chip(R"({"name": "h100 sxm", "memory_gb": 80})")) ==
        "system.chip.name: 'h100 sxm' is a catalogue chip's name; give the variant its own");
  CHECK(error_of(system_with_chip(R"({"name": "x", "memory_gb": 80, "memory_bandwidth_gb_per_s": 2000})")) ==
        "system.chip.peak_bf16_tflops: a chip needs a positive peak rate in at least one number "
        "format and no negative one");
  CHECK(error_of(system_with_chip(R"({"name": "x", "peak_bf16_tflops": 100})")) ==
        "system.chip.memory_gb: a chip needs a positive memory capacity and memory bandwidth");
  CHECK(error_of(system_with_chip(R"({"base": "h100 sxm", "name": "x", "scale_up_links": 0})")) ==
        "system.chip.scale_up_links: the scale-up fabric of a chip needs at least one link with "
        "positive bandwidth, and no link figure may be negative");
  CHECK(error_of(system_with_chip(R"({"base": "h100 sxm", "name": "x", "memory_gb": -1})")) ==
        "system.chip.memory_gb: must be between 0.000000 and 1000000000.000000");
  CHECK(error_of(system_with_chip(R"({"base": "h100 sxm", "name": "x", "power_w": -700})")) ==
        "system.chip.power_w: must be between 0.000000 and 100000.000000");
  CHECK(error_of(system_with_chip(R"({"base": "h100 sxm", "name": "x", "power_w": "700 W"})"))
            .rfind("system.chip.power_w: ", 0) == 0);
  CHECK(error_of(system_with_chip(R"({"base": "h100 sxm", "name": "x", "kernels": {"gemm": 1.5}})")) ==
        "system.chip.kernels.gemm: must be between 0.000000 and 1.000000");
  CHECK(error_of(system_with_chip(R"({"base": "h100 sxm", "name": "x", "hbm": 80})"))
            .rfind("system.chip.hbm: unknown key (known: base, name, kind, scale_up, arch, kernels, "
                   "peak_fp32_tflops",
                   0) == 0);
  CHECK(error_of(system_with_chip(R"({"base": "h100 sxm", "name": "x\ny"})")) ==
        "system.chip.name: may hold only letters, digits, spaces and . _ + - / ( )");
  // Topologies.
  const std::string one_level = R"({"chip": "h100 sxm", "levels": [{"name": "node", "link": "nvlink", "degree": 8}])";
  CHECK(error_of(plan_on(one_level + R"(, "chips": 9})", 1)) ==
        "system.chips: is too large (at most 8)");
  CHECK(error_of(plan_on(R"({"chip": "h100 sxm", "levels": []})", 1)) ==
        "system.levels: must be an array of 1 to 5 levels, innermost first");
  CHECK(error_of(plan_on(R"({"chip": "h100 sxm", "levels": [{"name": "node", "link": "nvlink", "degree": 8},
        {"name": "node", "link": "infiniband", "degree": 2}]})", 2)) ==
        "system.levels[1]: network levels need names, each its own");
  CHECK(error_of(plan_on(R"({"chip": "h100 sxm", "levels": [{"name": "node", "link": "nvlink", "degree": 8},
        {"name": "leaf", "link": "pcie", "degree": 2}]})", 2)) ==
        "system.levels[1].hop_latency_us: missing (a pcie level has no default latency)");
  CHECK(error_of(plan_on(R"({"chip": "h100 sxm", "levels": [{"name": "node", "link": "nvlink", "degree": 8},
        {"name": "leaf", "link": "infiniband", "degree": 2, "unit_egress_gb_per_s": 0}]})", 2)) ==
        "system.levels[1]: a network level joining more than one unit needs a positive bandwidth, "
        "and no level a negative bandwidth or latency");
  CHECK(error_of(plan_on(R"({"chip": "h100 sxm", "levels": [{"name": "node", "link": "nvlink", "degree": 8,
        "nics_per_unit": 8}]})", 1)) == "system.levels[0].nic_gb_per_s: missing");
  CHECK(error_of(plan_on(R"({"chip": "h100 sxm", "levels": [{"name": "node", "link": "ethernet", "degree": 8}]})", 1))
            .rfind("system.levels[0].link: must be \"ici\", \"nvlink\"", 0) == 0);
  CHECK(error_of(plan_on(R"({"chip": "tpu v5p", "levels": [{"name": "ici", "link": "ici", "degree": 8}],
        "torus": {"shape": [4, 4, 4]}})", 1)) ==
        "system.torus: a torus of 2 or 3 axes is the first level: its extents multiply to the "
        "degree of that level");
}
