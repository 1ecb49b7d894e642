// MaxText: a YAML config (parsed with yaml-cpp) with its base_config chain, the model file that
// model_name pulls in, and key=value overrides, read into a plan file; or a launch script (as
// MaxText's own src/maxtext/configs/tpu/*/*.sh), whose training command names the config and
// its overrides.
#pragma once

// Where the names and rules come from (stored copies of AI-Hypercomputer/maxtext at
// e591f30cbbf217ed67ef71263ec0538239f9c3b8, 2026-08-22; base.yml is
// src/maxtext/configs/base.yml there):
//   - src/maxtext/configs/pyconfig.py: _load_config (a base_config path is relative to the
//     config's folder, else MaxText's configs folder; the base is merged under the file),
//     _initialize_pydantic (overrides from the command line merged last; model_name, "-Instruct"
//     removed, pulls in models/<model_name>.yml from the config's folder, then its parent's
//     models/ folder, then MaxText's own; the model file is merged over the config and under the
//     overrides, and a key both set differently is refused unless override_model_config),
//     validate_no_keys_overridden_twice.
//   - src/maxtext/configs/types.py: get_individual_scales (global_parameter_scale), the model
//     dims (emb_dim = 2^emb_scale x base_emb_dim, ...), batch sizes (calculate_global_batch_sizes:
//     int(devices x per_device_batch_size) per micro-step, times gradient_accumulation_steps),
//     the pipeline checks (stages = ici x dcn pipeline; pipeline_parallel_layers -1 = all decoder
//     layers, the MoE layers for the deepseek block; repeats -1 = layers / (stages x
//     layers_per_stage); microbatches -1 = stages (2 x stages with delayed forwarding), divisible
//     by stages and dividing the micro-step batch), the ici_*/dcn_* maps by mesh axis ("stage" is
//     pipeline, "model" tensor), QuantizationType, RematPolicy.
//   - src/maxtext/utils/max_utils.py: fill_unspecified_mesh_axes (at most one -1 per ici/dcn
//     list; the product must be the devices of a slice, and of the slices).
//   - base.yml defaults used when base.yml is not beside the config (line numbers of base.yml):
//     model_name "default" (23), override_model_config false (24), dtype bfloat16 (114),
//     quantization "" (122), decoder_block llama2 (170), weight_dtype float32 (174),
//     global_parameter_scale 1 (175), base_emb_dim 2048 (176), base_num_query_heads 16 (177),
//     base_num_kv_heads 16 (178), base_mlp_dim 7168 (179), base_num_decoder_layers 16 (181),
//     head_dim 128 (182), mlp_activations [silu, linear] (187), dropout_rate 0 (189),
//     logits_via_embedding false (190), num_experts 1 (213), num_experts_per_tok 1 (214),
//     base_moe_mlp_dim -1 (226), first_num_dense_layers 0 (289), shared_experts 0 (290),
//     routed_bias false (293), num_layers_per_pipeline_stage 1 (317), num_pipeline_repeats -1
//     (319), pipeline_parallel_layers -1 (320), num_pipeline_microbatches -1 (327),
//     pipeline_delay_activation_forwarding false (328), remat_policy full (358), attention
//     autoselected (392), attention_type global (393), q_lora_rank 0, kv_lora_rank 512,
//     qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128 (448-452), hardware tpu (521),
//     mesh_axes (531), dcn_* 1 but dcn_data_parallelism -1 (659-671), ici_* 1 but
//     ici_fsdp_parallelism -1 (672-684), shard_optimizer_over_data false (690), vocab_size 32000
//     (712), per_device_batch_size 12.0 (731), max_target_length 2048 (880), enable_dropout true
//     (935), gradient_accumulation_steps 1 (968), trainable_position_size -1 (1010).
//   - models/*.yml: llama2-7b/13b/70b, llama3-8b, llama3.1-8b, llama3-70b, llama3.1-70b,
//     llama3.3-70b, llama3-405b, llama3.1-405b, mixtral-8x7b and deepseek3-671b have the shapes
//     of shardplan's catalogue models of the same family and size (checked key by key).

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <shardplan/io/import/bash.hpp>
#include <shardplan/io/import/common.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardplan::io::detail::importer::maxtext {

