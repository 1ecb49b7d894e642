// The plan-file reader of shardplan::io: a file becomes the values the plan types build, and
// every mistake is one line naming the field.
#include <doctest/doctest.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/io/json_report.hpp>
#include <shardplan/io/launch.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/models/llama.hpp>

#include "plan_file_error.hpp"

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

}  // namespace

TEST_CASE("a plan file names a catalogue model and a system preset, and becomes their values") {
  const io::plan_file f = io::read_plan_file(small_plan);
  const training_plan_values p = f.values();
  CHECK_FALSE(f.inference);
  // Meta's released LLaMA-3 8B checkpoint: 8,030,261,248 parameters.
  CHECK(parameters(p.model).total == 8'030'261'248);
  // One DGX H100 node: 8 GPUs of 80 GB.
  CHECK(p.system.chips == 8);
  CHECK(p.system.chip.memory.value() == doctest::Approx(80e9).scale(0.0));
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

TEST_CASE("the JSON report of a plan file carries the verdict and the model's parameters") {
  const io::json j = io::plan_json(io::read_plan_file(small_plan).values(), run_inputs{});
  CHECK(j["feasible"].get<bool>());
  CHECK(j["parameters"]["total"].get<std::int64_t>() == 8'030'261'248);
  CHECK(j["mesh"].size() == 1);
  // Every part of the memory is counted in the total: the parts add up to it.
  const auto& m = j["memory_per_device_bytes"];
  const double parts = m["parameters"].get<double>() + m["gradients"].get<double>() +
                       m["optimizer"].get<double>() + m["activations"].get<double>() +
                       m["buffers"].get<double>() + m["reserve"].get<double>() +
                       m["cuda_context"].get<double>() + m["nccl_buffers"].get<double>() +
                       m["optimizer_temporaries"].get<double>() + m["fragmentation"].get<double>() -
                       m["not_live_at_peak"].get<double>();
  CHECK(parts == doctest::Approx(m["total"].get<double>()).scale(0.0));
  // The verdict and its headroom, by the same function as the plan type's `memory_verdict()`.
  const memory_assessment a = memory_assessment_of(io::read_plan_file(small_plan).values());
  CHECK(j["memory_verdict"] == std::string(verdict_name(a.verdict)));
  CHECK(j["headroom_gb"].get<double>() == doctest::Approx(a.headroom_gb).scale(0.0));
  CHECK(j["memory_policy"] == "framework");
  // Measured peaks back the band for the papers' accounting on an H100 node.
  CHECK(j["memory_validated"].get<bool>());
}

// --- finding 11 of issue 15: the reader's rough edges -------------------------------------------

TEST_CASE("a key given twice is refused, with its path, instead of the last one winning") {
  CHECK(error_of(R"({"model": "llama3-8b", "model": "llama3-70b"})") ==
        "model: is given twice (each key may appear once)");
  std::string twice = small_plan;
  twice.replace(twice.find("\"tensor\": 8"), 11, "\"tensor\": 8, \"tensor\": 4");
  CHECK(error_of(twice) == "training.parallelism.tensor: is given twice (each key may appear once)");
  // Inside an array the element's index is part of the path.
  CHECK(error_of(R"({"system": {"shape": [1, {"x": 1, "x": 2}]}})") ==
        "system.shape[1].x: is given twice (each key may appear once)");
  // The same key in two different objects is no repetition.
  CHECK(error_of(R"({"model": {"name": "a"}, "system": {"name": "b"}})").find("twice") ==
        std::string::npos);
}

TEST_CASE("an integral number such as 64.0 is a whole number; 7.5 is not") {
  std::string integral = small_plan;
  integral.replace(integral.find("\"global_sequences\": 16"), 22, "\"global_sequences\": 16.0");
  integral.replace(integral.find("\"tensor\": 8"), 11, "\"tensor\": 8.0");
  integral.replace(integral.find("\"seq_len\": 8192"), 15, "\"seq_len\": 8.192e3");
  const io::plan_file integral_file = io::read_plan_file(integral);
  const training_plan_values p = integral_file.values();
  CHECK(p.setup.degrees.tensor == 8);
  CHECK(p.setup.batch.global_tokens == 16 * 8192);
  std::string fraction = small_plan;
  fraction.replace(fraction.find("\"tensor\": 8"), 11, "\"tensor\": 7.5");
  CHECK(error_of(fraction) == "training.parallelism.tensor: must be a whole number");
  // Out of range either way, whether written as an integer or as a double.
  fraction.replace(fraction.find("7.5"), 3, "-1e30");
  CHECK(error_of(fraction) == "training.parallelism.tensor: must be at least 1");
  fraction.replace(fraction.find("-1e30"), 5, "1e30");
  CHECK(error_of(fraction) == "training.parallelism.tensor: is too large (at most 100000)");
}

TEST_CASE("load_plan_file says a directory is a directory, not malformed JSON") {
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK_THROWS_WITH_AS(io::load_plan_file(dir), ("cannot read " + dir + ": is a directory").c_str(),
                       io::bad_input);
  CHECK_THROWS_WITH_AS(io::load_plan_file("/nonexistent/plan.json"),
                       "cannot read /nonexistent/plan.json: no such file", io::bad_input);
}

TEST_CASE("load_plan_file reads standard input for -") {
  std::istringstream in(small_plan);
  std::streambuf* saved = std::cin.rdbuf(in.rdbuf());
  const io::plan_file f = io::load_plan_file("-");
  std::cin.rdbuf(saved);
  CHECK(f.values().system.chips == 8);
  CHECK(f.values().setup.degrees.tensor == 8);
}

TEST_CASE("a library rule's message is not prefixed twice, and names the field") {
  // make_system's rule reads "shardplan: a dgx h100 superpod has at most ..."; the tool puts its
  // own "shardplan: FILE: " in front, so the reader's line carries the field instead.
  CHECK(error_of(R"({"model": "llama3-8b", "system": {"preset": "dgx_h100_superpod",
                     "nodes": 4096}, "training": {}})") ==
        "system.nodes: a dgx h100 superpod has at most 2048 nodes (64 scalable units)");
  CHECK(error_of(R"({"model": "llama3-8b", "system": {"preset": "tpu_v5p_slice",
                     "shape": [6, 4, 4]}, "training": {}})") ==
        "system.shape: a tpu v5p slice larger than one 4x4x4 cube is made of whole cubes");
  CHECK(io::rule_message("shardplan: a rule") == "a rule");
  CHECK(io::rule_message("no prefix") == "no prefix");
}

