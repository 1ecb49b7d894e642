// Every launch-config export, for plans of each kind, read back by the target's own kind of parser
// (bash for the Megatron-LM and torchtitan arguments, toml++ for the torchtitan v0.2.2 TOML,
// yaml-cpp for MaxText, nlohmann::json in strict mode for DeepSpeed), every key or flag checked
// against the list pinned from the target's sources (tests/export/*.txt, written by
// extract_keys.py) and the degrees and batch checked against the plan, with the targets' own
// arithmetic written out here.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <stdlib.h>  // mkdtemp
#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/io/launch.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace shardplan;
namespace fs = std::filesystem;

namespace {

// --- the pinned key lists ------------------------------------------------------------------------

/// A list of tests/export/: the repository and commit it was taken from, and each name's kinds
/// ("" for a plain key or flag; a name may have several, as a torchtitan table that is also a
/// converter's name).
struct key_list {
  std::string repository;
  std::string commit;
  std::set<std::pair<std::string, std::string>> entries;

  bool has(const std::string& name, std::string_view kind = {}) const {
    return entries.count({name, std::string(kind)}) != 0;
  }
};

key_list load_list(const char* file) {
  key_list list;
  std::ifstream in(fs::path(SHARDPLAN_EXPORT_DIR) / file);
  REQUIRE_MESSAGE(in.good(), "cannot read tests/export/" << file);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# repository: ", 0) == 0) list.repository = line.substr(14);
    if (line.rfind("# commit: ", 0) == 0) list.commit = line.substr(10);
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.find(' ');
    list.entries.insert(
        {line.substr(0, space), space == std::string::npos ? "" : line.substr(space + 1)});
  }
  REQUIRE(list.commit.size() == 40);
  return list;
}

const key_list& megatron_flags() {
  static const key_list l = load_list("megatron_flags.txt");
  return l;
}
const key_list& titan_options() {
  static const key_list l = load_list("torchtitan_cli_options.txt");
  return l;
}
const key_list& titan_toml_keys() {
  static const key_list l = load_list("torchtitan_toml_keys.txt");
  return l;
}
const key_list& maxtext_keys() {
  static const key_list l = load_list("maxtext_keys.txt");
  return l;
}
const key_list& deepspeed_keys() {
  static const key_list l = load_list("deepspeed_keys.txt");
  return l;
}

// --- bash ----------------------------------------------------------------------------------------

