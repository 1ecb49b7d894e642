// Tests of flops.hpp against Megatron-LM's Eq. 3, PaLM's MFU definition and the book's counts.
#include <doctest/doctest.h>

#include <shardplan/models/flops.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>

using namespace shardplan;

TEST_CASE("megatron's eq. 3 is our hardware flops with full recomputation, exactly") {
  // Narayanan et al. 2021, Sec. 5.1: F = 96Bslh²(1 + s/(6h) + V/(16lh)); Megatron counts the
  // weight matmuls (24h² per token and layer), both attention products in full (4sh) and the
  // logits (2hV), three passes plus one recomputed forward of the layers.
  using gpt = models::megatron_gpt<128, 25600, 160>;  // Table 1, the 1T row
  const double B = 3072, s = 2048;
  const flops ours = hardware_flops_per_token(gpt::shape, 2048, attention_flops::full,
                                              {recompute_kind::full}) * (B * s);
  const flops eq3 = megatron_flops_per_iteration(B, s, 128, 25600, 51200);
  CHECK(ours.value() == doctest::Approx(eq3.value()).epsilon(1e-12).scale(0.0));
}

TEST_CASE("megatron's model flops drop the recomputed forward: 72Bslh²(1 + s/(6h) + V/(12lh))") {
  using gpt = models::megatron_gpt<96, 12288, 96>;
  const double B = 1536, s = 2048, l = 96, h = 12288, V = 51200;
  const flops ours = model_flops_per_token(gpt::shape, 2048, attention_flops::full) * (B * s);
  CHECK(ours.value() ==
        doctest::Approx(72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h))).scale(0.0));
}

TEST_CASE("palm's 6N + 12LHQT: 3.278 TFLOP a token for PaLM-540B") {
  // Chowdhery et al. 2022, App. B: N = 540.35 B, L = 118, H = 48, Q = 256, T = 2048.
  CHECK(palm_flops_per_token(540.35e9, 118, 48, 256, 2048).value() ==
        doctest::Approx(3.278e12).epsilon(5e-4).scale(0.0));
}

TEST_CASE("with tied embeddings our model flops per token equal palm's formula") {
  // PaLM counts 6N over all parameters (its embedding is tied, so the output projection is the
  // embedding) and the attention products in full; our count for a tied shape without biases or
  // norms' FLOPs differs only by the norms, which carry no matmul.
  constexpr model_shape tied{.name = "tied", .layers = 4, .d_model = 512, .d_ff = 2048,
                             .heads = 8, .kv_heads = 8, .head_dim = 64, .vocab = 1000,
                             .tied_embeddings = true};
  const parameter_counts c = parameters(tied);
  const double n = static_cast<double>(c.total - c.norms);
  CHECK(model_flops_per_token(tied, 1024, attention_flops::full).value() ==
        doctest::Approx(palm_flops_per_token(n, 4, 8, 64, 1024).value()).scale(0.0));
}

TEST_CASE("ignoring attention gives the book's 6·N per token for llama-3 70b") {
  // How to Scale Your Model, applied-training.md: 6 · 70e9 = 4.2e11 FLOP a token; the exact
  // count without the input embedding lookup is 6 · (70.55e9 − 1.05e9).
  const parameter_counts c = parameters(models::llama3_70b::shape);
  const double lookup = 128256.0 * 8192.0;
  CHECK(model_flops_per_token(models::llama3_70b::shape, 8192, attention_flops::ignored).value() ==
        doctest::Approx(6.0 * (static_cast<double>(c.total - c.norms) - lookup)).scale(0.0));
  CHECK(model_flops_per_token(models::llama3_70b::shape, 8192, attention_flops::ignored).value() ==
        doctest::Approx(4.2e11).epsilon(0.02).scale(0.0));
}