TEST_CASE("an unknown chip lists the chips the catalogue knows") {
  const std::string e = error_of(R"({"model": "llama3-8b", "system": {"preset": "nvlink_fat_tree",
                                     "nodes": 1, "chip": "h100"}, "training": {}})");
  CHECK(e.rfind("system.chip: unknown chip 'h100' (known: ", 0) == 0);
  for (const char* chip : {"tpu v4p", "tpu v5e", "tpu v5p", "tpu v6e", "tpu7x", "a100 sxm4 40gb",
                           "a100 sxm4 80gb", "h100 sxm", "h800 sxm", "h200 sxm", "b200", "gb200",
                           "mi300x"})
    CHECK(e.find(chip) != std::string::npos);
}

TEST_CASE("names match whatever their case and separators: h100_sxm is h100 sxm") {
  const char* plan = R"({
    "model": "LLaMA3_8B",
    "system": { "preset": "NVLink Fat-Tree", "nodes": 2, "gpus_per_node": 4, "chip": "%s" },
    "training": { "parallelism": { "data": 8 }, "batch": { "global_sequences": 16, "seq_len": 8192 },
                  "precision": "BF16-Mixed-Adam", "recompute": "Selective" }
  })";
  for (const char* chip : {"h100 sxm", "h100_sxm", "H100-SXM"}) {
    const std::string_view raw = plan;
    const std::size_t at = raw.find("%s");
    REQUIRE(at != std::string_view::npos);
    std::string text(raw.substr(0, at));
    text += chip;
    text += raw.substr(at + 2);
    const io::plan_file f = io::read_plan_file(text);
    const training_plan_values p = f.values();
    // Meta's LLaMA-3 8B: 8,030,261,248 parameters; the H100 SXM datasheet: 80 GB.
    CHECK(parameters(p.model).total == 8'030'261'248);
    CHECK(f.model_name == "llama3-8b");
    CHECK(p.system.chip.name == "h100 sxm");
    CHECK(p.system.chip.memory.value() == doctest::Approx(80e9).scale(0.0));
    CHECK(p.system.chips == 2 * 4);
    CHECK(p.setup.recompute.kind == recompute_kind::selective);
  }
  // A different name is still refused.
  CHECK(error_of(R"({"model": "llama3 8", "system": {}, "training": {}})")
            .rfind("model: unknown preset 'llama3 8'", 0) == 0);
}

TEST_CASE("a model without a name is refused") {
  CHECK(error_of(R"({"model": {"name": ""}, "system": {}, "training": {}})") ==
        "model.name: must not be empty");
  CHECK(error_of(R"({"model": {"name": "  "}, "system": {}, "training": {}})") ==
        "model.name: must not be empty");
}

TEST_CASE("a size that applies to another preset is refused, not ignored") {
  CHECK(error_of(R"({"model": "llama3-8b", "system": {"preset": "dgx_h100_superpod", "nodes": 1,
                     "chip": "b200"}, "training": {}})") ==
        "system.chip: does not apply to the preset dgx_h100_superpod (it takes: preset, nodes)");
  CHECK(error_of(R"({"model": "llama3-8b", "system": {"preset": "tpu_v5e_slice", "shape": [4, 4],
                     "nodes": 2}, "training": {}})") ==
        "system.nodes: does not apply to the preset tpu_v5e_slice (it takes: preset, shape, "
        "slices)");
}

// --- finding 1 of issue 15: products that overflow 64 bits are refused by the reader ------------

