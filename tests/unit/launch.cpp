// Tests of launch.hpp: each exported config is parsed back (flag or key found, value read) and
// its degrees, batch and sequence length compared with the plan's. (tests/export/ reads every
// export with the targets' own kinds of parser and checks every key against pinned lists.)
#include <doctest/doctest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/io/launch.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <shardplan/training/training_plan.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace shardplan;

namespace {

// --- readers of the four formats ---------------------------------------------------------------

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

/// A value without its quotes: TOML's and YAML's "..." (no escapes in what these tests read),
/// bash's '...' (which the exporters write for every word that is not plain).
std::string unquote(std::string s) {
  s = trim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    return s.substr(1, s.size() - 2);
  return s;
}

std::int64_t integer(const std::optional<std::string>& s) {
  REQUIRE(s.has_value());
  return std::stoll(*s);
}

/// Megatron and torchtitan (HEAD): the line "  --flag value" inside the bash array; the value
/// ("" for a switch).
std::optional<std::string> megatron_flag(const std::string& text, std::string_view flag) {
  for (const std::string& line : lines_of(text)) {
    const std::string t = trim(line);
    if (t.rfind(std::string(flag), 0) != 0) continue;
    if (t.size() == flag.size()) return std::string{};
    if (t[flag.size()] == ' ') return unquote(t.substr(flag.size() + 1));
  }
  return std::nullopt;
}

/// TOML: `key = value` in `[section]`, comments skipped.
std::optional<std::string> toml_value(const std::string& text, std::string_view section,
                                      std::string_view key) {
  std::string current;
  for (const std::string& line : lines_of(text)) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (t[0] == '[') {
      current = t.substr(1, t.find(']') - 1);
      continue;
    }
    const auto eq = t.find('=');
    if (current == section && eq != std::string::npos && trim(t.substr(0, eq)) == key)
      return unquote(t.substr(eq + 1));
  }
  return std::nullopt;
}

/// YAML: the top-level `key: value` line.
std::optional<std::string> yaml_value(const std::string& text, std::string_view key) {
  for (const std::string& line : lines_of(text)) {
    if (line.empty() || line[0] == '#' || line[0] == ' ') continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos && line.substr(0, colon) == key)
      return unquote(line.substr(colon + 1));
  }
  return std::nullopt;
}

/// JSON (DeepSpeed's pure JSON, parsed strictly): the scalar `key` at the top level, or inside
/// the top-level object `within`, as text ("true", "3"); nullopt when absent.
std::optional<std::string> json_value(const std::string& text, std::string_view key,
                                      std::string_view within = {}) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, true, false);
  const nlohmann::json* at = &j;
  if (!within.empty()) {
    if (!j.contains(std::string(within))) return std::nullopt;
    at = &j.at(std::string(within));
  }
  if (!at->contains(std::string(key))) return std::nullopt;
  const nlohmann::json& v = at->at(std::string(key));
  return v.is_string() ? v.get<std::string>() : v.dump();
}

/// DeepSpeed's notes: the strings of its "_comment" array.
std::vector<std::string> json_notes(const std::string& text) {
  return nlohmann::json::parse(text).at("_comment").get<std::vector<std::string>>();
}

/// The number that follows `phrase` on a comment line or note (the DeepSpeed degrees that are
/// not keys).
std::optional<std::int64_t> number_after(const std::string& text, std::string_view phrase) {
  const auto at = text.find(phrase);
  if (at == std::string::npos) return std::nullopt;
  return std::stoll(text.substr(at + phrase.size()));
}

bool has_line_containing(const std::string& text, std::string_view a, std::string_view b = {}) {
  for (const std::string& line : lines_of(text))
    if (line.find(a) != std::string::npos && line.find(b) != std::string::npos) return true;
  return false;
}

std::int64_t maxtext_axis(const std::string& text, std::string_view axis) {
  return integer(yaml_value(text, "ici_" + std::string(axis) + "_parallelism")) *
         integer(yaml_value(text, "dcn_" + std::string(axis) + "_parallelism"));
}

std::int64_t maxtext_product(const std::string& text, std::string_view prefix) {
  std::int64_t product = 1;
  for (std::string_view axis : {"data", "fsdp", "context", "tensor", "pipeline", "expert"})
    product *= integer(yaml_value(text, std::string(prefix) + std::string(axis) + "_parallelism"));
  return product;
}

/// Megatron's layout grammar (pipeline_parallel_layer_layout.py): "," is cosmetic, "(x)*n" and
/// "c*n" repeat; returns the decoder layers ('t') of each chunk.
std::vector<std::int64_t> layout_chunks(std::string s) {
  std::string flat;
  for (char c : s)
    if (c != ',') flat += c;
  for (std::size_t open; (open = flat.find('(')) != std::string::npos;) {
    const std::size_t close = flat.find(')', open);
    const std::size_t digits_end = flat.find_first_not_of("0123456789", close + 2);
    const std::string body = flat.substr(open + 1, close - open - 1);
    const auto times = std::stoll(flat.substr(close + 2, digits_end - close - 2));
    std::string unrolled;
    for (std::int64_t i = 0; i < times; ++i) unrolled += body;
    flat = flat.substr(0, open) + unrolled + flat.substr(digits_end);
  }
  std::vector<std::int64_t> chunks{0};
  for (std::size_t i = 0; i < flat.size(); ++i) {
    if (flat[i] == '|') {
      chunks.push_back(0);
    } else if (flat[i] == 't') {
      std::int64_t count = 1;
      if (i + 1 < flat.size() && flat[i + 1] == '*') {
        std::size_t end = flat.find_first_not_of("0123456789", i + 2);
        if (end == std::string::npos) end = flat.size();
        count = std::stoll(flat.substr(i + 2, end - i - 2));
        i = end - 1;
      }
      chunks.back() += count;
    }
  }
  return chunks;
}

// --- plans ---------------------------------------------------------------------------------------

