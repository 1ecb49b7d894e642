// Tests of operations.hpp: the FLOPs summed over a step's operations against Megatron-LM's
// Eq. 3, PaLM's 6N + 12LHQT and flops.hpp's per-token counts (dense, MoE with expert
// parallelism, GQA with more tensor ranks than key heads); one LLaMA-3 8B layer's operations
// derived by hand; the backward's GEMMs; the casts of the fp8 recipes; what recomputation repeats.
#include <doctest/doctest.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/operations.hpp>

namespace {

using namespace shardplan;

/// Counted FLOPs of one micro-batch on one device over the whole model: every layer's forward
/// and backward, the forward again when `full_recompute` (layers only, as Megatron recomputes),
/// the embedding and the output forward and backward.
double step_flops(const model_shape& m, const layer_shard& s, bool full_recompute) {
  double f = 0.0;
  for (std::int64_t i = 0; i < m.layers; ++i) {
    const bool moe = m.moe.experts > 0 && i >= m.moe.dense_layers;
    const operation_list fwd = with_casts(layer_forward_operations(m, s, moe), s.precision);
    f += fwd.model_flops() + backward_operations(fwd, s.precision).model_flops();
    if (full_recompute) f += fwd.model_flops();
  }
  for (const operation_list& ends :
       {output_forward_operations(m, s), embedding_forward_operations(m, s)})
    f += ends.model_flops() + backward_operations(ends, s.precision).model_flops();
  return f;
}

layer_shard shard(double micro_batch, double seq_len, double tensor, attention_flops convention) {
  layer_shard s;
  s.micro_batch = micro_batch;
  s.seq_len = seq_len;
  s.tensor = tensor;
  s.convention = convention;
  return s;
}

/// The GEMMs of a list, in order.
std::vector<operation> gemms_of(const operation_list& l) {
  std::vector<operation> out;
  for (std::size_t i = 0; i < l.count; ++i)
    if (l.items[i].kind == operation_kind::gemm) out.push_back(l.items[i]);
  return out;
}

void check_shape(const gemm_shape& g, double m, double n, double k) {
  CHECK(g.m == m);
  CHECK(g.n == n);
  CHECK(g.k == k);
}

// One LLaMA-3 8B layer (Dubey et al. 2024, Table 3: d 4096, FFN 14336, 32 heads, 8 KV heads of
// 128) at tensor parallelism 2 with sequence parallelism, one sequence of 8192 tokens.
layer_shard llama8b_tp2(const precision_policy& p = {}) {
  layer_shard s = shard(1, 8192, 2, attention_flops::causal);
  s.sequence_parallel = true;
  s.precision = p;
  return s;
}

}  // namespace

TEST_CASE("megatron's eq. 3: a gpt's counted flops with full recomputation, summed over ranks") {
  // Narayanan et al. 2021, Eq. 3: F = 96·B·s·l·h²·(1 + s/(6h) + V/(16lh)) with full
  // recomputation, attention counted in full. The 1T row of their Table 1 (128 layers, h 25600,
  // 160 heads, V 51200) at t = 8: one sequence of 2048 tokens, every one of the 8 ranks counting
  // its share; Eq. 3 with B = 1.
  const model_shape& gpt = models::megatron_gpt_1t::shape;
  const layer_shard s = shard(1, 2048, 8, attention_flops::full);
  const double ours = step_flops(gpt, s, true) * 8.0;
  CHECK(ours == doctest::Approx(megatron_flops_per_iteration(1, 2048, 128, 25600, 51200).value())
                    .epsilon(1e-12)
                    .scale(0.0));
}

TEST_CASE("palm's 6N + 12LHQT: llama-3 8b's counted flops, the input embedding left out of N") {
  // Chowdhery et al. 2022, App. B. PaLM's N is every parameter; the input embedding and the
  // norms do no matmul, so N here is the total less both (as tests/unit/flops.cpp reconciles the
  // book's 6N for LLaMA-3 70B); LLaMA-3 8B's output projection is untied and stays in N.
  const model_shape& m = models::llama3_8b::shape;
  const parameter_counts c = parameters(m);
  const double n = static_cast<double>(c.total - c.norms) - 128256.0 * 4096.0;
  const layer_shard s = shard(1, 8192, 4, attention_flops::full);
  CHECK(step_flops(m, s, false) * 4.0 ==
        doctest::Approx(palm_flops_per_token(n, 32, 32, 128, 8192).value() * 8192.0)
            .epsilon(1e-12)
            .scale(0.0));
}