TEST_CASE("degrees whose product overflows 64-bit integers are refused with every factor") {
  // 65536^4 = 2^64, one more than the largest 64-bit unsigned value; it wrapped to 0 devices, and
  // a model wide enough for every divisibility rule then read as "feasible" on 0 chips (its 65536
  // layers are 4096 here: a model of more than 10^15 parameters is refused before the degrees).
  const std::string wide = R"({
    "model": {"name": "wide", "layers": 4096, "d_model": 65536, "d_ff": 65536, "heads": 65536,
              "vocab": 65536},
    "system": {"preset": "dgx_h100_superpod", "nodes": 1},
    "training": {"parallelism": {"data": 65536, "tensor": 65536, "pipeline": 65536, "context": 65536},
                 "batch": {"global_sequences": 65536, "seq_len": 131072}}
  })";
  CHECK(error_of(wide) ==
        "training.parallelism: data 65536 x tensor 65536 x pipeline 65536 x context 65536 "
        "overflows 64-bit integers (at most 9223372036854775807)");
  // 2^15 · 2^16 · 2^16 · 2^16 = 2^63, one past the largest int64 (2^63 - 1): refused too.
  std::string edge = wide;
  edge.replace(edge.find("\"data\": 65536"), 13, "\"data\": 32768");
  CHECK(error_of(edge).find("overflows 64-bit integers") != std::string::npos);
  // 2^14 · 2^48 = 2^62 fits: the reader passes it on, and check() finds it larger than the system.
  edge.replace(edge.find("\"data\": 32768"), 13, "\"data\": 16384");
  CHECK(error_of(edge).empty());
  // Serving degrees multiply the same way: 1e6 · 1e5 · 1e5 · 1e5 = 1e21 > 9.22e18.
  CHECK(error_of(R"({"model": "llama3-8b", "system": {"preset": "tpu_v5e_slice", "shape": [2, 2]},
                     "inference": {"parallelism": {"data": 1000000, "expert": 100000,
                     "sequence": 100000, "tensor": 100000}, "batch": 1, "prompt_tokens": 1,
                     "generated_tokens": 1}})") ==
        "inference.parallelism: data 1000000 x expert 100000 x sequence 100000 x tensor 100000 "
        "overflows 64-bit integers (at most 9223372036854775807)");
}

TEST_CASE("a batch of more tokens than the reader takes names both of its factors") {
  // 10^9 sequences x 4096 tokens = 4.1e12 tokens, more than the 10^12 a step the reader takes.
  std::string big = small_plan;
  big.replace(big.find("\"global_sequences\": 16"), 22, "\"global_sequences\": 1000000000");
  big.replace(big.find("\"seq_len\": 8192"), 15, "\"seq_len\": 4096");
  CHECK(error_of(big) ==
        "training.batch: global_sequences 1000000000 x seq_len 4096 is too many tokens a step "
        "(at most 1000000000000)");
}

TEST_CASE("nesting deeper than any plan file needs is refused before it costs memory") {
  // A plan file nests four levels at most (training.parallelism.data); 64 are allowed, 65 not.
  const std::string deep = std::string(64, '[') + std::string(64, ']');
  CHECK(error_of(deep) == "plan file: must be a JSON object (with model, system and training)");
  const std::string deeper = std::string(65, '[') + std::string(65, ']');
  CHECK(error_of(deeper) == "plan file: nests deeper than 64 levels");
}

TEST_CASE("a model name that would need escaping in a launch config is refused") {
  // Found by the long fuzz run: "ti\ny-mla" ended a comment line of every export early.
  const std::string shape =
      R"("layers": 4, "d_model": 256, "d_ff": 512, "heads": 4, "vocab": 1100})";
  const std::string rest = R"(, "system": {"preset": "dgx_h100_superpod", "nodes": 1},
    "training": {"batch": {"global_sequences": 8, "seq_len": 2048}}})";
  auto with_name = [&](const std::string& name) {
    return R"({"model": {"name": )" + name + ", " + shape + rest;
  };
  CHECK(error_of(with_name(R"("ti\ny-mla")")) ==
        "model.name: may hold only letters, digits, spaces and . _ + - / ( )");
  CHECK(error_of(with_name(R"("a\"b")")) ==
        "model.name: may hold only letters, digits, spaces and . _ + - / ( )");
  CHECK(error_of(with_name(R"x("tiny-mla 1.5 (test)")x")).empty());
}

TEST_CASE("a comment line of a launch config keeps control characters out") {
  const io::plan_file file = io::read_plan_file(small_plan);  // values() points into it
  training_plan_values p = file.values();
  p.model.name = "two\nlines";
  const std::string out = megatron_arguments(p);
  CHECK(out.find("two lines") != std::string::npos);
  CHECK(out.find("two\nlines") == std::string::npos);
}

// --- fp8 and fp4 recipes, attention kernels and the MFU format ------------------------------------

namespace {

/// `small_plan` with `extra` (members of "training", each followed by a comma) added.
std::string small_plan_with(const std::string& extra) {
  std::string text = small_plan;
  const std::string at = "\"training\": {";
  text.insert(text.find(at) + at.size(), "\n    " + extra);
  return text;
}

}  // namespace

TEST_CASE("a plan file names every precision preset, the fp8 and fp4 recipes among them") {
  // Each name is the preset type's name in training/precision.hpp.
  const std::pair<const char*, precision_policy> presets[] = {
      {"bf16_mixed_adam", precision::bf16_mixed_adam::policy},
      {"megatron_mixed_adam", precision::megatron_mixed_adam::policy},
      {"fp8_deepseek_v3", precision::fp8_deepseek_v3::policy},
      {"fp8_delayed", precision::fp8_delayed::policy},
      {"fp8_tensorwise", precision::fp8_tensorwise::policy},
      {"fp8_rowwise", precision::fp8_rowwise::policy},
      {"mxfp8", precision::mxfp8::policy},
      {"nvfp4", precision::nvfp4::policy},
      {"bf16_adam_8bit", precision::bf16_adam_8bit::policy},
      {"scaling_book_adam", precision::scaling_book_adam::policy}};
  for (const auto& entry : presets) {
    // clang 14 cannot capture structured bindings (doctest's CAPTURE is a lambda)
    const std::string_view name = entry.first;
    const auto& policy = entry.second;
    CAPTURE(name);
    const io::plan_file f =
        io::read_plan_file(small_plan_with("\"precision\": \"" + std::string(name) + "\","));
    const precision_policy& got = f.plan.setup.precision;
    CHECK(got.name == policy.name);
    CHECK(got.compute == policy.compute);
    CHECK(got.scaling == policy.scaling);
    CHECK(got.optimizer_state_bytes == policy.optimizer_state_bytes);
  }
  const std::string unknown = error_of(small_plan_with("\"precision\": \"fp8\","));
  CHECK(unknown.rfind("training.precision: unknown preset 'fp8' (known: bf16_mixed_adam, ", 0) ==
        0);
  CHECK(unknown.find("fp8_tensorwise") != std::string::npos);
  CHECK(unknown.find("nvfp4") != std::string::npos);
}

