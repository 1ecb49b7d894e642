// The plan-file reader of shardplan::io: a file becomes the values the plan types build, and
// every mistake is one line naming the field.
#include <doctest/doctest.h>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/io/json_report.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/models/llama.hpp>

using namespace shardplan;

namespace {

// LLaMA-3 8B on one DGX H100 node (8 GPUs): TP 8, 16 sequences of 8192 tokens.
constexpr const char* small_plan = R"({
  "model": "llama3-8b",
  "system": { "preset": "dgx_h100_superpod", "nodes": 1 },
  "training": {
    "parallelism": { "tensor": 8, "sequence_parallel": true },
    "batch": { "global_sequences": 16, "seq_len": 8192 }
  }
})";

std::string error_of(const std::string& text) {
  try {
    (void)io::read_plan_file(text);
  } catch (const io::bad_input& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a plan file names a catalogue model and a system preset, and becomes their values") {
  const io::plan_file f = io::read_plan_file(small_plan);
  const training_plan_values p = f.values();
  CHECK_FALSE(f.inference);
  // Meta's released LLaMA-3 8B checkpoint: 8,030,261,248 parameters.
  CHECK(parameters(p.model).total == 8'030'261'248);
  // One DGX H100 node: 8 GPUs of 80 GB.
  CHECK(p.system.chips == 8);
  CHECK(p.system.chip.memory.value() == doctest::Approx(80e9));
  // 16 sequences x 8192 tokens = 131,072 tokens per step.
  CHECK(p.setup.batch.global_tokens == 131'072);
  CHECK(p.setup.degrees.tensor == 8);
}

TEST_CASE("a plan file's mistake is one line naming the field") {
  std::string bad = small_plan;
  bad.replace(bad.find("\"tensor\": 8"), 11, "\"tensor\": 0");
  CHECK(error_of(bad) == "training.parallelism.tensor: must be at least 1");
  CHECK(error_of("{").rfind("malformed JSON", 0) == 0);
  CHECK(error_of(R"({"model": "llama3-8b"})") == "system: missing");
}

TEST_CASE("load_plan_file says which file it cannot read") {
  CHECK_THROWS_WITH_AS(io::load_plan_file("/nonexistent/plan.json"),
                       "cannot read /nonexistent/plan.json", io::bad_input);
}

TEST_CASE("the JSON report of a plan file carries the verdict and the model's parameters") {
  const io::json j = io::plan_json(io::read_plan_file(small_plan).values(), run_inputs{});
  CHECK(j["feasible"].get<bool>());
  CHECK(j["parameters"]["total"].get<std::int64_t>() == 8'030'261'248);
  CHECK(j["mesh"].size() == 1);
  // Every part of the memory is counted in the total: the parts add up to it.
  const auto& m = j["memory_per_device_bytes"];
  const double parts = m["parameters"].get<double>() + m["gradients"].get<double>() +
                       m["optimizer"].get<double>() + m["activations"].get<double>() +
                       m["buffers"].get<double>() + m["reserve"].get<double>();
  CHECK(parts == doctest::Approx(m["total"].get<double>()));
}
