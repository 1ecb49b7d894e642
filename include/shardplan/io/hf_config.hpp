// A model from the Hugging Face `config.json` it is published with: the architectures below, read
// as huggingface/transformers builds them, into the same `model_shape` a catalogue model is.
// Every key is read, listed as ignored (it changes no estimate) or refused with one line naming it.
// Part of the optional shardplan::io target.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <shardplan/io/json_input.hpp>
#include <shardplan/models/parameters.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace shardplan::io {

/// A model read from a Hugging Face config: its shape (whose `name` points at `name` after
/// `shape_named()`), the architecture it was read as, and the keys that change no estimate.
struct hf_model {
  model_shape shape{};
  std::string name;
  std::string architecture;
  std::vector<std::string> ignored;  ///< keys read and left aside (ids, rope, dtype, ...)
  std::vector<std::string> unknown;  ///< keys shardplan does not know, assumed to change nothing
  /// Keys the config leaves out that transformers fills with its default ("KEY = VALUE").
  std::vector<std::string> defaulted;

  /// The shape, named; valid while this object lives.
  model_shape shape_named() const {
    model_shape s = shape;
    s.name = name;
    return s;
  }
};

namespace detail {

/// The architectures read, each the way transformers' modeling file builds it.
enum class hf_family : std::uint8_t {
  llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, deepseek_v2, deepseek_v3, gpt_oss, llama4,
  gemma2, gemma3, phi3, olmo2
};

inline constexpr named<hf_family> hf_architectures[] = {
    {"LlamaForCausalLM", hf_family::llama},
    {"MistralForCausalLM", hf_family::mistral},
    {"MixtralForCausalLM", hf_family::mixtral},
    {"Qwen2ForCausalLM", hf_family::qwen2},
    {"Qwen3ForCausalLM", hf_family::qwen3},
    {"Qwen3MoeForCausalLM", hf_family::qwen3_moe},
    {"DeepseekV2ForCausalLM", hf_family::deepseek_v2},
    {"DeepseekV3ForCausalLM", hf_family::deepseek_v3},
    {"GptOssForCausalLM", hf_family::gpt_oss},
    {"Llama4ForConditionalGeneration", hf_family::llama4},
    {"Llama4ForCausalLM", hf_family::llama4},
    {"Gemma2ForCausalLM", hf_family::gemma2},
    {"Gemma3ForCausalLM", hf_family::gemma3},
    {"Gemma3ForConditionalGeneration", hf_family::gemma3},
    {"Phi3ForCausalLM", hf_family::phi3},
    {"Olmo2ForCausalLM", hf_family::olmo2},
};

/// What transformers' config class of a family fills in for a missing key
/// (configuration_<x>.py at huggingface/transformers 147b7aa0): only the keys whose default the
/// published configs rely on; 0 means the key is required.
struct hf_defaults {
  std::int64_t layers = 0, hidden = 0, intermediate = 0, heads = 0, kv_heads = 0, head_dim = 0;
  std::int64_t vocab = 0, window = 0;
};
constexpr hf_defaults hf_defaults_of(hf_family f) {
  switch (f) {
    // Gemma3TextConfig: the multimodal configs' text_config leaves these out.
    case hf_family::gemma3: return {26, 2304, 9216, 8, 4, 256, 262208, 4096};
    case hf_family::gemma2: return {0, 0, 0, 0, 4, 256, 0, 4096};
    case hf_family::qwen2: return {0, 0, 0, 0, 32, 0, 0, 0};
    case hf_family::qwen3: return {0, 0, 0, 0, 32, 128, 0, 0};
    case hf_family::qwen3_moe: return {0, 0, 6144, 0, 4, 0, 0, 0};
    case hf_family::gpt_oss: return {0, 0, 0, 0, 8, 64, 0, 128};
    // Llama4TextConfig: chunks of 8192; the dense layers' intermediate_size_mlp is 16384.
    case hf_family::llama4: return {0, 0, 0, 0, 8, 128, 0, 8192};
    // MistralConfig's sliding_window is 4096 when the key is absent (null: none).
    case hf_family::mistral: return {0, 0, 0, 0, 8, 0, 0, 4096};
    case hf_family::mixtral: return {0, 0, 0, 0, 8, 0, 0, 0};
    default: return {};
  }
}

/// Keys that change no estimate shardplan makes: ids, dtypes, rope and its scaling, dropout,
/// initialisation, norm epsilons, activation details of a gated MLP, softcapping (compute a
/// kernel does in place), routing scores, what only generation or the Hub reads, and a
/// multimodal model's vision tower (the language model is what is planned).
inline constexpr std::string_view hf_ignored_keys[] = {
    "_name_or_path", "transformers_version", "torch_dtype", "dtype", "bos_token_id",
    "eos_token_id", "pad_token_id", "use_cache", "initializer_range", "rms_norm_eps",
    "layer_norm_eps", "rope_theta", "rope_scaling", "rope_parameters", "max_position_embeddings",
    "original_max_position_embeddings", "attention_dropout", "hidden_dropout", "resid_pdrop",
    "embd_pdrop", "hidden_act", "hidden_activation", "pretraining_tp", "auto_map",
    "quantization_config", "output_router_logits", "router_aux_loss_coef", "router_jitter_noise",
    "norm_topk_prob", "scoring_func", "n_group", "topk_group", "routed_scaling_factor",
    "aux_loss_alpha", "seq_aux", "ep_size", "num_nextn_predict_layers", "final_logit_softcapping",
    "attn_logit_softcapping", "query_pre_attn_scalar", "cache_implementation",
    "rope_local_base_freq", "partial_rotary_factor", "swiglu_limit", "use_qk_norm",
    "attn_temperature_tuning", "attn_scale", "floor_scale", "router_temperature", "rope_type",
    "bos_token", "eos_token", "image_token_index", "boi_token_index", "eoi_token_index",
    "image_token_id", "mm_tokens_per_image", "boa_token_index", "eoa_token_index",
    "vision_feature_layer", "vision_feature_select_strategy", "sep_token_id", "tokenizer_class",
    "is_encoder_decoder", "output_attentions", "output_hidden_states", "return_dict",
    "chunk_size_feed_forward", "problem_type", "id2label", "label2id", "torchscript",
    "use_bfloat16", "tf_legacy_loss", "pruned_heads", "finetuning_task", "prefix",
    "task_specific_params", "embedding_dropout", "for_llm_compressor", "use_return_dict",
    "attention_type", "attn_implementation", "router_dtype", "moe_topk", "initializer_factor",
    "clip_qkv", "use_scaled_rope", "model_version", "unsloth_fixed", "load_balance_loss_coef",
    "sliding_window_size", "initial_context_length", "use_mrope", "rope_interleave",
    "vision_config"};

/// The keys a shape is read from; everything in `hf_ignored_keys` that is not among them
/// changes no estimate.
inline constexpr std::string_view hf_shape_keys[] = {
    "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
    "head_dim", "vocab_size", "intermediate_size", "intermediate_size_mlp",
    "tie_word_embeddings", "attention_bias", "mlp_bias", "sliding_window", "use_sliding_window",
    "max_window_layers", "sliding_window_pattern", "layer_types", "attention_chunk_size",
    "no_rope_layers", "no_rope_layer_interval", "first_k_dense_replace", "moe_layer_freq",
    "mlp_only_layers", "decoder_sparse_step", "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim",
    "qk_rope_head_dim", "v_head_dim", "n_routed_experts", "n_shared_experts",
    "moe_intermediate_size", "num_experts", "num_local_experts", "num_experts_per_tok",
    "experts_per_token", "interleave_moe_layer_step", "moe_layers", "topk_method",
    "architectures", "model_type", "text_config"};

/// True when `key` is absent (null is given: "none").
inline bool hf_absent(const json& j, const char* key) { return !j.contains(key); }

/// A config's size key: a whole number in [lo, hi].
inline std::int64_t hf_size(const json& j, const std::string& p, const char* key, std::int64_t lo,
                            std::int64_t hi) {
  if (!j.contains(key) || j.at(key).is_null()) fail(join(p, key), "missing");
  return whole(j.at(key), join(p, key), lo, hi);
}

/// A size key whose default transformers fills in (`fallback`, 0: required); a default used is
/// recorded in `out.defaulted`.
inline std::int64_t hf_size_default(const json& j, const std::string& p, const char* key,
                                    std::int64_t lo, std::int64_t hi, std::int64_t fallback,
                                    std::vector<std::string>& defaulted) {
  if ((!j.contains(key) || j.at(key).is_null()) && fallback > 0) {
    defaulted.push_back(join(p, key) + " = " + std::to_string(fallback));
    return fallback;
  }
  return hf_size(j, p, key, lo, hi);
}

/// An optional size key: `fallback` when absent or null.
inline std::int64_t hf_size_or(const json& j, const std::string& p, const char* key,
                               std::int64_t lo, std::int64_t hi, std::int64_t fallback) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  return whole(j.at(key), join(p, key), lo, hi);
}

