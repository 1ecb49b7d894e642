// Reads a shardplan plan file (JSON, parsed by nlohmann-json) into the same plain values the
// plan types build. Every mistake becomes one line naming the field; nothing is guessed.
// Part of the optional shardplan::io target (it needs nlohmann-json 3.11 or later).
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <shardplan/hardware/catalog.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/hardware/system_presets.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <shardplan/training/precision.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

namespace shardplan::io {

/// A plan file's mistake: a one-line message that names the field.
struct bad_input : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a plan file describes: a training plan (with its run: token budget, price) or a serving
/// plan. The names live here; `values()` and `serving_values()` point the plans at them.
struct plan_file {
  bool inference = false;
  training_plan_values plan{};
  run_inputs run{};
  std::int64_t search_chips = 0;  ///< a search spec's chips (0: the system's)
  serving_plan_values serving{};
  std::string model_name;
  std::string system_name;

  /// The training plan's values, valid while this object lives.
  training_plan_values values() const {
    training_plan_values p = plan;
    p.model.name = model_name;
    p.system.name = system_name;
    return p;
  }
  /// The serving plan's values, valid while this object lives.
  serving_plan_values serving_values() const {
    serving_plan_values p = serving;
    p.model.name = model_name;
    p.system.name = system_name;
    return p;
  }
};

namespace detail {

using json = nlohmann::json;

[[noreturn]] inline void fail(const std::string& path, const std::string& what) {
  throw bad_input(path + ": " + what);
}

inline std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

inline void only_keys(const json& j, const std::string& path,
                      std::initializer_list<const char*> allowed) {
  if (!j.is_object()) fail(path, "must be an object");
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      fail(join(path, key), "unknown key (known: " + list + ")");
    }
  }
}