/// base.yml's defaults of every key the importer reads (see the lines cited above).
inline nlohmann::json base_defaults() {
  nlohmann::json j = {
      {"model_name", "default"},
      {"override_model_config", false},
      {"dtype", "bfloat16"},
      {"quantization", ""},
      {"decoder_block", "llama2"},
      {"weight_dtype", "float32"},
      {"global_parameter_scale", 1},
      {"base_emb_dim", 2048},
      {"base_num_query_heads", 16},
      {"base_num_kv_heads", 16},
      {"base_mlp_dim", 7168},
      {"base_num_decoder_layers", 16},
      {"head_dim", 128},
      {"mlp_activations", {"silu", "linear"}},
      {"dropout_rate", 0.0},
      {"logits_via_embedding", false},
      {"num_experts", 1},
      {"num_experts_per_tok", 1},
      {"base_moe_mlp_dim", -1},
      {"first_num_dense_layers", 0},
      {"shared_experts", 0},
      {"routed_bias", false},
      {"mlp_bias", false},
      {"attention_bias", false},
      {"attention_sink", false},
      {"sliding_window_size", 0},
      {"chunk_attn_window_size", 0},
      {"use_post_attn_norm", false},
      {"use_post_ffw_norm", false},
      {"use_qk_norm", false},
      {"qk_norm_with_scale", true},
      {"nope_layer_interval", -1},
      {"interleave_moe_layer_step", 1},
      {"inhomogeneous_layer_cycle_interval", 1},
      {"scan_layers", true},
      {"num_layers_per_pipeline_stage", 1},
      {"num_pipeline_repeats", -1},
      {"pipeline_parallel_layers", -1},
      {"num_pipeline_microbatches", -1},
      {"pipeline_delay_activation_forwarding", false},
      {"remat_policy", "full"},
      {"attention", "autoselected"},
      {"attention_type", "global"},
      {"q_lora_rank", 0},
      {"kv_lora_rank", 512},
      {"qk_nope_head_dim", 128},
      {"qk_rope_head_dim", 64},
      {"v_head_dim", 128},
      {"hardware", "tpu"},
      {"mesh_axes",
       {"diloco", "data", "stage", "fsdp", "fsdp_transpose", "context", "context_usp_ulysses",
        "context_autoregressive", "tensor", "tensor_sequence", "expert", "autoregressive"}},
      {"shard_optimizer_over_data", false},
      {"vocab_size", 32000},
      {"per_device_batch_size", 12.0},
      {"max_target_length", 2048},
      {"enable_dropout", true},
      {"gradient_accumulation_steps", 1},
      {"trainable_position_size", -1},
  };
  static constexpr std::string_view axes[] = {"diloco",
                                              "data",
                                              "fsdp",
                                              "fsdp_transpose",
                                              "sequence",
                                              "context",
                                              "context_usp_ulysses",
                                              "context_autoregressive",
                                              "tensor",
                                              "tensor_sequence",
                                              "autoregressive",
                                              "pipeline",
                                              "expert"};
  for (std::string_view a : axes) {
    j["dcn_" + std::string(a) + "_parallelism"] = a == "data" ? -1 : 1;
    j["ici_" + std::string(a) + "_parallelism"] = a == "fsdp" ? -1 : 1;
  }
  return j;
}

/// A YAML scalar as OmegaConf's loader reads it: quoted is a string; plain is a bool, null,
/// whole number (underscores allowed), decimal (with a '.' or an exponent) or a string.
inline nlohmann::json yaml_scalar(const std::string& s, bool quoted) {
  if (quoted) return s;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  std::int64_t i = 0;
  if (parse_integer(s, i)) return i;
  double d = 0.0;
  if (s.find_first_of(".eE") != std::string::npos && parse_decimal(s, d)) return d;
  return s;
}

/// A YAML node as a JSON tree; `budget` bounds the nodes (aliases may repeat a subtree).
inline nlohmann::json from_yaml(const context& c, const YAML::Node& n, const std::string& where,
                                int depth, std::size_t& budget) {
  if (depth > 64) c.fail(where, "nests deeper than 64 levels");
  if (budget == 0) c.fail(where, "holds too many values (aliases repeat too much)");
  --budget;
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json j = nlohmann::json::object();
      for (const auto& kv : n) {
        if (!kv.first.IsScalar()) c.fail(where, "has a key that is not a plain name");
        const std::string key = kv.first.Scalar();
        if (j.contains(key)) c.fail(where.empty() ? key : where + "." + key, "is given twice");
        j[key] =
            from_yaml(c, kv.second, where.empty() ? key : where + "." + key, depth + 1, budget);
      }
      return j;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& e : n) j.push_back(from_yaml(c, e, where, depth + 1, budget));
      return j;
    }
    case YAML::NodeType::Scalar:
      return yaml_scalar(n.Scalar(), n.Tag() == "!");
    default:
      return nullptr;
  }
}

/// A YAML file's top-level mapping as JSON (`given`: its text, where it was not read from `path`).
inline nlohmann::json load_yaml(const context& c, const std::string& path, const std::string& shown,
                                const std::string* given = nullptr) {
  const std::string text = given != nullptr ? *given : read_text(path, shown);
  try {
    const YAML::Node node = YAML::Load(text);
    std::size_t budget = 200'000;
    nlohmann::json j = from_yaml(c, node, "", 0, budget);
    if (j.is_null()) return nlohmann::json::object();
    if (!j.is_object()) throw bad_input(printable(shown + ": YAML: must be a mapping of keys"));
    return j;
  } catch (const YAML::Exception& e) {
    throw bad_input(printable(shown + ": line " + std::to_string(e.mark.line + 1) +
                              ": malformed YAML: " + e.msg));
  }
}

/// OmegaConf's merge: mappings merged key by key, everything else replaced (`merge_json`).
inline void merge_into(nlohmann::json& base, const nlohmann::json& over) { merge_json(base, over); }

/// The config at `path` with its base_config chain merged under it. `explicit_keys` collects the
/// keys files other than a base.yml at the root of the chain set (reported when unused); `text`
/// is the first file's text where it was not read from `path` (standard input).
inline nlohmann::json load_chain(context& c, const std::string& path, int depth,
                                 std::vector<std::string>& explicit_keys,
                                 const std::string* text = nullptr) {
  namespace fs = std::filesystem;
  if (depth > 16) c.fail("base_config", "the chain of base configs is longer than 16 (a cycle?)");
  const std::string shown = depth == 0 ? c.src.path : path;
  nlohmann::json cfg = load_yaml(c, path, shown, text);
  const bool is_base = fs::path(path).filename() == "base.yml";
  if (!is_base || depth == 0)
    for (const auto& [key, value] : cfg.items()) {
      (void)value;
      if (std::find(explicit_keys.begin(), explicit_keys.end(), key) == explicit_keys.end())
        explicit_keys.push_back(key);
    }
  if (!cfg.contains("base_config")) {
    if (!is_base) {
      nlohmann::json merged = base_defaults();
      c.note("no base_config: base.yml's defaults (" + shown + " is merged over them)");
      merge_into(merged, cfg);
      return merged;
    }
    return cfg;
  }
  const nlohmann::json& b = cfg["base_config"];
  if (!b.is_string()) c.fail("base_config", "must be a file name");
  const std::string name = b.get<std::string>();
  fs::path parent = fs::path(name);
  if (!parent.is_absolute()) parent = fs::path(path).parent_path() / name;
  nlohmann::json base;
  std::error_code ec;
  if (fs::is_regular_file(parent, ec)) {
    base = load_chain(c, parent.string(), depth + 1, explicit_keys);
  } else if (fs::path(name).filename() == "base.yml") {
    base = base_defaults();
    c.note("base_config " + name + ": not beside " + shown +
           "; base.yml's defaults at AI-Hypercomputer/maxtext e591f30 are used");
  } else {
    c.fail("base_config", "'" + name + "' is not beside " + shown +
                              " (MaxText would look in its own configs folder)");
  }
  merge_into(base, cfg);
  return base;
}

