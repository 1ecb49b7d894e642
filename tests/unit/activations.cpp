// Tests of activations.hpp against Korthikanti et al. 2022 (arXiv:2205.05198), Table 2 and Sec. 4.
#include <doctest/doctest.h>

#include <shardplan/models/activations.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>

using namespace shardplan;

namespace {

// A GPT layer as Korthikanti et al. assume it: MHA, a plain 4h GeLU MLP, dropout.
// Their Table 3 "GPT-3 175B" row: a = 96, h = 12288, s = 2048; we take b = 1 and t = 8.
constexpr model_shape gpt{.name = "gpt",
                          .layers = 96,
                          .d_model = 12288,
                          .d_ff = 4 * 12288,
                          .heads = 96,
                          .kv_heads = 96,
                          .head_dim = 128,
                          .vocab = 51200,
                          .gated_mlp = false};
constexpr double s = 2048, b = 1, h = 12288, a = 96, t = 8;

activation_inputs korthikanti(recompute_kind r, std::int64_t tp, bool sp) {
  return {.micro_batch = 1, .seq_len = 2048, .tensor_parallel = tp, .sequence_parallel = sp,
          .recompute = {r}, .activation_bytes = 2.0, .dropout = true, .eager_attention = true};
}

double bytes_of(recompute_kind r, std::int64_t tp, bool sp) {
  return layer_activation_bytes(gpt, layer_kind::dense, korthikanti(r, tp, sp)).value();
}

}  // namespace

TEST_CASE("no parallelism keeps sbh(34 + 5as/h) bytes per layer (Korthikanti Eq. 1)") {
  CHECK(bytes_of(recompute_kind::none, 1, false) ==
        doctest::Approx(s * b * h * (34 + 5 * a * s / h)).scale(0.0));
}

TEST_CASE("tensor parallelism leaves 10sbh replicated (Korthikanti Eq. 2)") {
  CHECK(bytes_of(recompute_kind::none, 8, false) ==
        doctest::Approx(s * b * h * (10 + 24 / t + 5 * a * s / (h * t))).scale(0.0));
}

TEST_CASE("sequence parallelism divides everything by t (Korthikanti Eq. 4)") {
  CHECK(bytes_of(recompute_kind::none, 8, true) ==
        doctest::Approx(s * b * h * (34 + 5 * a * s / h) / t).scale(0.0));
}

TEST_CASE("selective recomputation drops the attention score terms (Korthikanti Table 2)") {
  CHECK(bytes_of(recompute_kind::selective, 8, false) ==
        doctest::Approx(s * b * h * (10 + 24 / t)).scale(0.0));
  CHECK(bytes_of(recompute_kind::selective, 8, true) ==
        doctest::Approx(s * b * h * 34 / t).scale(0.0));
}

TEST_CASE("full recomputation keeps the 2sbh layer input (Korthikanti Table 2)") {
  CHECK(bytes_of(recompute_kind::full, 8, false) == doctest::Approx(2 * s * b * h).scale(0.0));
}

TEST_CASE("the book's checkpoints scheme keeps n bf16 vectors of d_model per token") {
  // How to Scale Your Model, applied-training.md: 4 checkpoints per layer cost 2·D·B·4 bytes.
  auto in = korthikanti(recompute_kind::checkpoints, 1, false);
  in.recompute.checkpoints_per_layer = 4;
  CHECK(layer_activation_bytes(gpt, layer_kind::dense, in).value() ==
        doctest::Approx(2 * h * s * b * 4).scale(0.0));
}

TEST_CASE("grouped-query attention stores smaller keys and values") {
  // LLaMA-3 70B shape (h 8192, 64 heads, 8 KV heads, head 128, SwiGLU 28672), no dropout,
  // selective recompute, no tensor parallelism. Per token: norm inputs 2·2h, attention and MLP
  // inputs 2·2h; Q and attention output 2·2·a·d_h; K and V 2·2·kv·d_h; SwiGLU 3·2·f.
  constexpr model_shape llama{.name = "llama", .layers = 80, .d_model = 8192, .d_ff = 28672,
                              .heads = 64, .kv_heads = 8, .head_dim = 128, .vocab = 128256};
  const double per_token = 8 * 8192.0 + 4 * 64 * 128.0 + 4 * 8 * 128.0 + 6 * 28672.0;
  activation_inputs in{.micro_batch = 2, .seq_len = 4096};
  CHECK(layer_activation_bytes(llama, layer_kind::dense, in).value() ==
        doctest::Approx(per_token * 2 * 4096).scale(0.0));
}