/// LLaMA-3 405B as Meta trained it on 16,384 H100 (Dubey et al. 2024, Table 4: TP 8, PP 16,
/// DP 128, 2048 sequences of 8192), interleaved with 2 virtual stages, selective recomputation.
training_plan_values llama3_405b_plan() {
  return make_training_plan(
      models::llama3_405b::shape, systems::dgx_h100_superpod<2048>::figures,
      {.data = 128,
       .tensor = 8,
       .pipeline = 16,
       .zero_stage = 1,
       .sequence_parallel = true,
       .schedule = pipeline_schedule::interleaved,
       .virtual_stages = 2,
       .uneven_stages = true},
      {.batch = {.global_tokens = 2048LL * 8192, .seq_len = 8192, .micro_batch = 1},
       .recompute = {recompute_kind::selective}});
}

/// LLaMA-3 70B on two TPU v5p slices of 16x16x16: FSDP 2048 x TP 4, the FSDP axis outermost so
/// that its outer part crosses DCN.
training_plan_values tpu_plan() {
  return make_training_plan(models::llama3_70b::shape,
                            systems::tpu_v5p_slice<16, 16, 16, 2>::figures,
                            {.data = 2048, .tensor = 4, .zero_stage = 3, .sequence_parallel = true},
                            {.batch = {.global_tokens = 2048LL * 8192, .seq_len = 8192},
                             .recompute = {recompute_kind::full}});
}

/// LLaMA-3 8B with ZeRO-3 (FSDP) over 32 H100.
training_plan_values fsdp_plan() {
  return make_training_plan(models::llama3_8b::shape, systems::dgx_h100_superpod<4>::figures,
                            {.data = 32, .zero_stage = 3},
                            {.batch = {.global_tokens = 256LL * 8192, .seq_len = 8192},
                             .recompute = {recompute_kind::full}});
}

/// LLaMA-3 8B with hybrid sharding: FSDP inside 16 GPUs, 2 plain replicas.
using hsdp_plan =
    training_plan<models::llama3_8b, systems::dgx_h100_superpod<4>,
                  mesh<axis<"replica", 2>, axis<"shard", 16>>, data<"replica">, fsdp<"shard">,
                  batch<global_sequences<256>, seq_len<8192>, micro_batch<1>>, recompute::full,
                  precision::bf16_mixed_adam>;

}  // namespace

// --- the LLaMA-3 405B plan in every format
// --------------------------------------------------------

TEST_CASE("the megatron arguments for the llama-3 405b plan carry the plan's degrees") {
  const training_plan_values p = llama3_405b_plan();
  const std::string text = megatron_arguments(p);
  const parallel_degrees& d = p.setup.degrees;
  const std::int64_t tp = integer(megatron_flag(text, "--tensor-model-parallel-size"));
  const std::int64_t pp = integer(megatron_flag(text, "--pipeline-model-parallel-size"));
  const std::int64_t cp = integer(megatron_flag(text, "--context-parallel-size"));
  CHECK(tp == d.tensor);
  CHECK(pp == d.pipeline);
  CHECK(cp == d.context);
  CHECK(integer(megatron_flag(text, "--expert-model-parallel-size")) == d.expert);
  // Megatron derives DP as WORLD_SIZE / (TP x PP x CP).
  const std::int64_t world = *number_after(text, "WORLD_SIZE=");
  CHECK(world / (tp * pp * cp) == d.data);
  CHECK(integer(megatron_flag(text, "--num-virtual-stages-per-pipeline-rank")) == d.virtual_stages);
  CHECK(integer(megatron_flag(text, "--micro-batch-size")) == p.setup.batch.micro_batch);
  CHECK(integer(megatron_flag(text, "--global-batch-size")) ==
        p.setup.batch.global_tokens / p.setup.batch.seq_len);
  CHECK(integer(megatron_flag(text, "--seq-length")) == p.setup.batch.seq_len);
  CHECK(megatron_flag(text, "--sequence-parallel").has_value());
  CHECK(megatron_flag(text, "--use-distributed-optimizer").has_value());
  CHECK(megatron_flag(text, "--recompute-granularity") == "selective");
  CHECK(megatron_flag(text, "--bf16").has_value());
  // 126 layers + embedding + loss = 128 = 32 chunks of 4 (Meta: one layer fewer on the first and
  // last stage).
  CHECK(megatron_flag(text, "--account-for-embedding-in-pipeline-split").has_value());
  CHECK(megatron_flag(text, "--account-for-loss-in-pipeline-split").has_value());
  CHECK(integer(megatron_flag(text, "--num-layers")) == 126);
  CHECK(integer(megatron_flag(text, "--num-query-groups")) == 8);
  CHECK(megatron_flag(text, "--normalization") == "RMSNorm");
}

TEST_CASE("the torchtitan toml for the llama-3 405b plan carries the plan's degrees") {
  const training_plan_values p = llama3_405b_plan();
  const std::string text = torchtitan_toml(p);
  const parallel_degrees& d = p.setup.degrees;
  const std::int64_t pp = integer(toml_value(text, "parallelism", "pipeline_parallel_degree"));
  CHECK(integer(toml_value(text, "parallelism", "tensor_parallel_degree")) == d.tensor);
  CHECK(pp == d.pipeline);
  CHECK(integer(toml_value(text, "parallelism", "context_parallel_degree")) == d.context);
  CHECK(integer(toml_value(text, "parallelism", "expert_parallel_degree")) == d.expert);
  CHECK(integer(toml_value(text, "parallelism", "data_parallel_replicate_degree")) *
            integer(toml_value(text, "parallelism", "data_parallel_shard_degree")) ==
        d.data);
  // torchtitan's stage count: ceil((layers + first_less + last_less) / layers_per_stage).
  const std::int64_t per =
      integer(toml_value(text, "parallelism", "pipeline_parallel_layers_per_stage"));
  const std::int64_t units =
      126 + integer(toml_value(text, "parallelism", "pipeline_parallel_first_stage_less_layers")) +
      integer(toml_value(text, "parallelism", "pipeline_parallel_last_stage_less_layers"));
  CHECK((units + per - 1) / per / pp == d.virtual_stages);
  CHECK(toml_value(text, "parallelism", "pipeline_parallel_schedule") == "Interleaved1F1B");
  CHECK(integer(toml_value(text, "parallelism", "pipeline_parallel_microbatch_size")) ==
        p.setup.batch.micro_batch);
  CHECK(integer(toml_value(text, "training", "global_batch_size")) == 2048);
  CHECK(integer(toml_value(text, "training", "seq_len")) == p.setup.batch.seq_len);
  // With PP the local batch is one step's sequences per replica, cut into micro-batches.
  CHECK(integer(toml_value(text, "training", "local_batch_size")) ==
        micro_batches(p.setup) * p.setup.batch.micro_batch);
  CHECK(toml_value(text, "model", "flavor") == "405B");
}

