// Tests of report.hpp and reliability_report.hpp, and of json_report.hpp where `check` prints the
// same figures: the tables carry the plan's figures.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/io/json_report.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/report.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>
#include <shardplan/training/training_plan.hpp>
#include <string>
#include <string_view>

using namespace shardplan;

namespace {
using plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<2>,
                           mesh<axis<"dp", 2>, axis<"tp", 8>>, zero<1, "dp">, tensor<"tp">,
                           batch<global_sequences<64>, seq_len<8192>, micro_batch<1>>>;
}  // namespace

TEST_CASE("the traffic table has a row per collective with its axis and time") {
  const step_cost c = plan::step();
  const table t = traffic_table(plan::values, c);
  REQUIRE(t.rows.size() == c.traffic_count);
  for (std::size_t i = 0; i < c.traffic_count; ++i) {
    CHECK(t.rows[i][2] == plan::values.axes[c.traffic[i].axis].name);
    CHECK(t.rows[i][7] == format(c.traffic[i].time));
  }
}

TEST_CASE("the time table adds up to the step") {
  const step_cost c = plan::step();
  CHECK((c.compute + c.bubble + c.communication_exposed + c.optimizer).value() ==
        doctest::Approx(c.step.value()).scale(0.0));
  const table t = time_table(c);
  CHECK(t.rows[5][0] == "step");
  CHECK(t.rows[5][1] == format(c.step));
}

TEST_CASE("the placement table names the links of each axis") {
  const table t = placement_table(plan::values);
  REQUIRE(t.rows.size() == 2);
  // tp = 8 fills an 8-GPU NVLink node; dp = 2 crosses the leaf switches.
  CHECK(t.rows[1][3] == "node x8 (nvlink)");
  CHECK(t.rows[0][3] == "leaf x2 (infiniband)");
}

TEST_CASE("the memory table ends with the total and the capacity") {
  const table t = memory_table(plan::values);
  CHECK(t.rows[7][1] == format(plan::memory_per_device().total));
  CHECK(t.rows[8][1] == "80 GB");
}

// --- reliability in the report: only for a run, and what the checkpoint interval comes from ----

namespace {
/// The value of the row named `name`, "" when the table has none.
std::string row_value(const table& t, std::string_view name) {
  for (const auto& row : t.rows)
    if (row[0] == name) return row[1];
  return "";
}
}  // namespace

TEST_CASE("without a run the report says so instead of a reliability block of zeros") {
  // Before: days 0 / 0, cost $0 and goodput 100% for a plan file without a "run" section.
  const run_inputs none{};
  const std::string text = plan_report(plan::values, none, false);
  CHECK(text.find("no run given") != std::string::npos);
  CHECK(text.find("days without / with failures") == std::string::npos);
  CHECK(text.find("effective MFU") == std::string::npos);
  CHECK_FALSE(io::plan_json(plan::values, none).contains("reliability"));
  // A token budget brings the section back, in both.
  const run_inputs run{.tokens = 1e12};
  CHECK(plan_report(plan::values, run, false).find("no run given") == std::string::npos);
  CHECK(plan_report(plan::values, run, true).find("effective MFU") != std::string::npos);
  CHECK(io::plan_json(plan::values, run).contains("reliability"));
}

TEST_CASE("the reliability table shows the checkpoint's write and what sets its interval") {
  const run_inputs run{.tokens = 1e12};
  const run_totals r = run_estimate(plan::values, run);
  const checkpoint_figures& k = r.checkpoint;
  const table t = reliability_table(r);
  // LLaMA-3 8B's 8,030,261,248 parameters at 12 bytes (fp32 master weights and two Adam moments)
  // written at LLaMA 3's 7 TB/s: 96.4 GB in 13.8 ms.
  const double write = 8'030'261'248.0 * 12.0 / 7e12;
  CHECK(k.write.value() == doctest::Approx(write).scale(0.0));
  CHECK(row_value(t, "checkpoint write / restore") ==
        format(write * second) + " / " + format(write * second));
  // Asynchronous by default: the job stalls only while the fullest GPU copies its share to host
  // memory over its host link, and the write runs in the background.
  REQUIRE(k.asynchronous);
  CHECK(k.stall.value() ==
        doctest::Approx(k.per_device.value() / plan::values.system.chip.host_link_bandwidth.value())
            .scale(0.0));
  CHECK(row_value(t, "checkpoint stall") ==
        format(k.stall) + ": copy to host memory (asynchronous checkpoint)");
  // The interval: Daly's optimum for that stall and the job's MTBF, rounded to whole steps.
  REQUIRE(k.source == interval_source::daly);
  const seconds daly = daly_interval(k.stall, r.interruptions.mtbf);
  const double steps = std::max(1.0, std::round(daly.value() / r.step.value()));
  CHECK(k.steps_between == steps);
  CHECK(row_value(t, "checkpoint interval") ==
        detail::significant(steps, 6) + (steps == 1.0 ? " step = " : " steps = ") +
            format(r.step * steps) + " (Daly's optimum " + format(daly) +
            " for the stall and MTBF, in whole steps)");
}