/// An integer field in [lo, hi]; `fallback` when absent, or an error when `fallback` is empty.
inline std::int64_t integer(const json& j, const std::string& path, const char* key,
                            std::int64_t lo, std::int64_t hi, bool required,
                            std::int64_t fallback = 0) {
  const std::string where = join(path, key);
  if (!j.contains(key)) {
    if (required) fail(where, "missing");
    return fallback;
  }
  const json& v = j.at(key);
  if (v.is_number_float() && std::fabs(v.get<double>()) >= 9.2e18)
    fail(where, "is too large (at most " + std::to_string(hi) + ")");
  if (!v.is_number_integer())
    fail(where, v.is_number() ? "must be a whole number" : "must be an integer");
  if (v.is_number_unsigned() && v.get<std::uint64_t>() >
                                    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    fail(where, "is too large (at most " + std::to_string(hi) + ")");
  const auto x = v.get<std::int64_t>();
  if (x < lo) fail(where, "must be at least " + std::to_string(lo));
  if (x > hi) fail(where, "is too large (at most " + std::to_string(hi) + ")");
  return x;
}

inline double number(const json& j, const std::string& path, const char* key, double lo,
                     double hi, double fallback) {
  const std::string where = join(path, key);
  if (!j.contains(key)) return fallback;
  const json& v = j.at(key);
  if (!v.is_number()) fail(where, "must be a number");
  const double x = v.get<double>();
  if (!(x >= lo && x <= hi))
    fail(where, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
  return x;
}

inline bool boolean(const json& j, const std::string& path, const char* key, bool fallback) {
  if (!j.contains(key)) return fallback;
  if (!j.at(key).is_boolean()) fail(join(path, key), "must be true or false");
  return j.at(key).get<bool>();
}

inline std::string text(const json& j, const std::string& path, const char* key) {
  if (!j.contains(key)) fail(join(path, key), "missing");
  if (!j.at(key).is_string()) fail(join(path, key), "must be a string");
  return j.at(key).get<std::string>();
}

// Sizes large enough for any real model or cluster, small enough that products stay in 64 bits.
inline constexpr std::int64_t max_dim = 10'000'000;
inline constexpr std::int64_t max_count = 1'000'000;

inline model_shape read_model(const json& j, std::string& name) {
  if (j.is_string()) {
    name = j.get<std::string>();
    for (const model_shape& m : catalog_models)
      if (m.name == name) return m;
    std::string known;
    for (const model_shape& m : catalog_models)
      known += std::string(known.empty() ? "" : ", ") + std::string(m.name);
    fail("model", "unknown preset '" + name + "' (known: " + known + ")");
  }
  const std::string p = "model";
  only_keys(j, p, {"name", "layers", "d_model", "d_ff", "heads", "kv_heads", "head_dim", "vocab",
                   "gated_mlp", "tied_embeddings", "biases", "norm", "position_embeddings", "moe",
                   "mla"});
  model_shape m;
  name = text(j, p, "name");
  m.layers = integer(j, p, "layers", 1, max_count, true);
  m.d_model = integer(j, p, "d_model", 1, max_dim, true);
  m.heads = integer(j, p, "heads", 1, max_count, true);
  m.kv_heads = integer(j, p, "kv_heads", 1, max_count, false, m.heads);
  m.head_dim = integer(j, p, "head_dim", 1, max_dim, false, m.d_model / m.heads);
  m.vocab = integer(j, p, "vocab", 1, max_dim, true);
  m.gated_mlp = boolean(j, p, "gated_mlp", true);
  m.tied_embeddings = boolean(j, p, "tied_embeddings", false);
  m.biases = boolean(j, p, "biases", false);
  if (j.contains("norm")) {
    const std::string norm = text(j, p, "norm");
    if (norm == "rms_norm") m.norm = norm_kind::rms_norm;
    else if (norm == "layer_norm") m.norm = norm_kind::layer_norm;
    else fail(join(p, "norm"), "must be \"rms_norm\" or \"layer_norm\"");
  }
  m.position_embeddings = integer(j, p, "position_embeddings", 0, max_dim, false);
  if (j.contains("moe")) {
    const json& e = j.at("moe");
    const std::string q = join(p, "moe");
    only_keys(e, q, {"experts", "top_k", "shared_experts", "expert_d_ff", "dense_layers",
                     "router_bias"});
    m.moe.experts = integer(e, q, "experts", 1, max_count, true);
    m.moe.top_k = integer(e, q, "top_k", 1, m.moe.experts, true);
    m.moe.shared_experts = integer(e, q, "shared_experts", 0, max_count, false);
    m.moe.expert_d_ff = integer(e, q, "expert_d_ff", 1, max_dim, true);
    m.moe.dense_layers = integer(e, q, "dense_layers", 0, m.layers, false);
    m.moe.router_bias = boolean(e, q, "router_bias", false);
  }
  const bool dense_mlp = m.moe.experts == 0 || m.moe.dense_layers > 0;
  m.d_ff = integer(j, p, "d_ff", dense_mlp ? 1 : 0, max_dim, dense_mlp);
  if (j.contains("mla")) {
    const json& a = j.at("mla");
    const std::string q = join(p, "mla");
    only_keys(a, q, {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
                     "v_head_dim"});
    m.mla.q_lora_rank = integer(a, q, "q_lora_rank", 0, max_dim, false);
    m.mla.kv_lora_rank = integer(a, q, "kv_lora_rank", 1, max_dim, true);
    m.mla.qk_nope_head_dim = integer(a, q, "qk_nope_head_dim", 1, max_dim, true);
    m.mla.qk_rope_head_dim = integer(a, q, "qk_rope_head_dim", 1, max_dim, true);
    m.mla.v_head_dim = integer(a, q, "v_head_dim", 1, max_dim, true);
  }
  if (m.heads % m.kv_heads != 0) fail(join(p, "kv_heads"), "must divide heads");
  if (first_broken_rule(m) != shape_rule::none) fail(p, std::string(rule_text(first_broken_rule(m))));
  return m;
}

inline system_figures read_system(const json& j) {
  const std::string p = "system";
  only_keys(j, p, {"preset", "nodes", "gpus_per_node", "chip", "racks", "shape", "slices"});
  system_request r;
  const std::string preset = text(j, p, "preset");
  bool known = false;
  for (std::string_view n : system_preset_names) known = known || n == preset;
  if (!known) {
    std::string list;
    for (std::string_view n : system_preset_names)
      list += std::string(list.empty() ? "" : ", ") + std::string(n);
    fail(join(p, "preset"), "unknown preset '" + preset + "' (known: " + list + ")");
  }
  r.preset = preset;
  r.nodes = integer(j, p, "nodes", 1, 1'000'000, false, 0);
  r.gpus_per_node = integer(j, p, "gpus_per_node", 1, 8, false, 8);
  std::string chip;
  if (j.contains("chip")) chip = text(j, p, "chip");
  r.chip = chip;
  r.racks = integer(j, p, "racks", 1, 100'000, false, 0);
  r.slices = integer(j, p, "slices", 1, 1'000, false, 1);
  if (j.contains("shape")) {
    const json& s = j.at("shape");
    if (!s.is_array() || s.size() < 2 || s.size() > 3)
      fail(join(p, "shape"), "must be an array of 2 or 3 extents");
    for (std::size_t i = 0; i < s.size(); ++i) {
      const std::string w = join(p, "shape") + "[" + std::to_string(i) + "]";
      if (!s[i].is_number_integer()) fail(w, "must be an integer");
      const auto x = s[i].get<std::int64_t>();
      if (x < 1 || x > 1'000) fail(w, "must be between 1 and 1000");
      r.shape[i] = x;
    }
    if (s.size() == 2) r.shape[2] = 1;
  }
  const system_result made = make_system(r);
  if (!made.error.empty()) fail(p, std::string(made.error));
  return made.figures;
}

inline precision_policy read_precision(const json& j) {
  const std::string p = "training.precision";
  if (!j.is_string()) fail(p, "must be a preset name");
  const std::string name = j.get<std::string>();
  if (name == "bf16_mixed_adam") return precision::bf16_mixed_adam::policy;
  if (name == "megatron_mixed_adam") return precision::megatron_mixed_adam::policy;
  if (name == "fp8_deepseek_v3") return precision::fp8_deepseek_v3::policy;
  if (name == "bf16_adam_8bit") return precision::bf16_adam_8bit::policy;
  if (name == "scaling_book_adam") return precision::scaling_book_adam::policy;
  fail(p, "unknown preset '" + name +
              "' (known: bf16_mixed_adam, megatron_mixed_adam, fp8_deepseek_v3, bf16_adam_8bit, "
              "scaling_book_adam)");
}

inline number_format read_format(const json& j, const std::string& path, const char* key,
                                 number_format fallback) {
  if (!j.contains(key)) return fallback;
  const std::string name = text(j, path, key);
  for (number_format f : all_number_formats)
    if (name_of(f) == name) return f;
  fail(join(path, key), "unknown number format '" + name +
                            "' (known: fp32, tf32, bf16, fp16, fp8, int8, int4, fp4)");
}

/// The serving section: degrees become the mesh [dp, ep, sp, tp] (outermost first).
inline serving_plan_values read_inference(const json& j, const model_shape& model,
                                          const system_figures& system) {
  const std::string p = "inference";
  only_keys(j, p, {"parallelism", "batch", "prompt_tokens", "generated_tokens", "weights",
                   "kv_cache", "compute", "price_per_chip_hour", "reserve"});
  serving_plan_values v;
  v.model = model;
  v.system = system;
  if (j.contains("parallelism")) {
    const json& par = j.at("parallelism");
    const std::string q = join(p, "parallelism");
    only_keys(par, q, {"data", "expert", "sequence", "tensor"});
    auto add = [&v](std::string_view name, std::int64_t size, std::uint8_t role) {
      if (size > 1) v.axes[v.axis_count++] = {name, size, role, {}};
    };
    add("dp", integer(par, q, "data", 1, 1'000'000, false, 1), role_data);
    add("ep", integer(par, q, "expert", 1, 100'000, false, 1), role_expert);
    add("sp", integer(par, q, "sequence", 1, 100'000, false, 1), role_context);
    add("tp", integer(par, q, "tensor", 1, 100'000, false, 1), role_tensor);
  }
  serving_setup& s = v.setup;
  s.batch = integer(j, p, "batch", 1, 100'000'000, true);
  s.prompt_tokens = integer(j, p, "prompt_tokens", 0, 100'000'000, true);
  s.generated_tokens = integer(j, p, "generated_tokens", 1, 100'000'000, true);
  s.weights = read_format(j, p, "weights", number_format::bf16);
  s.kv = read_format(j, p, "kv_cache", number_format::bf16);
  s.compute = read_format(j, p, "compute", number_format::bf16);
  s.dollars_per_chip_hour = number(j, p, "price_per_chip_hour", 0.0, 1e6, 0.0);
  if (j.contains("reserve")) {
    const json& r = j.at("reserve");
    const std::string q = join(p, "reserve");
    only_keys(r, q, {"gigabytes", "percent"});
    s.reserve = {number(r, q, "gigabytes", 0.0, 1e6, 0.0) * giga * byte,
                 number(r, q, "percent", 0.0, 100.0, 0.0) / 100.0};
  }
  return v;
}

/// The run section of a training plan: token budget, price, storage, restart.
inline run_inputs read_run(const json& j) {
  const std::string p = "run";
  only_keys(j, p, {"tokens", "price_per_chip_hour", "storage_gigabytes_per_second",
                   "restart_minutes"});
  run_inputs r;
  r.tokens = number(j, p, "tokens", 0.0, 1e18, 0.0);
  r.price_per_chip_hour = number(j, p, "price_per_chip_hour", 0.0, 1e6, 0.0);
  if (j.contains("storage_gigabytes_per_second")) {
    const double gbs = number(j, p, "storage_gigabytes_per_second", 1e-3, 1e9, 0.0);
    r.storage_write = r.storage_read = gbs * giga * byte / second;
  }
  r.restart_overhead = number(j, p, "restart_minutes", 0.0, 1e5, 10.0) * 60.0 * second;
  return r;
}

}  // namespace detail

/// Reads a plan file's text. Throws `bad_input` with one line naming the field on any mistake.
inline plan_file read_plan_file(const std::string& text_in) {
  using detail::fail;
  using detail::integer;
  detail::json j;
  try {
    j = detail::json::parse(text_in);
  } catch (const detail::json::exception& e) {  // parse_error, and out_of_range for numbers like 1e3030
    throw bad_input(std::string("malformed JSON: ") + e.what());
  }
  detail::only_keys(j, "", {"model", "system", "training", "inference", "run", "search"});
  if (!j.contains("model")) fail("model", "missing");
  if (!j.contains("system")) fail("system", "missing");
  if (j.contains("training") == j.contains("inference"))
    fail("training", "a plan file has exactly one of training and inference");
  plan_file out;
  const model_shape model = detail::read_model(j.at("model"), out.model_name);
  const system_figures system = detail::read_system(j.at("system"));
  out.system_name = std::string(system.name);
  if (j.contains("inference")) {
    if (j.contains("run")) fail("run", "belongs to a training plan");
    out.inference = true;
    out.serving = detail::read_inference(j.at("inference"), model, system);
    return out;
  }
  if (j.contains("run")) out.run = detail::read_run(j.at("run"));
  if (j.contains("search")) {
    const detail::json& q = j.at("search");
    detail::only_keys(q, "search", {"chips"});
    out.search_chips = integer(q, "search", "chips", 1, system.chips, false, system.chips);
  }

  const detail::json& t = j.at("training");
  const std::string tp = "training";
  detail::only_keys(t, tp, {"parallelism", "batch", "recompute", "precision", "reserve",
                            "attention", "efficiency_percent", "eager_attention", "dropout"});
  if (!t.contains("batch")) fail("training.batch", "missing");
  const detail::json no_parallelism = detail::json::object();
  const detail::json& par = t.contains("parallelism") ? t.at("parallelism") : no_parallelism;
  const std::string pp = "training.parallelism";
  detail::only_keys(par, pp, {"data", "tensor", "pipeline", "context", "expert", "zero_stage",
                              "sequence_parallel", "schedule", "virtual_stages", "uneven_stages"});
  parallel_config c;
  c.data = integer(par, pp, "data", 1, 10'000'000, false, 1);
  c.tensor = integer(par, pp, "tensor", 1, 100'000, false, 1);
  c.pipeline = integer(par, pp, "pipeline", 1, 100'000, false, 1);
  c.context = integer(par, pp, "context", 1, 100'000, false, 1);
  c.expert = integer(par, pp, "expert", 1, 100'000, false, 1);
  c.zero_stage = integer(par, pp, "zero_stage", 0, 3, false, 0);
  c.sequence_parallel = detail::boolean(par, pp, "sequence_parallel", false);
  c.virtual_stages = integer(par, pp, "virtual_stages", 1, 1'000, false, 1);
  c.uneven_stages = detail::boolean(par, pp, "uneven_stages", false);
  if (par.contains("schedule")) {
    const std::string s = detail::text(par, pp, "schedule");
    if (s == "gpipe") c.schedule = pipeline_schedule::gpipe;
    else if (s == "1f1b") c.schedule = pipeline_schedule::one_f_one_b;
    else if (s == "interleaved") c.schedule = pipeline_schedule::interleaved;
    else if (s == "zero_bubble") c.schedule = pipeline_schedule::zero_bubble;
    else fail(pp + ".schedule", "must be \"gpipe\", \"1f1b\", \"interleaved\" or \"zero_bubble\"");
  }
  if (c.schedule == pipeline_schedule::interleaved && c.virtual_stages < 2)
    fail(pp + ".virtual_stages", "must be at least 2 for the interleaved schedule");
  if (c.schedule != pipeline_schedule::interleaved && c.virtual_stages != 1)
    fail(pp + ".virtual_stages", "needs \"schedule\": \"interleaved\"");

  training_setup setup;
  const detail::json& b = t.at("batch");
  const std::string bp = "training.batch";
  detail::only_keys(b, bp, {"global_tokens", "global_sequences", "seq_len", "micro_batch"});
  setup.batch.seq_len = integer(b, bp, "seq_len", 1, 100'000'000, true);
  if (b.contains("global_tokens") == b.contains("global_sequences"))
    fail(bp, "needs exactly one of global_tokens and global_sequences");
  if (b.contains("global_tokens")) {
    setup.batch.global_tokens = integer(b, bp, "global_tokens", 1, 1'000'000'000'000, true);
  } else {
    setup.batch.global_tokens =
        integer(b, bp, "global_sequences", 1, 1'000'000'000'000 / setup.batch.seq_len, true) *
        setup.batch.seq_len;
  }
  setup.batch.micro_batch = integer(b, bp, "micro_batch", 1, 1'000'000, false, 1);

  if (t.contains("recompute")) {
    const detail::json& r = t.at("recompute");
    const std::string rp = "training.recompute";
    if (r.is_string()) {
      const std::string s = r.get<std::string>();
      if (s == "none") setup.recompute = {recompute_kind::none};
      else if (s == "selective") setup.recompute = {recompute_kind::selective};
      else if (s == "full") setup.recompute = {recompute_kind::full};
      else fail(rp, "must be \"none\", \"selective\", \"full\" or {\"checkpoints\": N}");
    } else {
      detail::only_keys(r, rp, {"checkpoints"});
      setup.recompute = {recompute_kind::checkpoints, integer(r, rp, "checkpoints", 1, 100, true)};
    }
  }
  setup.precision = t.contains("precision") ? detail::read_precision(t.at("precision"))
                                            : precision::bf16_mixed_adam::policy;
  if (t.contains("reserve")) {
    const detail::json& r = t.at("reserve");
    const std::string rp = "training.reserve";
    detail::only_keys(r, rp, {"gigabytes", "percent"});
    setup.reserve = {detail::number(r, rp, "gigabytes", 0.0, 1e6, 0.0) * giga * byte,
                     detail::number(r, rp, "percent", 0.0, 100.0, 0.0) / 100.0};
  }
  setup.eager_attention = detail::boolean(t, tp, "eager_attention", false);
  setup.dropout = detail::boolean(t, tp, "dropout", false);

  out.plan = make_training_plan(model, system, c, setup);
  if (t.contains("attention")) {
    const std::string a = detail::text(t, tp, "attention");
    if (a == "full") out.plan.assumptions.attention = attention_flops::full;
    else if (a == "causal") out.plan.assumptions.attention = attention_flops::causal;
    else if (a == "ignored") out.plan.assumptions.attention = attention_flops::ignored;
    else fail(tp + ".attention", "must be \"full\", \"causal\" or \"ignored\"");
  }
  out.plan.assumptions.efficiency = detail::number(t, tp, "efficiency_percent", 1.0, 100.0, 0.0) / 100.0;
  return out;
}

/// Reads the plan file at `path`: `read_plan_file` of its text. Throws `bad_input` ("cannot read
/// PATH") when the file cannot be opened, or with the field's line on any mistake in it.
inline plan_file load_plan_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return read_plan_file(text.str());
}

}  // namespace shardplan::io
