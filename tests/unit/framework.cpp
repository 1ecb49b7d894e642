// A framework as one described value (training/framework.hpp): the shipped profiles, a user's
// fork in C++ and in a plan file, and the one list of behaviours the reader, the writer and the
// C++ header writer share.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/plan_header.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

#include "plan_file_error.hpp"

using namespace shardplan;

namespace {

// Megatron-Core as a fork that reduces its gradients in bf16 without saying so by a flag.
constexpr framework_profile bf16_grads_fork = [] {
  framework_profile p = profiles::megatron_core;
  p.name = "megatron_fork";
  p.fp32_main_gradients = false;
  return p;
}();

template <class Framework>
using fork_plan =
    training_plan<models::llama3_8b, systems::dgx_h100_superpod<1>,
                  mesh<axis<"dp", 8>>, data<"dp">, batch<global_sequences<8>, seq_len<4096>>,
                  precision::bf16_mixed_adam, Framework>;

// LLaMA-3 8B on one DGX H100 node, data parallel over 8 (a plan file's form of fork_plan).
std::string plan_with_framework(const std::string& framework) {
  return R"({
  "model": "llama3-8b",
  "system": { "preset": "dgx_h100_superpod", "nodes": 1 },
  "training": {
    "parallelism": { "data": 8 },
    "batch": { "global_sequences": 8, "seq_len": 4096 },
    "framework": )" +
         framework + R"(
  }
})";
}

}  // namespace

TEST_CASE("each family's profile carries its own name and the source it was read from") {
  for (training_framework f :
       {training_framework::generic, training_framework::megatron_core,
        training_framework::torchtitan, training_framework::deepspeed, training_framework::maxtext,
        training_framework::torchtune}) {
    const framework_profile& p = profile_of(f);
    CAPTURE(p.name);
    CHECK(p.base == f);
    CHECK_FALSE(p.source.empty());
  }
  CHECK(profiles::megatron_core.name == "megatron_core");
  CHECK(training_setup{}.framework == profiles::generic);
}

TEST_CASE("a fork described in C++ changes only what it says: bf16 main gradients") {
  // Megatron-Core keeps fp32 main gradients (4 bytes a parameter, its distributed optimizer's
  // table: 6 + 12/d bytes with bf16 parameters); the fork keeps them in the parameters' bf16, 2.
  const memory_breakdown core = fork_plan<framework::megatron_core>::memory_per_device();
  const memory_breakdown fork = fork_plan<framework::described<bf16_grads_fork>>::memory_per_device();
  CHECK(core.gradients.value() / fork.gradients.value() == doctest::Approx(4.0 / 2.0).scale(0.0));
  CHECK(core.parameters.value() == fork.parameters.value());
  CHECK(core.optimizer.value() == fork.optimizer.value());
  CHECK(fork_plan<framework::described<bf16_grads_fork>>::values.setup.framework.name ==
        "megatron_fork");
}

TEST_CASE("a plan file's framework object starts from its base and changes the keys it gives") {
  const io::plan_file named = io::read_plan_file(plan_with_framework(R"("megatron_core")"));
  CHECK(named.plan.setup.framework == profiles::megatron_core);
  const io::plan_file same = io::read_plan_file(plan_with_framework(R"({"base": "megatron_core"})"));
  CHECK(same.plan.setup.framework == profiles::megatron_core);
  const io::plan_file fork = io::read_plan_file(
      plan_with_framework(R"({"base": "megatron_core", "fp32_main_gradients": false})"));
  framework_profile expected = profiles::megatron_core;
  expected.fp32_main_gradients = false;
  CHECK(fork.plan.setup.framework == expected);
  // The same fork as the C++ plan gives the same memory (a plan file and a type never disagree).
  const memory_breakdown from_file = memory_per_device(fork.plan.model, fork.plan.setup);
  const memory_breakdown from_type =
      fork_plan<framework::described<bf16_grads_fork>>::memory_per_device();
  CHECK(from_file.total.value() == doctest::Approx(from_type.total.value()).scale(0.0));
}

TEST_CASE("a described framework is written back as its base and what differs, and round-trips") {
  const io::plan_file fork = io::read_plan_file(plan_with_framework(
      R"({"base": "deepspeed", "loss": "korthikanti", "bucket_size": 2e8, "pipeline_zero_0_or_1_only": false})"));
  const std::string text = io::plan_file_text(fork.values(), fork.run);
  const nlohmann::json j = nlohmann::json::parse(text);
  CHECK(j["training"]["framework"] ==
        nlohmann::json::parse(
            R"({"base": "deepspeed", "loss": "korthikanti", "bucket_size": 2e8, "pipeline_zero_0_or_1_only": false})"));
  CHECK(io::plan_difference(fork.values(), io::read_plan_file(text).values()).empty());
  // A shipped profile is written by its name.
  const io::plan_file titan = io::read_plan_file(plan_with_framework(R"({"base": "torchtitan"})"));
  CHECK(nlohmann::json::parse(io::plan_file_text(titan.values(), titan.run))["training"]
                             ["framework"] == "torchtitan");
}