TEST_CASE("attention_kernel names a fused kernel; eager attention stays eager_attention") {
  const std::pair<const char*, attention_kernel> kernels[] = {
      {"automatic", attention_kernel::automatic}, {"flash1", attention_kernel::flash1},
      {"flash2", attention_kernel::flash2},
      {"flash3", attention_kernel::flash3},       {"cudnn", attention_kernel::cudnn},
      {"splash", attention_kernel::splash}};
  for (const auto& entry : kernels) {
    // clang 14 cannot capture structured bindings (doctest's CAPTURE is a lambda)
    const std::string_view name = entry.first;
    const auto& kernel = entry.second;
    CAPTURE(name);
    const io::plan_file f =
        io::read_plan_file(small_plan_with("\"attention_kernel\": \"" + std::string(name) + "\","));
    CHECK(f.plan.setup.attention == kernel);
  }
  CHECK(io::read_plan_file(small_plan).plan.setup.attention == attention_kernel::automatic);
  const std::string eager = error_of(small_plan_with("\"attention_kernel\": \"eager\","));
  CHECK(eager.rfind("training.attention_kernel: \"eager\" is no fused kernel", 0) == 0);
  CHECK(eager.find("\"eager_attention\": true") != std::string::npos);
  CHECK(error_of(small_plan_with("\"attention_kernel\": \"flash4\",")) ==
        "training.attention_kernel: must be \"automatic\", \"flash1\", \"flash2\", \"flash3\", "
        "\"cudnn\" or \"splash\"");
  CHECK(error_of(small_plan_with("\"attention_kernel\": \"flash3\", \"eager_attention\": true,"))
            .rfind("training.attention_kernel: does not apply with \"eager_attention\": true", 0) ==
        0);
  // Eager attention with the default kernel is fine.
  CHECK(error_of(small_plan_with("\"attention_kernel\": \"automatic\", \"eager_attention\": true,"))
            .empty());
}

TEST_CASE("mfu_format names the peak MFU is reported against, among the chip's formats") {
  CHECK(io::read_plan_file(small_plan).plan.assumptions.mfu_format == number_format::bf16);
  const std::pair<const char*, number_format> formats[] = {
      {"bf16", number_format::bf16}, {"fp16", number_format::fp16}, {"fp8", number_format::fp8},
      {"tf32", number_format::tf32}, {"fp32", number_format::fp32}, {"int8", number_format::int8}};
  for (const auto& entry : formats) {
    // clang 14 cannot capture structured bindings (doctest's CAPTURE is a lambda)
    const std::string_view name = entry.first;
    const auto& format = entry.second;
    CAPTURE(name);
    const io::plan_file f =
        io::read_plan_file(small_plan_with("\"mfu_format\": \"" + std::string(name) + "\","));
    CHECK(f.plan.assumptions.mfu_format == format);
  }
  CHECK(error_of(small_plan_with("\"mfu_format\": \"int4\",")) ==
        "training.mfu_format: must be \"bf16\", \"fp16\", \"fp8\", \"fp4\", \"tf32\", \"fp32\" or "
        "\"int8\"");
  // The H100 has no fp4 rate (its catalogue entry has no peak_fp4).
  REQUIRE(peak(hardware::h100_sxm::figures, number_format::fp4).value() == 0.0);
  CHECK(error_of(small_plan_with("\"mfu_format\": \"fp4\",")).rfind(
            "training.mfu_format: the h100 sxm has no fp4 peak (it has: bf16, fp16, fp8, ", 0) == 0);
}

TEST_CASE("a plan file with the new keys is written and read back to the same values") {
  const char* const precisions[] = {"fp8_delayed", "fp8_tensorwise", "fp8_rowwise",
                                    "fp8_deepseek_v3", "mxfp8", "bf16_mixed_adam"};
  const char* const kernels[] = {"automatic", "flash1", "flash2", "flash3", "cudnn", "splash"};
  const char* const formats[] = {"bf16", "fp8", "fp16"};
  for (const char* precision_name : precisions)
    for (const char* kernel : kernels)
      for (const char* format : formats) {
        CAPTURE(precision_name);
        CAPTURE(kernel);
        CAPTURE(format);
        const io::plan_file f = io::read_plan_file(small_plan_with(
            "\"precision\": \"" + std::string(precision_name) + "\", \"attention_kernel\": \"" +
            kernel + "\", \"mfu_format\": \"" + format + "\","));
        const std::string text = io::plan_file_text(f.values(), f.run);
        const io::plan_file back = io::read_plan_file(text);
        CHECK(io::plan_difference(f.values(), back.values()).empty());
        CHECK(back.plan.setup.precision.name == f.plan.setup.precision.name);
        CHECK(back.plan.setup.precision.scaling == f.plan.setup.precision.scaling);
        CHECK(back.plan.setup.attention == f.plan.setup.attention);
        CHECK(back.plan.assumptions.mfu_format == f.plan.assumptions.mfu_format);
        // The text names them as the reader's tables do, the defaults left out.
        const nlohmann::json j = nlohmann::json::parse(text);
        CHECK(j["training"]["precision"] == precision_name);
        if (std::string(kernel) == "automatic") CHECK_FALSE(j["training"].contains("attention_kernel"));
        else CHECK(j["training"]["attention_kernel"] == kernel);
        if (std::string(format) == "bf16") CHECK_FALSE(j["training"].contains("mfu_format"));
        else CHECK(j["training"]["mfu_format"] == format);
      }
}