TEST_CASE("moe with expert parallelism: the ranks' counted flops are 3x the forward per token") {
  // Each of the ep ranks holds E/ep experts and sends its own tokens' top-k assignments to all
  // of them; summed over the ranks, each token's k experts, router and attention are counted
  // once: forward_flops_per_token · 3 · (ep · b · s).
  SUBCASE("mixtral 8x7b at ep 8") {
    const model_shape& m = models::mixtral_8x7b::shape;
    layer_shard s = shard(1, 4096, 1, attention_flops::causal);
    s.expert = 8;
    const double tokens = 8.0 * 4096.0;
    CHECK(step_flops(m, s, false) * 8.0 ==
          doctest::Approx(3.0 * forward_flops_per_token(m, 4096, attention_flops::causal).total() *
                          tokens)
              .epsilon(1e-12)
              .scale(0.0));
  }
  SUBCASE("deepseek-v3 at ep 8, dense first layers included") {
    const model_shape& m = models::deepseek_v3::shape;
    layer_shard s = shard(1, 4096, 1, attention_flops::causal);
    s.expert = 8;
    const double tokens = 8.0 * 4096.0;
    CHECK(step_flops(m, s, false) * 8.0 ==
          doctest::Approx(3.0 * forward_flops_per_token(m, 4096, attention_flops::causal).total() *
                          tokens)
              .epsilon(1e-12)
              .scale(0.0));
  }
  // Not checked: with tensor parallelism as well (t > 1), the router (and DeepSeek-V3's q and kv
  // down projections) run whole on every tensor rank and are counted on each: Mixtral at ep 4,
  // t 2 sums to 1.00008x, DeepSeek-V3 at ep 8, t 2 to 1.0247x.
}

TEST_CASE("gqa with more tensor ranks than key heads counts the key heads once") {
  // LLaMA-3 8B at t = 16 has 8 KV heads: each rank computes 2 query heads and one whole key and
  // value head (a replica of the one it shares with another rank). The counted FLOPs summed
  // over the 16 ranks are still the model's.
  const model_shape& m = models::llama3_8b::shape;
  const layer_shard s = shard(1, 8192, 16, attention_flops::causal);
  CHECK(step_flops(m, s, false) * 16.0 ==
        doctest::Approx(3.0 * forward_flops_per_token(m, 8192, attention_flops::causal).total() *
                        8192.0)
            .epsilon(1e-12)
            .scale(0.0));
  // The qkv GEMM a rank runs is (2 + 2·1)·128 = 512 wide; it counts (32 + 2·8)/16·128 = 384:
  // the difference is 2·8192·128·4096 FLOPs a layer.
  const operation_list fwd = layer_forward_operations(m, s, false);
  const operation& qkv = fwd.items[1];
  REQUIRE(qkv.name == std::string_view("qkv projection"));
  check_shape(qkv.gemm, 8192, 512, 4096);
  CHECK(gemm_flops(qkv.gemm) - qkv.model_flops == 2.0 * 8192 * 128 * 4096);
}