/// A fresh directory under the system's temporary directory.
fs::path fresh_directory() {
  std::string pattern = (fs::temp_directory_path() / "shardplan_export_XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

/// The standard output and exit status of `command` run by /bin/sh.
struct shell_result {
  int status = -1;
  std::string out;
};

shell_result run(const std::string& command) {
  shell_result r;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  for (std::size_t got; (got = fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    r.out.append(buffer, got);
  r.status = pclose(pipe);
  return r;
}

/// A bash script's array, as bash reads it: the script must pass `bash -n`, and is then sourced in
/// `dir` (a fresh directory) and the array printed NUL-separated. Sourcing must create no file
/// there (an expanded `$(touch x)` or backtick would).
std::vector<std::string> bash_array(const std::string& script, std::string_view array) {
  const fs::path dir = fresh_directory();
  const fs::path file = dir / "args.sh";
  {
    std::ofstream out(file, std::ios::binary);
    out << script;
  }
  CHECK_MESSAGE(run("bash -n '" + file.string() + "' 2>&1").status == 0, "bash -n fails on\n"
                                                                             << script);
  const shell_result r = run("cd '" + dir.string() + "' && bash -c 'set -eu; source ./args.sh; " +
                             "printf \"%s\\0\" \"${" + std::string(array) + "[@]}\"'");
  CHECK(r.status == 0);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  CHECK_MESSAGE(entries == 1, "sourcing the export created files in " << dir);
  fs::remove_all(dir);
  std::vector<std::string> words;
  std::string word;
  for (char c : r.out) {
    if (c == '\0') {
      words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

/// Options of an argument list: `--name value` or `--name` alone (a switch: the next word starts
/// with "--", or `is_switch(name)`); other words are kept in `positional`.
struct options {
  std::map<std::string, std::string> values;
  std::vector<std::string> order;
  std::vector<std::string> positional;

  bool has(const std::string& name) const { return values.count(name) != 0; }
  std::string at(const std::string& name) const {
    const auto it = values.find(name);
    REQUIRE_MESSAGE(it != values.end(), "no " << name);
    return it->second;
  }
  std::int64_t integer(const std::string& name) const { return std::stoll(at(name)); }
};

template <class IsSwitch>
options options_of(const std::vector<std::string>& words, IsSwitch is_switch) {
  options o;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.rfind("--", 0) != 0) {
      o.positional.push_back(w);
      continue;
    }
    const std::string name = w.substr(2);
    CHECK_MESSAGE(o.values.count(name) == 0, "--" << name << " given twice");
    o.order.push_back(name);
    const bool value = !is_switch(name) && i + 1 < words.size() &&
                       words[i + 1].rfind("--", 0) != 0 &&
                       words[i + 1].find(':') == std::string::npos;
    o.values[name] = value ? words[++i] : std::string{};
    // A list[str] field (CompileConfig.components in configs.py at b5bcd76) takes one word per
    // element, as tyro reads it: the words up to the next option, joined by spaces here.
    if (value && name == "compile.components")
      while (i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0 &&
             words[i + 1].find(':') == std::string::npos)
        o.values[name] += " " + words[++i];
  }
  return o;
}

/// The number after `phrase` in `text` (a comment line's figure).
std::optional<std::int64_t> number_after(const std::string& text, const std::string& phrase) {
  const auto at = text.find(phrase);
  if (at == std::string::npos) return std::nullopt;
  return std::stoll(text.substr(at + phrase.size()));
}

// --- the plans -----------------------------------------------------------------------------------

/// What a plan asks of every export, given by the test (not read from the exporter).
struct expected {
  std::int64_t devices = 1;
  std::int64_t data = 1;
  std::int64_t tensor = 1;
  std::int64_t pipeline = 1;
  std::int64_t virtual_stages = 1;
  std::int64_t context = 1;
  std::int64_t expert = 1;
  std::int64_t zero_stage = 0;
  std::int64_t sequences = 0;
  std::int64_t seq_len = 0;
  std::int64_t micro = 1;
  std::int64_t layers = 0;
  std::int64_t experts = 0;  ///< routed experts (0: dense)

  std::int64_t micro_batches() const { return sequences / data / micro; }
};

struct plan_case {
  std::string name;
  training_plan_values plan;
  expected want;
};

training_setup setup_of(std::int64_t sequences, std::int64_t seq_len, recompute_kind r,
                        const precision_policy& x = precision::bf16_mixed_adam::policy,
                        std::int64_t micro = 1) {
  training_setup s;
  s.batch = {.global_tokens = sequences * seq_len, .seq_len = seq_len, .micro_batch = micro};
  s.recompute = {r};
  s.precision = x;
  return s;
}

/// The example plan file examples/plans/llama3_70b_h100.json, read by the plan-file reader: data
/// 64 (ZeRO-1), tensor 8 with sequence parallelism, pipeline 8 with 5 virtual stages, 2048
/// sequences of 8192 tokens (16777216 tokens), micro-batch 1, on 512 nodes of 8 H100.
const io::plan_file& dense_70b_file() {
  static const io::plan_file file = [] {
    std::ifstream in(fs::path(SHARDPLAN_PLANS_DIR) / "llama3_70b_h100.json");
    std::stringstream text;
    text << in.rdbuf();
    return io::read_plan_file(text.str());
  }();
  return file;
}

std::vector<plan_case> plans() {
  std::vector<plan_case> out;
  out.push_back({"dense 70B, TP 8 x PP 8 x 5 virtual stages x DP 64",
                 dense_70b_file().values(),
                 {.devices = 4096,
                  .data = 64,
                  .tensor = 8,
                  .pipeline = 8,
                  .virtual_stages = 5,
                  .zero_stage = 1,
                  .sequences = 2048,
                  .seq_len = 8192,
                  .layers = 80}});
  // The same under Megatron-Core with --tp-comm-overlap (torchtitan: async TP).
  plan_case overlapped = out.back();
  overlapped.name = "dense 70B, TP 8 overlapped";
  overlapped.plan.setup.framework = profiles::megatron_core;
  overlapped.plan.setup.tp_comm_overlap = true;
  out.push_back(overlapped);
  // LLaMA-3 70B on 8 pipeline stages without virtual stages: 80 layers, 10 per stage.
  out.push_back(
      {"dense 70B, PP 8 (even split)",
       make_training_plan(models::llama3_70b::shape, systems::dgx_h100_superpod<8>::figures,
                          {.data = 1, .tensor = 8, .pipeline = 8},
                          setup_of(64, 4096, recompute_kind::full)),
       {.devices = 64,
        .tensor = 8,
        .pipeline = 8,
        .sequences = 64,
        .seq_len = 4096,
        .layers = 80}});
  // Megatron-Core's --recompute-modules mlp: LLaMA-3 70B, TP 8 x PP 8.
  out.push_back(
      {"dense 70B, PP 8, the MLP recomputed",
       make_training_plan(models::llama3_70b::shape, systems::dgx_h100_superpod<8>::figures,
                          {.data = 1, .tensor = 8, .pipeline = 8},
                          setup_of(64, 4096, recompute_kind::mlp)),
       {.devices = 64,
        .tensor = 8,
        .pipeline = 8,
        .sequences = 64,
        .seq_len = 4096,
        .layers = 80}});
  // fp8 with tensorwise scaling: LLaMA-3 8B, data 4 x tensor 8.
  out.push_back({"fp8 8B, DP 4 x TP 8",
                 make_training_plan(
                     models::llama3_8b::shape, systems::dgx_h100_superpod<4>::figures,
                     {.data = 4, .tensor = 8, .zero_stage = 1, .sequence_parallel = true},
                     setup_of(16, 8192, recompute_kind::full, precision::fp8_tensorwise::policy)),
                 {.devices = 32,
                  .data = 4,
                  .tensor = 8,
                  .zero_stage = 1,
                  .sequences = 16,
                  .seq_len = 8192,
                  .layers = 32}});
  // MXFP8 on Blackwell: LLaMA-3 8B, data 4 x tensor 8 on 32 B200.
  out.push_back(
      {"mxfp8 8B on B200, DP 4 x TP 8",
       make_training_plan(models::llama3_8b::shape, systems::dgx_b200_superpod<4>::figures,
                          {.data = 4, .tensor = 8, .zero_stage = 1, .sequence_parallel = true},
                          setup_of(16, 8192, recompute_kind::full, precision::mxfp8::policy)),
       {.devices = 32,
        .data = 4,
        .tensor = 8,
        .zero_stage = 1,
        .sequences = 16,
        .seq_len = 8192,
        .layers = 32}});
  // DeepSeek-V3 on 2048 H100: data 128 (experts over 64 of it, ZeRO-1) x pipeline 16, its
  // DeepSeek fp8 recipe (block scaling, 2-byte Adam moments).
  out.push_back(
      {"DeepSeek-V3, EP 64 x PP 16, fp8",
       make_training_plan(
           models::deepseek_v3::shape, systems::dgx_h100_superpod<256>::figures,
           {.data = 128, .pipeline = 16, .expert = 64, .zero_stage = 1, .uneven_stages = true},
           setup_of(4096, 4096, recompute_kind::full, precision::fp8_deepseek_v3::policy)),
       {.devices = 2048,
        .data = 128,
        .pipeline = 16,
        .expert = 64,
        .zero_stage = 1,
        .sequences = 4096,
        .seq_len = 4096,
        .layers = 61,
        .experts = 256}});
  // Mixtral 8x7B on 16 H100: tensor 2 x data 8 (FSDP), experts over 4 of the data axis.
  out.push_back(
      {"Mixtral, TP 2 x EP 4, ZeRO-3",
       make_training_plan(
           models::mixtral_8x7b::shape, systems::dgx_h100_superpod<2>::figures,
           {.data = 8, .tensor = 2, .expert = 4, .zero_stage = 3, .sequence_parallel = true},
           setup_of(16, 4096, recompute_kind::full)),
       {.devices = 16,
        .data = 8,
        .tensor = 2,
        .expert = 4,
        .zero_stage = 3,
        .sequences = 16,
        .seq_len = 4096,
        .layers = 32,
        .experts = 8}});
  // Context parallelism: LLaMA-3 8B, 32k tokens, CP 4 x DP 8 (FSDP), and CP 2 x TP 4 x DP 4.
  out.push_back(
      {"context-parallel 8B, CP 4 x DP 8",
       make_training_plan(models::llama3_8b::shape, systems::dgx_h100_superpod<4>::figures,
                          {.data = 8, .context = 4, .zero_stage = 3},
                          setup_of(16, 32768, recompute_kind::full)),
       {.devices = 32,
        .data = 8,
        .context = 4,
        .zero_stage = 3,
        .sequences = 16,
        .seq_len = 32768,
        .layers = 32}});
  out.push_back(
      {"context-parallel 8B, CP 2 x TP 4 x DP 4",
       make_training_plan(
           models::llama3_8b::shape, systems::dgx_h100_superpod<4>::figures,
           {.data = 4, .tensor = 4, .context = 2, .zero_stage = 1, .sequence_parallel = true},
           setup_of(8, 32768, recompute_kind::full)),
       {.devices = 32,
        .data = 4,
        .tensor = 4,
        .context = 2,
        .zero_stage = 1,
        .sequences = 8,
        .seq_len = 32768,
        .layers = 32}});
  // TPU v5p: LLaMA-3 70B, FSDP 1024 x CP 4 x TP 2 over two 4096-chip slices.
  out.push_back(
      {"context-parallel 70B on TPU, CP 4 x TP 2 x FSDP 1024",
       make_training_plan(
           models::llama3_70b::shape, systems::tpu_v5p_slice<16, 16, 16, 2>::figures,
           {.data = 1024, .tensor = 2, .context = 4, .zero_stage = 3, .sequence_parallel = true},
           setup_of(1024, 8192, recompute_kind::full)),
       {.devices = 8192,
        .data = 1024,
        .tensor = 2,
        .context = 4,
        .zero_stage = 3,
        .sequences = 1024,
        .seq_len = 8192,
        .layers = 80}});
  // ZeRO-3: LLaMA-3 8B with FSDP over 32 H100.
  out.push_back(
      {"ZeRO-3 8B, FSDP 32",
       make_training_plan(models::llama3_8b::shape, systems::dgx_h100_superpod<4>::figures,
                          {.data = 32, .zero_stage = 3}, setup_of(256, 8192, recompute_kind::full)),
       {.devices = 32,
        .data = 32,
        .zero_stage = 3,
        .sequences = 256,
        .seq_len = 8192,
        .layers = 32}});
  // 8-bit Adam: LLaMA-3 8B, ZeRO-1 over 32 H100.
  out.push_back({"8-bit Adam 8B, ZeRO-1 over 32",
                 make_training_plan(
                     models::llama3_8b::shape, systems::dgx_h100_superpod<4>::figures,
                     {.data = 32, .zero_stage = 1},
                     setup_of(64, 8192, recompute_kind::full, precision::bf16_adam_8bit::policy)),
                 {.devices = 32,
                  .data = 32,
                  .zero_stage = 1,
                  .sequences = 64,
                  .seq_len = 8192,
                  .layers = 32}});
  return out;
}

// --- torchtitan's stage split, as generate_llm_fqn_per_model_part computes it --------------------

/// The decoder layers of each stage: torchtitan/distributed/pipeline_parallel.py (b5bcd76 and
/// v0.2.2): effective = layers + first_less + last_less, each stage effective / stages (the first
/// effective % stages one more), the first stage less first_less, the last less last_less.
std::vector<std::int64_t> titan_stage_layers(std::int64_t layers, std::int64_t stages,
                                             std::int64_t first_less, std::int64_t last_less) {
  const std::int64_t effective = layers + first_less + last_less;
  std::vector<std::int64_t> out;
  std::int64_t left = layers;
  for (std::int64_t s = 0; s < stages; ++s) {
    std::int64_t here = effective / stages + (s < effective % stages ? 1 : 0);
    if (s == 0) here -= first_less;
    if (s == stages - 1) here -= last_less;
    here = std::min(here, left);
    out.push_back(here);
    left -= here;
  }
  return out;
}

/// torchtitan's stage count: ceil((layers + first + last) / layers_per_stage), or, without
/// layers_per_stage, pp for a single-stage schedule and 2 pp for a looped one.
void check_titan_split(std::int64_t layers, std::int64_t pp, std::int64_t vp,
                       std::optional<std::int64_t> per, std::int64_t first, std::int64_t last) {
  std::int64_t stages = pp * (vp > 1 ? 2 : 1);
  if (per) stages = (layers + first + last + *per - 1) / *per;
  CHECK(stages == pp * vp);
  const std::vector<std::int64_t> split = titan_stage_layers(layers, stages, first, last);
  std::int64_t total = 0;
  std::int64_t lo = layers;
  std::int64_t hi = 0;
  for (std::int64_t l : split) {
    total += l;
    lo = std::min(lo, l);
    hi = std::max(hi, l);
  }
  CHECK(total == layers);
  // An even split stays even; otherwise the stages differ by at most a layer.
  if (layers % stages == 0) CHECK(lo == hi);
  CHECK(hi - lo <= 1);
}

// --- the five checks
// ------------------------------------------------------------------------------

void check_megatron(const training_plan_values& p, const expected& e) {
  const std::string text = megatron_arguments(p);
  const options o =
      options_of(bash_array(text, "MEGATRON_ARGS"), [](const std::string&) { return false; });
  CHECK(o.positional.empty());
  for (const std::string& name : o.order)
    CHECK_MESSAGE(megatron_flags().has("--" + name), "--" << name << " is not a flag of "
                                                          << megatron_flags().repository << "@"
                                                          << megatron_flags().commit);
  CHECK(o.integer("tensor-model-parallel-size") == e.tensor);
  CHECK(o.integer("pipeline-model-parallel-size") == e.pipeline);
  CHECK(o.integer("context-parallel-size") == e.context);
  CHECK(o.integer("expert-model-parallel-size") == e.expert);
  // Megatron derives DP = WORLD_SIZE / (TP x PP x CP) (initialize_model_parallel).
  const std::optional<std::int64_t> world = number_after(text, "WORLD_SIZE=");
  REQUIRE(world.has_value());
  CHECK(*world == e.devices);
  CHECK(*world / (e.tensor * e.pipeline * e.context) == e.data);
  if (e.virtual_stages > 1) {
    if (o.has("num-virtual-stages-per-pipeline-rank"))
      CHECK(o.integer("num-virtual-stages-per-pipeline-rank") == e.virtual_stages);
    else
      CHECK(o.has("pipeline-model-parallel-layout"));
  }
  CHECK(o.integer("micro-batch-size") == e.micro);
  CHECK(o.integer("global-batch-size") == e.sequences);
  CHECK(o.integer("seq-length") == e.seq_len);
  CHECK(o.integer("num-layers") == e.layers);
  if (e.zero_stage >= 1) CHECK(o.has("use-distributed-optimizer"));
  if (e.experts > 0) CHECK(o.integer("num-experts") == e.experts);
  // TransformerConfig.__post_init__: expert bias needs the sigmoid score function.
  if (o.has("moe-router-enable-expert-bias")) CHECK(o.at("moe-router-score-function") == "sigmoid");
  // OptimizerConfig.__post_init__: the precision-aware optimizer needs the distributed optimizer.
  if (o.has("use-precision-aware-optimizer")) CHECK(o.has("use-distributed-optimizer"));
}

void check_titan_head(const training_plan_values& p, const expected& e) {
  const key_list& list = titan_options();
  const std::string text = torchtitan_arguments(p);
  const options o = options_of(bash_array(text, "TORCHTITAN_ARGS"), [&](const std::string& name) {
    return list.has(name, "bool") ||
           (name.find(".no_") != std::string::npos &&
            list.has(name.substr(0, name.find(".no_") + 1) + name.substr(name.find(".no_") + 4),
                     "bool"));
  });
  for (const std::string& name : o.order) {
    if (name == "module" || name == "config") {
      CHECK(list.has(name, "selector"));
      continue;
    }
    const auto no = name.find(".no_");
    const bool negated =
        no != std::string::npos && list.has(name.substr(0, no + 1) + name.substr(no + 4), "bool");
    CHECK_MESSAGE((negated || list.has(name) || list.has(name, "bool")),
                  "--" << name << " is not an option of " << list.repository << "@" << list.commit);
  }
  // One positional word, the activation-checkpointing subcommand, last.
  REQUIRE(o.positional.size() == 1);
  CHECK(list.has(o.positional.front(), "subcommand"));
  if (o.has("module")) CHECK(list.has(o.at("module") + ":" + o.at("config"), "config_function"));
  CHECK(o.integer("parallelism.data_parallel_replicate_degree") *
            o.integer("parallelism.data_parallel_shard_degree") ==
        e.data);
  CHECK(o.integer("parallelism.tensor_parallel_degree") == e.tensor);
  CHECK(o.integer("parallelism.pipeline_parallel_degree") == e.pipeline);
  CHECK(o.integer("parallelism.context_parallel_degree") == e.context);
  // No expert tensor parallelism at HEAD: EP borrows the TP ranks (ParallelDims._validate).
  const std::int64_t ep = e.experts > 0 && e.expert > 1 ? e.expert * e.tensor : e.expert;
  CHECK(o.integer("parallelism.expert_parallel_degree") == ep);
  // The batch (trainer.py): tokens per step / (tokens per micro-batch x pipeline micro-batches x
  // DP) accumulation steps; num_pp_microbatches counts only with PP.
  const std::int64_t seq = o.integer("training.max_context_length");
  CHECK(seq == e.seq_len);
  const std::int64_t step = o.integer("training.num_tokens_per_train_step");
  const std::int64_t micro = o.integer("training.num_tokens_per_microbatch_per_dp_rank");
  CHECK(step == e.sequences * e.seq_len);
  CHECK(micro == e.micro * e.seq_len);
  const std::int64_t pp_micro =
      e.pipeline > 1 ? o.integer("parallelism.num_pp_microbatches") : std::int64_t{1};
  REQUIRE(step % (micro * pp_micro * e.data) == 0);
  CHECK(step / (micro * pp_micro * e.data) * pp_micro == e.micro_batches());
  if (e.pipeline > 1) {
    // Trainer.Config._validate_cuda_graphs: PP needs --training.disable_cuda_graphs.
    CHECK(o.has("training.disable_cuda_graphs"));
    std::optional<std::int64_t> per;
    if (o.has("parallelism.pipeline_parallel_layers_per_stage"))
      per = o.integer("parallelism.pipeline_parallel_layers_per_stage");
    check_titan_split(e.layers, e.pipeline, e.virtual_stages, per,
                      o.integer("parallelism.pipeline_parallel_first_stage_less_layers"),
                      o.integer("parallelism.pipeline_parallel_last_stage_less_layers"));
  }
}

/// Dotted keys of a TOML table ("section.key"), and its tables.
void toml_keys(const toml::table& t, const std::string& prefix, std::vector<std::string>& keys,
               std::vector<std::string>& tables) {
  for (auto&& entry : t) {
    const std::string name = prefix + std::string(entry.first.str());
    if (const toml::table* sub = entry.second.as_table()) {
      tables.push_back(name);
      toml_keys(*sub, name + ".", keys, tables);
    } else {
      keys.push_back(name);
    }
  }
}

void check_titan_toml(const training_plan_values& p, const expected& e) {
  const key_list& list = titan_toml_keys();
  const std::string text = torchtitan_toml(p);
  toml::table t;
  try {
    t = toml::parse(text);
  } catch (const toml::parse_error& err) {
    FAIL("toml++ refuses the export: " << err.description() << "\n" << text);
  }
  std::vector<std::string> keys;
  std::vector<std::string> tables;
  toml_keys(t, "", keys, tables);
  for (const std::string& k : keys)
    CHECK_MESSAGE(list.has(k),
                  k << " is not a JobConfig key of " << list.repository << "@" << list.commit);
  for (const std::string& k : tables) CHECK_MESSAGE(list.has(k, "table"), k << " is no table");
  if (const toml::array* converters = t["model"]["converters"].as_array())
    for (auto&& c : *converters) CHECK(list.has(std::string(*c.value<std::string>()), "converter"));
  if (t["model"]["name"])
    CHECK(list.has(
        *t["model"]["name"].value<std::string>() + ":" + *t["model"]["flavor"].value<std::string>(),
        "flavor"));
  const auto integer = [&](std::string_view section, std::string_view key) {
    const std::optional<std::int64_t> v = t[section][key].value<std::int64_t>();
    REQUIRE_MESSAGE(v.has_value(), section << "." << key);
    return *v;
  };
  CHECK(integer("parallelism", "data_parallel_replicate_degree") *
            integer("parallelism", "data_parallel_shard_degree") ==
        e.data);
  CHECK(integer("parallelism", "tensor_parallel_degree") == e.tensor);
  CHECK(integer("parallelism", "pipeline_parallel_degree") == e.pipeline);
  CHECK(integer("parallelism", "context_parallel_degree") == e.context);
  CHECK(integer("parallelism", "expert_parallel_degree") == e.expert);
  // The plan splits each expert over TP: ETP = TP (its default 1 would replicate them over TP).
  if (e.experts > 0) CHECK(integer("parallelism", "expert_tensor_parallel_degree") == e.tensor);
  // train.py: accumulation = global_batch_size / (local_batch_size x DP); with PP the local batch
  // is cut into micro-batches of pipeline_parallel_microbatch_size.
  const std::int64_t global = integer("training", "global_batch_size");
  const std::int64_t local = integer("training", "local_batch_size");
  CHECK(global == e.sequences);
  CHECK(integer("training", "seq_len") == e.seq_len);
  REQUIRE(global % (local * e.data) == 0);
  if (e.pipeline > 1) {
    const std::int64_t mb = integer("parallelism", "pipeline_parallel_microbatch_size");
    CHECK(mb == e.micro);
    CHECK(global / (local * e.data) * (local / mb) == e.micro_batches());
    std::optional<std::int64_t> per =
        t["parallelism"]["pipeline_parallel_layers_per_stage"].value<std::int64_t>();
    check_titan_split(e.layers, e.pipeline, e.virtual_stages, per,
                      integer("parallelism", "pipeline_parallel_first_stage_less_layers"),
                      integer("parallelism", "pipeline_parallel_last_stage_less_layers"));
  } else {
    CHECK(local == e.micro);
    CHECK(global / (local * e.data) == e.micro_batches());
  }
}

void check_maxtext(const training_plan_values& p, const expected& e) {
  const key_list& list = maxtext_keys();
  const std::string text = maxtext_config(p);
  YAML::Node y;
  try {
    y = YAML::Load(text);
  } catch (const YAML::Exception& err) {
    FAIL("yaml-cpp refuses the export: " << err.what() << "\n" << text);
  }
  REQUIRE(y.IsMap());
  for (auto it = y.begin(); it != y.end(); ++it) {
    const std::string k = it->first.as<std::string>();
    CHECK_MESSAGE((list.has(k) || list.has(k, "directive")),
                  k << " is not a key of base.yml at " << list.repository << "@" << list.commit);
  }
  // The model file the comment names exists.
  std::smatch preset;
  if (std::regex_search(text, preset, std::regex("model_name: \"([^\"]+)\"")))
    CHECK(list.has(preset[1].str(), "model_file"));
  const auto integer = [&](const std::string& k) {
    REQUIRE_MESSAGE(y[k], k);
    return y[k].as<std::int64_t>();
  };
  const auto axis = [&](const std::string& a) {
    return integer("ici_" + a + "_parallelism") * integer("dcn_" + a + "_parallelism");
  };
  CHECK(axis("tensor") == e.tensor);
  CHECK(axis("pipeline") == e.pipeline);
  CHECK(axis("context") == e.context);
  CHECK(axis("expert") == e.expert);
  CHECK(axis("data") * axis("fsdp") * axis("expert") == e.data);
  std::int64_t devices = 1;
  for (const char* a : {"data", "fsdp", "context", "tensor", "pipeline", "expert"})
    devices *= axis(a);
  CHECK(devices == e.devices);
  // global batch = per_device_batch_size x devices x gradient_accumulation_steps (pyconfig).
  const double per_device = y["per_device_batch_size"].as<double>();
  const std::int64_t accumulation = integer("gradient_accumulation_steps");
  CHECK(per_device * static_cast<double>(devices * accumulation) ==
        doctest::Approx(static_cast<double>(e.sequences)).scale(0.0));
  CHECK(integer("max_target_length") == e.seq_len);
  if (e.pipeline > 1) CHECK(integer("num_pipeline_repeats") == e.virtual_stages);
  // types.py: ring on a TPU needs attention=flash, use_tokamax_splash, a sequence divisible by
  // the context size squared, an even context size with load balancing.
  if (y["context_parallel_strategy"] &&
      y["context_parallel_strategy"].as<std::string>() == "ring" &&
      y["hardware"].as<std::string>() == "tpu") {
    CHECK(y["attention"].as<std::string>() == "flash");
    CHECK(y["use_tokamax_splash"].as<bool>());
    CHECK(e.seq_len % (e.context * e.context) == 0);
    if (y["context_parallel_load_balance"].as<bool>()) CHECK(e.context % 2 == 0);
  }
}

void check_deepspeed(const training_plan_values& p, const expected& e) {
  const key_list& list = deepspeed_keys();
  const std::string text = deepspeed_json(p);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, nullptr, true, false);  // strict: no comments
  } catch (const nlohmann::json::parse_error& err) {
    FAIL("nlohmann::json refuses the export: " << err.what() << "\n" << text);
  }
  REQUIRE(j.is_object());
  for (auto it = j.begin(); it != j.end(); ++it) {
    // "_comment": the notes; DeepSpeedConfig reads top-level keys by name and ignores others.
    if (it.key() == "_comment") {
      CHECK(it.value().is_array());
      for (const auto& s : it.value()) CHECK(s.is_string());
      continue;
    }
    CHECK_MESSAGE(list.has(it.key()),
                  it.key() << " is not a key of " << list.repository << "@" << list.commit);
    if (it.value().is_object())
      for (auto in = it.value().begin(); in != it.value().end(); ++in)
        CHECK_MESSAGE(list.has(it.key() + "." + in.key(), "nested"),
                      it.key() << "." << in.key() << " is not a field of its section");
  }
  // _batch_assertion: train_batch_size == micro x accumulation x the data-parallel world, which
  // without an mpu is WORLD / sequence_parallel_size (DeepSpeedConfig.__init__).
  const std::int64_t train = j.at("train_batch_size").get<std::int64_t>();
  const std::int64_t micro = j.at("train_micro_batch_size_per_gpu").get<std::int64_t>();
  const std::int64_t accumulation = j.at("gradient_accumulation_steps").get<std::int64_t>();
  CHECK(train == e.sequences);
  CHECK(micro == e.micro);
  CHECK(train == micro * accumulation * e.data);
  if (e.context > 1) {
    CHECK(j.at("sequence_parallel_size").get<std::int64_t>() == e.context);
    if (e.tensor == 1 && e.pipeline == 1) CHECK(e.devices / e.context == e.data);
  }
  CHECK(j.at("zero_optimization").at("stage").get<std::int64_t>() == e.zero_stage);
}

void check_all(const plan_case& c) {
  CAPTURE(c.name);
  SUBCASE("megatron") { check_megatron(c.plan, c.want); }
  SUBCASE("torchtitan") { check_titan_head(c.plan, c.want); }
  SUBCASE("torchtitan-toml") { check_titan_toml(c.plan, c.want); }
  SUBCASE("maxtext") { check_maxtext(c.plan, c.want); }
  SUBCASE("deepspeed") { check_deepspeed(c.plan, c.want); }
}

const plan_case& plan_named(std::string_view name) {
  static const std::vector<plan_case> all = plans();
  for (const plan_case& c : all)
    if (c.name == name) return c;
  FAIL("no plan " << name);
  return all.front();
}

}  // namespace

TEST_CASE("every export of the dense 70B plan parses and carries its degrees") {
  check_all(plan_named("dense 70B, TP 8 x PP 8 x 5 virtual stages x DP 64"));
}
TEST_CASE("every export of an even 8-stage 70B plan parses and keeps the split even") {
  check_all(plan_named("dense 70B, PP 8 (even split)"));
}
TEST_CASE("every export of a plan recomputing the MLP parses; megatron and maxtext name it") {
  const plan_case& c = plan_named("dense 70B, PP 8, the MLP recomputed");
  check_all(c);
  // arguments.py at 000c4ac: --recompute-modules (nargs '*') with --recompute-granularity
  // selective; types.py at e591f30: RematPolicy.SAVE_DOT_EXCEPT_MLP.
  const options o = options_of(bash_array(megatron_arguments(c.plan), "MEGATRON_ARGS"),
                               [](const std::string&) { return false; });
  CHECK(o.at("recompute-granularity") == "selective");
  CHECK(o.at("recompute-modules") == "mlp");
  CHECK(YAML::Load(maxtext_config(c.plan))["remat_policy"].as<std::string>() ==
        "save_dot_except_mlp");
}
TEST_CASE("every export of an fp8 plan parses and carries its degrees") {
  check_all(plan_named("fp8 8B, DP 4 x TP 8"));
}
TEST_CASE("every export of an mxfp8 plan parses and carries its degrees") {
  check_all(plan_named("mxfp8 8B on B200, DP 4 x TP 8"));
}
TEST_CASE("every export of DeepSeek-V3 with expert parallelism parses") {
  check_all(plan_named("DeepSeek-V3, EP 64 x PP 16, fp8"));
}
TEST_CASE("every export of Mixtral with tensor and expert parallelism parses") {
  check_all(plan_named("Mixtral, TP 2 x EP 4, ZeRO-3"));
}
TEST_CASE("every export of a context-parallel plan parses, its deepspeed batch holding") {
  check_all(plan_named("context-parallel 8B, CP 4 x DP 8"));
}
TEST_CASE("every export of a context- and tensor-parallel plan parses") {
  check_all(plan_named("context-parallel 8B, CP 2 x TP 4 x DP 4"));
}
TEST_CASE("every export of a context-parallel TPU plan parses") {
  check_all(plan_named("context-parallel 70B on TPU, CP 4 x TP 2 x FSDP 1024"));
}
TEST_CASE("every export of a zero-3 plan parses and carries its degrees") {
  check_all(plan_named("ZeRO-3 8B, FSDP 32"));
}
TEST_CASE("every export of an 8-bit adam plan parses and says what it cannot express") {
  check_all(plan_named("8-bit Adam 8B, ZeRO-1 over 32"));
}

// --- what the review found
// ------------------------------------------------------------------------

TEST_CASE("torchtitan's exports write the stage adjustment as 0 when the layers divide evenly") {
  // 80 layers on 8 stages: with torchtitan's defaults (1 and 1) the stages would be
  // 10, 11, 10, 10, 10, 10, 10, 9 (the derivation above).
  CHECK(titan_stage_layers(80, 8, 1, 1) ==
        std::vector<std::int64_t>{10, 11, 10, 10, 10, 10, 10, 9});
  CHECK(titan_stage_layers(80, 8, 0, 0) == std::vector<std::int64_t>(8, 10));
  const plan_case& c = plan_named("dense 70B, PP 8 (even split)");
  const toml::table t = toml::parse(torchtitan_toml(c.plan));
  CHECK(t["parallelism"]["pipeline_parallel_first_stage_less_layers"].value<std::int64_t>() == 0);
  CHECK(t["parallelism"]["pipeline_parallel_last_stage_less_layers"].value<std::int64_t>() == 0);
  const options o =
      options_of(bash_array(torchtitan_arguments(c.plan), "TORCHTITAN_ARGS"),
                 [](const std::string& name) { return name == "training.disable_cuda_graphs"; });
  CHECK(o.at("parallelism.pipeline_parallel_first_stage_less_layers") == "0");
  CHECK(o.at("parallelism.pipeline_parallel_last_stage_less_layers") == "0");
}

TEST_CASE("the torchtitan exports name DeepSeek-V3's model and v0.2.2's fp8 converters") {
  const plan_case& c = plan_named("DeepSeek-V3, EP 64 x PP 16, fp8");
  const toml::table t = toml::parse(torchtitan_toml(c.plan));
  // torchtitan/models/deepseek_v3/__init__.py at v0.2.2: deepseekv3_args["671B"].
  CHECK(t["model"]["name"].value<std::string>() == "deepseek_v3");
  CHECK(t["model"]["flavor"].value<std::string>() == "671B");
  // register_model_converter(Float8LinearConverter, "quantize.linear.float8") at v0.2.2.
  REQUIRE(t["model"]["converters"].as_array() != nullptr);
  CHECK(t["model"]["converters"][0].value<std::string>() == "quantize.linear.float8");
  CHECK(t["quantize"]["linear"]["float8"]["recipe_name"].value<std::string>() == "rowwise");
  CHECK(!t["float8"]);
  const options o =
      options_of(bash_array(torchtitan_arguments(c.plan), "TORCHTITAN_ARGS"),
                 [](const std::string& name) { return name == "training.disable_cuda_graphs"; });
  // deepseek_v3_671b_float8 of torchtitan/models/deepseek_v3/config_registry.py at b5bcd76.
  CHECK(o.at("module") == "deepseek_v3");
  CHECK(o.at("config") == "deepseek_v3_671b_float8");
}

TEST_CASE("megatron gives deepseek-v3's expert bias the sigmoid score function") {
  const options o =
      options_of(bash_array(megatron_arguments(plan_named("DeepSeek-V3, EP 64 x PP 16, fp8").plan),
                            "MEGATRON_ARGS"),
                 [](const std::string&) { return false; });
  CHECK(o.has("moe-router-enable-expert-bias"));
  CHECK(o.at("moe-router-score-function") == "sigmoid");
  // 2-byte moments (the DeepSeek recipe), with the distributed optimizer (ZeRO-1).
  CHECK(o.at("exp-avg-dtype") == "bf16");
  CHECK(o.at("exp-avg-sq-dtype") == "bf16");
}

TEST_CASE("8-bit adam is written where the target has it and said where it has not") {
  const training_plan_values& p = plan_named("8-bit Adam 8B, ZeRO-1 over 32").plan;
  const options o = options_of(bash_array(megatron_arguments(p), "MEGATRON_ARGS"),
                               [](const std::string&) { return false; });
  CHECK(o.has("use-precision-aware-optimizer"));
  CHECK(o.at("exp-avg-dtype") == "fp8");
  CHECK(o.at("exp-avg-sq-dtype") == "fp8");
  CHECK(o.has("use-distributed-optimizer"));
  const auto says = [](const std::string& text) {
    return text.find("no equivalent: 1-byte optimizer states (8-bit Adam)") != std::string::npos;
  };
  CHECK(says(torchtitan_arguments(p)));
  CHECK(says(torchtitan_toml(p)));
  CHECK(says(maxtext_config(p)));
  const nlohmann::json ds = nlohmann::json::parse(deepspeed_json(p));
  bool noted = false;
  for (const auto& s : ds.at("_comment")) noted = noted || says(s.get<std::string>());
  CHECK(noted);
  // Without ZeRO Megatron's precision-aware optimizer is refused (optimizer_config.py): said.
  training_plan_values plain = p;
  plain.setup.degrees.zero_stage = 0;
  const std::string text = megatron_arguments(plain);
  const options none =
      options_of(bash_array(text, "MEGATRON_ARGS"), [](const std::string&) { return false; });
  CHECK(!none.has("use-precision-aware-optimizer"));
  CHECK(!none.has("exp-avg-dtype"));
  CHECK(text.find("no equivalent: 1-byte optimizer states without ZeRO") != std::string::npos);
}

TEST_CASE("every export of a tensor-parallel overlapped plan parses and turns the overlap on") {
  const plan_case& c = plan_named("dense 70B, TP 8 overlapped");
  check_all(c);
  CHECK(megatron_arguments(c.plan).find("--tp-comm-overlap") != std::string::npos);
  CHECK(torchtitan_arguments(c.plan).find("--compile.enable_async_tensor_parallel") !=
        std::string::npos);
  CHECK(torchtitan_toml(c.plan).find("enable_async_tensor_parallel = true") != std::string::npos);
  // Without sequence parallelism neither framework overlaps (Megatron-LM refuses the flag).
  training_plan_values no_sp = c.plan;
  no_sp.setup.degrees.sequence_parallel = false;
  CHECK(megatron_arguments(no_sp).find("--tp-comm-overlap") == std::string::npos);
  CHECK(torchtitan_toml(no_sp).find("enable_async_tensor_parallel") == std::string::npos);
}

TEST_CASE("a synchronous input-gradient all-reduce becomes megatron's switch, without sp only") {
  // arguments.py at 000c4ac: --no-async-tensor-model-parallel-allreduce; with
  // --sequence-parallel validate_args turns the all-reduce off anyway.
  training_plan_values p = plan_named("dense 70B, TP 8 overlapped").plan;
  p.setup.tp_comm_overlap = false;
  p.setup.sync_tp_backward = true;
  p.setup.degrees.sequence_parallel = false;
  const std::string flag = "--no-async-tensor-model-parallel-allreduce";
  CHECK(megatron_arguments(p).find(flag) != std::string::npos);
  p.setup.degrees.sequence_parallel = true;
  CHECK(megatron_arguments(p).find(flag) == std::string::npos);
}

TEST_CASE("2-byte gradients become megatron's --grad-reduce-in-bf16") {
  // bf16_mixed_adam counts 2-byte gradients (the plan's generic framework).
  const options o = options_of(
      bash_array(megatron_arguments(plan_named("ZeRO-3 8B, FSDP 32").plan), "MEGATRON_ARGS"),
      [](const std::string&) { return false; });
  CHECK(o.has("grad-reduce-in-bf16"));
  // Under the megatron_core framework without grad_reduce_in_bf16 the plan counts fp32 ones.
  training_plan_values fp32_grads = plan_named("ZeRO-3 8B, FSDP 32").plan;
  fp32_grads.setup.framework = profiles::megatron_core;
  CHECK(megatron_arguments(fp32_grads).find("--grad-reduce-in-bf16") == std::string::npos);
  fp32_grads.setup.grad_reduce_in_bf16 = true;
  CHECK(megatron_arguments(fp32_grads).find("--grad-reduce-in-bf16") != std::string::npos);
}

TEST_CASE("maxtext writes tpu ring context parallelism as types.py accepts it, or falls back") {
  const plan_case& c = plan_named("context-parallel 70B on TPU, CP 4 x TP 2 x FSDP 1024");
  YAML::Node y = YAML::Load(maxtext_config(c.plan));
  CHECK(y["context_parallel_strategy"].as<std::string>() == "ring");
  CHECK(y["attention"].as<std::string>() == "flash");
  CHECK(y["use_tokamax_splash"].as<bool>());
  // 8190 tokens are no multiple of 4 x 4: MaxText refuses ring, the export falls back.
  training_plan_values odd = c.plan;
  odd.setup.batch.seq_len = 8190;
  odd.setup.batch.global_tokens = 1024LL * 8190;
  const std::string text = maxtext_config(odd);
  y = YAML::Load(text);
  CHECK(!y["context_parallel_strategy"]);
  CHECK(text.find("approximation: all-gather context parallelism") != std::string::npos);
}

TEST_CASE("the deepspeed export is strict json with its notes in _comment") {
  const std::string text = deepspeed_json(plan_named("context-parallel 8B, CP 4 x DP 8").plan);
  CHECK(text.find("//") == std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, true, false);
  CHECK(j.at("_comment").at(0).get<std::string>().rfind("DeepSpeed config JSON", 0) == 0);
  CHECK(j.at("sequence_parallel_size") == 4);
  CHECK(j.begin().key() == "_comment");
}

// --- escaping
// --------------------------------------------------------------------------------------

TEST_CASE("a model name with a newline, quotes, $(...) and a backtick is escaped in every export") {
  // The plan-file reader allows only plain names; the C++ API takes any model_shape::name. Where a
  // name reaches a string value (torchtitan's job.description, DeepSpeed's "_comment") the
  // parser reads it back unchanged; in comment lines control characters become spaces; bash
  // expands nothing (sourcing in a fresh directory creates no file).
  const std::string evil = "evil\n\"name\" $(touch pwned) `touch pwned2` 'q' \\ end";
  training_plan_values p = plan_named("DeepSeek-V3, EP 64 x PP 16, fp8").plan;
  p.model.name = evil;
  const std::string flat = "evil \"name\" $(touch pwned) `touch pwned2` 'q' \\ end";

  const std::string megatron = megatron_arguments(p);
  CHECK(megatron.find(flat) != std::string::npos);  // on a comment line, newline a space
  for (const std::string& w : bash_array(megatron, "MEGATRON_ARGS"))
    CHECK(w.find("touch") == std::string::npos);
  const std::string titan = torchtitan_arguments(p);
  for (const std::string& w : bash_array(titan, "TORCHTITAN_ARGS"))
    CHECK(w.find("touch") == std::string::npos);

  const toml::table t = toml::parse(torchtitan_toml(p));
  const std::optional<std::string> description = t["job"]["description"].value<std::string>();
  REQUIRE(description.has_value());
  CHECK(description->find(evil) != std::string::npos);

  const YAML::Node y = YAML::Load(maxtext_config(p));
  for (auto it = y.begin(); it != y.end(); ++it) {
    if (!it->second.IsScalar()) continue;
    CHECK(it->second.as<std::string>().find("touch") == std::string::npos);
  }

  const nlohmann::json j = nlohmann::json::parse(deepspeed_json(p), nullptr, true, false);
  bool read_back = false;
  for (const auto& s : j.at("_comment"))
    read_back = read_back || s.get<std::string>().find(evil) != std::string::npos;
  CHECK(read_back);
}

TEST_CASE("the escapers write what each format reads back") {
  using detail::launch::bash_word;
  using detail::launch::double_quoted;
  const std::string samples[] = {"plain",
                                 "a\"b\\c",
                                 "line\nbreak\ttab\r",
                                 "\x01\x1f\x7f",
                                 "caf\xC3\xA9 \xE2\x80\xA8 \xE2\x80\xA9",
                                 "$(x) `y` 'z'"};
  for (const std::string& s : samples) {
    CAPTURE(s);
    const std::string q = double_quoted(s);
    CHECK(toml::parse("k = " + q)["k"].value<std::string>() == s);
    CHECK(YAML::Load("k: " + q)["k"].as<std::string>() == s);
    CHECK(nlohmann::json::parse("{\"k\": " + q + "}").at("k").get<std::string>() == s);
    const std::vector<std::string> words = bash_array("A=(" + bash_word(s) + ")\n", "A");
    REQUIRE(words.size() == 1);
    CHECK(words.front() == s);
  }
  // Bytes that are not UTF-8 become U+FFFD: none of the formats holds them.
  CHECK(double_quoted("a\xFFz") == "\"a\xEF\xBF\xBDz\"");
  CHECK(detail::launch::comment_text("a\nb\x7f") == "a b ");
}