TEST_CASE("the fp4 recipe and a B200's fp4 peak round-trip too") {
  // nvfp4 on one DGX B200 node; MFU against the fp4 peak (the B200 has one).
  std::string text = small_plan_with(
      "\"precision\": \"nvfp4\", \"attention_kernel\": \"cudnn\", \"mfu_format\": \"fp4\",");
  text.replace(text.find("dgx_h100_superpod"), 17, "dgx_b200_superpod");
  const io::plan_file f = io::read_plan_file(text);
  CHECK(f.plan.setup.precision.compute == number_format::fp4);
  CHECK(f.plan.setup.precision.scaling == low_precision_scaling::nv_block16);
  CHECK(f.plan.assumptions.mfu_format == number_format::fp4);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(io::plan_difference(f.values(), back.values()).empty());
}

TEST_CASE("a precision no preset names is unwritable, scaling included") {
  const io::plan_file f = io::read_plan_file(small_plan);  // the names point into it
  training_plan_values p = f.values();
  p.setup.precision = precision::fp8_tensorwise::policy;
  p.setup.precision.name = {};
  p.setup.precision.scaling = low_precision_scaling::mx_block32;  // = mxfp8's numbers
  CHECK(nlohmann::json::parse(io::plan_file_text(p))["training"]["precision"] == "mxfp8");
  p.setup.precision.low_precision_attention = true;  // no preset puts attention in fp8
  CHECK_THROWS_AS(io::plan_file_text(p), io::unwritable_plan);
}

TEST_CASE("training.framework names whose allocations are charged, and round-trips") {
  for (const auto& entry : io::detail::framework_choices) {
    // clang 14 cannot capture structured bindings (doctest's CAPTURE is a lambda)
    const std::string_view name = entry.name;
    const auto& value = entry.value;
    CAPTURE(name);
    const io::plan_file f =
        io::read_plan_file(small_plan_with("\"framework\": \"" + std::string(name) + "\","));
    CHECK(f.plan.setup.framework == profile_of(value));
    CHECK(framework_name(value) == name);
    const std::string text = io::plan_file_text(f.values(), f.run);
    const io::plan_file back = io::read_plan_file(text);
    CHECK(io::plan_difference(f.values(), back.values()).empty());
    const nlohmann::json j = nlohmann::json::parse(text);
    // The default (generic) is left out, as a hand-written file would.
    if (value == training_framework::generic) CHECK_FALSE(j["training"].contains("framework"));
    else CHECK(j["training"]["framework"] == name);
  }
  CHECK(io::read_plan_file(small_plan).plan.setup.framework.base == training_framework::generic);
  CHECK(error_of(small_plan_with("\"framework\": \"nemo\",")) ==
        "training.framework: must be \"generic\", \"megatron_core\", \"torchtitan\", "
        "\"deepspeed\", \"maxtext\" or \"torchtune\"");
}

TEST_CASE("recompute \"mlp\" reads as the MLP recomputation and is written back") {
  const io::plan_file f = io::read_plan_file(small_plan_with("\"recompute\": \"mlp\","));
  CHECK(f.plan.setup.recompute.kind == recompute_kind::mlp);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(back.plan.setup.recompute.kind == recompute_kind::mlp);
}