TEST_CASE("a causal kernel halves the attention products") {
  const auto full = forward_flops_per_token(models::llama3_8b::shape, 8192, attention_flops::full);
  const auto causal =
      forward_flops_per_token(models::llama3_8b::shape, 8192, attention_flops::causal);
  // 2·s·a·(d_qk + d_v)·L = 2 · 8192 · 32 · 256 · 32 in full.
  CHECK(full.attention == doctest::Approx(2.0 * 8192 * 32 * 256 * 32).scale(0.0));
  CHECK(causal.attention == doctest::Approx(full.attention / 2).scale(0.0));
  CHECK(causal.layers_matmul == full.layers_matmul);
}

TEST_CASE("selective recomputation repeats only the attention products") {
  const auto f = forward_flops_per_token(models::llama3_8b::shape, 4096, attention_flops::causal);
  CHECK(hardware_flops_per_token(models::llama3_8b::shape, 4096, attention_flops::causal,
                                 {recompute_kind::selective})
            .value() == doctest::Approx(3 * f.total() + f.attention).scale(0.0));
  CHECK(hardware_flops_per_token(models::llama3_8b::shape, 4096, attention_flops::causal,
                                 {recompute_kind::none})
            .value() == doctest::Approx(3 * f.total()).scale(0.0));
}

TEST_CASE("mfu is model flops per second over the peak of all chips") {
  // The book's LLaMA-2 13B step (training.md Q3): 6 · 3e6 · 13e9 FLOP on 4096 v5p at 40% MFU
  // take 6·3e6·13e9 / (4096 · 4.59e14 · 0.4) seconds.
  const flops work = 6.0 * 3e6 * 13e9 * flop;
  const seconds step = work / (4096.0 * 4.59e14 * 0.4 * flop / second);
  CHECK(mfu(work, step, 4096, 4.59e14 * flop / second) == doctest::Approx(0.4).scale(0.0));
}

TEST_CASE("recompute modules repeat their own matmuls: DeepSeek-V3's MoE block and MLA up projections") {
  // DeepSeek-V3 (config.json: 61 layers, 3 dense, h 7168, 256 routed experts of 2048 top-8, one
  // shared, q rank 1536, kv rank 512, 128 heads of q/k 128 + 64 and v 128). Per token, 2 FLOPs a
  // weight: the router 256·h and 8 routed plus 1 shared gated experts of 3·h·2048 on 58 layers;
  // the up projections 1536·128·192 (q) and 512·128·(128 + 128) (k and v) on all 61.
  const auto& m = models::deepseek_v3::shape;
  const token_flops f = forward_flops_per_token(m, 4096, attention_flops::causal);
  const double h = 7168, expert = 3 * h * 2048;
  CHECK(f.shared_experts == doctest::Approx(2 * 58 * expert).scale(0.0));
  CHECK(f.moe_mlp == doctest::Approx(2 * 58 * (256 * h + 9 * expert)).scale(0.0));
  CHECK(f.mla_up == doctest::Approx(2 * 61 * (1536 * 128 * 192.0 + 512 * 128 * 256.0)).scale(0.0));
  auto extra = [&](recompute_module_set set) {
    return hardware_flops_per_token(f, {recompute_kind::selective, 0, set}).value() -
           3 * f.total();
  };
  CHECK(extra(module_bit(recompute_module::moe)) == doctest::Approx(f.moe_mlp).scale(0.0));
  CHECK(extra(module_bit(recompute_module::shared_experts)) ==
        doctest::Approx(f.shared_experts).scale(0.0));
  CHECK(extra(module_bit(recompute_module::mla_up_proj)) == doctest::Approx(f.mla_up).scale(0.0));
  // moe_act and layernorm rerun elementwise work only; core_attn the attention products.
  CHECK(extra(module_bit(recompute_module::moe_act) | module_bit(recompute_module::layernorm)) ==
        0.0);
  CHECK(extra(module_bit(recompute_module::core_attn)) == doctest::Approx(f.attention).scale(0.0));
}