TEST_CASE("every behaviour is read, written and put in the C++ header through one list") {
  // Each behaviour changed from megatron_core's value, one at a time: the reader takes it, the
  // writer writes that key alone beside the base, and the header names the member.
  int visited = 0;
  for_each_behaviour([&](const char* key, auto member, const char*) {
    CAPTURE(key);
    ++visited;
    using T = std::remove_cvref_t<decltype(profiles::megatron_core.*member)>;
    framework_profile changed = profiles::megatron_core;
    std::string given;
    if constexpr (std::is_same_v<T, bool>) {
      changed.*member = !(changed.*member);
      given = changed.*member ? "true" : "false";
    } else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::int64_t>) {
      changed.*member = changed.*member + 3;
      given = nlohmann::json(changed.*member).dump();
    } else {
      for (const auto& choice : io::detail::choices_of(T{}))
        if (choice.value != changed.*member) {
          changed.*member = choice.value;
          given = "\"" + std::string(choice.name) + "\"";
          break;
        }
    }
    REQUIRE_FALSE(given.empty());
    const std::string object =
        std::string(R"({"base": "megatron_core", ")") + key + "\": " + given + "}";
    const io::plan_file f = io::read_plan_file(plan_with_framework(object));
    CHECK(f.plan.setup.framework == changed);
    const nlohmann::json written =
        nlohmann::json::parse(io::plan_file_text(f.values(), f.run))["training"]["framework"];
    CHECK(written == nlohmann::json::parse(object));
    const std::string header = io::plan_header_text(f.values(), "fork", "test");
    CHECK(header.find(std::string(".") + key + " = ") != std::string::npos);
  });
  CHECK(visited >= 30);
}

TEST_CASE("the framework reference, docs/framework-profiles.md, is the profiles' table") {
  std::ifstream in(SHARDPLAN_SOURCE_DIR "/docs/framework-profiles.md");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  const std::string table = io::detail::framework_reference();
  CHECK(text.str().find(table) != std::string::npos);
  // Each behaviour has its row.
  for_each_behaviour([&](const char* key, auto, const char* what) {
    CAPTURE(key);
    CHECK(table.find(std::string("| `") + key + "` | " + what + " |") != std::string::npos);
  });
}

TEST_CASE("a framework's flags go with the behaviours that read them, a fork's too") {
  // LLaMA-3 8B, ZeRO-1 over 8 GPUs, under `framework` with DeepSpeed's overlap_comm given.
  auto with_overlap_comm = [](const std::string& framework) {
    return R"({"model": "llama3-8b", "system": {"preset": "dgx_h100_superpod", "nodes": 1},
      "training": {"parallelism": {"data": 8, "zero_stage": 1},
                   "batch": {"global_sequences": 8, "seq_len": 4096},
                   "overlap_comm": true, "framework": )" +
           framework + "}}";
  };
  CHECK(error_of(with_overlap_comm(R"("deepspeed")")).empty());
  // A fork of the papers' accounting that hides its reduction below ZeRO-3 only with the flag,
  // as DeepSpeed does, reads it.
  const io::plan_file fork = io::read_plan_file(
      with_overlap_comm(R"({"base": "generic", "reduction_overlap_needs_flag": true})"));
  CHECK(fork.plan.setup.overlap_comm);
  // A DeepSpeed fork that does not, and Megatron-Core, do not.
  CHECK(error_of(with_overlap_comm(R"({"base": "deepspeed", "reduction_overlap_needs_flag": false})")) ==
        "training.overlap_comm: is DeepSpeed's zero_optimization.overlap_comm: it needs "
        "\"framework\": \"deepspeed\"");
  CHECK(error_of(with_overlap_comm(R"("megatron_core")")) ==
        "training.overlap_comm: is DeepSpeed's zero_optimization.overlap_comm: it needs "
        "\"framework\": \"deepspeed\"");
}

TEST_CASE("a framework object that is wrong is one line naming the key") {
  CHECK(error_of(plan_with_framework(R"({"fp32_main_gradients": false})")) ==
        "training.framework.base: missing");
  CHECK(error_of(plan_with_framework(R"({"base": "nemo"})")) ==
        "training.framework.base: must be \"generic\", \"megatron_core\", \"torchtitan\", "
        "\"deepspeed\", \"maxtext\" or \"torchtune\"");
  CHECK(error_of(plan_with_framework(R"({"base": "deepspeed", "loss": "big"})")) ==
        "training.framework.loss: must be \"korthikanti\", \"fp32_softmax\", \"torchtitan\" or "
        "\"torchtune\"");
  CHECK(error_of(plan_with_framework(R"({"base": "deepspeed", "repeats_kv": 1})")) ==
        "training.framework.repeats_kv: must be true or false");
  CHECK(error_of(plan_with_framework(R"({"base": "deepspeed", "bucket_size": -1})")) ==
        "training.framework.bucket_size: must be a number from 0 to 1e15");
  CHECK(error_of(plan_with_framework(R"({"base": "deepspeed", "bucket_size": 0})")) ==
        "training.framework.bucket_size: must be above 0 with \"bucket\": \"elements\"");
  CHECK(error_of(plan_with_framework(R"({"base": "deepspeed", "bucket": "layer", "bucket_size": 0})"))
            .empty());
  CHECK(error_of(plan_with_framework(R"({"base": "deepspeed", "fp32_main_grads": true})"))
            .rfind("training.framework.fp32_main_grads: unknown key (known: base, ", 0) == 0);
  CHECK(error_of(plan_with_framework("7")) ==
        "training.framework: must be a framework's name or an object with its \"base\"");
}