TEST_CASE("recompute modules, remat policies and offload are read, written back and checked") {
  auto round_trip = [](const std::string& text) {
    const io::plan_file f = io::read_plan_file(text);
    const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
    CHECK(io::plan_difference(f.values(), back.values()).empty());
    return back.plan.setup;
  };
  const training_setup modules = round_trip(small_plan_with(
      "\"framework\": \"megatron_core\", \"recompute\": {\"modules\": [\"moe_act\", \"layernorm\"]},"));
  CHECK(modules.recompute.kind == recompute_kind::selective);
  CHECK(modules.recompute.modules == (module_bit(recompute_module::moe_act) |
                                      module_bit(recompute_module::layernorm)));
  const training_setup policy = round_trip(small_plan_with(
      "\"framework\": \"maxtext\", \"recompute\": {\"remat_policy\": \"minimal_offloaded\"},"));
  CHECK(policy.recompute.kind == recompute_kind::named);
  CHECK(policy.recompute.saved == 0);
  CHECK(policy.recompute.offloaded != 0);
  const training_setup custom = round_trip(small_plan_with(
      "\"framework\": \"maxtext\", \"recompute\": {\"saved\": [\"context\"], "
      "\"offloaded\": [\"mlpwi_0\"]},"));
  CHECK(custom.recompute.saved == tensor_bit(layer_tensor::context));
  CHECK(custom.recompute.offloaded == tensor_bit(layer_tensor::mlpwi_0));
  std::string zero2 = small_plan_with(
      "\"offload\": {\"optimizer\": 1, \"gradients_on_host\": true, \"host_gradient_bytes\": 4, "
      "\"host_staging_bytes\": 2},");
  const std::string tp = "\"tensor\": 8, \"sequence_parallel\": true";
  zero2.replace(zero2.find(tp), tp.size(), "\"data\": 8, \"zero_stage\": 2");
  CHECK(round_trip(zero2).offload == offloads::zero_offload);

  CHECK(error_of(small_plan_with("\"recompute\": {\"modules\": [\"attention\"]},")) ==
        "training.recompute.modules: 'attention' is not a recompute module (known: "
        "\"core_attn\", \"mlp\", \"moe\", \"moe_act\", \"shared_experts\", \"layernorm\" or "
        "\"mla_up_proj\")");
  CHECK(error_of(small_plan_with("\"framework\": \"torchtitan\", "
                                 "\"recompute\": {\"modules\": [\"mlp\"]},")) ==
        "training.recompute.modules: are Megatron-Core's --recompute-modules; torchtitan "
        "recomputes by its own policy (give \"selective\")");
  CHECK(error_of(small_plan_with("\"framework\": \"maxtext\", "
                                 "\"recompute\": {\"remat_policy\": \"everything\"},"))
            .starts_with("training.recompute.remat_policy: 'everything' is not a remat policy of "
                         "MaxText (known: \"full\", \"minimal\""));
  CHECK(error_of(small_plan_with("\"recompute\": {\"remat_policy\": \"minimal\"},")) ==
        "training.recompute: names tensors as MaxText's remat policies do; generic does not "
        "(give \"framework\": \"maxtext\")");
  CHECK(error_of(small_plan_with("\"framework\": \"maxtext\", \"recompute\": {\"saved\": "
                                 "[\"context\"], \"offloaded\": [\"context\"]},")) ==
        "training.recompute.offloaded: names a tensor that \"saved\" keeps on the device too");
  CHECK(error_of(small_plan_with("\"offload\": {\"gradients_on_host\": true},")) ==
        "training.offload.gradients_on_host: moves the gradient shard to the host: it needs "
        "\"zero_stage\": 2 or 3 (ZeRO-1 keeps whole gradients on the device)");
  CHECK(error_of(small_plan_with("\"offload\": {\"optimizer\": 1.5},")) ==
        "training.offload.optimizer: must be between 0.000000 and 1.000000");
  CHECK(error_of(small_plan_with("\"offload\": {\"nvme\": true},")).starts_with(
      "training.offload.nvme: unknown key"));
}

TEST_CASE("a verdict without measured peaks of its framework says it is not validated") {
  const io::plan_file maxtext =
      io::read_plan_file(small_plan_with("\"framework\": \"maxtext\","));
  CHECK_FALSE(io::plan_json(maxtext.values(), run_inputs{})["memory_validated"].get<bool>());
  CHECK(memory_table(maxtext.values()).rows.back()[1].find(
            "not validated: no measured peak of maxtext on h100") != std::string::npos);
}

TEST_CASE("compiled_loss and compiled_layers are torchtitan's and torchtune's") {
  const io::plan_file f = io::read_plan_file(
      small_plan_with("\"framework\": \"torchtitan\", \"compiled_loss\": true, "
                      "\"compiled_layers\": true,"));
  CHECK(f.plan.setup.compiled_loss);
  CHECK(f.plan.setup.compiled_layers);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(back.plan.setup.compiled_loss);
  CHECK(back.plan.setup.compiled_layers);
  CHECK(io::plan_difference(f.values(), back.values()).empty());
  CHECK(error_of(small_plan_with("\"compiled_loss\": true,")) ==
        "training.compiled_loss: is torchtitan's or torchtune's compiled loss: it needs "
        "\"framework\": \"torchtitan\" or \"torchtune\"");
  training_plan_values p = f.values();
  p.setup.framework = profiles::megatron_core;
  CHECK_THROWS_AS(io::plan_file_text(p), io::unwritable_plan);
}

TEST_CASE("torchtune's compile, chunked loss and optimizer in backward need torchtune") {
  // The small plan's 16 sequences (one replica) in one micro-batch of 16.
  std::string text = small_plan_with(
      "\"framework\": \"torchtune\", \"compiled_loss\": true, \"compiled_layers\": true, "
      "\"chunked_loss\": true, \"optimizer_in_backward\": true,");
  const std::string batch = "\"seq_len\": 8192";
  text.insert(text.find(batch) + batch.size(), ", \"micro_batch\": 16");
  const io::plan_file f = io::read_plan_file(text);
  CHECK(f.plan.setup.compiled_layers);
  CHECK(f.plan.setup.chunked_loss);
  CHECK(f.plan.setup.optimizer_in_backward);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(io::plan_difference(f.values(), back.values()).empty());
  CHECK(error_of(small_plan_with("\"framework\": \"torchtune\", \"optimizer_in_backward\": "
                                 "true,")) ==
        "training.optimizer_in_backward: needs one micro-batch per step and no pipeline "
        "(torchtune refuses it with gradient accumulation)");
  CHECK(error_of(small_plan_with("\"chunked_loss\": true,")) ==
        "training.chunked_loss: is torchtune's chunked cross-entropy: it needs \"framework\": "
        "\"torchtune\"");
  training_plan_values p = f.values();
  p.setup.framework = profiles::torchtitan;
  CHECK_THROWS_AS(io::plan_file_text(p), io::unwritable_plan);
}