inline bool hf_flag(const json& j, const std::string& p, const char* key, bool fallback) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  if (!j.at(key).is_boolean()) fail(join(p, key), "must be true or false");
  return j.at(key).get<bool>();
}

/// A list of layer indices (`no_rope_layers` as 0/1 flags, `moe_layers`, `mlp_only_layers`) or
/// of names (`layer_types`), each entry checked.
inline std::vector<std::int64_t> hf_index_list(const json& j, const std::string& where,
                                               std::int64_t hi) {
  if (!j.is_array()) fail(where, "must be a list");
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < j.size(); ++i)
    out.push_back(whole(j[i], where + "[" + std::to_string(i) + "]", 0, hi));
  return out;
}

/// The period N of a per-layer pattern in which layer i is "special" exactly when (i + 1) % N
/// == 0 (transformers' way of writing interleaved layers); 0 when no layer is, -1 when the
/// pattern is not of that form.
inline std::int64_t hf_period(const std::vector<bool>& special) {
  std::int64_t first = -1;
  for (std::size_t i = 0; i < special.size(); ++i)
    if (special[i]) {
      first = static_cast<std::int64_t>(i) + 1;
      break;
    }
  if (first < 0) return 0;
  for (std::size_t i = 0; i < special.size(); ++i)
    if (special[i] != ((static_cast<std::int64_t>(i) + 1) % first == 0)) return -1;
  return first;
}