TEST_CASE("the maxtext config for the llama-3 405b plan carries the plan's degrees") {
  const training_plan_values p = llama3_405b_plan();
  const std::string text = maxtext_config(p);
  const parallel_degrees& d = p.setup.degrees;
  CHECK(maxtext_axis(text, "tensor") == d.tensor);
  CHECK(maxtext_axis(text, "pipeline") == d.pipeline);
  CHECK(maxtext_axis(text, "context") == d.context);
  CHECK(maxtext_axis(text, "expert") == d.expert);
  CHECK(maxtext_axis(text, "data") * maxtext_axis(text, "fsdp") * maxtext_axis(text, "expert") ==
        d.data);
  CHECK(integer(yaml_value(text, "num_pipeline_repeats")) == d.virtual_stages);
  // global batch = per_device_batch_size x devices x gradient_accumulation_steps (pyconfig).
  const std::int64_t devices = maxtext_product(text, "ici_") * maxtext_product(text, "dcn_");
  CHECK(devices == 16384);
  const double per_device = std::stod(*yaml_value(text, "per_device_batch_size"));
  const std::int64_t accumulation = integer(yaml_value(text, "gradient_accumulation_steps"));
  const auto global =
      static_cast<std::int64_t>(per_device * static_cast<double>(devices)) * accumulation;
  CHECK(global == 2048);
  // A pipeline micro-batch is global / num_pipeline_microbatches, spread over the replicas.
  CHECK(global / integer(yaml_value(text, "num_pipeline_microbatches")) / d.data ==
        p.setup.batch.micro_batch);
  CHECK(integer(yaml_value(text, "max_target_length")) == p.setup.batch.seq_len);
  // Tensor parallelism inside the 8-GPU node, data and pipeline parallelism across nodes.
  CHECK(integer(yaml_value(text, "ici_tensor_parallelism")) == 8);
  CHECK(integer(yaml_value(text, "dcn_data_parallelism")) == 128);
  CHECK(integer(yaml_value(text, "dcn_pipeline_parallelism")) == 16);
  CHECK(yaml_value(text, "shard_optimizer_over_data") == "True");
}

TEST_CASE("the deepspeed json for the llama-3 405b plan carries the plan's degrees") {
  const training_plan_values p = llama3_405b_plan();
  const std::string text = deepspeed_json(p);
  const parallel_degrees& d = p.setup.degrees;
  const std::int64_t global = integer(json_value(text, "train_batch_size"));
  const std::int64_t per_gpu = integer(json_value(text, "train_micro_batch_size_per_gpu"));
  const std::int64_t accumulation = integer(json_value(text, "gradient_accumulation_steps"));
  CHECK(global == 2048);
  CHECK(per_gpu == p.setup.batch.micro_batch);
  // DeepSpeed's rule: train_batch_size = micro x accumulation x data-parallel world size.
  CHECK(global / (per_gpu * accumulation) == d.data);
  CHECK(integer(json_value(text, "stage", "zero_optimization")) == d.zero_stage);
  CHECK(json_value(text, "enabled", "bf16") == "true");
  // The model-parallel degrees are not JSON keys; the comment lines carry them.
  CHECK(number_after(text, "tensor parallelism ") == d.tensor);
  CHECK(number_after(text, "PipelineModule(num_stages=") == d.pipeline);
  CHECK(number_after(text, "schedule with ") == d.virtual_stages);
  CHECK(number_after(text, "sequence length ") == p.setup.batch.seq_len);
  CHECK(text.find("context parallelism") == std::string::npos);  // CP 1: nothing to say
}

TEST_CASE("every export names the format version it targets on its first line") {
  const training_plan_values p = llama3_405b_plan();
  CHECK(lines_of(megatron_arguments(p)).front().rfind("# Megatron-LM", 0) == 0);
  CHECK(lines_of(megatron_arguments(p)).front().find("core_r0.14") != std::string::npos);
  CHECK(lines_of(torchtitan_arguments(p)).front().rfind("# torchtitan", 0) == 0);
  CHECK(lines_of(torchtitan_arguments(p)).front().find("HEAD") != std::string::npos);
  CHECK(lines_of(torchtitan_toml(p)).front().rfind("# torchtitan v0.2.2", 0) == 0);
  CHECK(lines_of(torchtitan_toml(p)).front().find("job_config.py") != std::string::npos);
  CHECK(lines_of(maxtext_config(p)).front().rfind("# MaxText", 0) == 0);
  CHECK(lines_of(maxtext_config(p)).front().find("base.yml") != std::string::npos);
  // DeepSpeed's JSON has no comment lines: its first note says it.
  CHECK(lines_of(deepspeed_json(p)).front() == "{");
  CHECK(json_notes(deepspeed_json(p)).front().rfind("DeepSpeed config JSON", 0) == 0);
  CHECK(json_notes(deepspeed_json(p)).front().find("edaa722") != std::string::npos);
}

TEST_CASE("an export of a plan that breaks a rule says so") {
  // Selective recomputation leaves 115+ GB per device in our memory model (tests/validation).
  const training_plan_values p = llama3_405b_plan();
  REQUIRE(check(p).has(plan_rule::fits_in_memory));
  for (const std::string& text :
       {megatron_arguments(p), torchtitan_arguments(p), torchtitan_toml(p), maxtext_config(p),
        deepspeed_json(p)})
    CHECK(has_line_containing(text, "warning: the plan breaks a rule", "per device"));
}

// --- MaxText's ici / dcn split -------------------------------------------------------------------

