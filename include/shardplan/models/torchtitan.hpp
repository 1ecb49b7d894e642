// torchtitan's model flavors as the decoders its code builds: a torchtitan config names a model
// and a flavor (`[model] name, flavor` in a TOML job config up to v0.2.x, `model_registry(flavor)`
// in a config function at HEAD), and this table gives the shape of each, read from pytorch/
// torchtitan at v0.2.2 (73a0e6979dd10b6b1904098eb3c8f62c18ab87ce: models/<m>/__init__.py's flavor
// dicts, model/args.py's defaults, model/model.py's layers) and at HEAD
// (b5bcd76c66d0acb1a08b176d9639425bc55e0b2a: models/<m>/__init__.py's builders), where every
// flavor both have is the same shape. Lines are cited per flavor below.
//
// Conventions as torchtitan builds them:
// - Llama 3: d_ff = int(2·4·dim/3) times ffn_dim_multiplier, rounded up to multiple_of.
// - Llama 4 (v0.2.2 only; deleted at HEAD in d92336fee): the dense width by the Llama 3 rule
//   (16384 at dim 5120, multiplier 1.2, multiple_of 2048); an expert's by the same rule divided by
//   top_k + shared experts before the rounding (8192); a layer is MoE when (layer_id + 1) %
//   interleave_moe_layer_step == 0 (moe.every); 1 routed expert of 16 or 128 and 1 shared. The
//   plain flavors attend causally over the whole sequence; the `_irope` ones chunk every layer but
//   every fourth into 8192-token blocks (torchtitan's global layers are 0-based 0, 4, ..., the
//   shape's 3, 7, ...: the same count, one layer apart).
// - DeepSeek: MLA with q_lora_rank 0 (16B) or 1536; the shared experts are one FFN of
//   moe_inter_dim x shared, which counts as `shared` experts of moe_inter_dim.
// - Qwen3: head_dim 128 whatever dim / heads; q and k RMSNorms over head_dim; 0.6B, 1.7B and 4B
//   tie the output to the embedding; the MoE flavors are MoE in every layer (their hidden_dim is
//   set and unused).
// - Every MoE layer carries torchtitan's `expert_bias` buffer (load balancing, no gradient, no
//   optimizer state); `router_bias` is set where the checkpoint the flavor loads has the tensor
//   (DeepSeek-V3's and Kimi's e_score_correction_bias) or the router is a biased Linear (gpt-oss).
#pragma once

#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/model.hpp>
#include <string_view>