TEST_CASE("a llama-3 8b layer at tp 2 with sequence parallelism, operation by operation") {
  const operation_list l = layer_forward_operations(models::llama3_8b::shape, llama8b_tp2(), false);
  REQUIRE(l.count == 11);
  constexpr std::string_view names[] = {"attention norm", "qkv projection", "rotary", "attention",
                                        "attention output projection", "residual add",
                                        "mlp norm", "mlp up projection", "mlp activation",
                                        "mlp down projection", "residual add"};
  for (std::size_t i = 0; i < l.count; ++i) CHECK(l.items[i].name == names[i]);
  // GEMMs over all 8192 tokens (tensor parallelism splits the weights): qkv n = (32/2 + 2·8/2)
  // ·128 = 3072 over k = 4096; the output projection k = 32/2·128 = 2048; the gated up
  // projection n = 2·14336/2 = 14336; the down projection k = 14336/2 = 7168.
  check_shape(l.items[1].gemm, 8192, 3072, 4096);
  check_shape(l.items[4].gemm, 8192, 4096, 2048);
  check_shape(l.items[7].gemm, 8192, 14336, 4096);
  check_shape(l.items[9].gemm, 8192, 4096, 7168);
  for (std::size_t i : {std::size_t{1}, std::size_t{4}, std::size_t{7}, std::size_t{9}}) {
    CHECK(l.items[i].format == number_format::bf16);
    CHECK(l.items[i].model_flops == gemm_flops(l.items[i].gemm));
  }
  // Attention: 16 query heads and 4 KV heads a rank, 8192 queries against 8192 keys, d 128.
  const attention_shape& a = l.items[3].attention;
  CHECK(l.items[3].kind == operation_kind::attention);
  CHECK(a.batch == 1);
  CHECK(a.heads == 16);
  CHECK(a.kv_heads == 4);
  CHECK(a.query == 8192);
  CHECK(a.keys == 8192);
  CHECK(a.qk_dim == 128);
  CHECK(a.v_dim == 128);
  // Causal counting: half of 2·s·a·(d_qk + d_v) per token: 0.5·2·8192·8192·16·256.
  CHECK(l.items[3].model_flops == 0.5 * 2.0 * 8192.0 * 8192.0 * 16.0 * 256.0);
  // Memory-bound operations in bf16 (2 bytes): the norms read and write the 8192/2 tokens of
  // the sequence-parallel shard (2·2·4096·4096); rotary reads and writes q and k of all tokens
  // (2·2·8192·(16 + 4)·128); a residual add reads two and writes one (2·3·4096·4096); the SwiGLU
  // reads two halves of 7168 and writes one (2·3·8192·7168).
  CHECK(l.items[0].traffic == 2.0 * 2.0 * 4096 * 4096);
  CHECK(l.items[2].traffic == 2.0 * 2.0 * 8192 * 20 * 128);
  CHECK(l.items[5].traffic == 2.0 * 3.0 * 4096 * 4096);
  CHECK(l.items[6].traffic == 2.0 * 2.0 * 4096 * 4096);
  CHECK(l.items[8].traffic == 2.0 * 3.0 * 8192 * 7168);
  CHECK(l.items[10].traffic == 2.0 * 3.0 * 4096 * 4096);
}

// Eager PyTorch modules, one kernel per tensor operation (torchtitan models/norms.py and
// models/llama/model.py at 9dec370): RMSNorm's x.float() reads 2 and writes 4 bytes per element,
// pow(2) 4 and 4, mean 4, the product with rsqrt 4 and 4, type_as 4 and 2, the product with the
// weight 2 and 2: 36. Rotary: x.float() 2 and 4, the complex product 4 and 4, type_as 4 and 2: 20.
// SwiGLU: silu 2 and 2, the product 4 and 2: 10 per element of the MLP's width.
TEST_CASE("eager modules move what each tensor operation reads and writes; compiled, fused") {
  layer_shard eager = llama8b_tp2();
  eager.eager_modules = true;
  const operation_list l = layer_forward_operations(models::llama3_8b::shape, eager, false);
  REQUIRE(l.count == 11);
  CHECK(l.items[0].traffic == 36.0 * 4096 * 4096);         // attention norm, 4096 tokens
  CHECK(l.items[2].traffic == 20.0 * 8192 * 20 * 128);     // rotary on q and k
  CHECK(l.items[5].traffic == 2.0 * 3.0 * 4096 * 4096);    // the residual add is one kernel
  CHECK(l.items[6].traffic == 36.0 * 4096 * 4096);         // mlp norm
  CHECK(l.items[8].traffic == 10.0 * 8192 * 7168);         // SwiGLU
  // Which setups run eager modules: torchtitan and torchtune unless their layers are compiled.
  training_setup t;
  CHECK_FALSE(eager_modules_of(t));
  t.framework = profiles::torchtitan;
  CHECK(eager_modules_of(t));
  t.compiled_layers = true;
  CHECK_FALSE(eager_modules_of(t));
  t.framework = profiles::torchtune;
  CHECK_FALSE(eager_modules_of(t));
  t.compiled_layers = false;
  CHECK(eager_modules_of(t));
  t.framework = profiles::megatron_core;
  CHECK_FALSE(eager_modules_of(t));
}