TEST_CASE("maxtext puts the outer part of an axis that crosses dcn on dcn_*") {
  const training_plan_values p = tpu_plan();
  REQUIRE(check(p).empty());
  const std::string text = maxtext_config(p);
  CHECK(yaml_value(text, "hardware") == "tpu");
  // tp 4 is innermost (ICI); fsdp 2048 spans 4 x 2048 = 8192 chips, two slices of 4096.
  CHECK(integer(yaml_value(text, "ici_tensor_parallelism")) == 4);
  CHECK(integer(yaml_value(text, "ici_fsdp_parallelism")) == 1024);
  CHECK(integer(yaml_value(text, "dcn_fsdp_parallelism")) == 2);
  CHECK(maxtext_product(text, "ici_") == 16 * 16 * 16);  // chips per slice
  CHECK(maxtext_product(text, "dcn_") == 2);             // slices
  CHECK(std::stod(*yaml_value(text, "per_device_batch_size")) == doctest::Approx(0.25).scale(0.0));
  CHECK(yaml_value(text, "remat_policy") == "full");
  CHECK(!has_line_containing(text, "no equivalent"));
}

TEST_CASE("maxtext keeps an axis that fits in one slice on ici_*") {
  const training_plan_values p =
      make_training_plan(models::llama3_70b::shape, systems::tpu_v5p_slice<16, 16, 16, 2>::figures,
                         {.data = 1024, .tensor = 4, .zero_stage = 3},
                         {.batch = {.global_tokens = 1024LL * 8192, .seq_len = 8192},
                          .recompute = {recompute_kind::full}});
  const std::string text = maxtext_config(p);
  CHECK(integer(yaml_value(text, "ici_fsdp_parallelism")) == 1024);
  CHECK(maxtext_product(text, "dcn_") == 1);
  // 4096 of 8192 chips: the products cannot match the two slices, and the export says so.
  CHECK(has_line_containing(text, "no equivalent", "ici_"));
}

// --- FSDP and hybrid sharding --------------------------------------------------------------------

TEST_CASE("an fsdp plan becomes torchtitan's shard degree and deepspeed's zero stage 3") {
  const training_plan_values p = fsdp_plan();
  REQUIRE(check(p).empty());
  const std::string titan = torchtitan_toml(p);
  CHECK(integer(toml_value(titan, "parallelism", "data_parallel_shard_degree")) == 32);
  CHECK(integer(toml_value(titan, "parallelism", "data_parallel_replicate_degree")) == 1);
  CHECK(!toml_value(titan, "parallelism", "fsdp_reshard_after_forward").has_value());
  CHECK(toml_value(titan, "activation_checkpoint", "mode") == "full");
  // No PP: one micro-batch per forward, gradient accumulation over the rest.
  CHECK(integer(toml_value(titan, "training", "local_batch_size")) == 1);
  CHECK(integer(toml_value(titan, "training", "global_batch_size")) == 256);

  const std::string ds = deepspeed_json(p);
  CHECK(integer(json_value(ds, "stage", "zero_optimization")) == 3);
  CHECK(integer(json_value(ds, "gradient_accumulation_steps")) == 8);
  CHECK(!json_value(ds, "mics_shard_size").has_value());
  CHECK(json_value(ds, "partition_activations", "activation_checkpointing") == "false");

  const std::string megatron = megatron_arguments(p);
  CHECK(megatron_flag(megatron, "--use-megatron-fsdp").has_value());
  CHECK(megatron_flag(megatron, "--data-parallel-sharding-strategy") == "optim_grads_params");
  CHECK(megatron_flag(megatron, "--recompute-granularity") == "full");

  const std::string maxtext = maxtext_config(p);
  CHECK(maxtext_axis(maxtext, "fsdp") == 32);
  CHECK(integer(yaml_value(maxtext, "ici_fsdp_parallelism")) == 8);
  CHECK(integer(yaml_value(maxtext, "dcn_fsdp_parallelism")) == 4);
  CHECK(integer(yaml_value(maxtext, "gradient_accumulation_steps")) == 8);
}

TEST_CASE("deepspeed's overlap_comm is written where a plan sets it") {
  using plain = training_plan<models::llama3_8b, systems::dgx_a100_superpod<1>,
                              mesh<axis<"dp", 8>>, zero<2, "dp">,
                              batch<global_sequences<64>, seq_len<2048>, micro_batch<2>>,
                              recompute::full, precision::bf16_mixed_adam, framework::deepspeed>;
  using overlapped = training_plan<models::llama3_8b, systems::dgx_a100_superpod<1>,
                                   mesh<axis<"dp", 8>>, zero<2, "dp">,
                                   batch<global_sequences<64>, seq_len<2048>, micro_batch<2>>,
                                   recompute::full, precision::bf16_mixed_adam,
                                   framework::deepspeed, overlap_comm>;
  // DeepSpeed's own default below stage 3 is false: left out unless set.
  CHECK(!json_value(deepspeed_json(plain::values), "overlap_comm", "zero_optimization").has_value());
  CHECK(json_value(deepspeed_json(overlapped::values), "overlap_comm", "zero_optimization") ==
        "true");
  CHECK(integer(json_value(deepspeed_json(overlapped::values), "stage", "zero_optimization")) == 2);
}

TEST_CASE("plain data axes beside zero-3 axes export as hybrid sharding") {
  const training_plan_values& p = hsdp_plan::values;
  REQUIRE(hsdp_plan::fits);
  const std::string titan = torchtitan_toml(p);
  CHECK(integer(toml_value(titan, "parallelism", "data_parallel_replicate_degree")) == 2);
  CHECK(integer(toml_value(titan, "parallelism", "data_parallel_shard_degree")) == 16);
  const std::string ds = deepspeed_json(p);
  CHECK(integer(json_value(ds, "mics_shard_size", "zero_optimization")) == 16);
  const std::string maxtext = maxtext_config(p);
  CHECK(maxtext_axis(maxtext, "data") == 2);
  CHECK(maxtext_axis(maxtext, "fsdp") == 16);
  CHECK(integer(yaml_value(maxtext, "dcn_data_parallelism")) == 2);
  // Megatron-FSDP has no flag we could verify that bounds the FSDP group: said, not dropped.
  CHECK(has_line_containing(megatron_arguments(p), "no equivalent", "2 plain data-parallel"));
}

// --- features a target lacks ---------------------------------------------------------------------