namespace shardplan::models::torchtitan {

/// One flavor: torchtitan's model name and flavor, and the decoder it builds. A flavor with the
/// shape of a catalogue model carries that model's name (a test checks the two shapes are equal).
struct flavor {
  std::string_view model;  ///< "llama3", "llama4", "deepseek_v3", "qwen3", "gpt_oss", "kimi_k2_7"
  std::string_view name;   ///< the flavor ("8B", "17bx16e", ...)
  model_shape shape;
  std::string_view source;  ///< where its numbers are, at v0.2.2 or HEAD
};

namespace detail {

constexpr model_shape llama4(std::string_view name, std::int64_t experts, std::int64_t every,
                             bool chunked) {
  model_shape m{.name = name,
                .layers = 48,
                .d_model = 5120,
                .d_ff = every > 1 ? 16384 : 0,  // no dense layer when every layer is MoE
                .heads = 40,
                .kv_heads = 8,
                .head_dim = 128,
                .vocab = 202048,
                .moe = {.experts = experts,
                        .top_k = 1,
                        .shared_experts = 1,
                        .expert_d_ff = 8192,
                        .every = every}};
  if (chunked) m.local = {.window = 8192, .global_every = 4, .kind = local_attention_kind::chunked};
  return m;
}

constexpr model_shape qwen3(std::string_view name, std::int64_t layers, std::int64_t dim,
                            std::int64_t d_ff, std::int64_t heads, std::int64_t kv, bool tied) {
  return {.name = name,
          .layers = layers,
          .d_model = dim,
          .d_ff = d_ff,
          .heads = heads,
          .kv_heads = kv,
          .head_dim = 128,
          .vocab = 151936,
          .tied_embeddings = tied,
          .qk_norm = qk_norm_kind::per_head};
}

constexpr model_shape qwen3_moe(std::string_view name, std::int64_t layers, std::int64_t dim,
                                std::int64_t heads, std::int64_t expert_d_ff) {
  model_shape m = qwen3(name, layers, dim, 0, heads, 4, false);
  m.moe = {.experts = 128, .top_k = 8, .expert_d_ff = expert_d_ff};
  return m;
}

constexpr model_shape gpt_oss(std::string_view name, std::int64_t layers, std::int64_t experts,
                              std::int64_t dim = 2880) {
  return {.name = name,
          .layers = layers,
          .d_model = dim,
          .heads = 64,
          .kv_heads = 8,
          .head_dim = 64,
          .vocab = 201088,
          .biases = true,
          .moe = {.experts = experts, .top_k = 4, .expert_d_ff = 2880, .router_bias = true},
          .local = {.window = 128, .global_every = 2},
          .attention_sinks = true};
}

/// DeepSeek's MLA and MoE decoder (deepseek_v3 and, at HEAD, kimi_k2_7's text tower).
constexpr model_shape mla_moe(std::string_view name, std::int64_t layers, std::int64_t dim,
                              std::int64_t d_ff, std::int64_t heads, std::int64_t vocab,
                              moe_shape moe, std::int64_t q_lora_rank) {
  return {.name = name,
          .layers = layers,
          .d_model = dim,
          .d_ff = d_ff,
          .heads = heads,
          .kv_heads = heads,
          .head_dim = 192,
          .vocab = vocab,
          .moe = moe,
          .mla = {.q_lora_rank = q_lora_rank,
                  .kv_lora_rank = 512,
                  .qk_nope_head_dim = 128,
                  .qk_rope_head_dim = 64,
                  .v_head_dim = 128}};
}

/// `m` with the vocabulary `vocab`.
constexpr model_shape with_vocab(model_shape m, std::int64_t vocab) {
  m.vocab = vocab;
  return m;
}

/// The debug models (models/<m>/__init__.py's "debugmodel" entries at v0.2.2): a Llama 3 of
/// dim 256, 6 layers and 16 heads has d_ff int(2·4·256/3) = 682, rounded up to 256: 768.
constexpr model_shape llama3_debug(std::string_view name) {
  return {.name = name,
          .layers = 6,
          .d_model = 256,
          .d_ff = 768,
          .heads = 16,
          .kv_heads = 16,
          .head_dim = 16,
          .vocab = 2048};
}

/// Llama 4's debug model: MoE every second layer (interleave_moe_layer_step's default 2) of 8
/// experts (MoEArgs' default), top 1 and one shared, each int(682 / 2) = 341 rounded up to 256:
/// 512 wide; the dense layers 768.
constexpr model_shape llama4_debug(std::string_view name, bool chunked) {
  model_shape m = llama3_debug(name);
  m.moe = {.experts = 8, .top_k = 1, .shared_experts = 1, .expert_d_ff = 512, .every = 2};
  if (chunked) m.local = {.window = 256, .global_every = 4, .kind = local_attention_kind::chunked};
  return m;
}

}  // namespace detail

/// Every flavor of torchtitan's language models but the debug models. Lines are of
/// models/<model>/__init__.py at v0.2.2 unless HEAD is named.
inline constexpr flavor flavors[] = {
    {"llama3", "debugmodel", detail::llama3_debug("torchtitan llama3 debugmodel"),
     "llama3/__init__.py:30-32"},
    {"llama3", "debugmodel_flex_attn", detail::llama3_debug("torchtitan llama3 debugmodel"),
     "llama3/__init__.py:33-41"},
    {"llama3", "debugmodel_varlen_attn", detail::llama3_debug("torchtitan llama3 debugmodel"),
     "llama3/__init__.py:42-50"},
    {"llama4", "debugmodel", detail::llama4_debug("torchtitan llama4 debugmodel", false),
     "llama4/__init__.py:30-37 (model.py:385-412 for the widths)"},
    {"llama4", "debugmodel_irope", detail::llama4_debug("torchtitan llama4 debugmodel_irope", true),
     "llama4/__init__.py:61-72"},
    {"deepseek_v3", "debugmodel",
     detail::mla_moe(
         "torchtitan deepseek_v3 debugmodel", 6, 256, 1024, 16, 2048,
         {.experts = 8, .top_k = 3, .shared_experts = 2, .expert_d_ff = 256, .dense_layers = 1}, 0),
     "deepseek_v3/__init__.py:30-52"},
    {"deepseek_v3", "debugmodel_flex_attn",
     detail::mla_moe(
         "torchtitan deepseek_v3 debugmodel", 6, 256, 1024, 16, 2048,
         {.experts = 8, .top_k = 3, .shared_experts = 2, .expert_d_ff = 256, .dense_layers = 1}, 0),
     "deepseek_v3/__init__.py:53-77"},
    {"deepseek_v2", "deepseek-ai/DeepSeek-V2-Lite",
     detail::mla_moe(
         "torchtitan deepseek_v3 16B", 27, 2048, 10944, 16, 102400,
         {.experts = 64, .top_k = 6, .shared_experts = 2, .expert_d_ff = 1408, .dense_layers = 1},
         0),
     "v0.1.0 experiments/deepseek_v3/model_config.py:162-198 (DeepSeek-V2-Lite, the 16B flavor's "
     "shape)"},
    {"qwen3", "debugmodel",
     detail::with_vocab(detail::qwen3("torchtitan qwen3 debugmodel", 8, 256, 3072, 16, 8, true),
                        2048),
     "qwen3/__init__.py:33-45"},
    {"qwen3",
     "debugmodel_moe",
     {.name = "torchtitan qwen3 debugmodel_moe",
      .layers = 8,
      .d_model = 256,
      .heads = 16,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 2048,
      .moe = {.experts = 64, .top_k = 8, .expert_d_ff = 768},
      .qk_norm = qk_norm_kind::per_head},
     "qwen3/__init__.py:122-144"},
    {"gpt_oss", "debugmodel", detail::gpt_oss("torchtitan gpt_oss debugmodel", 4, 8, 256),
     "gpt_oss/__init__.py:30-46 (the dimensions of GptOssModelArgs but dim 256 and 4 layers)"},
    {"llama3",
     "1B",
     {.name = "torchtitan llama3 1B",
      .layers = 16,
      .d_model = 2048,
      .d_ff = 8192,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 64,
      .vocab = 128256,
      .tied_embeddings = true},
     "HEAD llama3/__init__.py:148-189 (multiplier 1.5, multiple_of 1024: 5461 x 1.5 -> 8192; "
     "tied)"},
    {"llama3",
     "3B",
     {.name = "torchtitan llama3 3B",
      .layers = 28,
      .d_model = 3072,
      .d_ff = 8192,
      .heads = 24,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 128256,
      .tied_embeddings = true},
     "HEAD llama3/__init__.py:192-233 (multiplier 1.0, multiple_of 1024: 8192; tied)"},
    {"llama3", "8B", llama3_8b::shape, "llama3/__init__.py:51-59 (14336)"},
    {"llama3", "8B_flex", llama3_8b::shape, "llama3/__init__.py:60-70 (8B with flex attention)"},
    {"llama3", "8B_varlen", llama3_8b::shape,
     "llama3/__init__.py:71-81 (8B with varlen attention)"},
    {"llama3", "70B", llama3_70b::shape, "llama3/__init__.py:82-90 (28672)"},
    {"llama3", "405B", llama3_405b::shape, "llama3/__init__.py:91-99 (53248)"},
    {"llama4", "17bx16e", detail::llama4("torchtitan llama4 17bx16e", 16, 1, false),
     "llama4/__init__.py:38-50"},
    {"llama4", "17bx128e", detail::llama4("torchtitan llama4 17bx128e", 128, 2, false),
     "llama4/__init__.py:51-60 (interleave_moe_layer_step 2, args.py:63)"},
    {"llama4", "17bx16e_irope", detail::llama4("torchtitan llama4 17bx16e_irope", 16, 1, true),
     "llama4/__init__.py:73-88"},
    {"llama4", "17bx128e_irope", detail::llama4("torchtitan llama4 17bx128e_irope", 128, 2, true),
     "llama4/__init__.py:89-101"},
    {"deepseek_v3", "16B",
     detail::mla_moe(
         "torchtitan deepseek_v3 16B", 27, 2048, 10944, 16, 102400,
         {.experts = 64, .top_k = 6, .shared_experts = 2, .expert_d_ff = 1408, .dense_layers = 1},
         0),
     "deepseek_v3/__init__.py:78-102 (DeepSeek-V2-Lite's shape; its TOML loads "
     "deepseek-moe-16b-base's tokenizer only)"},
    {"deepseek_v3", "236B",
     detail::mla_moe(
         "torchtitan deepseek_v3 236B", 60, 5120, 12288, 128, 102400,
         {.experts = 160, .top_k = 6, .shared_experts = 2, .expert_d_ff = 1536, .dense_layers = 1},
         1536),
     "deepseek_v3/__init__.py:103-129 (DeepSeek-V2's shape)"},
    {"deepseek_v3", "671B", deepseek_v3::shape, "deepseek_v3/__init__.py:130-156"},
    {"qwen3", "0.6B", detail::qwen3("qwen3-0.6b", 28, 1024, 3072, 16, 8, true),
     "qwen3/__init__.py:46-58"},
    {"qwen3", "1.7B", detail::qwen3("qwen3-1.7b", 28, 2048, 6144, 16, 8, true),
     "qwen3/__init__.py:59-71"},
    {"qwen3", "4B", detail::qwen3("torchtitan qwen3 4B", 36, 2560, 9728, 32, 8, true),
     "qwen3/__init__.py:72-84"},
    {"qwen3", "8B", detail::qwen3("qwen3-8b", 36, 4096, 12288, 32, 8, false),
     "qwen3/__init__.py:85-96"},
    {"qwen3", "14B", detail::qwen3("torchtitan qwen3 14B", 40, 5120, 17408, 40, 8, false),
     "qwen3/__init__.py:97-108"},
    {"qwen3", "32B", detail::qwen3("qwen3-32b", 64, 5120, 25600, 64, 8, false),
     "qwen3/__init__.py:109-120"},
    {"qwen3", "30B-A3B", detail::qwen3_moe("qwen3-30b-a3b", 48, 2048, 32, 768),
     "qwen3/__init__.py:145-167"},
    {"qwen3", "235B-A22B", detail::qwen3_moe("qwen3-235b-a22b", 94, 4096, 64, 1536),
     "qwen3/__init__.py:168-190"},
    {"gpt_oss", "20b", detail::gpt_oss("gpt-oss-20b", 24, 32), "gpt_oss/__init__.py:47-61"},
    {"gpt_oss", "120b", detail::gpt_oss("gpt-oss-120b", 36, 128), "gpt_oss/__init__.py:62-76"},
    {"kimi_k2_7", "moonlight-16B-A3B",
     detail::mla_moe("torchtitan kimi_k2_7 moonlight-16B-A3B", 27, 2048, 11264, 16, 163840,
                     {.experts = 64,
                      .top_k = 6,
                      .shared_experts = 2,
                      .expert_d_ff = 1408,
                      .dense_layers = 1,
                      .router_bias = true},
                     0),
     "HEAD kimi_k2_7/__init__.py:288-319 (the text tower)"},
    {"kimi_k2_7", "Kimi-K2.5",
     detail::mla_moe("kimi-k2", 61, 7168, 18432, 64, 163840,
                     {.experts = 384,
                      .top_k = 8,
                      .shared_experts = 1,
                      .expert_d_ff = 2048,
                      .dense_layers = 1,
                      .router_bias = true},
                     1536),
     "HEAD kimi_k2_7/__init__.py:384-467 (the text tower; the vision tower is not counted)"},
};

/// The flavor `name` of torchtitan's model `model`, or null.
constexpr const flavor* find_flavor(std::string_view model, std::string_view name) {
  for (const flavor& f : flavors)
    if (f.model == model && f.name == name) return &f;
  return nullptr;
}

}  // namespace shardplan::models::torchtitan