TEST_CASE("every gemm of the backward has a data-gradient and a weight-gradient gemm") {
  const operation_list fwd =
      layer_forward_operations(models::llama3_8b::shape, llama8b_tp2(), false);
  const operation_list bwd = backward_operations(fwd, precision_policy{});
  const std::vector<operation> f = gemms_of(fwd);
  const std::vector<operation> b = gemms_of(bwd);
  REQUIRE(b.size() == 2 * f.size());
  // The backward runs the layer in reverse: forward GEMM i (m x n over k) becomes dX (m x k over
  // n) and dW (k x n over m).
  for (std::size_t i = 0; i < f.size(); ++i) {
    const gemm_shape& g = f[f.size() - 1 - i].gemm;
    CAPTURE(i);
    CHECK(b[2 * i].name == std::string_view("data gradient"));
    check_shape(b[2 * i].gemm, g.m, g.k, g.n);
    CHECK(b[2 * i + 1].name == std::string_view("weight gradient"));
    check_shape(b[2 * i + 1].gemm, g.k, g.n, g.m);
    CHECK(b[2 * i].pass == operation_pass::backward);
  }
  // The attention kernel's backward, and twice the forward's counted FLOPs.
  std::size_t attention = 0;
  for (std::size_t i = 0; i < bwd.count; ++i)
    if (bwd.items[i].kind == operation_kind::attention) {
      ++attention;
      CHECK(bwd.items[i].attention_backward);
    }
  CHECK(attention == 1);
  CHECK(bwd.model_flops() == doctest::Approx(2.0 * fwd.model_flops()).epsilon(1e-15).scale(0.0));
}

TEST_CASE("fp8 recipes add casts whose bytes follow their scaling; attention and logits stay bf16") {
  // LLaMA-3 8B's qkv GEMM at tp 2: input m·k = 8192·4096 = 33554432 elements, weight k·n =
  // 4096·3072 = 12582912, output gradient m·n = 8192·3072 = 25165824; fp8 is 1 byte, bf16 2.
  // Forward: read bf16 and write fp8 (3 bytes an element) of the input and the weight, + a bf16
  // amax pass (2) for dynamic tensorwise, + the transposed fp8 copy (1) for MX.
  // Backward: the gradient cast (3, + 2 for its amax when tensorwise, + 1 for MX's transposed
  // copy); then the transposed operands: an fp8 transpose (read 1, write 1) of input, weight and
  // gradient for the tensorwise recipes, a second bf16 cast (3) of each for rowwise, none for MX.
  const double in_w = 33554432.0 + 12582912.0;
  const double grad = 25165824.0;
  struct recipe {
    precision_policy policy;
    double forward, backward;
  };
  const recipe recipes[] = {
      {precision::fp8_delayed::policy, 3.0 * in_w, 3.0 * grad + 2.0 * (in_w + grad)},
      {precision::fp8_tensorwise::policy, 5.0 * in_w, 5.0 * grad + 2.0 * (in_w + grad)},
      {precision::fp8_rowwise::policy, 3.0 * in_w, 3.0 * grad + 3.0 * (in_w + grad)},
      {precision::mxfp8::policy, 4.0 * in_w, 4.0 * grad},
  };
  for (const recipe& r : recipes) {
    CAPTURE(std::string_view(r.policy.name));
    const layer_shard s = llama8b_tp2(r.policy);
    const operation_list fwd =
        with_casts(layer_forward_operations(models::llama3_8b::shape, s, false), r.policy);
    // One cast before each of the four linear GEMMs; the first precedes the qkv projection.
    REQUIRE(fwd.count == 15);
    CHECK(fwd.items[1].name == std::string_view("cast to low precision"));
    CHECK(fwd.items[2].name == std::string_view("qkv projection"));
    CHECK(fwd.items[2].format == number_format::fp8);
    CHECK(fwd.items[1].traffic == r.forward);
    // The backward's cast for the qkv GEMM comes just before its data gradient (8192 x 4096
    // over 3072), one before each of the four data gradients.
    const operation_list bwd = backward_operations(fwd, r.policy);
    std::size_t casts = 0;
    std::size_t qkv_data = 0;
    for (std::size_t i = 0; i < bwd.count; ++i) {
      const operation& o = bwd.items[i];
      if (o.name == std::string_view("cast gradients to low precision")) ++casts;
      if (o.kind == operation_kind::gemm && o.gemm.m == 8192 && o.gemm.n == 4096 &&
          o.gemm.k == 3072)
        qkv_data = i;
    }
    CHECK(casts == 4);
    REQUIRE(qkv_data > 0);
    CHECK(bwd.items[qkv_data].name == std::string_view("data gradient"));
    const operation& cast = bwd.items[qkv_data - 1];
    CHECK(cast.name == std::string_view("cast gradients to low precision"));
    CHECK(cast.traffic == r.backward);
    // Attention stays in bf16 (no published fp8 training recipe converts it).
    for (std::size_t i = 0; i < fwd.count; ++i)
      if (fwd.items[i].kind == operation_kind::attention)
        CHECK(fwd.items[i].format == number_format::bf16);
    // The logits stay in bf16 and get no cast.
    const operation_list out =
        with_casts(output_forward_operations(models::llama3_8b::shape, s), r.policy);
    REQUIRE(out.count == 3);
    CHECK(out.items[1].name == std::string_view("logits"));
    CHECK(out.items[1].format == number_format::bf16);
    CHECK(backward_operations(out, r.policy).count == 4);
  }
}