TEST_CASE("grad_reduce_in_bf16 is Megatron-Core's flag and needs that framework") {
  const io::plan_file f = io::read_plan_file(
      small_plan_with("\"framework\": \"megatron_core\", \"grad_reduce_in_bf16\": true,"));
  CHECK(f.plan.setup.grad_reduce_in_bf16);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(back.plan.setup.grad_reduce_in_bf16);
  CHECK(io::plan_difference(f.values(), back.values()).empty());
  CHECK(error_of(small_plan_with("\"grad_reduce_in_bf16\": true,")) ==
        "training.grad_reduce_in_bf16: is Megatron-Core's flag: it needs \"framework\": "
        "\"megatron_core\"");
  training_plan_values p = f.values();
  p.setup.framework = profiles::torchtitan;
  CHECK_THROWS_AS(io::plan_file_text(p), io::unwritable_plan);
}

TEST_CASE("training.memory_policy and memory_margin_percent are read, written and round-trip") {
  for (const auto& entry : io::detail::memory_policy_choices) {
    const std::string name(entry.name);
    const io::plan_file f = io::read_plan_file(
        small_plan_with("\"framework\": \"torchtitan\", \"memory_policy\": \"" + name +
                        "\", \"memory_margin_percent\": 12.5,"));
    CHECK(f.plan.setup.memory_policy == entry.value);
    CHECK(memory_policy_name(entry.value) == name);
    CHECK(f.plan.setup.memory_margin == 0.125);
    const std::string text = io::plan_file_text(f.values(), f.run);
    const io::plan_file back = io::read_plan_file(text);
    CHECK(io::plan_difference(f.values(), back.values()).empty());
    const auto j = nlohmann::json::parse(text);
    CHECK(j["training"]["memory_policy"] == name);
    CHECK(j["training"]["memory_margin_percent"].get<double>() == 12.5);
  }
  // The defaults: the framework's terms and the measured error band.
  const io::plan_file plain = io::read_plan_file(small_plan);
  CHECK(plain.plan.setup.memory_margin == memory_error_band);
  CHECK_FALSE(nlohmann::json::parse(io::plan_file_text(plain.values(), plain.run))["training"]
                  .contains("memory_margin_percent"));
  // A reserve given is charged under every framework, as reserve<> is, unless the policy says.
  const io::plan_file reserved = io::read_plan_file(
      small_plan_with("\"framework\": \"torchtitan\", \"reserve\": {\"gigabytes\": 1},"));
  CHECK(reserved.plan.setup.memory_policy == training_memory_policy::reserve);
  CHECK(error_of(small_plan_with("\"memory_policy\": \"none\",")) ==
        "training.memory_policy: must be \"framework\", \"book\" or \"reserve\"");
  CHECK(error_of(small_plan_with("\"memory_margin_percent\": 100,")) ==
        "training.memory_margin_percent: must be at least 0 and less than 100");
}

TEST_CASE("tp_comm_overlap is megatron-core's or torchtitan's and needs sequence parallelism") {
  const io::plan_file f = io::read_plan_file(
      small_plan_with("\"framework\": \"megatron_core\", \"tp_comm_overlap\": true,"));
  CHECK(f.plan.setup.tp_comm_overlap);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(back.plan.setup.tp_comm_overlap);
  CHECK(io::plan_difference(f.values(), back.values()).empty());
  CHECK(error_of(small_plan_with("\"tp_comm_overlap\": true,")) ==
        "training.tp_comm_overlap: is Megatron-Core's --tp-comm-overlap or torchtitan's async "
        "TP: it needs \"framework\": \"megatron_core\" or \"torchtitan\"");
  std::string no_sp =
      small_plan_with("\"framework\": \"megatron_core\", \"tp_comm_overlap\": true,");
  const std::string sp = "\"sequence_parallel\": true";
  no_sp.replace(no_sp.find(sp), sp.size(), "\"sequence_parallel\": false");
  CHECK(error_of(no_sp) ==
        "training.tp_comm_overlap: needs \"sequence_parallel\": true (Megatron-LM refuses "
        "--tp-comm-overlap without --sequence-parallel; async TP rewrites sequence "
        "parallelism's collectives)");
  CHECK(error_of(small_plan_with("\"framework\": \"torchtitan\", \"tp_comm_overlap\": true,")) ==
        "training.tp_comm_overlap: is async TP here, which the framework runs only compiled: "
        "it needs \"compiled_layers\": true (as torchtitan requires the model compiled)");
  CHECK(io::read_plan_file(small_plan_with("\"framework\": \"torchtitan\", \"compiled_layers\": "
                                           "true, \"tp_comm_overlap\": true,"))
            .plan.setup.tp_comm_overlap);
}

TEST_CASE("sync_tp_backward is Megatron-LM's synchronous input-gradient all-reduce") {
  std::string text =
      small_plan_with("\"framework\": \"megatron_core\", \"sync_tp_backward\": true,");
  const io::plan_file f = io::read_plan_file(text);
  CHECK(f.plan.setup.sync_tp_backward);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(back.plan.setup.sync_tp_backward);
  CHECK(io::plan_difference(f.values(), back.values()).empty());
  CHECK(error_of(small_plan_with("\"sync_tp_backward\": true,")) ==
        "training.sync_tp_backward: is Megatron-LM's --no-async-tensor-model-parallel-allreduce: "
        "it needs \"framework\": \"megatron_core\"");
  training_plan_values p = f.values();
  p.setup.framework = profiles::maxtext;
  CHECK_THROWS_AS(io::plan_file_text(p), io::unwritable_plan);
}

namespace {
// The small plan under DeepSpeed with `flag` set, its tensor parallelism replaced by 8-way data
// parallelism at ZeRO stage `stage`.
std::string deepspeed_plan_with(const std::string& flag, int stage) {
  std::string text = small_plan_with("\"framework\": \"deepspeed\", \"" + flag + "\": true,");
  const std::string tp = "\"tensor\": 8, \"sequence_parallel\": true";
  text.replace(text.find(tp), tp.size(),
               "\"data\": 8, \"zero_stage\": " + std::to_string(stage));
  return text;
}
}  // namespace