/// Every key of `j` (at `p`) read, ignored or unknown; the unknown ones are kept in `out`.
inline void hf_sort_keys(const json& j, const std::string& p, hf_model& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = it.key();
    const auto in = [&key](const auto& list) {
      return std::find(std::begin(list), std::end(list), std::string_view(key)) != std::end(list);
    };
    const std::string where = join(p, key);
    if (in(hf_shape_keys)) continue;
    if (in(hf_ignored_keys)) out.ignored.push_back(where);
    else out.unknown.push_back(where);
  }
}

/// Local attention of the families that have it: the window and which layers are global.
inline void hf_local_attention(const json& t, const std::string& p, hf_family f,
                               std::int64_t default_window, model_shape& m,
                               std::vector<std::string>& defaulted) {
  const std::int64_t layers = m.layers;
  // A default the config relies on is listed, as transformers' config class fills it.
  const auto default_of = [&](const char* key, std::int64_t value) {
    if (hf_absent(t, key) && value > 0)
      defaulted.push_back(join(p, key) + " = " + std::to_string(value));
  };
  // An explicit `layer_types` list (newer configs of Gemma 2/3, gpt-oss, Qwen) decides.
  if (t.contains("layer_types") && !t.at("layer_types").is_null()) {
    const json& list = t.at("layer_types");
    const std::string where = join(p, "layer_types");
    if (!list.is_array() || static_cast<std::int64_t>(list.size()) != layers)
      fail(where, "must list one type per layer (" + std::to_string(layers) + ")");
    std::vector<bool> global;
    bool any_local = false;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (!list[i].is_string()) fail(at, "must be a layer type's name");
      const std::string type = list[i].get<std::string>();
      if (type == "full_attention") global.push_back(true);
      else if (type == "sliding_attention" || type == "chunked_attention") {
        global.push_back(false);
        any_local = true;
      } else
        fail(at, "unknown layer type '" + type +
                     "' (known: full_attention, sliding_attention, chunked_attention)");
    }
    if (!any_local) return;
    const std::int64_t period = hf_period(global);
    if (period < 0)
      fail(where, "only a repeating pattern with the global layer last in each period is read");
    m.local.global_every = period;
  }
  switch (f) {
    case hf_family::mistral:
    case hf_family::mixtral:
    case hf_family::phi3:
      // Every layer slides when `sliding_window` is set (MistralAttention, Phi3Attention);
      // Mistral's is 4096 when the key is absent, null when it has none.
      m.local.window = t.contains("sliding_window")
                           ? hf_size_or(t, p, "sliding_window", 1, max_dim, 0)
                           : default_window;
      default_of("sliding_window", default_window);
      m.local.global_every = 0;
      return;
    case hf_family::qwen3_moe:
      // Qwen3MoeAttention: every layer slides when use_sliding_window is set.
      m.local.global_every = 0;
      if (hf_flag(t, p, "use_sliding_window", false))
        m.local.window = hf_size(t, p, "sliding_window", 1, max_dim);
      return;
    case hf_family::qwen2:
    case hf_family::qwen3:
      if (hf_flag(t, p, "use_sliding_window", false))
        fail(join(p, "use_sliding_window"),
             "true is not read (the layers from max_window_layers on slide; shardplan reads "
             "repeating patterns only)");
      m.local.global_every = 0;
      return;
    case hf_family::gemma2:
    case hf_family::gemma3:
    case hf_family::gpt_oss: {
      m.local.window = hf_size_or(t, p, "sliding_window", 1, max_dim, default_window);
      default_of("sliding_window", default_window);
      if (t.contains("layer_types") && !t.at("layer_types").is_null()) return;
      // Gemma 2 and gpt-oss alternate, sliding first; Gemma 3's `sliding_window_pattern` (6)
      // makes every sixth layer global.
      m.local.global_every =
          f == hf_family::gemma3 ? hf_size_or(t, p, "sliding_window_pattern", 1, max_count, 6) : 2;
      if (f == hf_family::gemma3) default_of("sliding_window_pattern", 6);
      return;
    }
    case hf_family::llama4: {
      // Llama4TextAttention: layers with rotary positions attend within chunks; every
      // `no_rope_layer_interval`-th (4) has no positions and attends globally.
      m.local.window = hf_absent(t, "attention_chunk_size")
                           ? default_window
                           : hf_size_or(t, p, "attention_chunk_size", 1, max_dim, 0);
      default_of("attention_chunk_size", default_window);
      if (m.local.window == 0) {
        m.local.global_every = 0;
        return;
      }
      m.local.kind = local_attention_kind::chunked;
      if (t.contains("no_rope_layers") && !t.at("no_rope_layers").is_null() &&
          !t.at("no_rope_layers").empty()) {
        const std::string where = join(p, "no_rope_layers");
        const std::vector<std::int64_t> rope = hf_index_list(t.at("no_rope_layers"), where, 1);
        if (static_cast<std::int64_t>(rope.size()) != layers)
          fail(where, "must give one flag per layer (" + std::to_string(layers) + ")");
        std::vector<bool> global;
        for (std::int64_t r : rope) global.push_back(r == 0);
        const std::int64_t period = hf_period(global);
        if (period < 0)
          fail(where, "only a repeating pattern with the global layer last in each period is read");
        m.local.global_every = period;
      } else {
        m.local.global_every = hf_size_or(t, p, "no_rope_layer_interval", 1, max_count, 4);
        default_of("no_rope_layer_interval", 4);
      }
      return;
    }
    default:
      if (t.contains("sliding_window") && !t.at("sliding_window").is_null())
        fail(join(p, "sliding_window"), "is not read for this architecture");
      m.local.global_every = 0;  // a layer_types list of full layers only
      return;
  }
}