/// The catalogue model of a MaxText model_name whose file is not beside the config.
inline const model_shape* named_model(const std::string& name) {
  static constexpr std::pair<std::string_view, std::string_view> names[] = {
      {"llama2-7b", "llama2-7b"},       {"llama2-13b", "llama2-13b"},
      {"llama2-70b", "llama2-70b"},     {"llama3-8b", "llama3-8b"},
      {"llama3.1-8b", "llama3-8b"},     {"llama3-70b", "llama3-70b"},
      {"llama3.1-70b", "llama3-70b"},   {"llama3.3-70b", "llama3-70b"},
      {"llama3-405b", "llama3-405b"},   {"llama3.1-405b", "llama3-405b"},
      {"mixtral-8x7b", "mixtral-8x7b"}, {"deepseek3-671b", "deepseek-v3"}};
  for (const auto& [mt, ours] : names)
    if (name == mt) return catalogue_model(ours);
  return nullptr;
}

/// The model of the merged config's keys.
inline model_shape model_of(context& c, key_tree& t) {
  const std::int64_t scale = t.integer("global_parameter_scale", 1, 1, 1 << 20);
  std::int64_t log2 = 0;
  while ((std::int64_t{1} << (log2 + 1)) <= scale) ++log2;
  if ((std::int64_t{1} << log2) != scale)
    c.fail("global_parameter_scale", "must be a power of two (get_individual_scales)");
  const std::int64_t base_scale = log2 / 3;
  const std::int64_t rem = log2 % 3;
  const std::int64_t head_scale = base_scale + (rem > 0 ? 1 : 0);
  const std::int64_t emb_scale = base_scale + (rem > 1 ? 1 : 0);
  const std::int64_t layer_scale = base_scale;
  model_shape m;
  // The decoder blocks as src/maxtext/models/*.py build them at e591f30 (see below per block);
  // mistral's passes no sliding window (decoders.py:448), mixtral's and gpt_oss's experts are
  // base_mlp_dim wide (mixtral.py:108-115, gpt_oss.py:128; types.py makes base_moe_mlp_dim equal
  // for mixtral).
  const std::string block = t.text("decoder_block", "llama2");
  static constexpr std::string_view blocks[] = {"llama2", "mistral", "mixtral", "deepseek",
                                                "gpt3",   "gemma2",  "gemma3",  "gpt_oss",
                                                "llama4", "qwen2",   "qwen3",   "qwen3_moe",
                                                "olmo3"};
  bool known = false;
  for (std::string_view b : blocks) known = known || block == b;
  if (!known)
    c.fail("decoder_block", "'" + block + "' is not a block shardplan reads (" +
                                name_list(std::vector<std::string_view>(std::begin(blocks),
                                                                        std::end(blocks))) +
                                "); give --model NAME or --model-config FILE");
  m.d_model = t.integer("base_emb_dim", 2048, 1, max_dim) << emb_scale;
  m.heads = t.integer("base_num_query_heads", 16, 1, max_count) << head_scale;
  m.kv_heads = t.integer("base_num_kv_heads", 16, 1, max_count) << head_scale;
  const std::int64_t mlp = t.integer("base_mlp_dim", 7168, 1, max_dim) << head_scale;
  m.layers = t.integer("base_num_decoder_layers", 16, 1, max_count) << layer_scale;
  // gemma2.py:72-95, 147-169: a MaxText layer is a (local, global) pair of the model's layers.
  if (block == "gemma2") m.layers *= 2;
  m.vocab = t.integer("vocab_size", 32000, 1, max_dim);
  const std::vector<std::string> activations = t.strings("mlp_activations");
  m.gated_mlp = activations.size() >= 2;
  m.tied_embeddings = t.boolean("logits_via_embedding", false);
  m.norm = block == "gpt3" ? norm_kind::layer_norm : norm_kind::rms_norm;
  // Biases: gpt3's everywhere; attention_bias is q, k and v only in qwen2 (attentions.py:833
  // drops the output's), q, k, v and o in gpt_oss and olmo3; mlp_bias the experts'.
  const bool attention_bias = t.boolean("attention_bias", false);
  const bool mlp_bias = t.boolean("mlp_bias", false);
  m.biases = block == "gpt3" || (attention_bias && mlp_bias && block == "gpt_oss");
  if (block == "qwen2") m.qkv_bias = attention_bias;
  if (attention_bias && !m.biases && block != "qwen2")
    c.note("attention_bias with decoder_block " + block +
           ": biases on q, k, v and o are not counted (a shape has them on every linear layer "
           "or on q, k and v only)");
  m.attention_sinks = t.boolean("attention_sink", false);
  // Four norms a layer where the block reads the post norms (gemma2.py, gemma3.py).
  if (block == "gemma2" || block == "gemma3")
    m.layer_norms = 2 + (t.boolean("use_post_attn_norm", false) ? 1 : 0) +
                    (t.boolean("use_post_ffw_norm", false) ? 1 : 0);
  // q/k norms: per head with weights in qwen2/qwen3 and gemma3 (always on, gemma3.py:125);
  // olmo3's over the whole width when model_name starts with "olmo3" (attentions.py:488);
  // llama4's is parameter-free (an L2 norm).
  const bool qk_norm = block == "gemma3" || t.boolean("use_qk_norm", false);
  const bool qk_weights = t.boolean("qk_norm_with_scale", true);
  if (qk_norm && qk_weights &&
      (block == "qwen2" || block == "qwen3" || block == "qwen3_moe" || block == "gemma3"))
    m.qk_norm = qk_norm_kind::per_head;
  if (qk_norm && qk_weights && block == "olmo3")
    m.qk_norm = t.text("model_name", "default").rfind("olmo3", 0) == 0 ? qk_norm_kind::whole
                                                                        : qk_norm_kind::per_head;
  // Local attention: gemma2 and gpt_oss alternate sliding and global layers (the first
  // sliding), gemma3 has five sliding to one global (gemma3.py:37-49), olmo3 three to one
  // (olmo3.py:47-58); llama4 chunks every layer but each nope_layer_interval-th.
  const std::int64_t window = t.integer("sliding_window_size", 0, 0, max_seq_len);
  const std::int64_t period = block == "gemma2" || block == "gpt_oss" ? 2
                              : block == "gemma3"                     ? 6
                              : block == "olmo3"                      ? 4
                                                                      : 0;
  if (period > 0 && window > 0) m.local = {.window = window, .global_every = period};
  if (block == "llama4") {
    const std::int64_t chunk = t.integer("chunk_attn_window_size", 0, 0, max_seq_len);
    const std::int64_t nope = t.integer("nope_layer_interval", -1, -1, max_count);
    if (chunk > 0)
      m.local = {.window = chunk,
                 .global_every = nope > 0 ? nope : 0,
                 .kind = local_attention_kind::chunked};
  }
  // A scanned stack builds int(layers / cycle) blocks of `cycle` layers (nnx_decoders.py:724).
  const std::int64_t cycle = t.integer("inhomogeneous_layer_cycle_interval", 1, 1, max_count);
  if (t.boolean("scan_layers", true) && cycle > 1 && m.layers % cycle != 0) {
    c.note("inhomogeneous_layer_cycle_interval " + std::to_string(cycle) + ": MaxText scans " +
           std::to_string(m.layers / cycle * cycle) + " of the " + std::to_string(m.layers) +
           " layers (int(layers / cycle) blocks)");
    m.layers = m.layers / cycle * cycle;
  }
  const std::int64_t positions = t.integer("trainable_position_size", -1, -1, max_dim);
  m.position_embeddings = positions > 0 ? positions : 0;
  const std::int64_t experts = t.integer("num_experts", 1, 1, max_count);
  m.d_ff = mlp;
  if (experts > 1) {
    m.moe.experts = experts;
    m.moe.top_k = t.integer("num_experts_per_tok", 1, 1, experts);
    const std::int64_t moe_mlp = t.integer("base_moe_mlp_dim", -1, -1, max_dim);
    if (block == "mixtral" || block == "gpt_oss") {
      m.moe.expert_d_ff = mlp;
    } else {
      if (moe_mlp <= 0) c.fail("base_moe_mlp_dim", "must be positive for a mixture of experts");
      m.moe.expert_d_ff = moe_mlp << head_scale;
    }
    m.moe.router_bias = t.boolean("routed_bias", false);
    if (block == "deepseek" || block == "llama4")
      m.moe.shared_experts = t.integer("shared_experts", 0, 0, max_count);
    if (block == "deepseek")
      m.moe.dense_layers = t.integer("first_num_dense_layers", 0, 0, m.layers);
    if (block == "llama4") m.moe.every = t.integer("interleave_moe_layer_step", 1, 1, m.layers);
    if (m.moe.dense_layers == 0 && m.moe.every <= 1) m.d_ff = 0;
  }
  const bool mla = t.text("attention_type", "global") == "mla";
  if (mla) {
    m.mla.q_lora_rank = t.integer("q_lora_rank", 0, 0, max_dim);
    m.mla.kv_lora_rank = t.integer("kv_lora_rank", 512, 1, max_dim);
    m.mla.qk_nope_head_dim = t.integer("qk_nope_head_dim", 128, 1, max_dim);
    m.mla.qk_rope_head_dim = t.integer("qk_rope_head_dim", 64, 1, max_dim);
    m.mla.v_head_dim = t.integer("v_head_dim", 128, 1, max_dim);
    m.head_dim = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
  } else {
    m.head_dim = t.integer("head_dim", 128, 1, max_dim);
  }
  return m;
}

