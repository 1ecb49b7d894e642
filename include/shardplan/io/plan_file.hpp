// Reads a shardplan plan file (JSON, parsed by nlohmann-json) into the same plain values the
// plan types build. Every mistake becomes one line naming the field; nothing is guessed.
// Part of the optional shardplan::io target (it needs nlohmann-json 3.11 or later).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <limits>
#include <set>
#include <nlohmann/json.hpp>
#include <shardplan/io/hf_config.hpp>
#include <shardplan/io/json_input.hpp>
#include <shardplan/hardware/catalog.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/hardware/system_presets.hpp>
#include <shardplan/hardware/system_rules.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/serving/workload.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <shardplan/training/precision.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <string_view>
#include <utility>
#include <vector>

namespace shardplan::io {


/// Where a plan or job file's model comes from besides the file: the folder a relative
/// `"hf_config"` path is read from, and a Hugging Face config that replaces the file's model
/// (`--model-config`).
struct model_source {
  std::string base_dir;
  std::string config;
};

/// The owned names of a system read from a plan file (its `string_view`s point at these).
struct system_names {
  std::string system;
  std::string chip;
  std::array<std::string, max_network_levels> levels;
};

/// `s` with its names pointing at `names` (a system read from a plan file).
inline system_figures named_system(system_figures s, const system_names& names) {
  s.name = names.system;
  s.chip.name = names.chip;
  for (std::size_t i = 0; i < names.levels.size(); ++i)
    if (!names.levels[i].empty()) s.levels[i].name = names.levels[i];
  return s;
}

/// What a plan file describes: a training plan (with its run: token budget, price) or a serving
/// plan. The names live here; `values()` and `serving_values()` point the plans at them.
struct plan_file {
  bool inference = false;
  training_plan_values plan{};
  run_inputs run{};
  std::int64_t search_chips = 0;  ///< a search spec's chips (0: the system's)
  serving_plan_values serving{};
  std::string model_name;
  system_names names;  ///< the system's, its chip's and its levels' names