TEST_CASE("a plan feature the target lacks produces a comment line") {
  const training_plan_values p = llama3_405b_plan();
  // torchtitan shards data parallelism only with FSDP2.
  CHECK(has_line_containing(torchtitan_toml(p), "approximation", "no ZeRO-1"));
  // MaxText's SPMD pipeline needs the chunks to divide the pipelined layers.
  CHECK(has_line_containing(maxtext_config(p), "no equivalent", "126 layers"));
  CHECK(integer(yaml_value(maxtext_config(p), "pipeline_parallel_layers")) == 96);
  // DeepSpeed's PipelineEngine has one (1F1B) schedule.
  CHECK(has_line_containing(deepspeed_json(p), "no equivalent", "virtual stages"));

  const training_plan_values gpipe_pp =
      make_training_plan(models::llama3_70b::shape, systems::dgx_h100_superpod<8>::figures,
                         {.data = 2,
                          .tensor = 8,
                          .pipeline = 4,
                          .zero_stage = 2,
                          .schedule = pipeline_schedule::gpipe},
                         {.batch = {.global_tokens = 64LL * 4096, .seq_len = 4096},
                          .recompute = {recompute_kind::full}});
  CHECK(has_line_containing(megatron_arguments(gpipe_pp), "no equivalent", "GPipe"));
  CHECK(has_line_containing(deepspeed_json(gpipe_pp), "no equivalent", "asserts ZeRO stage < 2"));
  CHECK(has_line_containing(torchtitan_toml(gpipe_pp), "approximation", "no ZeRO-2"));
  CHECK(toml_value(torchtitan_toml(gpipe_pp), "parallelism", "pipeline_parallel_schedule") ==
        "GPipe");
}

TEST_CASE("megatron writes a ragged split out as a pipeline layout") {
  // 80 layers over 6 stages: neither 80, 81 nor 82 divides by 6.
  const training_plan_values p =
      make_training_plan(models::llama3_70b::shape, systems::dgx_h100_superpod<8>::figures,
                         {.data = 1, .tensor = 8, .pipeline = 6, .uneven_stages = true},
                         {.batch = {.global_tokens = 12LL * 4096, .seq_len = 4096},
                          .recompute = {recompute_kind::full}});
  const std::string text = megatron_arguments(p);
  const auto layout = megatron_flag(text, "--pipeline-model-parallel-layout");
  REQUIRE(layout.has_value());
  // 13 each and 2 one more: the plan's ragged split leaves the ends one short first (the last,
  // the first, the fifth, the second), and the layout writes that split.
  CHECK(*layout == "Et*13|t*13|(t*14|)*2t*13|t*13L");
  const std::vector<std::int64_t> chunks = layout_chunks(*layout);
  CHECK(chunks == std::vector<std::int64_t>{13, 13, 14, 14, 13, 13});
  CHECK(!megatron_flag(text, "--num-virtual-stages-per-pipeline-rank").has_value());
}

TEST_CASE("mixture-of-experts and mla shapes become the targets' moe and mla settings") {
  const training_plan_values mixtral =
      make_training_plan(models::mixtral_8x7b::shape, systems::dgx_h100_superpod<2>::figures,
                         {.data = 16, .expert = 8, .zero_stage = 3},
                         {.batch = {.global_tokens = 16 * 4096, .seq_len = 4096},
                          .recompute = {recompute_kind::full}});
  const std::string megatron = megatron_arguments(mixtral);
  CHECK(integer(megatron_flag(megatron, "--num-experts")) == 8);
  CHECK(integer(megatron_flag(megatron, "--moe-router-topk")) == 2);
  CHECK(integer(megatron_flag(megatron, "--expert-model-parallel-size")) == 8);
  CHECK(integer(megatron_flag(megatron, "--ffn-hidden-size")) == 14336);
  const std::string maxtext = maxtext_config(mixtral);
  CHECK(yaml_value(maxtext, "decoder_block") == "mixtral");
  CHECK(maxtext_axis(maxtext, "expert") == 8);
  CHECK(maxtext_axis(maxtext, "fsdp") * maxtext_axis(maxtext, "expert") == 16);
  CHECK(integer(toml_value(torchtitan_toml(mixtral), "parallelism", "expert_parallel_degree")) ==
        8);
  CHECK(has_line_containing(torchtitan_toml(mixtral), "no equivalent", "registry"));
  CHECK(number_after(deepspeed_json(mixtral), "MoE(ep_size=") == 8);

  const training_plan_values v3 = make_training_plan(
      models::deepseek_v3::shape, systems::dgx_h100_superpod<256>::figures,
      {.data = 128, .pipeline = 16, .expert = 64, .zero_stage = 1, .uneven_stages = true},
      {.batch = {.global_tokens = 4096LL * 4096, .seq_len = 4096},
       .recompute = {recompute_kind::full}});
  const std::string v3_megatron = megatron_arguments(v3);
  CHECK(megatron_flag(v3_megatron, "--multi-latent-attention").has_value());
  CHECK(megatron_flag(v3_megatron, "--moe-layer-freq") == "([0]*3+[1]*58)");
  CHECK(integer(megatron_flag(v3_megatron, "--moe-shared-expert-intermediate-size")) == 2048);
  CHECK(yaml_value(maxtext_config(v3), "attention_type") == "mla");
  CHECK(integer(yaml_value(maxtext_config(v3), "first_num_dense_layers")) == 3);
  CHECK(has_line_containing(deepspeed_json(v3), "no equivalent", "top-8"));
}

TEST_CASE(
    "megatron warns that a mixture of experts with tensor and no sequence parallelism fails") {
  // Megatron-LM's MoELayer.forward raises ValueError in training when the attention tensor-
  // parallel group is larger than 1 and sequence parallelism is off (NVIDIA/Megatron-LM
  // d98e8a64ddf34856e74b24714e3bedb2f5a39553, megatron/core/transformer/moe/moe_layer.py).
  // Mixtral 8x7B on 16 H100: tensor 2 x data 8 (expert 8 inside it).
  auto mixtral = [](bool sequence_parallel, std::int64_t tensor) {
    return make_training_plan(models::mixtral_8x7b::shape, systems::dgx_h100_superpod<2>::figures,
                              {.data = 16 / tensor,
                               .tensor = tensor,
                               .expert = 8 / tensor,
                               .zero_stage = 1,
                               .sequence_parallel = sequence_parallel},
                              {.batch = {.global_tokens = 16 * 4096, .seq_len = 4096},
                               .recompute = {recompute_kind::full}});
  };
  const std::string without = megatron_arguments(mixtral(false, 2));
  CHECK(has_line_containing(without, "# warning: Megatron-LM refuses a mixture of experts",
                            "tensor parallelism (2) and no sequence parallelism"));
  CHECK(has_line_containing(without, "warning", "moe_layer.py"));
  CHECK(!megatron_flag(without, "--sequence-parallel").has_value());
  // With sequence parallelism, or without tensor parallelism, Megatron runs it: no warning.
  const std::string with = megatron_arguments(mixtral(true, 2));
  CHECK(megatron_flag(with, "--sequence-parallel").has_value());
  CHECK(!has_line_containing(with, "refuses a mixture of experts"));
  CHECK(
      !has_line_containing(megatron_arguments(mixtral(false, 1)), "refuses a mixture of experts"));
  // A dense model with tensor and no sequence parallelism runs (the rule is the MoE layer's).
  const training_plan_values dense = make_training_plan(
      models::llama3_8b::shape, systems::dgx_h100_superpod<2>::figures, {.data = 8, .tensor = 2},
      {.batch = {.global_tokens = 16 * 8192, .seq_len = 8192},
       .recompute = {recompute_kind::full}});
  CHECK(!has_line_containing(megatron_arguments(dense), "refuses a mixture of experts"));
}