// MaxText's remat policies on an MoE layer (moe.py at e591f30: the experts carry the MLP's
// names). With nothing named kept, the backward reruns the whole forward, as full recomputation
// does; minimal keeps every projection's output and the experts', so it reruns the router (whose
// weights no name keeps), the attention kernel (context is not kept) and the memory-bound
// operations.
TEST_CASE("maxtext's named remat on an moe layer reruns what its names do not keep") {
  const chip_figures& h100 = hardware::h100_sxm::figures;
  const model_shape& m = models::mixtral_8x7b::shape;
  const layer_shard s = shard(1, 4096, 1, attention_flops::causal);
  const recompute_policy nothing{recompute_kind::named, 0, 0, 0, 0};
  const layer_time none = time_layer(h100, m, s, nothing, true);
  const layer_time full = time_layer(h100, m, s, recompute_kind::full, true);
  CHECK(full.recompute.value() > 0.0);
  CHECK(none.recompute.value() == doctest::Approx(full.recompute.value()).scale(0.0));
  using lt = layer_tensor;
  const recompute_policy minimal = policy_of(*maxtext_remat_policy("minimal"));
  CHECK(minimal.saved == (tensor_bit(lt::query_proj) | tensor_bit(lt::key_proj) |
                          tensor_bit(lt::value_proj) | tensor_bit(lt::out_proj) |
                          tensor_bit(lt::mlpwi_0) | tensor_bit(lt::mlpwi_1) |
                          tensor_bit(lt::mlpwo)));
  operation_list fwd = layer_forward_operations(m, s, true);
  add_casts(fwd, s.precision);
  seconds rerun{};
  for (std::size_t i = 0; i < fwd.count; ++i) {
    const operation& o = fwd.items[i];
    if (o.kind == operation_kind::memory || o.attention_core ||
        std::string_view(o.name) == "router")
      rerun += operation_time(h100, o, s.kernel);
  }
  CHECK(rerun.value() > 0.0);
  CHECK(time_layer(h100, m, s, minimal, true).recompute.value() ==
        doctest::Approx(rerun.value()).scale(0.0));
}

TEST_CASE("full recomputation repeats the forward; selective repeats only eager attention's core") {
  const chip_figures& h100 = hardware::h100_sxm::figures;
  const model_shape& m = models::llama3_8b::shape;
  const layer_shard fused = llama8b_tp2();
  const layer_time none = time_layer(h100, m, fused, recompute_kind::none, false);
  const layer_time full = time_layer(h100, m, fused, recompute_kind::full, false);
  CHECK(none.recompute.value() == 0.0);
  CHECK(full.recompute.value() == full.forward.value());
  CHECK(full.forward.value() == none.forward.value());
  // A fused kernel's backward recomputes the scores itself: selective adds nothing.
  CHECK(time_layer(h100, m, fused, recompute_kind::selective, false).recompute.value() == 0.0);

  layer_shard eager = fused;
  eager.eager_attention = true;
  const operation_list fwd = layer_forward_operations(m, eager, false);
  seconds core{};
  double core_flops = 0.0;
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < fwd.count; ++i)
    if (fwd.items[i].attention_core) {
      names.push_back(fwd.items[i].name);
      core += operation_time(h100, fwd.items[i], eager.kernel);
      core_flops += fwd.items[i].model_flops;
    }
  CHECK(names == std::vector<std::string_view>{"attention scores QK^T", "softmax",
                                               "attention values PV"});
  const layer_time selective = time_layer(h100, m, eager, recompute_kind::selective, false);
  CHECK(selective.recompute.value() == doctest::Approx(core.value()).epsilon(1e-15).scale(0.0));
  CHECK(selective.recompute < selective.forward);
  // What it repeats is what flops.hpp's selective recomputation adds: the attention products of
  // every layer, 2 ranks each counting theirs.
  CHECK(
      core_flops * 2.0 * 32.0 ==
      doctest::Approx(forward_flops_per_token(m, 8192, attention_flops::causal).attention * 8192.0)
          .epsilon(1e-12)
          .scale(0.0));
}