/// Each mesh axis's ici and dcn degree, -1 filled as fill_unspecified_mesh_axes fills it.
struct mesh {
  std::int64_t data = 1;  ///< diloco x data
  std::int64_t fsdp = 1;  ///< fsdp x fsdp_transpose
  std::int64_t context = 1;
  std::int64_t tensor = 1;
  std::int64_t pipeline = 1;
  std::int64_t expert = 1;
};

inline mesh read_mesh(context& c, key_tree& t, std::int64_t per_slice, std::int64_t slices) {
  std::vector<std::string> axes;
  if (t.has("mesh_axes"))
    axes = t.strings("mesh_axes");
  else
    axes = base_defaults()["mesh_axes"].get<std::vector<std::string>>();
  mesh out;
  for (const char* kind : {"ici", "dcn"}) {
    const std::int64_t target = std::string(kind) == "ici" ? per_slice : slices;
    std::vector<std::int64_t> values;
    std::vector<std::string> keys;
    for (const std::string& axis : axes) {
      const std::string name = axis == "stage" ? "pipeline" : axis == "model" ? "tensor" : axis;
      if (name == "attn_dp" || name == "attn_dp_expert") continue;
      const std::string key = std::string(kind) + "_" + name + "_parallelism";
      const std::int64_t fallback = (std::string(kind) == "ici" && name == "fsdp") ||
                                            (std::string(kind) == "dcn" && name == "data")
                                        ? -1
                                        : 1;
      values.push_back(t.integer(key, fallback, -1, max_degree));
      keys.push_back(key);
    }
    std::int64_t product = 1;
    std::size_t unknown = values.size();
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (values[k] == 0) c.fail(keys[k], "must be -1 or at least 1");
      if (values[k] == -1) {
        if (unknown != values.size())
          c.fail(keys[k], "a second -1 among the " + std::string(kind) +
                              "_* degrees (fill_unspecified_mesh_axes allows one)");
        unknown = k;
      } else {
        product *= values[k];
        if (product > max_world)
          c.fail(keys[k], "the degrees multiply past " + std::to_string(max_world));
      }
    }
    if (unknown != values.size()) {
      if (target % product != 0)
        c.fail(keys[unknown], "-1 cannot be filled: the other " + std::string(kind) +
                                  "_* degrees multiply to " + std::to_string(product) +
                                  ", which does not divide " + std::to_string(target));
      values[unknown] = target / product;
      c.note(keys[unknown] + " -1: " + std::to_string(values[unknown]));
      product = target;
    }
    if (product != target)
      c.fail(keys.empty() ? std::string(kind) : keys.front(),
             "the " + std::string(kind) + "_* degrees multiply to " + std::to_string(product) +
                 ", not the " + std::to_string(target) +
                 (std::string(kind) == "ici" ? " devices of a slice" : " slices"));
    for (std::size_t k = 0; k < values.size(); ++k) {
      const std::string& axis = axes[k];
      const std::int64_t v = values[k];
      if (axis == "diloco" || axis == "data")
        out.data *= v;
      else if (axis == "fsdp" || axis == "fsdp_transpose")
        out.fsdp *= v;
      else if (axis == "sequence" || axis == "context" || axis == "context_usp_ulysses" ||
               axis == "context_autoregressive")
        out.context *= v;
      else if (axis == "tensor" || axis == "model" || axis == "tensor_sequence")
        out.tensor *= v;
      else if (axis == "stage")
        out.pipeline *= v;
      else if (axis == "expert")
        out.expert *= v;
      else if (axis == "autoregressive") {
        if (v > 1)
          c.note(keys[k] + " " + std::to_string(v) +
                 ": an inference axis, counted as tensor parallelism");
        out.tensor *= v;
      } else if (v > 1) {
        c.fail(keys[k], "the mesh axis '" + axis + "' is not one shardplan reads");
      }
    }
  }
  return out;
}