TEST_CASE("overlap_comm is DeepSpeed's switch at zero-1 and -2") {
  const io::plan_file f = io::read_plan_file(deepspeed_plan_with("overlap_comm", 2));
  CHECK(f.plan.setup.overlap_comm);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(back.plan.setup.overlap_comm);
  CHECK(io::plan_difference(f.values(), back.values()).empty());
  // The small plan has no ZeRO stage; other frameworks have no such switch.
  CHECK(error_of(small_plan_with("\"framework\": \"deepspeed\", \"overlap_comm\": true,")) ==
        "training.overlap_comm: is DeepSpeed's switch at ZeRO-1 and -2: it needs \"zero_stage\": "
        "1 or 2 (ZeRO-3 overlaps by default)");
  CHECK(error_of(small_plan_with("\"overlap_comm\": true,")) ==
        "training.overlap_comm: is DeepSpeed's zero_optimization.overlap_comm: it needs "
        "\"framework\": \"deepspeed\"");
  training_plan_values p = f.values();
  p.setup.degrees.zero_stage = 3;
  CHECK_THROWS_AS(io::plan_file_text(p), io::unwritable_plan);
}

TEST_CASE("zero3_per_tensor is DeepSpeed's ZeRO-3 of 2021 and needs DeepSpeed and ZeRO-3") {
  const io::plan_file f = io::read_plan_file(deepspeed_plan_with("zero3_per_tensor", 3));
  CHECK(f.plan.setup.zero3_per_tensor);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(back.plan.setup.zero3_per_tensor);
  CHECK(io::plan_difference(f.values(), back.values()).empty());
  // The small plan has no ZeRO stage.
  CHECK(error_of(small_plan_with("\"framework\": \"deepspeed\", \"zero3_per_tensor\": true,")) ==
        "training.zero3_per_tensor: is how DeepSpeed's ZeRO-3 gathered parameters: it needs "
        "\"zero_stage\": 3");
  training_plan_values p = f.values();
  p.setup.framework = profiles::torchtitan;
  CHECK_THROWS_AS(io::plan_file_text(p), io::unwritable_plan);
  p = f.values();
  p.setup.degrees.zero_stage = 1;
  CHECK_THROWS_AS(io::plan_file_text(p), io::unwritable_plan);
}

TEST_CASE("the ends of the pipeline are read, written back and refused without a pipeline") {
  // LLaMA 3 405B on 16 stages as Megatron-Core lays it out with the first and last stage given
  // (--decoder-first-pipeline-num-layers 7 --decoder-last-pipeline-num-layers 7): 112 layers
  // left for 14 stages, 8 each.
  const std::string text = R"({
    "model": "llama3-405b",
    "system": { "preset": "dgx_h100_superpod", "nodes": 256 },
    "training": {
      "parallelism": { "data": 16, "tensor": 8, "pipeline": 16, "zero_stage": 1,
                       "sequence_parallel": true, "first_stage_layers": 7,
                       "last_stage_layers": 7 },
      "batch": { "global_sequences": 256, "seq_len": 8192 },
      "framework": "megatron_core"
    }
  })";
  const io::plan_file f = io::read_plan_file(text);
  CHECK(f.plan.setup.degrees.first_stage_layers == 7);
  CHECK(layers_on_stage(f.plan.model, f.plan.setup, 1) == 8);
  const io::plan_file back = io::read_plan_file(io::plan_file_text(f.values(), f.run));
  CHECK(io::plan_difference(f.values(), back.values()).empty());
  CHECK(back.plan.setup.degrees.last_stage_layers == 7);
  // torchtitan counts the embedding and the output as a layer each; a fork says otherwise, and
  // its weights are written back.
  std::string fork = text;
  fork.replace(fork.find("\"first_stage_layers\": 7,"), 24, "");
  fork.replace(fork.find("\"last_stage_layers\": 7 "), 23, "\"uneven_stages\": true ");
  fork.replace(fork.find("\"megatron_core\""), 15,
               R"({"base": "torchtitan", "pipeline_embedding_weight": 0})");
  const io::plan_file t = io::read_plan_file(fork);
  CHECK(t.plan.setup.framework.pipeline_embedding_weight == 0);
  CHECK(t.plan.setup.framework.pipeline_loss_weight == 1);
  // 127 units over 16: 7 and 15 one more, the earliest; the last 7 - 1 = 6, the first 8.
  CHECK(layers_on_stage(t.plan.model, t.plan.setup, 0) == 8);
  CHECK(layers_on_stage(t.plan.model, t.plan.setup, 15) == 6);
  const io::plan_file t_back = io::read_plan_file(io::plan_file_text(t.values(), t.run));
  CHECK(t_back.plan.setup.framework.pipeline_embedding_weight == 0);
  CHECK(error_of(small_plan_with("\"framework\": {\"base\": \"torchtitan\", "
                                 "\"pipeline_loss_weight\": -1},")) ==
        "training.framework.pipeline_loss_weight: must be at least 0");
  std::string flat = small_plan;
  flat.replace(flat.find("\"tensor\": 8"), 11, "\"tensor\": 8, \"first_stage_layers\": 3");
  CHECK(error_of(flat) == "training.parallelism.first_stage_layers: needs \"pipeline\" above 1");
}