TEST_CASE("torchtitan's op-level selective checkpointing reruns every second mm and the rest") {
  // torchtitan's policy (parallelize_llama.py at 9dec370): save mm outputs "except every second
  // mm", save SDPA's, rerun everything else. A block's mms in order: wq, wk, wv (fused here into
  // one GEMM of 32 + 8 + 8 heads), wo, w1, w3 (fused gate and up), w2. The second, fourth and
  // sixth are rerun: wk's 8 of the 48 heads, wo, and w3's half of the fused up projection; and
  // every memory-bound operation.
  const chip_figures& h100 = hardware::h100_sxm::figures;
  const model_shape& m = models::llama3_8b::shape;
  layer_shard s;
  s.micro_batch = 2;
  s.seq_len = 8192;
  s.op_sac = true;
  const operation_list fwd = layer_forward_operations(m, s, false);
  seconds expected{};
  for (std::size_t i = 0; i < fwd.count; ++i) {
    const operation& o = fwd.items[i];
    const seconds x = operation_time(h100, o, s.kernel);
    if (o.kind == operation_kind::memory) expected += x;
    if (o.name == "qkv projection") expected += x * (8.0 / 48.0);
    if (o.name == "attention output projection") expected += x;
    if (o.name == "mlp up projection") expected += x * 0.5;
  }
  const layer_time t = time_layer(h100, m, s, recompute_kind::selective, false);
  CHECK(t.recompute.value() == doctest::Approx(expected.value()).epsilon(1e-12).scale(0.0));
  // In FLOPs that is 2·h·(8·128 + 4096 + 14336) a token of the forward's 2·h·(6144 + 4096 +
  // 2·14336 + 14336): 36.5% of its linears.
  CHECK((1024.0 + 4096 + 14336) / (6144.0 + 4096 + 3 * 14336) ==
        doctest::Approx(0.365).epsilon(0.01).scale(0.0));
  // Without the policy a fused kernel's selective recomputation adds nothing.
  s.op_sac = false;
  CHECK(time_layer(h100, m, s, recompute_kind::selective, false).recompute.value() == 0.0);
}

// torchtitan's sequence parallelism shards dim 1 of [b, s, h]; PyTorch's functional collectives
// gather and scatter along dim 0 and then concatenate the chunks along dim 1
// (torch/distributed/_functional_collectives.py `all_gather_tensor`: `torch.cat(torch.chunk(res,
// group_size, dim=0), dim=gather_dim)`; `reduce_scatter_tensor` the same to its input). Each
// copy reads and writes the whole 8192 x 4096 array of the layer's tokens: 2·2·8192·4096 bytes
// in bf16. The backward's collective is the other of the pair over the same array.
TEST_CASE("torchtitan's sequence-parallel collectives copy the whole activation along dim 1") {
  const model_shape& m = models::llama3_8b::shape;
  layer_shard s = llama8b_tp2();
  s.dtensor_copies = true;
  s.gather_bytes = 2.0;
  const double whole = 8192.0 * 4096.0;
  auto copies_of = [](const operation_list& l) {
    std::vector<operation> out;
    for (std::size_t i = 0; i < l.count; ++i)
      if (l.items[i].collective_copy) out.push_back(l.items[i]);
    return out;
  };
  const operation_list fwd = layer_forward_operations(m, s, false);
  REQUIRE(fwd.count == 15);  // the 11 of the tp 2 layer above and 4 copies
  const std::vector<operation> copies = copies_of(fwd);
  REQUIRE(copies.size() == 4);
  constexpr std::string_view names[] = {"all-gather copy (dim 1)", "reduce-scatter copy (dim 1)",
                                        "all-gather copy (dim 1)", "reduce-scatter copy (dim 1)"};
  for (std::size_t i = 0; i < copies.size(); ++i) {
    CHECK(copies[i].name == names[i]);
    CHECK(copies[i].traffic == 2.0 * 2.0 * whole);
  }
  // The all-gather comes after the norm, before the QKV projection; the reduce-scatter after the
  // output projection, before the residual add.
  CHECK(fwd.items[1].name == names[0]);
  CHECK(fwd.items[2].name == "qkv projection");
  CHECK(fwd.items[6].name == names[1]);
  CHECK(fwd.items[7].name == "residual add");
  const std::vector<operation> back = copies_of(backward_operations(fwd, s.precision));
  REQUIRE(back.size() == 4);
  for (const operation& o : back) CHECK(o.traffic == 2.0 * 2.0 * whole);  // not twice
  // torchtitan's op-level selective recomputation saves the reduce-scatters' outputs and reruns
  // the all-gathers (not in its save list), copies and all.
  CHECK(op_sac_share(m, s, copies[0]) == 1.0);
  CHECK(op_sac_share(m, s, copies[1]) == 0.0);
  CHECK(op_sac_share(m, s, copies[2]) == 1.0);
  CHECK(op_sac_share(m, s, copies[3]) == 0.0);
  CHECK(copies[0].rerun_traffic == 2.0 * 2.0 * whole);

  // Float8 with tensorwise scales gathers in fp8 (1 byte), forward and backward, and
  // reduce-scatters in bf16: the forward's all-gather copy and the backward's (the
  // reduce-scatter's gradient) move 2·1·8192·4096.
  s.gather_bytes = 1.0;
  const std::vector<operation> f8 = copies_of(layer_forward_operations(m, s, false));
  REQUIRE(f8.size() == 4);
  CHECK(f8[0].traffic == 2.0 * whole);
  CHECK(f8[0].backward_traffic == 2.0 * 2.0 * whole);
  CHECK(f8[1].traffic == 2.0 * 2.0 * whole);
  CHECK(f8[1].backward_traffic == 2.0 * whole);

  // Async TP's fused collectives take dim 0 first: no copy of the whole array. The fused
  // all-gather copies the local shard (8192 x 4096 / 2 at tp 2) into the peer-visible buffer
  // and into the gathered output, each read and written: 2·2·2·whole/2 = 4·whole; the fused
  // reduce-scatter sums the 2 stacked partials, reading 2·whole bytes and writing 2·whole/2:
  // 3·whole. The backward keeps the copies.
  s.gather_bytes = 2.0;
  s.tp_overlap = tp_overlap_method::symmetric_memory;
  const operation_list fused = layer_forward_operations(m, s, false);
  const std::vector<operation> fused_copies = copies_of(fused);
  REQUIRE(fused_copies.size() == 4);
  CHECK(fused_copies[0].traffic == 4.0 * whole);
  CHECK(fused_copies[1].traffic == 3.0 * whole);
  CHECK(fused_copies[2].traffic == 4.0 * whole);
  CHECK(fused_copies[3].traffic == 3.0 * whole);
  // A rerun all-gather (in the backward, unfused) copies the whole array again.
  CHECK(fused_copies[0].rerun_traffic == 2.0 * 2.0 * whole);
  for (const operation& o : copies_of(backward_operations(fused, s.precision)))
    CHECK(o.traffic == 2.0 * 2.0 * whole);
}