/// The mixture of experts of the families that have one.
inline void hf_experts(const json& t, const std::string& p, hf_family f, model_shape& m) {
  moe_shape& e = m.moe;
  switch (f) {
    case hf_family::mixtral:
      e.experts = hf_size(t, p, "num_local_experts", 1, max_count);
      e.top_k = hf_size(t, p, "num_experts_per_tok", 1, e.experts);
      e.expert_d_ff = m.d_ff;
      m.d_ff = 0;
      return;
    case hf_family::qwen3_moe: {
      e.experts = hf_size(t, p, "num_experts", 1, max_count);
      e.top_k = hf_size(t, p, "num_experts_per_tok", 1, e.experts);
      e.expert_d_ff = hf_size(t, p, "moe_intermediate_size", 1, max_dim);
      // Qwen3MoeDecoderLayer: sparse when the layer is not in mlp_only_layers and (i + 1) %
      // decoder_sparse_step == 0; read when the dense layers lead and the step is one, or there
      // are none.
      e.every = hf_size_or(t, p, "decoder_sparse_step", 1, m.layers, 1);
      if (t.contains("mlp_only_layers") && !t.at("mlp_only_layers").is_null()) {
        const std::string where = join(p, "mlp_only_layers");
        std::vector<std::int64_t> dense = hf_index_list(t.at("mlp_only_layers"), where, m.layers - 1);
        std::sort(dense.begin(), dense.end());
        for (std::size_t i = 0; i < dense.size(); ++i)
          if (dense[i] != static_cast<std::int64_t>(i))
            fail(where, "only leading layers (0, 1, ...) are read");
        if (!dense.empty() && e.every > 1)
          fail(where, "with decoder_sparse_step above 1 is not read");
        e.dense_layers = static_cast<std::int64_t>(dense.size());
      }
      if (dense_layer_count(m) == 0) m.d_ff = 0;
      else if (m.d_ff == 0) m.d_ff = hf_size_or(t, p, "intermediate_size", 1, max_dim, 6144);
      return;
    }
    case hf_family::deepseek_v2:
    case hf_family::deepseek_v3: {
      // DeepseekV2Config: 64 routed and 2 shared experts; DeepseekV3Config: 256 and 1. A null
      // n_routed_experts is a dense model.
      const bool v3 = f == hf_family::deepseek_v3;
      if (t.contains("n_routed_experts") && t.at("n_routed_experts").is_null()) return;
      e.experts = hf_size_or(t, p, "n_routed_experts", 1, max_count, v3 ? 256 : 64);
      e.top_k = hf_size(t, p, "num_experts_per_tok", 1, e.experts);
      e.shared_experts = hf_size_or(t, p, "n_shared_experts", 0, max_count,
                                    hf_absent(t, "n_shared_experts") ? (v3 ? 1 : 2) : 0);
      e.expert_d_ff = hf_size(t, p, "moe_intermediate_size", 1, max_dim);
      e.dense_layers = hf_size_or(t, p, "first_k_dense_replace", 0, m.layers, 0);
      if (hf_size_or(t, p, "moe_layer_freq", 1, m.layers, 1) != 1)
        fail(join(p, "moe_layer_freq"), "only 1 is read (every layer after the dense ones)");
      // DeepSeek-V3's router keeps a per-expert correction bias for its aux-loss-free balance.
      e.router_bias = f == hf_family::deepseek_v3 ||
                      (t.contains("topk_method") && t.at("topk_method") == "noaux_tc");
      return;
    }
    case hf_family::gpt_oss: {
      e.experts = hf_size(t, p, "num_local_experts", 1, max_count);
      const char* k = t.contains("num_experts_per_tok") ? "num_experts_per_tok" : "experts_per_token";
      e.top_k = hf_size(t, p, k, 1, e.experts);
      e.expert_d_ff = m.d_ff;
      e.router_bias = true;  // GptOssTopKRouter: weight and bias
      m.d_ff = 0;
      return;
    }
    case hf_family::llama4: {
      e.experts = hf_size(t, p, "num_local_experts", 1, max_count);
      e.top_k = hf_size(t, p, "num_experts_per_tok", 1, e.experts);
      e.shared_experts = 1;  // Llama4TextMoe: one shared expert of intermediate_size
      e.expert_d_ff = m.d_ff;
      e.every = hf_size_or(t, p, "interleave_moe_layer_step", 1, m.layers, 1);
      m.d_ff = hf_size_or(t, p, "intermediate_size_mlp", 1, max_dim,
                          hf_absent(t, "intermediate_size_mlp") ? 16384 : 0);
      if (t.contains("moe_layers") && !t.at("moe_layers").is_null()) {
        const std::string where = join(p, "moe_layers");
        const std::vector<std::int64_t> listed = hf_index_list(t.at("moe_layers"), where, m.layers - 1);
        std::vector<bool> moe(static_cast<std::size_t>(m.layers), false);
        for (std::int64_t i : listed) moe[static_cast<std::size_t>(i)] = true;
        const std::int64_t period = hf_period(moe);
        if (period <= 0 || static_cast<std::int64_t>(listed.size()) != m.layers / period)
          fail(where, "only every N-th layer being MoE is read");
        e.every = period;
      }
      if (dense_layer_count(m) > 0 && m.d_ff == 0)
        fail(join(p, "intermediate_size_mlp"), "missing (the dense layers' width)");
      return;
    }
    default:
      for (const char* key : {"num_local_experts", "num_experts", "n_routed_experts"})
        if (t.contains(key) && !t.at(key).is_null() && !(t.at(key) == 0))
          fail(join(p, key), "experts are not read for this architecture");
      return;
  }
}