/// Whether `src` is a launch script rather than a YAML config: a `.sh` or `.bash` file, or one
/// whose first line starts with "#!".
inline bool launch_script(const source& src) {
  const std::string_view path = src.path;
  if (path.ends_with(".sh") || path.ends_with(".bash")) return true;
  if (src.text != nullptr) return src.text->starts_with("#!");
  std::ifstream in(src.path, std::ios::binary);
  char head[2] = {};
  return in.read(head, 2) && head[0] == '#' && head[1] == '!';
}

/// The config and overrides of a MaxText launch script, read as bash (io/import/bash.hpp): the
/// first command with a word naming a YAML config after the program it runs (`python3 -m
/// maxtext.trainers.pre_train.train .../base.yml key=value ...`, as src/maxtext/configs/tpu/
/// v5p/32b.sh at e591f30). The config is where the word says; where the word holds what the
/// script does not set ("${MAXTEXT_CONFIGS_DIR:-$PWD/src/maxtext/configs}/base.yml"), the
/// file of its name in the script's folder or the nearest folder above it. The script's
/// key=value words are overrides, the user's after them.
inline source maxtext_script_source(context& c, const source& src) {
  namespace fs = std::filesystem;
  const std::string text = config_text(src);
  bash::lexer lexer(c, text);
  bash::shell sh(c, lexer.run());
  sh.run();
  auto is_config = [](std::string_view w) {
    return (w.size() > 4 && w.ends_with(".yml")) || (w.size() > 5 && w.ends_with(".yaml"));
  };
  const bash::command* chosen = nullptr;
  std::size_t at = 0;
  for (const bash::command& cmd : sh.commands()) {
    for (std::size_t k = 1; k < cmd.words.size() && chosen == nullptr; ++k)
      if (is_config(bash::shown(cmd.words[k]))) {
        chosen = &cmd;
        at = k;
      }
    if (chosen != nullptr) break;
  }
  if (chosen == nullptr)
    c.fail("script", "no command in it names a MaxText config (a .yml file after the program)");
  const std::string named = bash::shown(chosen->words[at]);
  c.note("the config and overrides are those of the command at line " +
         std::to_string(chosen->line) + " (" + bash::shown(chosen->words[at - 1]) + " " + named +
         ")");
  const fs::path script_dir = fs::path(src.path).parent_path();
  std::error_code ec;
  fs::path config;
  if (bash::resolved(chosen->words[at])) {
    const fs::path given = named;
    if (fs::is_regular_file(given, ec)) config = given;
    else if (given.is_relative() && fs::is_regular_file(script_dir / given, ec))
      config = script_dir / given;
  }
  if (config.empty()) {
    const std::string file = fs::path(named).filename().string();
    fs::path dir = script_dir.empty() ? fs::path(".") : script_dir;
    for (int up = 0; up < 8 && config.empty(); ++up) {
      if (fs::is_regular_file(dir / file, ec)) config = dir / file;
      if (!dir.has_parent_path() || dir.parent_path() == dir) break;
      dir = dir.parent_path();
    }
    if (config.empty())
      c.fail("script", "its command names the config " + named + ", which is neither there nor " +
                           "a " + file + " in the script's folder or a folder above it");
    c.note("config " + named + ": read as " + config.string());
  }
  source out = src;
  out.path = config.string();
  out.text = nullptr;
  out.overrides.clear();
  for (std::size_t k = at + 1; k < chosen->words.size(); ++k) {
    const std::string& w = chosen->words[k];
    const std::size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0) {
      c.unused_key("a word of the command '" + bash::shown(w) + "'");
      continue;
    }
    // What the script does not set stays as its description ("$OUTPUT_PATH (not set in the
    // script)"), which the override's note shows and a key that needs a number refuses.
    out.overrides.push_back(bash::shown(w));
  }
  out.overrides.insert(out.overrides.end(), src.overrides.begin(), src.overrides.end());
  return out;
}