// --- fp8 and fp4 recipes and attention kernels ---------------------------------------------------

namespace {

/// LLaMA-3 8B over 32 H100 (B200 with `b200`), data 4 x tensor 8, with `precision` and `kernel`;
/// `sequences` per step (4: one micro-batch per replica).
training_plan_values recipe_plan(const precision_policy& precision,
                                 attention_kernel kernel = attention_kernel::automatic,
                                 std::int64_t sequences = 4, bool b200 = false) {
  const system_figures system = b200 ? systems::dgx_b200_superpod<4>::figures
                                     : systems::dgx_h100_superpod<4>::figures;
  training_plan_values p = make_training_plan(
      models::llama3_8b::shape, system, {.data = 4, .tensor = 8, .sequence_parallel = true},
      {.batch = {.global_tokens = sequences * 8192, .seq_len = 8192},
       .recompute = {recompute_kind::full},
       .precision = precision});
  p.setup.attention = kernel;
  return p;
}

}  // namespace

TEST_CASE("megatron: each fp8 and fp4 recipe becomes --fp8-format/--fp8-recipe or --fp4-*") {
  // megatron/training/arguments.py at NVIDIA/Megatron-LM
  // 000c4ac24f61159c138b0975def722c65245983c: --fp8-format choices e4m3, hybrid; --fp8-recipe
  // choices tensorwise, delayed, mxfp8, blockwise, custom; --fp4-format e2m1; --fp4-recipe
  // nvfp4, custom. Megatron's own tensorwise and mxfp8 tests pair them with hybrid
  // (tests/functional_tests/test_cases/gpt/gpt3_weekly_dgx_b200_mcore_tp4_cp2_mxfp8_tp_sp_cp/
  // model_config.yaml at that commit).
  struct expected {
    precision_policy policy;
    const char* format;
    const char* recipe;
  };
  const expected cases[] = {
      {precision::fp8_delayed::policy, "hybrid", "delayed"},
      {precision::fp8_tensorwise::policy, "hybrid", "tensorwise"},
      {precision::mxfp8::policy, "hybrid", "mxfp8"},
      {precision::fp8_deepseek_v3::policy, "e4m3", "blockwise"},
      {precision::fp8_rowwise::policy, "e4m3", "blockwise"}};
  for (const expected& e : cases) {
    CAPTURE(e.recipe);
    const std::string text = megatron_arguments(recipe_plan(e.policy));
    CHECK(megatron_flag(text, "--bf16").has_value());
    CHECK(megatron_flag(text, "--fp8-format") == e.format);
    CHECK(megatron_flag(text, "--fp8-recipe") == e.recipe);
    CHECK_FALSE(megatron_flag(text, "--fp4-format").has_value());
  }
  CHECK(has_line_containing(megatron_arguments(recipe_plan(precision::fp8_rowwise::policy)),
                            "approximation", "rowwise"));
  const std::string fp4 = megatron_arguments(recipe_plan(precision::nvfp4::policy, {}, 4, true));
  CHECK(megatron_flag(fp4, "--fp4-format") == "e2m1");
  CHECK(megatron_flag(fp4, "--fp4-recipe") == "nvfp4");
  CHECK_FALSE(megatron_flag(fp4, "--fp8-format").has_value());
  const std::string bf16 = megatron_arguments(recipe_plan(precision::bf16_mixed_adam::policy));
  CHECK_FALSE(megatron_flag(bf16, "--fp8-format").has_value());
  CHECK_FALSE(megatron_flag(bf16, "--fp8-recipe").has_value());
}

TEST_CASE("megatron: the attention kernel becomes --attention-backend") {
  // AttnBackend of megatron/core/transformer/enums.py at 000c4ac24f61159c138b0975def722c65245983c:
  // flash, fused, unfused, local, auto (the default).
  const precision_policy bf16 = precision::bf16_mixed_adam::policy;
  const auto backend = [&](attention_kernel k) {
    return megatron_flag(megatron_arguments(recipe_plan(bf16, k)), "--attention-backend");
  };
  CHECK_FALSE(backend(attention_kernel::automatic).has_value());
  CHECK(backend(attention_kernel::flash2) == "flash");
  CHECK(backend(attention_kernel::flash3) == "flash");
  CHECK(backend(attention_kernel::cudnn) == "fused");
  CHECK_FALSE(backend(attention_kernel::splash).has_value());
  CHECK(has_line_containing(megatron_arguments(recipe_plan(bf16, attention_kernel::splash)),
                            "no equivalent", "splash"));
  training_plan_values eager = recipe_plan(bf16);
  eager.setup.eager_attention = true;
  CHECK(megatron_flag(megatron_arguments(eager), "--attention-backend") == "unfused");
}

