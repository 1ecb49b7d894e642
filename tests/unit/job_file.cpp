// Tests of io/job_file.hpp: a job file becomes a training or serving job with its systems and
// prices, keeps its names when moved, says one line naming the field on a mistake, and the
// comparison's JSON carries the verdict and each system's figures.
#include <doctest/doctest.h>

#include <shardplan/io/job_file.hpp>
#include <string>
#include <utility>

using namespace shardplan;

namespace {

std::string error_of(const std::string& text) {
  try {
    (void)io::read_job_file(text);
  } catch (const io::bad_input& e) {
    return e.what();
  }
  return "";
}

constexpr const char* train_job = R"({
  "model": {"name": "tiny", "layers": 2, "d_model": 64, "d_ff": 128, "heads": 8, "vocab": 100},
  "train": {"tokens": 1e9, "days": 2, "chips": 8, "global_tokens": 65536, "seq_len": 64},
  "families": ["dgx_h100_superpod", "tpu_v5p_slice"],
  "systems": [{"preset": "nvlink_fat_tree", "nodes": 1,
               "chip": {"base": "h100 sxm", "name": "h100 capped", "power_w": 500}}],
  "price_per_chip_hour": 2.0,
  "prices": {"tpu v5p": 4.0, "h100 capped": 1.5},
  "energy": {"pue": 1.25, "price_per_kwh": 0.1, "idle_percent": 30}
})";

}  // namespace

TEST_CASE("a training job file becomes the job, its systems and their prices") {
  io::job_file moved = io::read_job_file(train_job);
  const io::job_file f = std::move(moved);  // the names live behind pointers
  CHECK_FALSE(f.serving_job_given);
  const training_job t = f.training();
  CHECK(t.model.name == "tiny");
  CHECK(t.tokens == 1e9);
  CHECK(t.deadline_days == 2.0);
  CHECK(t.chips == 8);
  CHECK(t.energy.pue == 1.25);
  CHECK(t.energy.idle_share == doctest::Approx(0.3).scale(0.0));
  const std::vector<compared_system> systems = f.systems();
  REQUIRE(systems.size() == 3);
  CHECK(systems[0].family == "dgx_h100_superpod");
  CHECK(systems[1].figures.chips == 8);  // a 2x2x2 v5p
  CHECK(systems[2].figures.chip.name == "h100 capped");
  CHECK(systems[2].figures.chip.power_watts == 500.0);
  const std::vector<double> prices = f.prices_of(systems);
  CHECK(prices == std::vector<double>{2.0, 4.0, 1.5});
  // Compared: the JSON has a figure set for every system.
  const std::vector<training_option> options = compare_training(t, systems, prices);
  const nlohmann::json j = io::training_comparison_json(options, t.energy);
  CHECK(j["systems"].size() == 3);
  CHECK(j["assumptions"].size() > 3);
  for (const auto& s : j["systems"]) {
    CHECK(s["found"].get<bool>());
    CHECK(s["kwh"].get<double>() > 0.0);
  }
}

TEST_CASE("a serving job file reads its workload, targets and formats") {
  const io::job_file f = io::read_job_file(R"({"model": "llama3-8b",
      "serve": {"prompt_tokens": 512, "generated_tokens": 64, "ttft_ms": 800, "tpot_ms": 40,
                "weights": "fp8", "engine": "vllm"},
      "families": ["dgx_h100_superpod", "xeon_8480_2s"]})");
  CHECK(f.serving_job_given);
  const serving_job s = f.serving();
  CHECK(s.time_to_first_token.value() == doctest::Approx(0.8).scale(0.0));
  CHECK(s.time_per_output_token.value() == doctest::Approx(0.04).scale(0.0));
  CHECK(s.weights == number_format::fp8);
  CHECK(s.engine == serving_engine::vllm);
  const std::vector<compared_system> systems = f.systems();
  REQUIRE(systems.size() == 2);
  CHECK(systems[1].figures.chip.name == "2x xeon platinum 8480+");
  const nlohmann::json j =
      io::serving_comparison_json(compare_serving(s, systems, f.prices_of(systems)), s.energy);
  CHECK(j["systems"].size() == 2);
}

TEST_CASE("a job file's mistake is one line naming the field") {
  CHECK(error_of(R"({"model": "llama3-8b"})") ==
        "train: a job file has exactly one of train and serve");
  CHECK(error_of(R"({"model": "llama3-8b", "train": {"tokens": 1e9, "chips": 8, "seq_len": 64,
        "global_tokens": 100}})") ==
        "train.global_tokens: must be a whole number of sequences of seq_len tokens");
  CHECK(error_of(R"({"model": "llama3-8b", "serve": {"prompt_tokens": 1, "generated_tokens": 1},
        "families": ["tpu_v5p_slice", "nvl72"]})")
            .rfind("families[1]: unknown family 'nvl72' (known: ", 0) == 0);
  CHECK(error_of(R"({"model": "llama3-8b", "serve": {"prompt_tokens": 1, "generated_tokens": 1},
        "systems": [{"preset": "gb200_nvl72"}]})")
            .rfind("systems[0].racks: ", 0) == 0);
}