TEST_CASE("a mixture-of-experts layer stores top-k routed and the shared experts' activations") {
  // A small MoE: h 1024, 8 experts of width 512, top-2, one shared expert, gated.
  constexpr model_shape moe{.name = "moe", .layers = 4, .d_model = 1024, .d_ff = 4096,
                            .heads = 8, .kv_heads = 8, .head_dim = 128, .vocab = 1000,
                            .moe = {.experts = 8, .top_k = 2, .shared_experts = 1,
                                    .expert_d_ff = 512}};
  activation_inputs in{.micro_batch = 1, .seq_len = 100};
  const double attention_and_norms = 8 * 1024.0 + 4 * 8 * 128.0 + 4 * 8 * 128.0;
  // Per token: 6·e·f_e for each of the 2 routed and 1 shared experts, the 2 dispatched copies
  // and the 2 routed outputs the router's probabilities weigh (2·2·h each), fp32 probs 4·8.
  const double experts = (2 + 1) * 6 * 512.0 + 2 * 2 * 1024.0 + 2 * 2 * 1024.0 + 4 * 8.0;
  CHECK(layer_activation_bytes(moe, layer_kind::moe, in).value() ==
        doctest::Approx((attention_and_norms + experts) * 100).scale(0.0));
}

TEST_CASE("Megatron-Core's recompute modules free what each module's checkpoint discards") {
  // The MoE layer above; per token with e = 2 (gated: gate, up and product per expert token,
  // 3·e·f_e): routed 2·6·512, shared 6·512, the dispatched copies 2·2·1024 and the routed
  // outputs the probabilities weigh 2·2·1024, router probs 4·8.
  constexpr model_shape moe{.name = "moe", .layers = 4, .d_model = 1024, .d_ff = 4096,
                            .heads = 8, .kv_heads = 8, .head_dim = 128, .vocab = 1000,
                            .moe = {.experts = 8, .top_k = 2, .shared_experts = 1,
                                    .expert_d_ff = 512}};
  const double attention_and_norms = 8 * 1024.0 + 4 * 8 * 128.0 + 4 * 8 * 128.0;
  const double routed = 2 * 6 * 512.0, shared = 6 * 512.0, dispatch = 2 * (2 * 2 * 1024.0);
  const double router = 4 * 8.0;
  auto with = [&](recompute_module_set set) {
    activation_inputs in{.micro_batch = 1, .seq_len = 100};
    in.recompute = {recompute_kind::selective, 0, set};
    return layer_activation_bytes(moe, layer_kind::moe, in).value() / 100.0;
  };
  // moe_act: the activation output (the down projection's input), e·f_e per routed copy.
  CHECK(with(module_bit(recompute_module::moe_act)) ==
        doctest::Approx(attention_and_norms + routed - 2 * 2 * 512.0 + shared + dispatch + router)
            .scale(0.0));
  // shared_experts: the shared MLP's three tensors.
  CHECK(with(module_bit(recompute_module::shared_experts)) ==
        doctest::Approx(attention_and_norms + routed + dispatch + router).scale(0.0));
  // moe: everything of the block but its input (the norm's output, among the norms' 4·e·h).
  CHECK(with(module_bit(recompute_module::moe)) ==
        doctest::Approx(attention_and_norms).scale(0.0));
  // layernorm: the MoE layer's pre-MLP norm output, e·h.
  CHECK(with(module_bit(recompute_module::layernorm)) ==
        doctest::Approx(attention_and_norms - 2 * 1024.0 + routed + shared + dispatch + router)
            .scale(0.0));
  // A dense layer: mlp frees the gated MLP's 3·e·f; layernorm frees nothing (fused norms).
  activation_inputs dense{.micro_batch = 1, .seq_len = 100};
  dense.recompute = {recompute_kind::selective, 0,
                     static_cast<recompute_module_set>(module_bit(recompute_module::mlp) |
                                                       module_bit(recompute_module::layernorm))};
  CHECK(layer_activation_bytes(moe, layer_kind::dense, dense).value() ==
        doctest::Approx(attention_and_norms * 100).scale(0.0));
  // The old spelling `recompute_kind::mlp` is the set {mlp}.
  activation_inputs old{.micro_batch = 1, .seq_len = 100, .recompute = {recompute_kind::mlp}};
  CHECK(layer_activation_bytes(moe, layer_kind::dense, old).value() ==
        doctest::Approx(attention_and_norms * 100).scale(0.0));
}