TEST_CASE("torchtitan repeats k and v to every query head before sdpa") {
  const model_shape& m = models::llama3_8b::shape;  // 32 heads, 8 kv heads of 128
  layer_shard s = llama8b_tp2();                    // 16 heads and 4 kv heads a rank
  auto find = [](const operation_list& l, std::string_view name) {
    for (std::size_t i = 0; i < l.count; ++i)
      if (l.items[i].name == name) return l.items[i];
    return operation{};
  };
  CHECK(find(layer_forward_operations(m, s, false), "repeat kv").name.empty());
  s.repeated_kv = true;
  const operation_list fwd = layer_forward_operations(m, s, false);
  const operation repeat = find(fwd, "repeat kv");
  REQUIRE(repeat.name == "repeat kv");
  // K and V read at 4 heads and written at 16: 2 bytes x 8192 tokens x 128 x 2 x (4 + 16).
  CHECK(repeat.traffic == 2.0 * 8192 * 128 * 2.0 * (4.0 + 16.0));
  // The backward sums the 4 copies of each gradient back: the same bytes, not twice.
  CHECK(find(backward_operations(fwd, s.precision), "repeat kv").traffic == repeat.traffic);
  // The fused kernel reads K and V at the query heads' width: 2 bytes x 8192 x 16 x 256 each.
  const operation a = find(fwd, "attention");
  CHECK(a.traffic == 2.0 * (8192.0 * 16 * 256 + 8192.0 * 16 * 256));
  // Which frameworks: torchtitan's Llama (`repeat_kv`), no other.
  training_setup t;
  CHECK_FALSE(repeats_kv(t));
  t.framework = profiles::megatron_core;
  CHECK_FALSE(repeats_kv(t));
  t.framework = profiles::torchtitan;
  CHECK(repeats_kv(t));
}