/// Multi-head latent attention (DeepSeek-V2/V3).
inline void hf_mla(const json& t, const std::string& p, model_shape& m) {
  mla_shape& a = m.mla;
  // Absent, the config class's 1536; null, no query compression (DeepSeek-V2-Lite).
  a.q_lora_rank = hf_size_or(t, p, "q_lora_rank", 0, max_dim, hf_absent(t, "q_lora_rank") ? 1536 : 0);
  a.kv_lora_rank = hf_size(t, p, "kv_lora_rank", 1, max_dim);
  a.qk_nope_head_dim = hf_size(t, p, "qk_nope_head_dim", 1, max_dim);
  a.qk_rope_head_dim = hf_size(t, p, "qk_rope_head_dim", 1, max_dim);
  a.v_head_dim = hf_size(t, p, "v_head_dim", 1, max_dim);
  // The query and key head width; every head has its own decompressed keys and values.
  m.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
  m.kv_heads = m.heads;
}

/// Biases as each family's modeling file builds them: gpt-oss on q, k, v and o and on each
/// expert and the router; Qwen2 on q, k and v always; LLaMA on attention and MLP by
/// attention_bias and mlp_bias (both or neither is read); Mistral, Mixtral and Phi-3 never (the
/// keys are ignored); the others none, and a key that would give attention alone its biases is
/// refused.
inline void hf_biases(const json& t, const std::string& p, hf_family f, model_shape& m,
                      std::vector<std::string>& ignored) {
  const bool attention_bias = hf_flag(t, p, "attention_bias", f == hf_family::gpt_oss);
  const bool mlp_bias = hf_flag(t, p, "mlp_bias", false);
  const auto ignore = [&](const char* key) {
    if (t.contains(key)) ignored.push_back(join(p, key));
  };
  switch (f) {
    case hf_family::gpt_oss:
      if (!attention_bias) fail(join(p, "attention_bias"), "false is not read for gpt-oss");
      m.biases = true;
      m.attention_sinks = true;
      ignore("mlp_bias");
      return;
    case hf_family::qwen2:
      m.qkv_bias = true;  // Qwen2Attention: q, k and v with biases, o without
      ignore("attention_bias");
      ignore("mlp_bias");
      return;
    case hf_family::mistral:
    case hf_family::mixtral:
    case hf_family::phi3:
      ignore("attention_bias");
      ignore("mlp_bias");
      return;
    case hf_family::llama:
      if (attention_bias != mlp_bias)
        fail(join(p, attention_bias ? "attention_bias" : "mlp_bias"),
             "biases on attention or on the MLP alone are not read (both or neither)");
      m.biases = attention_bias;
      return;
    default:
      if (attention_bias)
        fail(join(p, "attention_bias"),
             "true is not read for this architecture (its MLP has no biases; shardplan reads "
             "biases on every linear layer, or on q, k and v alone)");
      if (mlp_bias) fail(join(p, "mlp_bias"), "true is not read for this architecture");
      return;
  }
}