TEST_CASE("torchtitan: tensorwise and rowwise fp8 are the float8 converter's recipes, mxfp8 mx") {
  // torchtitan/config/job_config.py at pytorch/torchtitan v0.2.2
  // (73a0e6979dd10b6b1904098eb3c8f62c18ab87ce): model.converters; class Float8Linear (the table
  // [quantize.linear.float8]), recipe_name "tensorwise" | "rowwise" | "rowwise_with_gw_hp"; class
  // MXLinear ([quantize.linear.mx]), recipe_name default "mxfp8_cublas";
  // register_model_converter(Float8LinearConverter, "quantize.linear.float8") and
  // (MXLinearConverter, "quantize.linear.mx") in torchtitan/components/quantization/{float8,mx}.py.
  const std::string tensorwise = torchtitan_toml(recipe_plan(precision::fp8_tensorwise::policy));
  CHECK(toml_value(tensorwise, "model", "converters") == "[\"quantize.linear.float8\"]");
  CHECK(toml_value(tensorwise, "quantize.linear.float8", "recipe_name") == "tensorwise");
  const std::string rowwise = torchtitan_toml(recipe_plan(precision::fp8_rowwise::policy));
  CHECK(toml_value(rowwise, "quantize.linear.float8", "recipe_name") == "rowwise");
  const std::string delayed = torchtitan_toml(recipe_plan(precision::fp8_delayed::policy));
  CHECK(toml_value(delayed, "quantize.linear.float8", "recipe_name") == "tensorwise");
  CHECK(has_line_containing(delayed, "approximation", "delayed scaling"));
  const std::string blockwise = torchtitan_toml(recipe_plan(precision::fp8_deepseek_v3::policy));
  CHECK(toml_value(blockwise, "quantize.linear.float8", "recipe_name") == "rowwise");
  CHECK(has_line_containing(blockwise, "approximation", "DeepSeek-V3"));
  const std::string mx =
      torchtitan_toml(recipe_plan(precision::mxfp8::policy, attention_kernel::automatic, 4, true));
  CHECK(toml_value(mx, "model", "converters") == "[\"quantize.linear.mx\"]");
  CHECK(toml_value(mx, "quantize.linear.mx", "recipe_name") == "mxfp8_cublas");
  CHECK_FALSE(toml_value(mx, "quantize.linear.float8", "recipe_name").has_value());
  const std::string fp4 =
      torchtitan_toml(recipe_plan(precision::nvfp4::policy, attention_kernel::automatic, 4, true));
  CHECK(has_line_containing(fp4, "no equivalent", "fp4"));
  CHECK_FALSE(toml_value(fp4, "model", "converters").has_value());
}

TEST_CASE("torchtitan: no job config key picks the attention kernel, and the export says so") {
  // ScaledDotProductAttention (torchtitan/models/attention.py at v0.2.2, 73a0e69;
  // torchtitan/models/common/attention.py at b5bcd76): SDPA with the backends CUDNN_ATTENTION,
  // FLASH_ATTENTION, MATH in that order; or FlexAttention and varlen, the model's attn_backend.
  const precision_policy bf16 = precision::bf16_mixed_adam::policy;
  CHECK(has_line_containing(torchtitan_toml(recipe_plan(bf16, attention_kernel::flash2)),
                            "approximation", "FlashAttention-2 is SDPA's second choice"));
  CHECK(has_line_containing(torchtitan_arguments(recipe_plan(bf16, attention_kernel::cudnn)),
                            "attention", "cuDNN backend, torchtitan's first choice"));
  CHECK(has_line_containing(torchtitan_toml(recipe_plan(bf16, attention_kernel::flash3)),
                            "no equivalent", "flash3"));
}

TEST_CASE("maxtext: fp8 and fp4 recipes are transformer engine quantizations, the rest refused") {
  // QuantizationType of src/maxtext/configs/types.py at AI-Hypercomputer/maxtext
  // e591f30cbbf217ed67ef71263ec0538239f9c3b8: te_fp8_delayedscaling, te_fp8_currentscaling,
  // te_mxfp8, te_nvfp4 (Transformer Engine's DelayedScaling, Float8CurrentScaling,
  // MXFP8BlockScaling, NVFP4BlockScaling in src/maxtext/layers/quantizations.py).
  CHECK(yaml_value(maxtext_config(recipe_plan(precision::fp8_delayed::policy)), "quantization") ==
        "te_fp8_delayedscaling");
  CHECK(yaml_value(maxtext_config(recipe_plan(precision::fp8_tensorwise::policy)),
                   "quantization") == "te_fp8_currentscaling");
  CHECK(yaml_value(maxtext_config(recipe_plan(precision::mxfp8::policy, {}, 4, true)),
                   "quantization") == "te_mxfp8");
  CHECK(yaml_value(maxtext_config(recipe_plan(precision::nvfp4::policy, {}, 4, true)),
                   "quantization") == "te_nvfp4");
  for (const precision_policy& refused :
       {precision::fp8_rowwise::policy, precision::fp8_deepseek_v3::policy}) {
    CAPTURE(refused.name);
    const std::string text = maxtext_config(recipe_plan(refused));
    CHECK_FALSE(yaml_value(text, "quantization").has_value());
    CHECK(has_line_containing(text, "no equivalent",
                              std::string(scaling_name(refused.scaling)) + " scaling"));
    CHECK(yaml_value(text, "dtype") == "bfloat16");
  }
  // types.py raises "FP8 quantization is not compatible with gradient accumulation" for
  // te_fp8_delayedscaling: 8 sequences on 4 replicas accumulate 2 micro-batches.
  const std::string accumulated = maxtext_config(recipe_plan(precision::fp8_delayed::policy, {}, 8));
  CHECK(integer(yaml_value(accumulated, "gradient_accumulation_steps")) == 2);
  CHECK(has_line_containing(accumulated, "warning: MaxText refuses te_fp8_delayedscaling"));
  // The TE recipes are for NVIDIA GPUs: a TPU plan's fp8 is refused.
  training_plan_values tpu = tpu_plan();
  tpu.setup.precision = precision::fp8_tensorwise::policy;
  const std::string on_tpu = maxtext_config(tpu);
  CHECK_FALSE(yaml_value(on_tpu, "quantization").has_value());
  CHECK(has_line_containing(on_tpu, "no equivalent", "te_fp8_currentscaling"));
}