TEST_CASE("a synchronous checkpoint stalls for its write, and the table says so") {
  run_inputs run{.tokens = 1e12};
  run.checkpoint.asynchronous = false;
  const run_totals r = run_estimate(plan::values, run);
  CHECK_FALSE(r.checkpoint.asynchronous);
  CHECK(r.checkpoint.stall.value() == doctest::Approx(8'030'261'248.0 * 12.0 / 7e12).scale(0.0));
  CHECK(row_value(reliability_table(r), "checkpoint stall") ==
        format(r.checkpoint.stall) + ": the write to storage (synchronous checkpoint)");
}

TEST_CASE("check's serving JSON gives the smallest slice for the plan's batch") {
  // LLaMA-3 70B, int8 weights and cache, 64 sequences of 8192 tokens on a v5e 4x4: (70.55 GB of
  // weights + 64 x 1.34 GB of caches) / ((16 - 2)/1.05 GB a chip) = 11.7 chips, a slice of 16.
  // Before, `check` printed the book's batch-1 slice, 8, which holds 26 of the 64 caches.
  using serving =
      serving_plan<models::llama3_70b, systems::tpu_v5e_slice<4, 4>, mesh<axis<"tp", 16>>,
                   tensor<"tp">, weights<number_format::int8>, kv_cache<number_format::int8>,
                   serve_batch<64>, prompt_tokens<6144>, generated_tokens<2048>>;
  const double need = 70'553'706'496.0 + 64.0 * 8192 * 163'840;
  CHECK(need / ((16e9 - 2e9) / 1.05) == doctest::Approx(11.73).epsilon(0.001).scale(0.0));
  CHECK(io::serving_json(serving::values)["smallest_slice"] == 16);
  CHECK(io::serving_json(serving::values)["max_batch"] == serving::max_batch());
}

// --- what the compute is timed by, which peak MFU is of, the kernel and the recipe -------------

namespace {
using fp8_plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<2>,
                               mesh<axis<"dp", 2>, axis<"tp", 8>>, zero<1, "dp">, tensor<"tp">,
                               batch<global_sequences<64>, seq_len<8192>, micro_batch<1>>,
                               precision::fp8_tensorwise, attention_with<attention_kernel::flash3>>;
}  // namespace

TEST_CASE("the time table says the kernel model times the compute, and of which peak MFU is") {
  const step_cost c = plan::step();
  const table t = time_table(plan::values, c);
  const std::string compute_format(name_of(plan::values.setup.precision.compute));
  CHECK(t.rows[0][0] == "compute (operations timed by the kernel model; matmuls at " +
                            detail::significant(c.efficiency * 100.0, 3) + "% of the " +
                            compute_format + " peak)");
  CHECK(t.rows[7][0].rfind("MFU (of the " + std::string(name_of(c.mfu_format)) + " peak", 0) == 0);
  CHECK(c.mfu_format == number_format::bf16);  // the default of step_assumptions

  // fp8 matmuls: the matmuls' fraction is of the fp8 peak, MFU still of the bf16 peak.
  const step_cost f = fp8_plan::step();
  const table u = time_table(fp8_plan::values, f);
  CHECK(u.rows[0][0].find("% of the fp8 peak)") != std::string::npos);
  CHECK(u.rows[7][0].rfind("MFU (of the bf16 peak", 0) == 0);

  // The last row: how far the step model has measured off published runs of this chip family
  // (H100: Hopper, tests/validation's figure, which the runner checks measured_step_error with).
  CHECK(t.rows.back()[0] == "the model's mean error on published runs of this chip family");
  CHECK(t.rows.back()[1] ==
        detail::significant(measured_step_error(plan::values.system.chip) * 100.0, 3) + "%");
  CHECK(measured_step_error(plan::values.system.chip) > 0.0);
}

TEST_CASE("the text report names the recipe, the attention kernel and the MFU peak") {
  const std::string text = plan_report(plan::values, run_inputs{}, false);
  // No kernel asked for: the chip's usual one.
  const std::string usual(kernel_name(default_attention_kernel(plan::values.system.chip)));
  CHECK(text.find("attention kernel " + usual + " (the chip's usual)") != std::string::npos);
  CHECK(text.find("MFU against the bf16 peak") != std::string::npos);
  CHECK(text.find(precision_text(plan::values.setup.precision)) != std::string::npos);

  const std::string fp8 = plan_report(fp8_plan::values, run_inputs{}, false);
  CHECK(fp8.find("attention kernel flash3;") != std::string::npos);
  CHECK(fp8.find("fp8 matmuls (tensorwise scaling), attention in bf16") != std::string::npos);
}

TEST_CASE("check's JSON carries the recipe's scaling, the resolved attention kernel and mfu_format") {
  const io::json j = io::plan_json(plan::values, run_inputs{});
  CHECK(j["mfu_format"] == "bf16");
  CHECK(j["attention_kernel"] ==
        std::string(kernel_name(default_attention_kernel(plan::values.system.chip))));
  CHECK(j["precision"]["scaling"] == "none");
  CHECK(j["precision"]["compute_format"] == "bf16");

  const io::json f = io::plan_json(fp8_plan::values, run_inputs{});
  CHECK(f["attention_kernel"] == "flash3");
  CHECK(f["precision"]["name"] == std::string(precision::fp8_tensorwise::policy.name));
  CHECK(f["precision"]["compute_format"] == "fp8");
  CHECK(f["precision"]["scaling"] ==
        std::string(scaling_name(precision::fp8_tensorwise::policy.scaling)));
  CHECK(f["precision"]["attention_format"] == "bf16");

  // MFU against the fp8 peak when the plan asks for it; eager attention is the eager kernel.
  training_plan_values p = fp8_plan::values;
  p.assumptions.mfu_format = number_format::fp8;
  p.setup.eager_attention = true;
  p.setup.attention = attention_kernel::automatic;
  const io::json g = io::plan_json(p, run_inputs{});
  CHECK(g["mfu_format"] == "fp8");
  CHECK(g["attention_kernel"] == "eager");
  // The fp8 peak is the larger one (and the eager kernel the slower): a smaller fraction of it.
  CHECK(g["mfu"].get<double>() < f["mfu"].get<double>());
}

TEST_CASE("a serving report prices and validates only what it can say") {
  const auto json_of = [](const std::string& system, const std::string& extra) {
    const io::plan_file f = io::read_plan_file(
        R"({"model": "llama3-8b", "system": )" + system +
        R"(, "inference": {"batch": 8, "prompt_tokens": 512, "generated_tokens": 128)" + extra +
        "}}");
    return io::serving_json(f.serving_values());
  };
  // An H100 node: the catalogue's example price, said to be one; the family the runs measured.
  const auto h100 = json_of(R"({"preset": "nvlink_fat_tree", "nodes": 1, "chip": "h100 sxm"})", "");
  CHECK(h100["dollars_per_chip_hour"] == doctest::Approx(98.32 / 8.0).scale(0.0));
  CHECK(h100["price"].get<std::string>().rfind("an example on-demand price", 0) == 0);
  CHECK(h100["estimate_measured_error_percent"]["throughput"] ==
        doctest::Approx(fitted::serving_error.throughput).scale(0.0));
  CHECK(h100["cuda_graphs"] == true);
  // The plan's own price is "given".
  const auto priced = json_of(R"({"preset": "nvlink_fat_tree", "nodes": 1, "chip": "h100 sxm"})",
                              R"(, "price_per_chip_hour": 2.5)");
  CHECK(priced["price"] == "given");
  CHECK(priced["dollars_per_chip_hour"] == doctest::Approx(2.5).scale(0.0));
  // A CPU server: no price in the catalogue, no cost; never measured; no CUDA graphs.
  const std::string cpu =
      R"({"chip": "2x xeon platinum 8480+", "levels": [{"name": "host", "link": "pcie",
          "degree": 1, "hop_latency_us": 1}]})";
  const auto xeon = json_of(cpu, "");
  CHECK(xeon["dollars_per_chip_hour"].is_null());
  CHECK(xeon["dollars_per_million_output_tokens"].is_null());
  CHECK(xeon["price"].get<std::string>().rfind("none", 0) == 0);
  CHECK(xeon["estimate_measured_error_percent"].get<std::string>().rfind("not validated", 0) == 0);
  CHECK(!xeon.contains("cuda_graphs"));
}