TEST_CASE("mla_up_proj frees MLA's per-head queries, keys and values") {
  // DeepSeek-V3's attention (128 heads, q/k 128 + 64, v 128, q rank 1536, kv rank 512 + 64),
  // one token, e = 2, no tensor parallelism. Per head Q and K 2·192 each and V 2·128 go; the
  // output 2·128 per head stays.
  constexpr model_shape mla{.name = "mla", .layers = 2, .d_model = 7168, .d_ff = 18432,
                            .heads = 128, .kv_heads = 128, .head_dim = 192, .vocab = 1000,
                            .mla = {.q_lora_rank = 1536, .kv_lora_rank = 512,
                                    .qk_nope_head_dim = 128, .qk_rope_head_dim = 64,
                                    .v_head_dim = 128}};
  activation_inputs kept{.micro_batch = 1, .seq_len = 1};
  activation_inputs freed = kept;
  freed.recompute = {recompute_kind::selective, 0, module_bit(recompute_module::mla_up_proj)};
  const double per_head = 2 * 192.0 * 2 + 2 * 128.0;
  CHECK(layer_activation_bytes(mla, layer_kind::dense, kept).value() -
            layer_activation_bytes(mla, layer_kind::dense, freed).value() ==
        doctest::Approx(128 * per_head).scale(0.0));
}

TEST_CASE("eager attention's scores stay unless core_attn is among the modules") {
  // Korthikanti's GPT layer, t = 8 without sequence parallelism: the scores are 5·a·s/t·sbh/h.
  activation_inputs in = korthikanti(recompute_kind::selective, 8, false);
  in.recompute.modules = module_bit(recompute_module::mlp);
  // MLP freed (the 4h GeLU's 2·e·4h = 16h, split by t), the scores kept.
  CHECK(layer_activation_bytes(gpt, layer_kind::dense, in).value() ==
        doctest::Approx(s * b * h * (10 + 8 / t + 5 * a * s / (h * t))).scale(0.0));
  in.recompute.modules = static_cast<recompute_module_set>(
      module_bit(recompute_module::mlp) | module_bit(recompute_module::core_attn));
  CHECK(layer_activation_bytes(gpt, layer_kind::dense, in).value() ==
        doctest::Approx(s * b * h * (10 + 8 / t)).scale(0.0));
}

TEST_CASE("transformer engine's fp8 copies of linear inputs, derived for llama-3 8b") {
  // Transformer Engine under an fp8 recipe (linear.py, layernorm_linear.py at d0067d0d): the QKV
  // and MLP up-projections keep an fp8 copy of the norm output (1 byte, not 2), the down
  // projection an fp8 copy of the activation output, the output projection an fp8 copy of the
  // attention output beside the 2-byte one the attention kernel keeps. Per token of one layer
  // (h 4096, a·d_h 4096, f 14336, gated): norm outputs 2·(2 - 1)·h fewer, the activation output
  // (2 - 1)·f fewer, the copy a·d_h more: -8192 - 14336 + 4096 = -18432 bytes.
  const model_shape& m = models::llama3_8b::shape;
  activation_inputs bf16{.micro_batch = 1, .seq_len = 8192};
  bf16.recompute = {recompute_kind::none};
  activation_inputs fp8 = bf16;
  fp8.linear_input_bytes = 1.0;
  const double delta = layer_activation_bytes(m, layer_kind::dense, fp8).value() -
                       layer_activation_bytes(m, layer_kind::dense, bf16).value();
  CHECK(delta == doctest::Approx(-18432.0 * 8192.0).scale(0.0));
  // Recomputing a norm frees its output only where the projection shares it: with its own fp8
  // copy nothing is freed (DeepSeek-V3's MLA layers, --recompute-modules layernorm).
  const model_shape& mla = models::deepseek_v3::shape;
  activation_inputs kept = fp8;
  activation_inputs norms = fp8;
  norms.recompute.kind = recompute_kind::selective;
  norms.recompute.modules = module_bit(recompute_module::layernorm);
  kept.recompute.kind = recompute_kind::selective;
  kept.recompute.modules = module_bit(recompute_module::core_attn);
  CHECK(layer_activation_bytes(mla, layer_kind::moe, norms).value() ==
        doctest::Approx(layer_activation_bytes(mla, layer_kind::moe, kept).value()).scale(0.0));
}