TEST_CASE("maxtext: the attention kernel becomes attention: flash, cudnn_flash_te or dot_product") {
  // base.yml (attention: autoselected, dot_product, flash, cudnn_flash_te) and
  // src/maxtext/layers/attention_op.py at e591f30cbbf217ed67ef71263ec0538239f9c3b8: "flash" is
  // the splash kernel on TPU, tokamax's Pallas Triton flash attention on GPU.
  training_plan_values tpu = tpu_plan();
  tpu.setup.attention = attention_kernel::splash;
  CHECK(yaml_value(maxtext_config(tpu), "attention") == "flash");
  const precision_policy bf16 = precision::bf16_mixed_adam::policy;
  CHECK(yaml_value(maxtext_config(recipe_plan(bf16, attention_kernel::cudnn)), "attention") ==
        "cudnn_flash_te");
  CHECK(yaml_value(maxtext_config(recipe_plan(bf16, attention_kernel::flash2)), "attention") ==
        "flash");
  CHECK(has_line_containing(maxtext_config(recipe_plan(bf16, attention_kernel::flash2)),
                            "approximation", "Pallas Triton"));
  CHECK_FALSE(yaml_value(maxtext_config(recipe_plan(bf16)), "attention").has_value());
  CHECK(has_line_containing(maxtext_config(recipe_plan(bf16, attention_kernel::splash)),
                            "no equivalent", "splash"));
}

TEST_CASE("deepspeed: an fp8 recipe is the model code's (Transformer Engine), the json runs bf16") {
  // No fp8 key among DeepSpeed's (tests/export/deepspeed_keys.txt, DeepSpeed edaa722).
  const std::string text = deepspeed_json(recipe_plan(precision::fp8_tensorwise::policy,
                                                      attention_kernel::flash3));
  CHECK(has_line_containing(text, "not in the JSON: fp8 GEMMs (tensorwise scaling)",
                            "Transformer Engine"));
  CHECK(json_value(text, "enabled", "bf16") == "true");
  CHECK(has_line_containing(text, "not in the JSON", "flash3 attention kernel"));
}

// --- the targets and their versions ---------------------------------------------------------------

TEST_CASE("launch_config names both torchtitan exports: HEAD's arguments and v0.2.2's toml") {
  const training_plan_values p = llama3_405b_plan();
  CHECK(launch_target_names.size() == 5);
  CHECK(launch_config(p, "torchtitan") == torchtitan_arguments(p));
  CHECK(launch_config(p, "torchtitan-toml") == torchtitan_toml(p));
  CHECK(launch_config(p, "megatron") == megatron_arguments(p));
  CHECK(launch_config(p, "maxtext") == maxtext_config(p));
  CHECK(launch_config(p, "deepspeed") == deepspeed_json(p));
  CHECK(launch_config(p, "torchtitan-json").empty());
}

TEST_CASE("torchtitan at HEAD: the 405b plan as options over the llama3_405b config function") {
  // ConfigManager (torchtitan/config/manager.py at b5bcd76) loads --module/--config and applies
  // the --section.option options; llama3_405b (torchtitan/models/llama3/config_registry.py)
  // converts its linear layers to float8, which the bf16 plan does not: said.
  const training_plan_values p = llama3_405b_plan();
  const std::string text = torchtitan_arguments(p);
  CHECK(megatron_flag(text, "--module") == "llama3");
  CHECK(megatron_flag(text, "--config") == "llama3_405b");
  CHECK(has_line_containing(text, "warning: llama3_405b converts the linear layers to float8"));
  CHECK(integer(megatron_flag(text, "--parallelism.data_parallel_replicate_degree")) *
            integer(megatron_flag(text, "--parallelism.data_parallel_shard_degree")) ==
        128);
  CHECK(integer(megatron_flag(text, "--parallelism.tensor_parallel_degree")) == 8);
  CHECK(integer(megatron_flag(text, "--parallelism.pipeline_parallel_degree")) == 16);
  // 126 layers + embedding + output counted as a layer each = 128 = 32 stages of 4.
  CHECK(integer(megatron_flag(text, "--parallelism.pipeline_parallel_layers_per_stage")) == 4);
  CHECK(integer(megatron_flag(text, "--parallelism.pipeline_parallel_first_stage_less_layers")) ==
        1);
  CHECK(integer(megatron_flag(text, "--parallelism.pipeline_parallel_last_stage_less_layers")) ==
        1);
  // All 2048 / 128 = 16 micro-batches of a replica in the pipeline, 8192 tokens each.
  CHECK(integer(megatron_flag(text, "--parallelism.num_pp_microbatches")) == 16);
  CHECK(integer(megatron_flag(text, "--training.num_tokens_per_microbatch_per_dp_rank")) == 8192);
  CHECK(integer(megatron_flag(text, "--training.num_tokens_per_train_step")) == 2048LL * 8192);
  CHECK(megatron_flag(text, "--training.disable_cuda_graphs") == "");
  CHECK(has_line_containing(text, "activation-checkpoint:none"));
}

TEST_CASE("torchtitan v0.2.2 splits each expert over tp as the plan does") {
  // expert_tensor_parallel_degree defaults to 1 (job_config.py at v0.2.2); the plan's experts
  // are split over TP 2, so ETP = 2. HEAD has no ETP: EP 4 borrows TP's ranks, 4 x 2 = 8.
  const training_plan_values p =
      make_training_plan(models::mixtral_8x7b::shape, systems::dgx_h100_superpod<2>::figures,
                         {.data = 8, .tensor = 2, .expert = 4, .zero_stage = 3,
                          .sequence_parallel = true},
                         {.batch = {.global_tokens = 16 * 4096, .seq_len = 4096},
                          .recompute = {recompute_kind::full}});
  const std::string toml = torchtitan_toml(p);
  CHECK(integer(toml_value(toml, "parallelism", "expert_parallel_degree")) == 4);
  CHECK(integer(toml_value(toml, "parallelism", "expert_tensor_parallel_degree")) == 2);
  CHECK(integer(megatron_flag(torchtitan_arguments(p), "--parallelism.expert_parallel_degree")) ==
        8);
}

TEST_CASE("the escapers quote for bash, and for toml, yaml and json alike") {
  using detail::launch::bash_word;
  using detail::launch::double_quoted;
  CHECK(bash_word("RMSNorm") == "RMSNorm");
  CHECK(bash_word("([0]*3+[1]*58)") == "'([0]*3+[1]*58)'");
  CHECK(bash_word("it's $(x)") == "'it'\\''s $(x)'");
  CHECK(double_quoted("a\"b\\c\nd\x01") == "\"a\\\"b\\\\c\\nd\\u0001\"");
}
