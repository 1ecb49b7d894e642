// What the tool read of a model (`shardplan model CONFIG|NAME`): its shape, exact parameter
// counts, the KV cache a token adds at given contexts and the FLOPs of a token, as text or JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <shardplan/core/format.hpp>
#include <shardplan/core/table.hpp>
#include <shardplan/io/hf_config.hpp>
#include <shardplan/io/json_input.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/models/flops.hpp>
#include <shardplan/serving/kv_cache.hpp>

namespace shardplan::io {

/// The model `given` names: a catalogue model (by name) or the Hugging Face config at that path.
/// Throws `bad_input` naming the field.
inline hf_model model_of(const std::string& given) {
  for (const model_shape& m : catalog_models)
    if (same_name(m.name, given)) {
      hf_model out;
      out.shape = m;
      out.name = std::string(m.name);
      out.architecture = "shardplan catalogue";
      return out;
    }
  if (!std::filesystem::exists(given) && given != "-")
    throw bad_input("'" + detail::printable(given) +
                    "' is neither a catalogue model nor a file (a Hugging Face config.json)");
  return read_hf_config_file(given);
}

/// One line of what a shape is: attention, MLP and what sets it apart.
inline std::string shape_line(const model_shape& m) {
  const auto n = [](std::int64_t x) { return std::to_string(x); };
  std::string out = n(m.layers) + " layers, d_model " + n(m.d_model) + ", " + n(m.heads) +
                    " query and " + n(m.kv_heads) + " kv heads of " + n(m.head_dim);
  if (has_mla(m))
    out.append(", MLA (kv latent ").append(n(m.mla.kv_lora_rank)).append(")");
  if (is_moe(m)) {
    out.append(", ").append(n(moe_layer_count(m))).append(" MoE layers of ");
    out.append(n(m.moe.experts)).append(" experts (top ").append(n(m.moe.top_k));
    if (m.moe.shared_experts > 0) out.append(", ").append(n(m.moe.shared_experts)).append(" shared");
    out.append(") of width ").append(n(m.moe.expert_d_ff));
  }
  if (dense_layer_count(m) > 0)
    out.append(", ").append(n(dense_layer_count(m))).append(" dense MLPs of width ").append(n(m.d_ff));
  if (has_local_attention(m)) {
    out.append(", ").append(n(local_attention_layers(m))).append(" of ").append(n(m.layers));
    out.append(m.local.kind == local_attention_kind::chunked ? " layers attend in chunks of "
                                                             : " layers slide over ");
    out.append(n(m.local.window)).append(" tokens");
  }
  if (m.qk_norm != qk_norm_kind::none) out.append(", qk-norm");
  if (m.qkv_bias) out.append(", qkv biases");
  if (m.biases) out.append(", biases");
  if (m.attention_sinks) out.append(", attention sinks");
  out.append(", vocab ").append(n(m.vocab)).append(m.tied_embeddings ? " (tied)" : " (untied)");
  return out;
}

/// What one token costs at a context: the KV cache of the sequence and per token (bf16), and the
/// FLOPs of its forward pass and of training on it (causal attention).
struct context_figures {
  double kv_sequence_bytes = 0.0;
  double kv_bytes_per_token = 0.0;
  double forward_flops = 0.0;
  double training_flops = 0.0;
};
inline context_figures context_figures_of(const model_shape& m, std::int64_t context) {
  const double c = static_cast<double>(context);
  context_figures f;
  f.kv_sequence_bytes = kv_bytes_at_context(m, number_format::bf16, c).value();
  f.kv_bytes_per_token = f.kv_sequence_bytes / c;
  f.forward_flops = forward_flops_per_token(m, context, attention_flops::causal).total();
  f.training_flops = model_flops_per_token(m, context, attention_flops::causal).value();
  return f;
}

/// KV cache (bf16) and FLOPs of a token at each context.
inline table model_context_table(const model_shape& m, const std::vector<std::int64_t>& contexts) {
  table t{{"context", "KV bytes/token (bf16)", "KV per sequence", "forward FLOP/token (causal)",
           "training FLOP/token"},
          {},
          {true, true, true, true, true}};
  for (const std::int64_t c : contexts) {
    const context_figures f = context_figures_of(m, c);
    t.rows.push_back({std::to_string(c), format_count(f.kv_bytes_per_token),
                      format(f.kv_sequence_bytes * byte), format_count(f.forward_flops),
                      format_count(f.training_flops)});
  }
  return t;
}

/// The report `shardplan model` prints.
inline std::string model_text(const hf_model& h, const std::vector<std::int64_t>& contexts,
                              bool markdown) {
  const model_shape m = h.shape_named();
  const parameter_counts p = parameters(m);
  std::string out = markdown ? "## " : "";
  out.append(h.name).append(" (").append(h.architecture).append(")\n\n");
  out.append(shape_line(m)).append("\n");
  out.append("parameters: ").append(std::to_string(p.total)).append(" total, ");
  out.append(std::to_string(p.active)).append(" active (").append(std::to_string(p.active_without_embeddings));
  out.append(" without embeddings)\n\n");
  out.append(render(model_context_table(m, contexts), markdown));
  const auto list = [&out](const char* what, const std::vector<std::string>& keys) {
    if (keys.empty()) return;
    out.append("\n").append(what).append(": ");
    for (std::size_t i = 0; i < keys.size(); ++i) out.append(i ? ", " : "").append(keys[i]);
    out.append("\n");
  };
  list("defaults filled as transformers fills them", h.defaulted);
  list("read and ignored (they change no estimate)", h.ignored);
  list("not known to shardplan (assumed to change no estimate)", h.unknown);
  return out;
}

/// The same as JSON.
inline nlohmann::json model_report_json(const hf_model& h, const std::vector<std::int64_t>& contexts) {
  const model_shape m = h.shape_named();
  const parameter_counts p = parameters(m);
  nlohmann::json j;
  j["name"] = h.name;
  j["architecture"] = h.architecture;
  j["parameters"] = {{"total", p.total},
                     {"active", p.active},
                     {"active_without_embeddings", p.active_without_embeddings}};
  j["layers"] = {{"total", m.layers},
                 {"moe", moe_layer_count(m)},
                 {"global_attention", global_attention_layers(m)}};
  for (const std::int64_t c : contexts) {
    const context_figures f = context_figures_of(m, c);
    j["contexts"].push_back({{"context", c},
                             {"kv_bytes_per_token_bf16", f.kv_bytes_per_token},
                             {"forward_flops_per_token_causal", f.forward_flops}});
  }
  j["defaulted"] = h.defaulted;
  j["ignored"] = h.ignored;
  j["unknown"] = h.unknown;
  return j;
}

/// What `shardplan model GIVEN` prints in `format` (text, markdown or json): the model `given`
/// names (`model_of`). Throws `bad_input` naming the field.
inline std::string model_output(const std::string& given, const std::vector<std::int64_t>& contexts,
                                const std::string& format) {
  const hf_model m = model_of(given);
  if (format == "json") return model_report_json(m, contexts).dump(2) + "\n";
  return model_text(m, contexts, format == "markdown");
}

}  // namespace shardplan::io