TEST_CASE("pytorch's ring attention: its eager merges and copies, step by step") {
  // Derived from `_templated_ring_attention` and its backward for cp 4, bf16, with q query
  // elements and kv = 2q key and value elements (K and V repeated to the query heads):
  // forward: contiguous K, V (2·2·kv); 3 send buffers (3·2·2·kv); the first output to fp32
  // (6q) and the result back (6q); 3 merges, on average half over all queries (2 + 36 = 38 a
  // query element) and half over half of them with a `torch.cat` (1 + 26 = 27): 3·32.5q.
  const double q = 1000.0;
  const double kv = 2.0 * q;
  const detail::forward_backward_bytes b = detail::pytorch_ring_bytes(q, kv, 4.0, 2.0);
  CHECK(b.forward == doctest::Approx(4.0 * kv + 12.0 * kv + 12.0 * q + 3.0 * 32.5 * q).scale(0.0));
  // backward: fp32 zeros (4, q + kv); contiguous K, V (4 kv) and 3 send buffers (12 kv); the
  // first step's gradients added (10, q + kv); 3 later steps, on average half added in place
  // (10) and half into one chunk then concatenated (5 + 8): 3·11.5 (q + kv); dK and dV
  // concatenated in fp32 every step (4·8 kv); the three cast back to bf16 (6, q + kv).
  CHECK(b.backward == doctest::Approx((q + kv) * (4.0 + 10.0 + 3.0 * 11.5 + 6.0) + kv * 4.0 +
                                      kv * 12.0 + 32.0 * kv)
                          .scale(0.0));
  // In a layer: one operation after the ring's calls, in place of the generic merge.
  layer_shard s = shard(1, 32768, 1, attention_flops::causal);
  s.context = 4.0;
  s.repeated_kv = true;
  s.pytorch_ring = true;
  const operation_list fwd = layer_forward_operations(models::llama3_8b::shape, s, false);
  bool found = false;
  for (std::size_t i = 0; i < fwd.count; ++i) {
    CHECK(fwd.items[i].name != "ring attention output merge");
    if (fwd.items[i].name != "ring attention merges and copies (PyTorch)") continue;
    found = true;
    // 8192 queries a rank (32768 / 4) x 32 heads x 128; K and V at 32 heads too.
    const detail::forward_backward_bytes x =
        detail::pytorch_ring_bytes(8192.0 * 32 * 128, 8192.0 * 32 * 256, 4.0, 2.0);
    CHECK(fwd.items[i].traffic == doctest::Approx(x.forward).scale(0.0));
    CHECK(fwd.items[i].backward_traffic == doctest::Approx(x.backward).scale(0.0));
    CHECK(fwd.items[i].attention_core);
  }
  CHECK(found);
}

TEST_CASE("torchtitan's op-level checkpointing reruns mla's even matmuls and the experts") {
  // torchtitan/distributed/activation_checkpoint.py at b5bcd76: "save all compute/comm ops,
  // except every second mm/linear"; the gate's mm always recomputes; the grouped GEMMs are in no
  // save list. DeepSeek-V3 (q_lora_rank 1536): wq_a 1, wq_b 2, wkv_a 3, wkv_b 4, wo 5, then the
  // shared expert's w1 6, w3 7, w2 8: the even ones rerun.
  const layer_shard s{.seq_len = 4096};
  auto share = [&](const model_shape& m, std::string_view name) {
    operation o{};
    o.name = name;
    o.kind = operation_kind::gemm;
    o.linear = true;
    return op_sac_share(m, s, o);
  };
  const model_shape& v3 = models::deepseek_v3::shape;
  CHECK(share(v3, "q down projection") == 0.0);
  CHECK(share(v3, "q up projection") == 1.0);
  CHECK(share(v3, "kv down projection") == 0.0);
  CHECK(share(v3, "kv up projection") == 1.0);
  CHECK(share(v3, "attention output projection") == 0.0);
  CHECK(share(v3, "router") == 1.0);
  CHECK(share(v3, "expert up projection") == 1.0);
  CHECK(share(v3, "expert down projection") == 1.0);
  CHECK(share(v3, "shared expert up projection") == 0.5);  // w1 of 6 reruns, w3 of 7 does not
  CHECK(share(v3, "shared expert down projection") == 1.0);
  // Without q_lora (torchtitan's 16B flavor): wq 1, wkv_a 2, wkv_b 3, wo 4, w1 5, w3 6, w2 7.
  model_shape v2_lite = v3;
  v2_lite.mla.q_lora_rank = 0;
  CHECK(share(v2_lite, "q projection") == 0.0);
  CHECK(share(v2_lite, "kv down projection") == 1.0);
  CHECK(share(v2_lite, "kv up projection") == 0.0);
  CHECK(share(v2_lite, "attention output projection") == 1.0);
  CHECK(share(v2_lite, "shared expert down projection") == 0.0);
}