/// Refuses a config whose own keys and overrides (`keys`, `overrides`) hold none that MaxText's
/// base.yml gives a model, mesh or batch by: an empty file, a Kubernetes pod spec or another
/// framework's YAML would otherwise check base.yml's default model.
inline void refuse_unless_maxtext(const context& c, const std::vector<std::string>& keys,
                                  const std::vector<std::string>& overrides) {
  const nlohmann::json base = base_defaults();
  const auto known = [&base](std::string_view key) {
    return base.contains(key) || key == "base_config" || key.starts_with("ici_") ||
           key.starts_with("dcn_");
  };
  std::vector<std::string> given = keys;
  for (const std::string& o : overrides) given.push_back(o.substr(0, o.find('=')));
  refuse_unless_known(c, given, known,
                      "a MaxText config is key: value lines over base.yml (model_name, "
                      "per_device_batch_size, ici_fsdp_parallelism, ...)",
                      "the keys MaxText's base.yml sets a model, mesh or batch with", "MaxText");
}

/// Reads a MaxText YAML config, or a launch script that names one, into a plan file.
inline outcome import_maxtext(const source& given) {
  namespace fs = std::filesystem;
  context c{given, "maxtext", {}, {}};
  const source src = launch_script(given) ? maxtext_script_source(c, given) : given;
  std::vector<std::string> explicit_keys;
  nlohmann::json cfg = load_chain(c, src.path, 0, explicit_keys, src.text.get());
  refuse_unless_maxtext(c, explicit_keys, src.overrides);
  // Overrides (key=value, values read as YAML scalars), merged last.
  nlohmann::json overrides = nlohmann::json::object();
  for (const std::string& o : src.overrides) {
    const auto [key, value] = split_override(c, o);
    nlohmann::json v;
    try {
      std::size_t budget = 10'000;
      v = from_yaml(c, YAML::Load(value), key, 0, budget);
    } catch (const YAML::Exception& e) {
      c.fail("override " + key, "malformed YAML value: " + e.msg);
    }
    set_path(c, overrides, key, v);
    if (std::find(explicit_keys.begin(), explicit_keys.end(), key.substr(0, key.find('.'))) ==
        explicit_keys.end())
      explicit_keys.push_back(key.substr(0, key.find('.')));
    c.note("override: " + key + "=" + value);
  }
  nlohmann::json with_overrides = cfg;
  merge_into(with_overrides, overrides);
  // model_name pulls in models/<name>.yml beside the config (or in its parent's models/).
  if (with_overrides.contains("model_name") && !with_overrides.at("model_name").is_string())
    c.fail("model_name", "must be a string");
  std::string name = with_overrides.value("model_name", std::string("default"));
  const std::size_t instruct = name.find("-Instruct");
  if (instruct != std::string::npos) name.erase(instruct, 9);
  bool model_file = false;
  const model_shape* by_name = nullptr;
  nlohmann::json merged = cfg;
  if (name != "default") {
    const fs::path folder = fs::path(src.path).parent_path();
    std::error_code ec;
    fs::path file = folder / "models" / (name + ".yml");
    if (!fs::is_regular_file(file, ec)) file = folder.parent_path() / "models" / (name + ".yml");
    if (name.find('/') == std::string::npos && fs::is_regular_file(file, ec)) {
      model_file = true;
      const nlohmann::json model = load_yaml(c, file.string(), file.string());
      const bool override_model = with_overrides.value("override_model_config", false);
      for (const auto& [key, value] : model.items()) {
        if (overrides.contains(key) && !override_model && overrides[key] != value)
          c.fail(key, "set by " + file.string() +
                          " and by an override (MaxText refuses this "
                          "unless override_model_config=true)");
        if (!(override_model && overrides.contains(key))) merged[key] = value;
        if (std::find(explicit_keys.begin(), explicit_keys.end(), key) == explicit_keys.end())
          explicit_keys.push_back(key);
      }
      c.note("model_name " + name + ": the model keys of " + file.string());
    } else {
      by_name = named_model(name);
      if (by_name == nullptr && !model_given(src))
        c.fail("model_name", "'" + name + "': no models/" + name +
                                 ".yml beside the config and "
                                 "no catalogue model for it; give --model NAME");
    }
  }
  merge_into(merged, overrides);
  key_tree t(c, merged);
  (void)t.at("model_name");
  (void)t.at("base_config");
  (void)t.at("override_model_config");
  plan_parts p;
  p.framework = "maxtext";

  // ---- model ---------------------------------------------------------------------------------
  if (model_given(src)) {
    const model_shape& m = requested_model(c);
    if (by_name != nullptr && by_name->name != m.name)
      c.fail("model_name", "'" + name + "' is " + std::string(by_name->name) +
                               ", but the request names " + std::string(m.name));
    if (model_file || name == "default") {
      // The config's own model keys must agree with the model named.
      bool own = false;
      for (const char* key : {"base_emb_dim", "base_num_query_heads", "base_num_kv_heads",
                              "base_mlp_dim", "base_num_decoder_layers", "vocab_size"})
        own = own ||
              std::find(explicit_keys.begin(), explicit_keys.end(), key) != explicit_keys.end();
      const model_shape read = model_of(c, t);
      const std::string diff = shape_difference(read, m);
      if (own && !diff.empty())
        c.fail(diff, "the config's model differs from " + std::string(m.name) + " in " + diff);
    }
    p.model = m;
    p.model_name = std::string(m.name);
  } else if (by_name != nullptr) {
    p.model = *by_name;
    p.model_name = std::string(by_name->name);
    c.note("model_name " + name + ": no models/" + name +
           ".yml beside the config; MaxText's "
           "file has the shape of the catalogue's " +
           p.model_name);
  } else {
    p.model = model_of(c, t);
    settle_model(c, p, [](const model_shape&) {});
  }

  // ---- devices, slices and the mesh ----------------------------------------------------------
  system_names names;
  const system_figures system = requested_system(c, names);
  const std::int64_t world = world_size(c, system, 0, "");
  const std::int64_t slice = std::min<std::int64_t>(chips_per_unit(system, 0), world);
  if (slice < 1 || world % slice != 0)
    c.fail("world size", std::to_string(world) + " devices are not whole slices of " +
                             std::to_string(slice) + " (the system's innermost level)");
  const std::int64_t slices = world / slice;
  const std::string hardware = t.text("hardware", "tpu");
  const bool gpu = system.chip.kind == chip_kind::gpu;
  if ((hardware == "tpu") == gpu && hardware != "cpu")
    c.note("hardware " + hardware + ": the system " + std::string(system.name) + " is given");
  const mesh mx = read_mesh(c, t, slice, slices);
  p.tensor = mx.tensor;
  p.context = mx.context;
  p.pipeline = mx.pipeline;
  p.expert = mx.expert;
  p.data = mx.data * mx.fsdp * mx.expert;
  p.sequence_parallel = p.tensor > 1;
  if (p.tensor > 1)
    c.note(
        "tensor parallelism: MaxText shards the activations between matmuls over tensor, "
        "counted as sequence parallelism");
  const bool shard_optimizer = t.boolean("shard_optimizer_over_data", false);
  if (mx.fsdp > 1) {
    p.zero_stage = 3;
    if (mx.data > 1 || mx.expert > 1)
      c.note("fsdp " + std::to_string(mx.fsdp) + " with data " +
             std::to_string(mx.data * mx.expert) + ": shardplan's ZeRO-3 shards over all " +
             std::to_string(p.data) + " data-parallel devices (an approximation)");
  } else if (shard_optimizer) {
    p.zero_stage = 1;
  }

  // ---- pipeline ------------------------------------------------------------------------------
  const std::int64_t per_stage = t.integer("num_layers_per_pipeline_stage", 1, 1, max_count);
  std::int64_t pipelined = t.integer("pipeline_parallel_layers", -1, -1, max_count);
  std::int64_t repeats = t.integer("num_pipeline_repeats", -1, -1, max_count);
  std::int64_t microbatches = t.integer("num_pipeline_microbatches", -1, -1, max_sequences);
  const bool delay = t.boolean("pipeline_delay_activation_forwarding", false);
  if (p.pipeline > 1) {
    if (pipelined == -1)
      pipelined = t.text("decoder_block", "llama2") == "deepseek"
                      ? p.model.layers - p.model.moe.dense_layers
                      : p.model.layers;
    if (repeats == -1) {
      if (pipelined % (p.pipeline * per_stage) != 0)
        c.fail("num_layers_per_pipeline_stage",
               std::to_string(per_stage) + " layers per stage x " + std::to_string(p.pipeline) +
                   " stages do not divide the " + std::to_string(pipelined) + " pipelined layers");
      repeats = pipelined / (p.pipeline * per_stage);
    }
    if (p.pipeline * repeats * per_stage != pipelined)
      c.fail("num_pipeline_repeats", "stages x repeats x layers per stage must be the " +
                                         std::to_string(pipelined) + " pipelined layers");
    if (pipelined < p.model.layers)
      c.note("pipeline_parallel_layers " + std::to_string(pipelined) + " of " +
             std::to_string(p.model.layers) +
             ": MaxText runs the other layers with the stage axis "
             "as data parallelism; the plan pipelines all of them (an approximation)");
    if (microbatches == -1) microbatches = delay ? 2 * p.pipeline : p.pipeline;
    if (microbatches % p.pipeline != 0)
      c.fail("num_pipeline_microbatches", std::to_string(microbatches) +
                                              " is not a multiple of the " +
                                              std::to_string(p.pipeline) + " stages");
    p.virtual_stages = repeats;
    p.schedule = "1f1b";
    c.note("pipeline: MaxText's circular pipeline, costed as " +
           std::string(repeats > 1
                           ? "interleaved 1F1B with " + std::to_string(repeats) + " virtual stages"
                           : "1F1B"));
    p.uneven_stages = p.model.layers % (p.pipeline * p.virtual_stages) != 0;
  }

  // ---- batch ---------------------------------------------------------------------------------
  const double per_device = t.number("per_device_batch_size", 12.0);
  if (!(per_device > 0.0)) c.fail("per_device_batch_size", "must be positive");
  const std::int64_t accumulation = t.integer("gradient_accumulation_steps", 1, 1, max_sequences);
  const double step = static_cast<double>(world) * per_device;
  if (step > static_cast<double>(max_sequences)) c.fail("per_device_batch_size", "is too large");
  const auto micro_step = static_cast<std::int64_t>(step);
  if (micro_step < 1)
    c.fail("per_device_batch_size",
           "gives no whole sequence over " + std::to_string(world) + " devices");
  if (static_cast<double>(micro_step) != step)
    c.note("per_device_batch_size " + t.shown(*t.at("per_device_batch_size")) + " x " +
           std::to_string(world) + " devices: MaxText trains on int(...) = " +
           std::to_string(micro_step) + " sequences a micro-step");
  p.global_sequences = micro_step * accumulation;
  const std::int64_t split = p.pipeline > 1 ? microbatches : 1;
  if (micro_step % (split * p.data) != 0)
    c.fail("per_device_batch_size",
           std::to_string(micro_step) +
               " sequences a micro-step are not whole micro-batches over " +
               std::to_string(p.data) + " data-parallel replicas" +
               (split > 1 ? " and " + std::to_string(split) + " pipeline microbatches" : ""));
  p.micro_batch = micro_step / (split * p.data);
  p.seq_len = t.integer("max_target_length", 2048, 1, max_seq_len);

  // ---- recomputation, precision, attention, dropout ---------------------------------------------
  // remat_policy as the decoder builds it (`get_remat_policy`, src/maxtext/layers/
  // nnx_decoders.py at e591f30): minimal_with_context (and its old name minimal_flash) is the
  // plan's selective under MaxText; custom names each tensor 'remat', 'device' or 'offload'
  // (base.yml's `tensors_on_device` and `tensors_to_offload`, remat by default).
  const std::string remat = t.text("remat_policy", "full");
  bool policy_known = remat == "custom" || remat == "minimal_flash";
  std::vector<std::string_view> policy_names;
  for (const named_remat_policy& x : maxtext_remat_policies) {
    policy_known = policy_known || remat == x.name;
    policy_names.push_back(x.name);
  }
  policy_names.push_back("custom");
  if (!policy_known)
    c.fail("remat_policy", "'" + remat + "' is not a remat policy MaxText's decoder builds (known: " +
                               quoted_choices(policy_names) + ")");
  if (remat == "full") {
    p.recompute = "full";
  } else if (remat == "minimal_with_context" || remat == "minimal_flash") {
    p.recompute = "selective";
  } else if (remat == "custom") {
    p.recompute = "named";
    for (unsigned i = 0; i < std::size(layer_tensor_names); ++i) {
      const std::string where(layer_tensor_names[i]);
      const bool can_remat = rematerialisable(static_cast<layer_tensor>(i));
      const std::string place = t.text(where.c_str(), can_remat ? "remat" : "device");
      if (place == "device") p.saved_tensors.push_back(where);
      else if (place == "offload") p.offloaded_tensors.push_back(where);
      else if (place != "remat") c.fail(where, "must be 'remat', 'device' or 'offload'");
    }
  } else {
    p.recompute = "named";
    p.remat_policy = remat;
  }
  const std::string dtype = t.text("dtype", "bfloat16");
  if (dtype != "bfloat16" && dtype != "float32" && dtype != "float16")
    c.fail("dtype", "must be bfloat16, float32 or float16");
  if (dtype != "bfloat16")
    c.note("dtype " + dtype + ": counted with the bf16_mixed_adam preset's bytes");
  const std::string weights = t.text("weight_dtype", "float32");
  if (weights != "float32")
    c.note("weight_dtype " + weights +
           ": no fp32 master copy; no preset counts that, "
           "bf16_mixed_adam is used");
  const std::string q = t.text("quantization", "");
  if (q == "te_fp8_delayedscaling")
    p.precision = "fp8_delayed";
  else if (q == "te_fp8_currentscaling")
    p.precision = "fp8_tensorwise";
  else if (q == "te_mxfp8")
    p.precision = "mxfp8";
  else if (q == "te_nvfp4" || q == "te_nvfp4_no_rht")
    p.precision = "nvfp4";
  else if (q == "fp8" || q == "fp8_full" || q == "fp8_gpu" || q == "nanoo_fp8" ||
           q == "fp8_nanoo" || q == "fp8_e4m3" || q == "fp8_e5m2") {
    p.precision = "fp8_tensorwise";
    c.note("quantization " + q +
           ": fp8 matmuls with per-tensor scales from this step, counted as "
           "the fp8_tensorwise preset");
  } else if (q == "int8" || q == "int4" || q == "intmp" || q == "fp4") {
    c.note("quantization " + q + ": no training preset has " + q + " matmuls; counted in bf16");
  } else if (!q.empty()) {
    c.fail("quantization", "'" + q + "' is not a QuantizationType of MaxText");
  }
  const std::string attention = t.text("attention", "autoselected");
  if (attention == "dot_product")
    p.eager_attention = true;
  else if (attention == "cudnn_flash_te" || attention == "cudnn_flash_jax")
    p.attention_kernel = "cudnn";
  else if (attention == "flash") {
    p.attention_kernel = system.chip.kind == chip_kind::tpu ? "splash" : "flash2";
    if (system.chip.kind != chip_kind::tpu)
      c.note(
          "attention flash on GPUs: MaxText's Pallas flash attention, costed as FlashAttention-2");
  } else if (attention != "autoselected") {
    c.note("attention " + attention + ": costed with the chip's usual kernel");
  }
  p.dropout = t.boolean("enable_dropout", true) && t.number("dropout_rate", 0.0) > 0.0;
  // Host offload of the states (base.yml at e591f30): not modelled, and said so.
  for (const char* key : {"optimizer_memory_host_offload", "parameter_memory_host_offload"})
    if (t.boolean(key, false))
      c.note(std::string(key) + " true: not modelled, the states are counted on the device");

  check_degrees(c, p, world, "ici_expert_parallelism", "per_device_batch_size");
  t.report_unused(&explicit_keys);
  return finish(c, p);
}

}  // namespace shardplan::io::detail::importer::maxtext