/// Whether transformers ties the output projection by default for the family.
constexpr bool hf_ties_by_default(hf_family f) {
  return f == hf_family::gemma2 || f == hf_family::gemma3;
}

/// A model name from the config's `_name_or_path` or `fallback`, in the characters a plan file
/// allows ("Qwen/Qwen3-32B" stays as it is).
inline std::string hf_name(const json& j, const std::string& fallback) {
  std::string given = fallback;
  if (j.contains("_name_or_path") && j.at("_name_or_path").is_string() &&
      !j.at("_name_or_path").get<std::string>().empty())
    given = j.at("_name_or_path").get<std::string>();
  constexpr std::string_view plain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-/()";
  std::string out;
  for (char ch : given) {
    if (out.size() >= 64) break;
    out += plain.find(ch) == std::string_view::npos ? '-' : ch;
  }
  if (out.find_first_not_of("-._/") == std::string::npos) out = "hf-model";
  return out;
}

}  // namespace detail

/// The model a Hugging Face `config.json` describes, named `name` unless the config gives
/// `_name_or_path`. Throws `bad_input` ("FIELD: what") on a key it cannot read.
inline hf_model model_from_hf_config(const nlohmann::json& j, const std::string& name) {
  using namespace detail;
  if (!j.is_object()) fail("config", "must be a JSON object (a Hugging Face config.json)");
  hf_model out;
  out.name = hf_name(j, name);
  if (!j.contains("architectures")) fail("architectures", "missing");
  const json& archs = j.at("architectures");
  if (!archs.is_array() || archs.size() != 1 || !archs[0].is_string())
    fail("architectures", "must list one architecture");
  out.architecture = archs[0].get<std::string>();
  const named<hf_family>* found = find_named(hf_architectures, out.architecture);
  if (found == nullptr)
    fail("architectures", "'" + out.architecture + "' is not read (known: " +
                              name_list(names_of(hf_architectures)) + ")");
  const hf_family f = found->value;
  hf_sort_keys(j, "", out);
  // Multimodal configs keep the language model under `text_config`.
  const bool nested = out.architecture == "Llama4ForConditionalGeneration" ||
                      out.architecture == "Gemma3ForConditionalGeneration";
  if (nested && (!j.contains("text_config") || !j.at("text_config").is_object()))
    fail("text_config", "missing (the language model's config)");
  const json& t = nested ? j.at("text_config") : j;
  const std::string p = nested ? "text_config" : "";
  if (nested) hf_sort_keys(t, p, out);

  model_shape& m = out.shape;
  const hf_defaults given = hf_defaults_of(f);
  std::vector<std::string>& d = out.defaulted;
  m.layers = hf_size_default(t, p, "num_hidden_layers", 1, max_count, given.layers, d);
  m.d_model = hf_size_default(t, p, "hidden_size", 1, max_dim, given.hidden, d);
  m.heads = hf_size_default(t, p, "num_attention_heads", 1, max_count, given.heads, d);
  // Absent, a key takes the config class's default; null, the attention's (kv heads = heads,
  // head_dim = hidden / heads).
  if (hf_absent(t, "num_key_value_heads") && given.kv_heads > 0) {
    m.kv_heads = given.kv_heads;
    d.push_back(join(p, "num_key_value_heads") + " = " + std::to_string(m.kv_heads));
    if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
      fail(join(p, "num_key_value_heads"),
           "missing, and transformers' default " + std::to_string(m.kv_heads) +
               " does not divide the heads");
  } else {
    m.kv_heads = hf_size_or(t, p, "num_key_value_heads", 1, m.heads, m.heads);
  }
  if (m.heads % m.kv_heads != 0) fail(join(p, "num_key_value_heads"), "must divide the heads");
  if (m.d_model < m.heads) fail(join(p, "num_attention_heads"), "must not exceed hidden_size");
  if (hf_absent(t, "head_dim") && given.head_dim > 0) {
    m.head_dim = given.head_dim;
    d.push_back(join(p, "head_dim") + " = " + std::to_string(m.head_dim));
  } else {
    m.head_dim = hf_size_or(t, p, "head_dim", 1, max_dim, m.d_model / m.heads);
  }
  m.vocab = hf_size_default(t, p, "vocab_size", 1, max_dim, given.vocab, d);
  // Qwen3-MoE's intermediate_size is the dense layers' width, read where some are dense.
  m.d_ff = f == hf_family::qwen3_moe
               ? hf_size_or(t, p, "intermediate_size", 1, max_dim, 0)
               : hf_size_default(t, p, "intermediate_size", 1, max_dim, given.intermediate, d);
  m.gated_mlp = true;
  m.norm = norm_kind::rms_norm;
  // Tying: Gemma 3's multimodal model ties by its top-level flag (default true), Llama 4's by its
  // text model's; the others by the config's own flag.
  if (out.architecture == "Gemma3ForConditionalGeneration")
    m.tied_embeddings = hf_flag(j, "", "tie_word_embeddings", true);
  else if (nested)
    m.tied_embeddings = hf_flag(t, p, "tie_word_embeddings", false);
  else
    m.tied_embeddings = hf_flag(j, "", "tie_word_embeddings", hf_ties_by_default(f));

  hf_biases(t, p, f, m, out.ignored);

  switch (f) {
    case hf_family::qwen3:
    case hf_family::qwen3_moe:
    case hf_family::gemma3: m.qk_norm = qk_norm_kind::per_head; break;
    case hf_family::olmo2: m.qk_norm = qk_norm_kind::whole; break;
    default: break;
  }
  if (f == hf_family::gemma2 || f == hf_family::gemma3) m.layer_norms = 4;
  if (f == hf_family::deepseek_v2 || f == hf_family::deepseek_v3) hf_mla(t, p, m);

  hf_experts(t, p, f, m);
  hf_local_attention(t, p, f, given.window, m, d);

  const shape_rule broken = first_broken_rule(m);
  if (broken != shape_rule::none) fail(join(p, "config"), rule_message(rule_text(broken)));
  if (!(parameter_bound(m) < max_parameters))
    fail(join(p, "hidden_size"), "gives more than 10^15 parameters");
  return out;
}

/// The model of the `config.json` at `path` (named by its `_name_or_path`, else by the file's
/// folder or stem). Throws `bad_input` ("PATH: FIELD: what").
inline hf_model read_hf_config_file(const std::string& path) {
  const std::string text = input_text(path);
  const std::filesystem::path file(path);
  const std::string stem = file.stem() == "config" && file.has_parent_path()
                               ? file.parent_path().filename().string()
                               : file.stem().string();
  try {
    return model_from_hf_config(detail::parse(text), stem);
  } catch (const bad_input& e) {
    throw bad_input(path + ": " + e.what());
  }
}

}  // namespace shardplan::io