  /// The training plan's values, valid while this object lives.
  training_plan_values values() const {
    training_plan_values p = plan;
    p.model.name = model_name;
    p.system = named_system(p.system, names);
    return p;
  }
  /// The serving plan's values, valid while this object lives.
  serving_plan_values serving_values() const {
    serving_plan_values p = serving;
    p.model.name = model_name;
    p.system = named_system(p.system, names);
    return p;
  }
};


namespace detail {

/// `training.parallelism.schedule`.
inline constexpr named<pipeline_schedule> schedule_choices[] = {
    {"gpipe", pipeline_schedule::gpipe},
    {"1f1b", pipeline_schedule::one_f_one_b},
    {"interleaved", pipeline_schedule::interleaved},
    {"zero_bubble", pipeline_schedule::zero_bubble}};

/// `training.attention`: how attention FLOPs are counted.
inline constexpr named<attention_flops> attention_flops_choices[] = {
    {"full", attention_flops::full},
    {"causal", attention_flops::causal},
    {"ignored", attention_flops::ignored}};

/// `training.attention_kernel`: the fused kernels (unfused attention is `eager_attention`).
inline constexpr named<attention_kernel> attention_kernel_choices[] = {
    {"automatic", attention_kernel::automatic},
    {"flash1", attention_kernel::flash1},
    {"flash2", attention_kernel::flash2},
    {"flash3", attention_kernel::flash3},
    {"cudnn", attention_kernel::cudnn},
    {"splash", attention_kernel::splash}};

/// `training.framework`: whose allocations the memory model charges (`training_framework`).
inline constexpr named<training_framework> framework_choices[] = {
    {"generic", training_framework::generic},
    {"megatron_core", training_framework::megatron_core},
    {"torchtitan", training_framework::torchtitan},
    {"deepspeed", training_framework::deepspeed},
    {"maxtext", training_framework::maxtext},
    {"torchtune", training_framework::torchtune}};

/// The names of a framework profile's enumerated behaviours (`for_each_behaviour`,
/// training/framework.hpp), one table each, found by the behaviour's type (`choices_of`).
inline constexpr named<selective_recompute> selective_recompute_choices[] = {
    {"core_attention", selective_recompute::core_attention},
    {"op_level", selective_recompute::op_level},
    {"minimal_with_context", selective_recompute::minimal_with_context}};
inline constexpr named<loss_memory> loss_memory_choices[] = {
    {"korthikanti", loss_memory::korthikanti},
    {"fp32_softmax", loss_memory::fp32_softmax},
    {"torchtitan", loss_memory::torchtitan},
    {"torchtune", loss_memory::torchtune}};
inline constexpr named<tp_overlap_method> tp_overlap_method_choices[] = {
    {"none", tp_overlap_method::none},
    {"userbuffers", tp_overlap_method::userbuffers},
    {"symmetric_memory", tp_overlap_method::symmetric_memory},
    {"windowed_einsum", tp_overlap_method::windowed_einsum}};
inline constexpr named<tp_backward_overlap> tp_backward_overlap_choices[] = {
    {"never", tp_backward_overlap::never},
    {"unless_synchronous", tp_backward_overlap::unless_synchronous},
    {"always", tp_backward_overlap::always}};
inline constexpr named<gradient_accumulation> gradient_accumulation_choices[] = {
    {"fused", gradient_accumulation::fused},
    {"autograd_in_place", gradient_accumulation::autograd_in_place}};
inline constexpr named<bucket_rule> bucket_rule_choices[] = {
    {"fixed_bytes", bucket_rule::fixed_bytes},
    {"elements", bucket_rule::elements},
    {"ranks_scaled", bucket_rule::ranks_scaled},
    {"layer", bucket_rule::layer}};
/// The enumerated fields of a model shape (models/model.hpp), found by type the same way.
inline constexpr named<norm_kind> norm_choices[] = {{"rms_norm", norm_kind::rms_norm},
                                                    {"layer_norm", norm_kind::layer_norm}};
inline constexpr named<qk_norm_kind> qk_norm_choices[] = {{"none", qk_norm_kind::none},
                                                          {"per_head", qk_norm_kind::per_head},
                                                          {"whole", qk_norm_kind::whole}};
inline constexpr named<local_attention_kind> local_attention_choices[] = {
    {"sliding", local_attention_kind::sliding}, {"chunked", local_attention_kind::chunked}};
constexpr const auto& choices_of(norm_kind) { return norm_choices; }
constexpr const auto& choices_of(qk_norm_kind) { return qk_norm_choices; }
constexpr const auto& choices_of(local_attention_kind) { return local_attention_choices; }
constexpr const auto& choices_of(selective_recompute) { return selective_recompute_choices; }
constexpr const auto& choices_of(loss_memory) { return loss_memory_choices; }
constexpr const auto& choices_of(tp_overlap_method) { return tp_overlap_method_choices; }
constexpr const auto& choices_of(tp_backward_overlap) { return tp_backward_overlap_choices; }
constexpr const auto& choices_of(gradient_accumulation) { return gradient_accumulation_choices; }
constexpr const auto& choices_of(bucket_rule) { return bucket_rule_choices; }

/// A framework's own flag: its key under `training`, the `training_setup` member it sets, whether
/// a framework's code reads it (by the profile's behaviours: a fork that does what a family does
/// reads its flag) and what it is (the reader's error says "is <what>: it needs <frameworks>").
/// The reader and the writer (plan_writer.hpp) both go through this table.
struct framework_flag {
  const char* key;
  bool training_setup::*member;
  bool (*read_by)(const framework_profile&);
  const char* what;
};

inline constexpr framework_flag framework_flags[] = {
    {"grad_reduce_in_bf16", &training_setup::grad_reduce_in_bf16,
     [](const framework_profile& f) { return f.fp32_main_gradients; }, "Megatron-Core's flag"},
    {"compiled_loss", &training_setup::compiled_loss,
     [](const framework_profile& f) {
       return f.loss == loss_memory::torchtitan || f.loss == loss_memory::torchtune;
     },
     "torchtitan's or torchtune's compiled loss"},
    {"compiled_layers", &training_setup::compiled_layers,
     [](const framework_profile& f) { return f.eager_modules; },
     "torchtitan's or torchtune's compiled layers"},
    {"chunked_loss", &training_setup::chunked_loss,
     [](const framework_profile& f) { return f.loss == loss_memory::torchtune; },
     "torchtune's chunked cross-entropy"},
    {"optimizer_in_backward", &training_setup::optimizer_in_backward,
     [](const framework_profile& f) { return f.optimizer_in_backward_single_micro_batch; },
     "torchtune's optimizer_in_bwd"},
    {"zero3_per_tensor", &training_setup::zero3_per_tensor,
     [](const framework_profile& f) { return f.reads_zero3_per_tensor; },
     "DeepSpeed's ZeRO-3 of v0.3.13 to v0.4.2"},
    {"overlap_comm", &training_setup::overlap_comm,
     [](const framework_profile& f) { return f.reduction_overlap_needs_flag; },
     "DeepSpeed's zero_optimization.overlap_comm"},
    {"tp_comm_overlap", &training_setup::tp_comm_overlap,
     [](const framework_profile& f) {
       return f.tp_comm_overlap_method != tp_overlap_method::none;
     },
     "Megatron-Core's --tp-comm-overlap or torchtitan's async TP"},
    {"sync_tp_backward", &training_setup::sync_tp_backward,
     [](const framework_profile& f) {
       return f.tp_backward == tp_backward_overlap::unless_synchronous;
     },
     "Megatron-LM's --no-async-tensor-model-parallel-allreduce"}};

/// The shipped frameworks that read `f`, as a plan file names them: `"framework": "torchtitan"
/// or "torchtune"`.
inline std::string owners_text(const framework_flag& f) {
  std::string out = "\"framework\": ";
  bool first = true;
  for (const auto& c : framework_choices) {
    if (!f.read_by(profile_of(c.value))) continue;
    if (!first) out += " or ";
    first = false;
    // Appended piece by piece: g++ 12 at -O3 warns falsely (-Wrestrict) on "\"" + string.
    out += '"';
    out += c.name;
    out += '"';
  }
  return out;
}

/// `inference.engine`: the serving engines (`serving_engine`).
inline constexpr named<serving_engine> engine_choices[] = {
    {"generic", serving_engine::generic},   {"roofline", serving_engine::roofline},
    {"pytorch", serving_engine::pytorch},   {"vllm", serving_engine::vllm},
    {"tensorrt_llm", serving_engine::tensorrt_llm}, {"sglang", serving_engine::sglang}};

/// `training.memory_policy`: which transients the memory charges (`training_memory_policy`).
inline constexpr named<training_memory_policy> memory_policy_choices[] = {
    {"framework", training_memory_policy::framework},
    {"book", training_memory_policy::book},
    {"reserve", training_memory_policy::reserve}};

/// `training.mfu_format`: the peak MFU is reported against.
inline constexpr named<number_format> mfu_format_choices[] = {
    {"bf16", number_format::bf16}, {"fp16", number_format::fp16}, {"fp8", number_format::fp8},
    {"fp4", number_format::fp4},   {"tf32", number_format::tf32}, {"fp32", number_format::fp32},
    {"int8", number_format::int8}};

/// `training.precision`: the precision presets by the names of their types.
inline constexpr named<precision_policy> precision_choices[] = {
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

/// The keys of a framework object: its `base` and every behaviour.
inline std::vector<const char*> framework_keys() {
  std::vector<const char*> keys{"base"};
  for_each_behaviour([&](const char* key, auto, const char*) { keys.push_back(key); });
  return keys;
}

/// `training.framework`: a framework's name (its shipped profile), or an object whose `base`
/// names the profile its other keys change (`for_each_behaviour`): booleans, numbers at least 0,
/// whole numbers (layers) at least 0, and the enumerated behaviours by their names.
inline framework_profile read_framework(const json& j, const std::string& p) {
  if (j.is_string()) return profile_of(pick(p, j.get<std::string>(), framework_choices));
  if (!j.is_object()) fail(p, "must be a framework's name or an object with its \"base\"");
  only_keys(j, p, framework_keys());
  framework_profile f = profile_of(pick(join(p, "base"), text(j, p, "base"), framework_choices));
  for_each_behaviour([&](const char* key, auto member, const char*) {
    using T = std::remove_cvref_t<decltype(f.*member)>;
    if (!j.contains(key)) return;
    if constexpr (std::is_same_v<T, bool>) {
      f.*member = boolean(j, p, key, false);
    } else if constexpr (std::is_same_v<T, double>) {
      const json& v = j.at(key);
      if (!v.is_number() || !(v.get<double>() >= 0.0 && v.get<double>() <= 1e15))
        fail(join(p, key), "must be a number from 0 to 1e15");
      f.*member = v.get<double>();
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
      f.*member = integer(j, p, key, 0, max_count, false);
    } else {
      f.*member = pick(join(p, key), text(j, p, key), choices_of(T{}));
    }
  });
  if (f.bucket != bucket_rule::layer && !(f.bucket_size > 0.0))
    fail(join(p, "bucket_size"), "must be above 0 with \"bucket\": \"" +
                                     std::string(name_in(bucket_rule_choices, f.bucket)) + "\"");
  return f;
}


/// The field a broken shape rule concerns.
inline std::string shape_rule_field(shape_rule r) {
  switch (r) {
    case shape_rule::mla_complete: return "model.mla";
    case shape_rule::moe_fields_need_experts:
    case shape_rule::top_k_within_experts:
    case shape_rule::experts_have_width:
    case shape_rule::dense_layers_within_layers: return "model.moe";
    case shape_rule::kv_heads_divide_heads: return "model.kv_heads";
    case shape_rule::dense_mlp_has_width: return "model.d_ff";
    default: return "model";
  }
}

/// The model of the Hugging Face config at `path` (relative to `base_dir`), named; a mistake in
/// it is "WHERE: PATH: FIELD: what".
inline model_shape hf_config_model(const std::string& where, const std::string& path,
                                   const std::string& base_dir, std::string& name) {
  std::filesystem::path file(path);
  if (file.is_relative() && !base_dir.empty() && path != "-") file = base_dir / file;
  try {
    const hf_model m = read_hf_config_file(file.string());
    name = m.name;
    return m.shape;
  } catch (const bad_input& e) {
    fail(where, e.what());
  }
}

inline model_shape read_model(const json& j, std::string& name, const model_source& from = {}) {
  if (!from.config.empty()) return hf_config_model("--model-config", from.config, "", name);
  if (j.is_object() && j.contains("hf_config")) {
    only_keys(j, "model", {"hf_config"});
    return hf_config_model("model.hf_config", text(j, "model", "hf_config"), from.base_dir, name);
  }
  if (j.is_string()) {
    const std::string given = j.get<std::string>();
    for (const model_shape& m : catalog_models)
      if (same_name(m.name, given)) {
        name = std::string(m.name);
        return m;
      }
    std::vector<std::string_view> known;
    for (const model_shape& m : catalog_models) known.push_back(m.name);
    fail("model", "unknown preset '" + given + "' (known: " + name_list(known) + ")");
  }
  const std::string p = "model";
  only_keys(j, p, {"name", "layers", "d_model", "d_ff", "heads", "kv_heads", "head_dim", "vocab",
                   "gated_mlp", "tied_embeddings", "biases", "norm", "position_embeddings", "moe",
                   "mla", "local", "qk_norm", "qkv_bias", "layer_norms", "attention_sinks"});
  model_shape m;
  name = text(j, p, "name");
  if (name.find_first_not_of(" \t\r\n") == std::string::npos)
    fail(join(p, "name"), "must not be empty");
  // The name goes into reports and into launch configs (comment lines, TOML and YAML strings):
  // only characters that need no escaping in any of them.
  constexpr const char* plain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._+-/()";
  if (name.find_first_not_of(plain) != std::string::npos)
    fail(join(p, "name"), "may hold only letters, digits, spaces and . _ + - / ( )");
  m.layers = integer(j, p, "layers", 1, max_count, true);
  m.d_model = integer(j, p, "d_model", 1, max_dim, true);
  m.heads = integer(j, p, "heads", 1, max_count, true);
  m.kv_heads = integer(j, p, "kv_heads", 1, max_count, false, m.heads);
  m.head_dim = integer(j, p, "head_dim", 1, max_dim, false, m.d_model / m.heads);
  m.vocab = integer(j, p, "vocab", 1, max_dim, true);
  m.gated_mlp = boolean(j, p, "gated_mlp", true);
  m.tied_embeddings = boolean(j, p, "tied_embeddings", false);
  m.biases = boolean(j, p, "biases", false);
  if (j.contains("norm")) m.norm = pick(join(p, "norm"), text(j, p, "norm"), norm_choices);
  m.position_embeddings = integer(j, p, "position_embeddings", 0, max_dim, false);
  if (j.contains("moe")) {
    const json& e = j.at("moe");
    const std::string q = join(p, "moe");
    only_keys(e, q, {"experts", "top_k", "shared_experts", "expert_d_ff", "dense_layers",
                     "router_bias", "every"});
    m.moe.experts = integer(e, q, "experts", 1, max_count, true);
    m.moe.top_k = integer(e, q, "top_k", 1, m.moe.experts, true);
    m.moe.shared_experts = integer(e, q, "shared_experts", 0, max_count, false);
    m.moe.expert_d_ff = integer(e, q, "expert_d_ff", 1, max_dim, true);
    m.moe.dense_layers = integer(e, q, "dense_layers", 0, m.layers, false);
    m.moe.router_bias = boolean(e, q, "router_bias", false);
    m.moe.every = integer(e, q, "every", 0, m.layers, false, 1);
  }
  const bool dense_mlp = dense_layer_count(m) > 0;
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
  if (j.contains("local")) {
    const json& a = j.at("local");
    const std::string q = join(p, "local");
    only_keys(a, q, {"window", "global_every", "kind"});
    m.local.window = integer(a, q, "window", 1, max_dim, true);
    m.local.global_every = integer(a, q, "global_every", 0, max_count, false);
    if (a.contains("kind"))
      m.local.kind = pick(join(q, "kind"), text(a, q, "kind"), local_attention_choices);
  }
  if (j.contains("qk_norm"))
    m.qk_norm = pick(join(p, "qk_norm"), text(j, p, "qk_norm"), qk_norm_choices);
  m.qkv_bias = boolean(j, p, "qkv_bias", false);
  m.layer_norms = integer(j, p, "layer_norms", 0, 16, false, 2);
  m.attention_sinks = boolean(j, p, "attention_sinks", false);
  if (m.heads % m.kv_heads != 0) fail(join(p, "kv_heads"), "must divide heads");
  if (!(parameter_bound(m) < max_parameters)) fail(p, "gives more than 10^15 parameters");
  const shape_rule broken = first_broken_rule(m);
  if (broken != shape_rule::none) fail(shape_rule_field(broken), rule_message(rule_text(broken)));
  return m;
}

/// `system.chip.kind`, `system.chip.scale_up` and `system.levels[].link`.
inline constexpr named<chip_kind> chip_kind_choices[] = {
    {"gpu", chip_kind::gpu}, {"tpu", chip_kind::tpu}, {"cpu", chip_kind::cpu}};
inline constexpr named<scale_up_kind> scale_up_choices[] = {
    {"none", scale_up_kind::none},
    {"torus_2d", scale_up_kind::torus_2d},
    {"torus_3d", scale_up_kind::torus_3d},
    {"switched", scale_up_kind::switched},
    {"full_mesh", scale_up_kind::full_mesh}};
inline constexpr named<link_kind> link_choices[] = {
    {"ici", link_kind::ici},           {"nvlink", link_kind::nvlink},
    {"infinity_fabric", link_kind::infinity_fabric}, {"infiniband", link_kind::infiniband},
    {"roce", link_kind::roce},         {"dcn", link_kind::dcn},
    {"pcie", link_kind::pcie}};

/// One number of a chip object: its key (the `chip_figures` member with its unit), the unit it
/// is written in, its range in that unit, whether it is whole, and how it is read and set. One
/// table serves the reader and the writer (io/plan_writer.hpp), so the two cannot disagree.
struct chip_number {
  const char* key;
  double unit;  ///< the key's unit in the figure's base unit (1e12 for TFLOP/s)
  double lo;
  double hi;
  bool whole;
  double (*get)(const chip_figures&);
  void (*set)(chip_figures&, double);
};

inline constexpr double tflops = 1e12;  // FLOP/s in one TFLOP/s
inline constexpr double gb = 1e9;       // bytes in one GB, bytes/s in one GB/s
inline constexpr double mhz = 1e6;
inline constexpr double big = 1e9;      // an upper bound no figure reaches in its unit
inline constexpr double smallest_figure = 1e-3;  // the smallest rate, size or bandwidth, in its unit

// clang-format off
#define SHARDPLAN_CHIP_RATE(member, key, unit_value, hi, unit_expr)                                \
  chip_number{key, unit_value, 0.0, hi, false,                                                   \
              [](const chip_figures& c) { return c.member.value(); },                           \
              [](chip_figures& c, double x) { c.member = x * (unit_expr); }}
#define SHARDPLAN_CHIP_PLAIN(member, key, unit_value, lo, hi, is_whole, type)                   \
  chip_number{key, unit_value, lo, hi, is_whole,                                                 \
              [](const chip_figures& c) { return static_cast<double>(c.member); },              \
              [](chip_figures& c, double x) { c.member = static_cast<type>(x); }}
/// The chip's own numbers (the top level of `system.chip`).
inline constexpr chip_number chip_numbers[] = {
    SHARDPLAN_CHIP_RATE(peak_fp32, "peak_fp32_tflops", tflops, big, flop / second),
    SHARDPLAN_CHIP_RATE(peak_tf32, "peak_tf32_tflops", tflops, big, flop / second),
    SHARDPLAN_CHIP_RATE(peak_bf16, "peak_bf16_tflops", tflops, big, flop / second),
    SHARDPLAN_CHIP_RATE(peak_fp16, "peak_fp16_tflops", tflops, big, flop / second),
    SHARDPLAN_CHIP_RATE(peak_fp8, "peak_fp8_tflops", tflops, big, flop / second),
    SHARDPLAN_CHIP_RATE(peak_int8, "peak_int8_tflops", tflops, big, flop / second),
    SHARDPLAN_CHIP_RATE(peak_int4, "peak_int4_tflops", tflops, big, flop / second),
    SHARDPLAN_CHIP_RATE(peak_fp4, "peak_fp4_tflops", tflops, big, flop / second),
    SHARDPLAN_CHIP_RATE(memory, "memory_gb", gb, big, byte),
    SHARDPLAN_CHIP_RATE(memory_bandwidth, "memory_bandwidth_gb_per_s", gb, big, byte / second),
    SHARDPLAN_CHIP_RATE(scale_up_link_bandwidth, "scale_up_link_bandwidth_gb_per_s", gb, big,
                        byte / second),
    SHARDPLAN_CHIP_PLAIN(scale_up_links, "scale_up_links", 1.0, 0.0, 1e6, true, std::int64_t),
    SHARDPLAN_CHIP_RATE(scale_out_bandwidth, "scale_out_bandwidth_gb_per_s", gb, big,
                        byte / second),
    SHARDPLAN_CHIP_RATE(host_link_bandwidth, "host_link_bandwidth_gb_per_s", gb, big,
                        byte / second),
    SHARDPLAN_CHIP_RATE(host_memory, "host_memory_gb", gb, big, byte),
    // Rated power (TDP, TGP or board power) in watts; 0 or absent: not given, no energy.
    SHARDPLAN_CHIP_PLAIN(power_watts, "power_w", 1.0, 0.0, 1e5, false, double),
};
/// `system.chip.arch`: the chip's inside (`chip_microarchitecture`); zeros are "not given".
inline constexpr chip_number arch_numbers[] = {
    SHARDPLAN_CHIP_PLAIN(arch.compute_units, "compute_units", 1.0, 0.0, 1e7, true, std::int64_t),
    SHARDPLAN_CHIP_PLAIN(arch.base_clock, "base_clock_mhz", mhz, 0.0, 1e6, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.boost_clock, "boost_clock_mhz", mhz, 0.0, 1e6, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_clock, "matrix_clock_mhz", mhz, 0.0, 1e6, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.vector_clock, "vector_clock_mhz", mhz, 0.0, 1e6, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_units, "matrix_units", 1.0, 0.0, 1e6, true, std::int64_t),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_unit_rows, "matrix_unit_rows", 1.0, 0.0, 1e6, true,
                         std::int64_t),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_unit_columns, "matrix_unit_columns", 1.0, 0.0, 1e6, true,
                         std::int64_t),
    SHARDPLAN_CHIP_PLAIN(arch.vector_units, "vector_units", 1.0, 0.0, 1e6, true, std::int64_t),
    SHARDPLAN_CHIP_PLAIN(arch.vector_lanes, "vector_lanes", 1.0, 0.0, 1e9, true, std::int64_t),
    SHARDPLAN_CHIP_PLAIN(arch.vector_flop_per_lane, "vector_flop_per_lane", 1.0, 0.0, 1e3, false,
                         double),
    SHARDPLAN_CHIP_PLAIN(arch.vector_sublanes, "vector_sublanes", 1.0, 0.0, 1e6, true,
                         std::int64_t),
    SHARDPLAN_CHIP_PLAIN(arch.vector_lane_width, "vector_lane_width", 1.0, 0.0, 1e6, true,
                         std::int64_t),
    SHARDPLAN_CHIP_RATE(arch.registers, "registers_bytes", 1.0, 1e15, byte),
    SHARDPLAN_CHIP_RATE(arch.matrix_memory, "matrix_memory_bytes", 1.0, 1e15, byte),
    SHARDPLAN_CHIP_RATE(arch.l1_smem, "l1_smem_bytes", 1.0, 1e15, byte),
    SHARDPLAN_CHIP_RATE(arch.max_shared_memory, "max_shared_memory_bytes", 1.0, 1e15, byte),
    SHARDPLAN_CHIP_RATE(arch.l1_smem_bandwidth, "l1_smem_bandwidth_gb_per_s", gb, big,
                        byte / second),
    SHARDPLAN_CHIP_RATE(arch.l2, "l2_bytes", 1.0, 1e15, byte),
    SHARDPLAN_CHIP_RATE(arch.l2_bandwidth, "l2_bandwidth_gb_per_s", gb, big, byte / second),
    SHARDPLAN_CHIP_RATE(arch.last_level_cache, "last_level_cache_bytes", 1.0, 1e15, byte),
    SHARDPLAN_CHIP_RATE(arch.last_level_cache_bandwidth, "last_level_cache_bandwidth_gb_per_s",
                        gb, big, byte / second),
};
/// `system.chip.arch.matrix_flop_per_clock`: per compute unit, by input format.
inline constexpr chip_number flop_per_clock_numbers[] = {
    SHARDPLAN_CHIP_PLAIN(arch.matrix_flop_per_clock.fp32, "fp32", 1.0, 0.0, 1e9, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_flop_per_clock.tf32, "tf32", 1.0, 0.0, 1e9, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_flop_per_clock.bf16, "bf16", 1.0, 0.0, 1e9, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_flop_per_clock.fp16, "fp16", 1.0, 0.0, 1e9, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_flop_per_clock.fp8, "fp8", 1.0, 0.0, 1e9, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_flop_per_clock.int8, "int8", 1.0, 0.0, 1e9, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_flop_per_clock.int4, "int4", 1.0, 0.0, 1e9, false, double),
    SHARDPLAN_CHIP_PLAIN(arch.matrix_flop_per_clock.fp4, "fp4", 1.0, 0.0, 1e9, false, double),
};
/// `system.chip.kernels`: what its kernels reach (`kernel_fractions`); zeros take the family's.
inline constexpr chip_number kernel_numbers[] = {
    SHARDPLAN_CHIP_PLAIN(kernels.gemm, "gemm", 1.0, 0.0, 1.0, false, double),
    SHARDPLAN_CHIP_PLAIN(kernels.gemm_low_precision, "gemm_low_precision", 1.0, 0.0, 1.0, false,
                         double),
    SHARDPLAN_CHIP_PLAIN(kernels.memory, "memory", 1.0, 0.0, 1.0, false, double),
    SHARDPLAN_CHIP_PLAIN(kernels.attention_forward, "attention_forward", 1.0, 0.0, 1.0, false,
                         double),
    SHARDPLAN_CHIP_PLAIN(kernels.attention_backward, "attention_backward", 1.0, 0.0, 1.0, false,
                         double),
    SHARDPLAN_CHIP_PLAIN(kernels.tile_rows, "tile_rows", 1.0, 0.0, 1e5, true, std::int64_t),
    SHARDPLAN_CHIP_PLAIN(kernels.tile_columns, "tile_columns", 1.0, 0.0, 1e5, true, std::int64_t),
    SHARDPLAN_CHIP_PLAIN(kernels.reduction_overhead, "reduction_overhead", 1.0, -1.0, 1e6, false,
                         double),
    SHARDPLAN_CHIP_PLAIN(kernels.sustained, "sustained", 1.0, 0.0, 1.0, false, double),
    SHARDPLAN_CHIP_PLAIN(kernels.step_error, "step_error", 1.0, -1.0, 1.0, false, double),
};
#undef SHARDPLAN_CHIP_RATE
#undef SHARDPLAN_CHIP_PLAIN
// clang-format on

/// The keys of a table of numbers, and `extra` before them.
template <std::size_t N>
std::vector<const char*> keys_of(const chip_number (&table)[N],
                                 std::initializer_list<const char*> extra) {
  std::vector<const char*> keys(extra);
  for (const chip_number& n : table) keys.push_back(n.key);
  return keys;
}

/// Sets each number of `table` that `j` gives, in the key's unit and range.
template <std::size_t N>
void read_numbers(const json& j, const std::string& path, const chip_number (&table)[N],
                  chip_figures& c) {
  for (const chip_number& n : table) {
    if (!j.contains(n.key)) continue;
    const double x = n.whole ? static_cast<double>(whole(j.at(n.key), join(path, n.key),
                                                         static_cast<std::int64_t>(n.lo),
                                                         static_cast<std::int64_t>(n.hi)))
                             : number(j, path, n.key, n.lo, n.hi, 0.0);
    // A rate, size or bandwidth is absent (0) or a real one: 1e-300 TFLOP/s would give a step
    // of 1e62 days, "feasible".
    if (n.unit > 1.0 && x > 0.0 && x < smallest_figure)
      fail(join(path, n.key), "must be 0 (not given) or at least 0.001");
    n.set(c, x * n.unit);
  }
}

/// A plan file's name for something of its own (a chip, a system, a level): it goes into
/// reports and launch configs, so only characters no format must escape.
inline std::string plain_name(const json& j, const std::string& path, const char* key) {
  const std::string name = text(j, path, key);
  constexpr const char* plain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._+-/()";
  if (name.find_first_not_of(" ") == std::string::npos) fail(join(path, key), "must not be empty");
  if (name.front() == ' ' || name.back() == ' ')
    fail(join(path, key), "must not start or end with a space");
  if (name.size() > 64) fail(join(path, key), "is longer than 64 characters");
  if (name.find_first_not_of(plain) != std::string::npos)
    fail(join(path, key), "may hold only letters, digits, spaces and . _ + - / ( )");
  return name;
}

/// The catalogue chip `name`, or the error listing the catalogue.
inline const chip_figures& catalog_chip(const std::string& where, const std::string& name) {
  const chip_figures* found = find_chip(name);
  if (found == nullptr) {
    std::vector<std::string_view> known;
    for (const chip_figures& c : catalog_chips) known.push_back(c.name);
    fail(where, "unknown chip '" + name + "' (known: " + name_list(known) + ")");
  }
  return *found;
}

/// The key of a chip object that a broken chip rule concerns.
inline std::string chip_rule_field(chip_rule r, const chip_figures& c) {
  switch (r) {
    case chip_rule::has_a_name: return "name";
    case chip_rule::has_memory:
      return c.memory.value() > 0.0 ? "memory_bandwidth_gb_per_s" : "memory_gb";
    case chip_rule::rates_valid: return "peak_bf16_tflops";
    case chip_rule::links_valid:
      return c.scale_up_links < 1 ? "scale_up_links" : "scale_up_link_bandwidth_gb_per_s";
    case chip_rule::kernel_fractions_valid: return "kernels";
    default: return "";
  }
}

/// `system.chip`: a catalogue name, or an object with every `chip_figures` member (`base`: a
/// catalogue chip whose figures the object's keys change; without it every figure starts at 0).
/// The chip obeys the chip rules of hardware/system_rules.hpp; `name` is the object's own and
/// no catalogue chip's.
inline chip_figures read_chip(const json& j, const std::string& p, std::string& name) {
  if (j.is_string()) {
    const chip_figures& c = catalog_chip(p, j.get<std::string>());
    name = std::string(c.name);
    return c;
  }
  if (!j.is_object()) fail(p, "must be a catalogue chip's name or a chip object");
  only_keys(j, p, keys_of(chip_numbers, {"base", "name", "kind", "scale_up", "arch", "kernels"}));
  chip_figures c{};
  if (j.contains("base")) c = catalog_chip(join(p, "base"), text(j, p, "base"));
  name = plain_name(j, p, "name");
  if (find_chip(name) != nullptr)
    fail(join(p, "name"), "'" + name + "' is a catalogue chip's name; give the variant its own");
  c.name = name;
  if (j.contains("kind")) c.kind = pick(join(p, "kind"), text(j, p, "kind"), chip_kind_choices);
  if (j.contains("scale_up"))
    c.scale_up = pick(join(p, "scale_up"), text(j, p, "scale_up"), scale_up_choices);
  read_numbers(j, p, chip_numbers, c);
  if (j.contains("arch")) {
    const json& a = j.at("arch");
    const std::string q = join(p, "arch");
    only_keys(a, q, keys_of(arch_numbers, {"matrix_flop_per_clock"}));
    read_numbers(a, q, arch_numbers, c);
    if (a.contains("matrix_flop_per_clock")) {
      const std::string r = join(q, "matrix_flop_per_clock");
      only_keys(a.at("matrix_flop_per_clock"), r, keys_of(flop_per_clock_numbers, {}));
      read_numbers(a.at("matrix_flop_per_clock"), r, flop_per_clock_numbers, c);
    }
  }
  if (j.contains("kernels")) {
    const std::string q = join(p, "kernels");
    only_keys(j.at("kernels"), q, keys_of(kernel_numbers, {}));
    read_numbers(j.at("kernels"), q, kernel_numbers, c);
  }
  const chip_rule broken = first_broken_rule(c);
  if (broken != chip_rule::none)
    fail(join(p, chip_rule_field(broken, c)), rule_message(rule_text(broken)));
  return c;
}

/// The most chips a topology holds: far beyond any machine, far below where counts overflow.
inline constexpr std::int64_t max_topology_chips = 100'000'000;

/// The latency of one hop of a level on `link` when the plan file gives none: the presets' own
/// figures (hardware/systems.hpp); PCIe has none, so a PCIe level must give it.
inline bool default_hop_latency(link_kind link, seconds& out) {
  namespace d = systems::detail;
  switch (link) {
    case link_kind::ici: out = d::ici_hop_latency; return true;
    case link_kind::nvlink:
    case link_kind::infinity_fabric: out = d::nvlink_hop_latency; return true;
    case link_kind::infiniband:
    case link_kind::roce: out = d::infiniband_hop_latency; return true;
    case link_kind::dcn: out = d::dcn_hop_latency; return true;
    case link_kind::pcie: return false;
  }
  return false;
}

/// The key of a system object that a broken system rule concerns.
inline std::string system_rule_field(system_rule r, const system_figures& s) {
  const auto level = [](std::int64_t i) {
    return i < 0 ? std::string("levels") : "levels[" + std::to_string(i) + "]";
  };
  switch (r) {
    case system_rule::chips_fill_levels: return "chips";
    case system_rule::torus_is_first_level: return "torus";
    case system_rule::level_names_unique: return level(first_bad_level_name(s));
    case system_rule::levels_have_bandwidth: return level(first_level_without_bandwidth(s));
    default: return "levels";
  }
}

/// A system given as its topology: `chip`, `levels` (innermost first: name, link, degree, the
/// one-way bandwidth one unit pushes into the level, or NICs per unit and their bandwidth, the
/// hop latency, in-network reduction), an optional TPU `torus` (level 0: shape and wraparound),
/// `chips` (default: the product of the degrees) and `name`. Defaults, as the presets build
/// them: level 0 at the chip's scale-up egress, a level above at the chip's scale-out bandwidth
/// times the chips of one unit (a non-blocking, rail-optimised fat tree), hop latencies by link.
inline system_figures read_topology(const json& j, system_names& names) {
  const std::string p = "system";
  only_keys(j, p, {"name", "chip", "chips", "levels", "torus"});
  system_figures s{};
  names.system = j.contains("name") ? plain_name(j, p, "name") : std::string("custom system");
  if (!j.contains("chip")) fail(join(p, "chip"), "missing");
  s.chip = read_chip(j.at("chip"), join(p, "chip"), names.chip);
  const json& levels = j.at("levels");
  if (!levels.is_array() || levels.empty() ||
      levels.size() > static_cast<std::size_t>(max_network_levels))
    fail(join(p, "levels"), "must be an array of 1 to 5 levels, innermost first");
  s.level_count = static_cast<std::int64_t>(levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const json& l = levels[i];
    const std::string q = join(p, "levels") + "[" + std::to_string(i) + "]";
    only_keys(l, q, {"name", "link", "degree", "unit_egress_gb_per_s", "nics_per_unit",
                     "nic_gb_per_s", "hop_latency_us", "in_network_reduction"});
    network_level& level = s.levels[i];
    names.levels[i] = plain_name(l, q, "name");
    level.name = names.levels[i];
    level.link = pick(join(q, "link"), text(l, q, "link"), link_choices);
    level.degree = integer(l, q, "degree", 1, 1'000'000, true);
    const bool egress = l.contains("unit_egress_gb_per_s");
    const bool nics = l.contains("nics_per_unit") || l.contains("nic_gb_per_s");
    if (egress && nics)
      fail(join(q, "nics_per_unit"), "give unit_egress_gb_per_s or the NICs, not both");
    if (egress) {
      const double x = number(l, q, "unit_egress_gb_per_s", 0.0, big, 0.0);
      if (x > 0.0 && x < smallest_figure)
        fail(join(q, "unit_egress_gb_per_s"), "must be 0 or at least 0.001");
      level.unit_egress = x * gb * byte / second;
    } else if (nics) {
      const std::int64_t count = integer(l, q, "nics_per_unit", 1, 1'000'000, true);
      const double each = number(l, q, "nic_gb_per_s", 0.0, big, -1.0);
      if (each < 0.0) fail(join(q, "nic_gb_per_s"), "missing");
      if (each < smallest_figure) fail(join(q, "nic_gb_per_s"), "must be at least 0.001");
      level.unit_egress = static_cast<double>(count) * each * gb * byte / second;
    } else if (i == 0) {
      level.unit_egress = scale_up_egress(s.chip);
    } else {
      level.unit_egress =
          s.chip.scale_out_bandwidth * static_cast<double>(chips_per_unit(s, static_cast<std::int64_t>(i) - 1));
    }
    if (l.contains("hop_latency_us")) {
      level.hop_latency = number(l, q, "hop_latency_us", 0.0, 1e6, 0.0) * micro * second;
    } else if (!default_hop_latency(level.link, level.hop_latency)) {
      fail(join(q, "hop_latency_us"), "missing (a " + std::string(name_of(level.link)) +
                                          " level has no default latency)");
    }
    level.in_network_reduction = boolean(l, q, "in_network_reduction", false);
  }
  const std::int64_t capacity = level_capacity(s);
  if (capacity > max_topology_chips)
    fail(join(p, "levels"), "hold more than " + std::to_string(max_topology_chips) +
                                " chips (the product of their degrees)");
  s.chips = integer(j, p, "chips", 1, capacity, false, capacity);
  if (j.contains("torus")) {
    const json& t = j.at("torus");
    const std::string q = join(p, "torus");
    only_keys(t, q, {"shape", "wraps"});
    if (!t.contains("shape")) fail(join(q, "shape"), "missing");
    const json& shape = t.at("shape");
    if (!shape.is_array() || shape.size() < 2 || shape.size() > 3)
      fail(join(q, "shape"), "must be an array of 2 or 3 extents");
    s.torus.rank = static_cast<std::int64_t>(shape.size());
    for (std::size_t i = 0; i < shape.size(); ++i)
      s.torus.extent[i] = whole(shape[i], join(q, "shape") + "[" + std::to_string(i) + "]", 1,
                                1'000);
    if (t.contains("wraps")) {
      const json& w = t.at("wraps");
      if (!w.is_array() || w.size() != shape.size())
        fail(join(q, "wraps"), "must be an array of true or false, one per extent");
      for (std::size_t i = 0; i < w.size(); ++i) {
        if (!w[i].is_boolean())
          fail(join(q, "wraps") + "[" + std::to_string(i) + "]", "must be true or false");
        s.torus.wraps[i] = w[i].get<bool>();
      }
    }
  }
  const system_rule broken = first_broken_rule(s);
  if (broken != system_rule::none)
    fail(join(p, system_rule_field(broken, s)), rule_message(first_broken_rule_text(s)));
  return s;
}

/// Which sizes a system preset takes; any other size key is a mistake, not something to ignore.
inline std::vector<const char*> system_keys(std::string_view preset) {
  if (preset == "nvlink_fat_tree") return {"preset", "nodes", "gpus_per_node", "chip"};
  if (preset == "gb200_nvl72") return {"preset", "racks"};
  if (preset.substr(0, 3) == "tpu") return {"preset", "shape", "slices"};
  return {"preset", "nodes"};
}

/// `system`: a preset with its size, or a topology (`levels`). `names` owns the names the
/// figures point at.
inline system_figures read_system(const json& j, system_names& names) {
  const std::string p = "system";
  if (j.is_object() && j.contains("levels") && !j.contains("preset")) return read_topology(j, names);
  only_keys(j, p, {"preset", "nodes", "gpus_per_node", "chip", "racks", "shape", "slices"});
  system_request r;
  const std::string given = text(j, p, "preset");
  for (std::string_view n : system_preset_names)
    if (same_name(n, given)) r.preset = n;
  if (r.preset.empty())
    fail(join(p, "preset"),
         "unknown preset '" + given + "' (known: " + name_list(system_preset_names) +
             "), or give the system's levels");
  const std::vector<const char*> takes = system_keys(r.preset);
  for (const auto& [key, value] : j.items()) {
    bool applies = false;
    for (const char* k : takes) applies = applies || key == k;
    if (!applies)
      fail(join(p, key), "does not apply to the preset " + std::string(r.preset) +
                             " (it takes: " + name_list(takes) + ")");
  }
  const auto takes_key = [&takes](std::string_view key) {
    for (const char* k : takes)
      if (key == k) return true;
    return false;
  };
  if (takes_key("nodes")) r.nodes = integer(j, p, "nodes", 1, 1'000'000, true);
  r.gpus_per_node = integer(j, p, "gpus_per_node", 1, 8, false, 8);
  chip_figures chip{};
  if (takes_key("chip")) {
    if (!j.contains("chip")) fail(join(p, "chip"), "missing");
    chip = read_chip(j.at("chip"), join(p, "chip"), names.chip);
    r.own_chip = &chip;
  }
  if (takes_key("racks")) r.racks = integer(j, p, "racks", 1, 100'000, true);
  r.slices = integer(j, p, "slices", 1, 1'000, false, 1);
  if (takes_key("shape")) {
    if (!j.contains("shape")) fail(join(p, "shape"), "missing");
    const json& s = j.at("shape");
    if (!s.is_array() || s.size() < 2 || s.size() > 3)
      fail(join(p, "shape"), "must be an array of 2 or 3 extents");
    for (std::size_t i = 0; i < s.size(); ++i)
      r.shape[i] = whole(s[i], join(p, "shape") + "[" + std::to_string(i) + "]", 1, 1'000);
    if (s.size() == 2) r.shape[2] = 1;
  }
  const system_result made = make_system(r);
  if (!made.error.empty())
    fail(made.field.empty() ? p : join(p, std::string(made.field)), rule_message(made.error));
  // A preset keeps the system rules with its own chips; a chip of the user's own may break them
  // (a CPU, with no scale-up fabric, in an NVLink node).
  if (first_broken_rule(made.figures) != system_rule::none)
    fail(join(p, "chip"), rule_message(first_broken_rule_text(made.figures)));
  names.system = std::string(made.figures.name);
  if (names.chip.empty()) names.chip = std::string(made.figures.chip.name);
  return made.figures;
}


inline precision_policy read_precision(const json& j) {
  const std::string p = "training.precision";
  if (!j.is_string()) fail(p, "must be a preset name");
  const std::string name = j.get<std::string>();
  if (const named<precision_policy>* x = find_named(precision_choices, name)) return x->value;
  fail(p, "unknown preset '" + name + "' (known: " + name_list(names_of(precision_choices)) + ")");
}

inline number_format read_format(const json& j, const std::string& path, const char* key,
                                 number_format fallback) {
  if (!j.contains(key)) return fallback;
  const std::string name = text(j, path, key);
  std::vector<std::string_view> known;
  for (number_format f : all_number_formats) {
    if (same_name(name_of(f), name)) return f;
    known.push_back(name_of(f));
  }
  fail(join(path, key), "unknown number format '" + name + "' (known: " + name_list(known) + ")");
}

/// The serving section: degrees become the mesh [dp, ep, sp, tp] (outermost first).
inline serving_plan_values read_inference(const json& j, const model_shape& model,
                                          const system_figures& system) {
  const std::string p = "inference";
  only_keys(j, p, {"parallelism", "batch", "prompt_tokens", "generated_tokens", "weights",
                   "kv_cache", "compute", "price_per_chip_hour", "reserve", "engine",
                   "weight_read_percent", "prefill_efficiency_percent", "replicate_kv",
                   "cuda_graphs", "disaggregated", "requests", "output_lengths",
                   "longest_output", "max_sequences", "activation_scales"});
  serving_plan_values v;
  v.model = model;
  v.system = system;
  if (j.contains("parallelism")) {
    const json& par = j.at("parallelism");
    const std::string q = join(p, "parallelism");
    only_keys(par, q, {"data", "expert", "sequence", "tensor", "attention_data"});
    const std::int64_t data = integer(par, q, "data", 1, 1'000'000, false, 1);
    const std::int64_t expert = integer(par, q, "expert", 1, 100'000, false, 1);
    const std::int64_t sequence = integer(par, q, "sequence", 1, 100'000, false, 1);
    const std::int64_t tensor = integer(par, q, "tensor", 1, 100'000, false, 1);
    (void)product(q,
                  {{"data", data}, {"expert", expert}, {"sequence", sequence}, {"tensor", tensor}},
                  int64_max, "overflows 64-bit integers");
    auto add = [&v](std::string_view name, std::int64_t size, std::uint8_t role) {
      if (size > 1) v.axes[v.axis_count++] = {name, size, role, {}};
    };
    // Data-parallel attention on the expert axis (SGLang's DP attention, DeepSeek-V3's decode).
    const bool attention_data = boolean(par, q, "attention_data", false);
    if (attention_data && expert <= 1)
      fail(join(q, "attention_data"), "needs an expert axis (\"expert\" of at least 2)");
    add("dp", data, role_data);
    add("ep", expert,
        static_cast<std::uint8_t>(role_expert | (attention_data ? role_attention_data : 0)));
    add("sp", sequence, role_context);
    add("tp", tensor, role_tensor);
  }
  serving_setup& s = v.setup;
  // "batch": "max" serves as many requests as fit (`with_max_load`, below).
  if (j.contains("batch") && j.at("batch").is_string()) {
    if (j.at("batch").get<std::string>() != "max")
      fail(join(p, "batch"), "must be a whole number of sequences or \"max\"");
    s.max_load = true;
    s.batch = 1;
  } else {
    s.batch = integer(j, p, "batch", 1, 100'000'000, true);
  }
  if (j.contains("engine"))
    s.engine = pick(join(p, "engine"), text(j, p, "engine"), engine_choices);
  s.weight_read_share = number(j, p, "weight_read_percent", 1.0, 100.0, 0.0) / 100.0;
  s.prefill_efficiency = number(j, p, "prefill_efficiency_percent", 1.0, 100.0, 0.0) / 100.0;
  s.replicate_kv = boolean(j, p, "replicate_kv", false);
  s.cuda_graphs = boolean(j, p, "cuda_graphs", true);
  s.disaggregated = boolean(j, p, "disaggregated", false);
  s.prompt_tokens = integer(j, p, "prompt_tokens", 0, 100'000'000, true);
  s.generated_tokens = integer(j, p, "generated_tokens", 1, 100'000'000, true);
  // A finite benchmark (workload.hpp's `simulate_benchmark`): requests sent at once, and how
  // their output lengths spread about `generated_tokens`.
  s.requests = integer(j, p, "requests", 1, 100'000, false, 0);
  s.max_sequences = integer(j, p, "max_sequences", 1, 100'000'000, false, 0);
  if (j.contains("output_lengths")) {
    const std::string spread = text(j, p, "output_lengths");
    if (spread == "exponential")
      s.outputs = output_lengths::exponential;
    else if (spread != "fixed")
      fail(join(p, "output_lengths"),
           "unknown spread '" + spread + "' (known: fixed, exponential)");
  }
  if (j.contains("longest_output")) {
    if (s.outputs != output_lengths::exponential)
      fail(join(p, "longest_output"), "caps an \"exponential\" output_lengths spread only");
    s.longest_output = integer(j, p, "longest_output", 1, 100'000'000, true);
    if (s.longest_output <= 2 * s.generated_tokens)
      fail(join(p, "longest_output"),
           "must exceed twice generated_tokens (" + std::to_string(2 * s.generated_tokens) +
               "): no exponential spread capped there has that mean");
  }
  if ((s.outputs != output_lengths::fixed) && s.requests == 0)
    fail(join(p, "output_lengths"), "spreads a benchmark's requests: give \"requests\" too");
  s.weights = read_format(j, p, "weights", number_format::bf16);
  s.kv = read_format(j, p, "kv_cache", number_format::bf16);
  s.compute = read_format(j, p, "compute", number_format::bf16);
  s.dollars_per_chip_hour = number(j, p, "price_per_chip_hour", 0.0, 1e6, 0.0);
  if (j.contains("activation_scales")) {
    const std::string scales = text(j, p, "activation_scales");
    if (scales == "dynamic_tensor")
      s.scales = activation_scales::dynamic_tensor;
    else if (scales == "dynamic_row")
      s.scales = activation_scales::dynamic_row;
    else if (scales != "static")
      fail(join(p, "activation_scales"),
           "unknown scaling '" + scales + "' (known: static, dynamic_tensor, dynamic_row)");
    if (s.scales != activation_scales::static_scales && bytes_per_element(s.compute) >= 2.0)
      fail(join(p, "activation_scales"),
           "scales the activations of 8-bit compute; compute is " +
               std::string(name_of(s.compute)));
  }
  if (j.contains("reserve")) {
    const json& r = j.at("reserve");
    const std::string q = join(p, "reserve");
    only_keys(r, q, {"gigabytes", "percent"});
    s.reserve = {number(r, q, "gigabytes", 0.0, 1e6, 0.0) * giga * byte,
                 number(r, q, "percent", 0.0, 100.0, 0.0) / 100.0};
  }
  return with_max_load(v);
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

/// The parallelism of a training plan. The product of its degrees is checked here, before any
/// plan value multiplies them.
inline parallel_config read_parallelism(const json& par) {
  const std::string pp = "training.parallelism";
  only_keys(par, pp,
            {"data", "tensor", "pipeline", "context", "expert", "zero_stage", "sequence_parallel",
             "schedule", "virtual_stages", "uneven_stages", "first_stage_layers",
             "last_stage_layers"});
  parallel_config c;
  c.data = integer(par, pp, "data", 1, 10'000'000, false, 1);
  c.tensor = integer(par, pp, "tensor", 1, 100'000, false, 1);
  c.pipeline = integer(par, pp, "pipeline", 1, 100'000, false, 1);
  c.context = integer(par, pp, "context", 1, 100'000, false, 1);
  c.expert = integer(par, pp, "expert", 1, 100'000, false, 1);
  (void)product(pp, {{"data", c.data}, {"tensor", c.tensor}, {"pipeline", c.pipeline},
                     {"context", c.context}, {"expert", c.expert}},
                int64_max, "overflows 64-bit integers");
  c.zero_stage = integer(par, pp, "zero_stage", 0, 3, false, 0);
  c.sequence_parallel = boolean(par, pp, "sequence_parallel", false);
  c.virtual_stages = integer(par, pp, "virtual_stages", 1, 1'000, false, 1);
  c.uneven_stages = boolean(par, pp, "uneven_stages", false);
  c.first_stage_layers = integer(par, pp, "first_stage_layers", 0, max_count, false);
  c.last_stage_layers = integer(par, pp, "last_stage_layers", 0, max_count, false);
  if (c.pipeline == 1 && (c.first_stage_layers > 0 || c.last_stage_layers > 0))
    fail(pp + (c.first_stage_layers > 0 ? ".first_stage_layers" : ".last_stage_layers"),
         "needs \"pipeline\" above 1");
  if (par.contains("schedule"))
    c.schedule = pick(pp + ".schedule", text(par, pp, "schedule"), schedule_choices);
  if (c.schedule == pipeline_schedule::interleaved && c.virtual_stages < 2)
    fail(pp + ".virtual_stages", "must be at least 2 for the interleaved schedule");
  if (c.schedule != pipeline_schedule::interleaved && c.virtual_stages != 1)
    fail(pp + ".virtual_stages", "needs \"schedule\": \"interleaved\"");
  return c;
}

/// The batch of a training plan: tokens (or sequences) a step, sequence length, micro-batch.
/// A list of names, each one of `names` and each once, as a set of bits in `names`' order:
/// `training.recompute.modules` (`recompute_module_names`, non-empty) and a named policy's
/// tensors (`layer_tensor_names`).
template <class Names>
recompute_module_set read_name_set(const json& list, const std::string& where, const Names& names,
                                   const char* what, bool non_empty) {
  if (!list.is_array() || (non_empty && list.empty()))
    fail(where, std::string("must be a ") + (non_empty ? "non-empty " : "") + "list of " + what +
                    " names");
  recompute_module_set set = 0;
  for (const json& v : list) {
    if (!v.is_string()) fail(where, std::string("must list ") + what + " names as strings");
    const std::string name = v.get<std::string>();
    unsigned i = 0;
    while (i < std::size(names) && !same_name(name, names[i])) ++i;
    if (i == std::size(names))
      fail(where, "'" + name + "' is not a " + what + " (known: " + quoted_choices(names) + ")");
    const auto bit = static_cast<recompute_module_set>(1U << i);
    if ((set & bit) != 0) fail(where, "'" + name + "' is listed twice");
    set = static_cast<recompute_module_set>(set | bit);
  }
  return set;
}

/// `training.recompute` as an object: {"modules": [...]}, {"remat_policy": "name"},
/// {"saved": [...], "offloaded": [...]} or {"checkpoints": N}.
inline recompute_policy read_recompute_object(const json& r, const std::string& rp) {
  if (!r.is_object()) fail(rp, "must be an object");
  if (r.contains("modules")) {
    only_keys(r, rp, {"modules"});
    return {recompute_kind::selective, 0,
            read_name_set(r.at("modules"), rp + ".modules", recompute_module_names,
                          "recompute module", true)};
  }
  if (r.contains("remat_policy")) {
    only_keys(r, rp, {"remat_policy"});
    const std::string name = text(r, rp, "remat_policy");
    std::vector<std::string_view> names;
    for (const named_remat_policy& x : maxtext_remat_policies) {
      if (same_name(name, x.name)) return policy_of(x);
      names.push_back(x.name);
    }
    fail(rp + ".remat_policy",
         "'" + name + "' is not a remat policy of MaxText (known: " + quoted_choices(names) +
             "; \"custom\" is {\"saved\": [...], \"offloaded\": [...]})");
  }
  if (r.contains("saved") || r.contains("offloaded")) {
    only_keys(r, rp, {"saved", "offloaded"});
    const recompute_module_set saved =
        r.contains("saved") ? read_name_set(r.at("saved"), rp + ".saved", layer_tensor_names,
                                            "tensor a remat policy names", false)
                            : 0;
    const recompute_module_set offloaded =
        r.contains("offloaded")
            ? read_name_set(r.at("offloaded"), rp + ".offloaded", layer_tensor_names,
                            "tensor a remat policy names", false)
            : 0;
    if ((saved & offloaded) != 0)
      fail(rp + ".offloaded", "names a tensor that \"saved\" keeps on the device too");
    return {recompute_kind::named, 0, 0, saved, offloaded};
  }
  only_keys(r, rp, {"checkpoints"});
  return {recompute_kind::checkpoints, integer(r, rp, "checkpoints", 1, 100, true)};
}

/// `training.offload` (`offload_policy`): {"optimizer": share, "gradients_on_host": bool,
/// "parameters_on_host": bool, "host_gradient_bytes": n, "host_staging_bytes": n}.
inline offload_policy read_offload(const json& o, const std::string& op, std::int64_t zero_stage) {
  only_keys(o, op, {"optimizer", "gradients_on_host", "parameters_on_host",
                    "host_gradient_bytes", "host_staging_bytes"});
  offload_policy out;
  out.optimizer = number(o, op, "optimizer", 0.0, 1.0, 0.0);
  out.gradients_on_host = boolean(o, op, "gradients_on_host", false);
  out.parameters_on_host = boolean(o, op, "parameters_on_host", false);
  out.host_gradient_bytes = number(o, op, "host_gradient_bytes", 0.0, 16.0, 0.0);
  out.host_staging_bytes = number(o, op, "host_staging_bytes", 0.0, 16.0, 0.0);
  if (out.parameters_on_host && zero_stage < 3)
    fail(join(op, "parameters_on_host"),
         "offloads the parameter shard: it needs \"zero_stage\": 3 (the device gathers each "
         "layer from the host)");
  if (out.gradients_on_host && zero_stage < 2)
    fail(join(op, "gradients_on_host"),
         "moves the gradient shard to the host: it needs \"zero_stage\": 2 or 3 (ZeRO-1 keeps "
         "whole gradients on the device)");
  return out;
}

inline batch_settings read_batch(const json& b, std::int64_t data) {
  const std::string bp = "training.batch";
  only_keys(b, bp, {"global_tokens", "global_sequences", "seq_len", "micro_batch"});
  constexpr std::int64_t max_tokens = 1'000'000'000'000;
  batch_settings out;
  out.seq_len = integer(b, bp, "seq_len", 1, 100'000'000, true);
  if (b.contains("global_tokens") == b.contains("global_sequences"))
    fail(bp, "needs exactly one of global_tokens and global_sequences");
  if (b.contains("global_tokens")) {
    out.global_tokens = integer(b, bp, "global_tokens", 1, max_tokens, true);
  } else {
    const std::int64_t sequences = integer(b, bp, "global_sequences", 1, max_tokens, true);
    out.global_tokens = product(bp, {{"global_sequences", sequences}, {"seq_len", out.seq_len}},
                                max_tokens, "is too many tokens a step");
  }
  out.micro_batch = integer(b, bp, "micro_batch", 1, 1'000'000, false, 1);
  (void)product(bp, {{"data", data}, {"micro_batch", out.micro_batch}}, int64_max,
                "overflows 64-bit integers");
  return out;
}

}  // namespace detail

/// Reads a plan file's text. Throws `bad_input` with one line naming the field on any mistake.
inline plan_file read_plan_file(const std::string& text_in, const model_source& from = {}) {
  using detail::fail;
  using detail::integer;
  const detail::json j = detail::parse(text_in);
  if (!j.is_object()) fail("plan file", "must be a JSON object (with model, system and training)");
  detail::only_keys(j, "", {"model", "system", "training", "inference", "run", "search"});
  if (!j.contains("model") && from.config.empty()) fail("model", "missing");
  if (!j.contains("system")) fail("system", "missing");
  if (j.contains("training") == j.contains("inference"))
    fail("training", "a plan file has exactly one of training and inference");
  plan_file out;
  const model_shape model =
      detail::read_model(j.contains("model") ? j.at("model") : detail::json(), out.model_name, from);
  const system_figures system = detail::read_system(j.at("system"), out.names);
  if (j.contains("inference")) {
    if (j.contains("run")) fail("run", "belongs to a training plan");
    if (j.contains("search")) fail("search", "belongs to a training plan");
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
                            "attention", "efficiency_percent", "mfu_format", "eager_attention",
                            "attention_kernel", "dropout", "framework",
                            "grad_reduce_in_bf16", "compiled_loss", "compiled_layers",
                            "chunked_loss", "optimizer_in_backward", "zero3_per_tensor", "overlap_comm",
                            "tp_comm_overlap", "sync_tp_backward", "memory_policy",
                            "memory_margin_percent", "offload"});
  if (!t.contains("batch")) fail("training.batch", "missing");
  const parallel_config c = detail::read_parallelism(
      t.contains("parallelism") ? t.at("parallelism") : detail::json::object());

  training_setup setup;
  setup.batch = detail::read_batch(t.at("batch"), c.data);
  if (t.contains("recompute")) {
    const detail::json& r = t.at("recompute");
    const std::string rp = "training.recompute";
    if (r.is_string()) {
      constexpr recompute_kind kinds[] = {recompute_kind::none, recompute_kind::selective,
                                          recompute_kind::full, recompute_kind::mlp};
      const int i =
          detail::option_index(r.get<std::string>(), {"none", "selective", "full", "mlp"});
      if (i < 0)
        fail(rp, "must be \"none\", \"selective\", \"full\", \"mlp\", {\"modules\": [...]}, "
                 "{\"remat_policy\": NAME}, {\"saved\": [...], \"offloaded\": [...]} or "
                 "{\"checkpoints\": N}");
      setup.recompute = {kinds[i]};
    } else {
      setup.recompute = detail::read_recompute_object(r, rp);
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
    // As `reserve<>` does: a reserve given is charged under every framework, unless
    // "memory_policy" says otherwise.
    setup.memory_policy = training_memory_policy::reserve;
  }
  if (t.contains("memory_policy"))
    setup.memory_policy = detail::pick(tp + ".memory_policy", detail::text(t, tp, "memory_policy"),
                                       detail::memory_policy_choices);
  if (t.contains("memory_margin_percent")) {
    const std::string where = tp + ".memory_margin_percent";
    const detail::json& v = t.at("memory_margin_percent");
    if (!v.is_number()) fail(where, "must be a number");
    const double x = v.get<double>();
    // A share of the need: from 0 up to (not including) 100, as `memory_margin<>` requires.
    if (!(x >= 0.0 && x < 100.0)) fail(where, "must be at least 0 and less than 100");
    setup.memory_margin = x / 100.0;
  }
  setup.eager_attention = detail::boolean(t, tp, "eager_attention", false);
  if (t.contains("attention_kernel")) {
    const std::string where = tp + ".attention_kernel";
    const std::string given = detail::text(t, tp, "attention_kernel");
    if (same_name(given, kernel_name(attention_kernel::eager)))
      fail(where, "\"eager\" is no fused kernel: unfused attention is \"eager_attention\": true "
                  "(attention_kernel names a fused kernel: " +
                      detail::quoted_choices(detail::names_of(detail::attention_kernel_choices)) +
                      ")");
    setup.attention = detail::pick(where, given, detail::attention_kernel_choices);
    if (setup.eager_attention && setup.attention != attention_kernel::automatic)
      fail(where, "does not apply with \"eager_attention\": true (no fused kernel runs)");
  }
  setup.dropout = detail::boolean(t, tp, "dropout", false);
  if (t.contains("framework"))
    setup.framework = detail::read_framework(t.at("framework"), tp + ".framework");
  for (const detail::framework_flag& f : detail::framework_flags) {
    setup.*f.member = detail::boolean(t, tp, f.key, false);
    if (setup.*f.member && !f.read_by(setup.framework))
      fail(tp + "." + f.key,
           std::string("is ") + f.what + ": it needs " + detail::owners_text(f));
  }
  if (t.contains("offload"))
    setup.offload = detail::read_offload(t.at("offload"), tp + ".offload", c.zero_stage);
  if (setup.recompute.kind == recompute_kind::named &&
      setup.framework.selective != selective_recompute::minimal_with_context)
    fail(tp + ".recompute",
         "names tensors as MaxText's remat policies do; " + std::string(setup.framework.name) +
             " does not (give \"framework\": \"maxtext\")");
  if (setup.recompute.modules != 0 &&
      setup.framework.selective != selective_recompute::core_attention)
    fail(tp + ".recompute.modules",
         "are Megatron-Core's --recompute-modules; " + std::string(setup.framework.name) +
             " recomputes by its own policy (give \"selective\")");
  if (setup.zero3_per_tensor && c.zero_stage != 3)
    fail(tp + ".zero3_per_tensor",
         "is how DeepSpeed's ZeRO-3 gathered parameters: it needs \"zero_stage\": 3");
  if (setup.overlap_comm && !deepspeed_reads_overlap_comm(c.zero_stage))
    fail(tp + ".overlap_comm",
         "is DeepSpeed's switch at ZeRO-1 and -2: it needs \"zero_stage\": 1 or 2 (ZeRO-3 "
         "overlaps by default)");

  out.plan = make_training_plan(model, system, c, setup);
  // The framework limits a flag of this section breaks (`broken_framework_limit`, the rule the
  // type layer checks) are answered here, naming the flag; DeepSpeed's are left to `check`.
  switch (broken_framework_limit(out.plan.setup)) {
    case framework_limit::torchtune_optimizer_in_backward:
      fail(tp + ".optimizer_in_backward",
           "needs one micro-batch per step and no pipeline (torchtune refuses it with gradient "
           "accumulation)");
    case framework_limit::tp_comm_overlap_needs_sequence_parallel:
      fail(tp + ".tp_comm_overlap",
           "needs \"sequence_parallel\": true (Megatron-LM refuses --tp-comm-overlap without "
           "--sequence-parallel; async TP rewrites sequence parallelism's collectives)");
    case framework_limit::torchtitan_async_tp_needs_compile:
      fail(tp + ".tp_comm_overlap",
           "is async TP here, which the framework runs only compiled: it needs "
           "\"compiled_layers\": true (as torchtitan requires the model compiled)");
    default: break;
  }
  if (t.contains("attention"))
    out.plan.assumptions.attention = detail::pick(
        tp + ".attention", detail::text(t, tp, "attention"), detail::attention_flops_choices);
  out.plan.assumptions.efficiency =
      detail::number(t, tp, "efficiency_percent", 1.0, 100.0, 0.0) / 100.0;
  if (t.contains("mfu_format")) {
    const std::string where = tp + ".mfu_format";
    const number_format f =
        detail::pick(where, detail::text(t, tp, "mfu_format"), detail::mfu_format_choices);
    if (!(peak(system.chip, f).value() > 0.0)) {
      std::vector<std::string_view> has;
      for (const auto& x : detail::mfu_format_choices)
        if (peak(system.chip, x.value).value() > 0.0) has.push_back(x.name);
      fail(where, "the " + std::string(system.chip.name) + " has no " +
                      std::string(name_of(f)) + " peak (it has: " + detail::name_list(has) + ")");
    }
    out.plan.assumptions.mfu_format = f;
  }
  return out;
}

/// Reads the plan file at `path` (standard input when `path` is "-"): `read_plan_file` of its
/// text. Throws `bad_input` ("cannot read PATH: why") when the file cannot be read, or with the
/// field's line on any mistake in it.
/// `model_config`, when given, replaces the file's model (`--model-config`); a relative
/// `"hf_config"` is read from the plan file's folder.
inline plan_file load_plan_file(const std::string& path, const std::string& model_config = "") {
  const std::string base = path == "-" ? "" : std::filesystem::path(path).parent_path().string();
  return read_plan_file(input_text(path), {base, model_config});
}

}  // namespace shardplan::io
