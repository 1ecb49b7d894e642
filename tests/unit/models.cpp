// Unit tests of models/parameters.hpp and the presets: every count is checked against a published
// figure or a formula written out here, each with its source.
#include <doctest/doctest.h>

#include <boost/hana/for_each.hpp>
#include <cmath>
#include <cstdint>
#include <set>
#include <shardplan/models/catalog.hpp>
#include <shardplan/models/parameters.hpp>
#include <string_view>

namespace {
using namespace shardplan;
using std::int64_t;

/// `n` in billions, rounded to `decimals` places, as papers print it.
double billions(int64_t n, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(static_cast<double>(n) / 1e9 * scale) / scale;
}

/// A Megatron-LM Table 1 row as printed: heads, hidden size, layers, size in billions.
struct megatron_row {
  int64_t heads, hidden, layers;
  double printed_billions;
};

template <class Model>
void check_megatron_row(const megatron_row& row) {
  const model_shape& s = Model::shape;
  CAPTURE(s.name);
  CHECK(s.heads == row.heads);
  CHECK(s.d_model == row.hidden);
  CHECK(s.layers == row.layers);

  // Narayanan et al. 2021 (arXiv:2104.04473) Sec. 5.1, Eq. 2, with V = 51,200 and s = 2048.
  const double l = static_cast<double>(row.layers), h = static_cast<double>(row.hidden);
  const double V = 51200.0, seq = 2048.0;
  const double paper = 12.0 * l * h * h * (1.0 + 13.0 / (12.0 * h) + (V + seq) / (12.0 * l * h));
  // The same formula multiplied out: 12h² + 13h per layer, (V + s)·h of embeddings.
  const int64_t L = row.layers, H = row.hidden;
  const int64_t expanded = 12 * L * H * H + 13 * L * H + (51200 + 2048) * H;

  const parameter_counts c = model_parameters<Model>();
  // The formula leaves out the final LayerNorm (weight and bias, 2h); everything else is equal.
  CHECK(c.total - 2 * H == expanded);
  CHECK(static_cast<double>(c.total - 2 * H) == doctest::Approx(paper).epsilon(1e-12).scale(0.0));
  CHECK(billions(c.total, 1) == doctest::Approx(row.printed_billions).scale(0.0));
}

/// A small dense shape for the structural tests.
constexpr model_shape small_dense = {
    .name = "small",
    .layers = 2,
    .d_model = 64,
    .d_ff = 256,
    .heads = 8,
    .kv_heads = 8,
    .head_dim = 8,
    .vocab = 100,
};
}  // namespace

TEST_CASE("llama-3 presets count the parameters of Meta's released checkpoints") {
  // Hugging Face model API `safetensors.total` of meta-llama/Llama-3.1-8B, -70B and -405B (the 3.1
  // checkpoints have the 3.0 shapes); 8,030,261,248 is also llama.cpp's general.parameter_count.
  CHECK(model_parameters<models::llama3_8b>().total == 8'030'261'248);
  CHECK(model_parameters<models::llama3_70b>().total == 70'553'706'496);
  CHECK(model_parameters<models::llama3_405b>().total == 405'853'388'800);
}

TEST_CASE("llama-2 presets count the parameters of Meta's released checkpoints") {
  // transformers' `num_parameters()` of meta-llama/Llama-2-{7b,13b,70b}-hf, as logged by users
  // (e.g. peft's "all params: 6738415616") and listed by model catalogues.
  const parameter_counts p7 = model_parameters<models::llama2_7b>();
  const parameter_counts p13 = model_parameters<models::llama2_13b>();
  const parameter_counts p70 = model_parameters<models::llama2_70b>();
  CHECK(p7.total == 6'738'415'616);
  CHECK(p13.total == 13'015'864'320);
  CHECK(p70.total == 68'976'648'192);
  // The Hugging Face API's `safetensors.total` of the same repos is larger by the rotary
  // `inv_freq` buffers those checkpoints also store: head_dim / 2 = 64 values per layer.
  CHECK(p7.total + 32 * 64 == 6'738'417'664);
  CHECK(p13.total + 40 * 64 == 13'015'866'880);
  CHECK(p70.total + 80 * 64 == 68'976'653'312);
}

TEST_CASE("the megatron-lm formula gives every row of narayanan et al. table 1") {
  // Table 1 of Narayanan et al. 2021: heads, hidden size, layers, and the size the paper prints.
  check_megatron_row<models::megatron_gpt_1_7b>({24, 2304, 24, 1.7});
  check_megatron_row<models::megatron_gpt_3_6b>({32, 3072, 30, 3.6});
  check_megatron_row<models::megatron_gpt_7_5b>({32, 4096, 36, 7.5});
  check_megatron_row<models::megatron_gpt_18b>({48, 6144, 40, 18.4});
  check_megatron_row<models::megatron_gpt_39b>({64, 8192, 48, 39.1});
  check_megatron_row<models::megatron_gpt_76b>({80, 10240, 60, 76.1});
  check_megatron_row<models::megatron_gpt_145b>({96, 12288, 80, 145.6});
  check_megatron_row<models::megatron_gpt_310b>({128, 16384, 96, 310.1});
  check_megatron_row<models::megatron_gpt_530b>({128, 20480, 105, 529.6});
  check_megatron_row<models::megatron_gpt_1t>({160, 25600, 128, 1008.0});
}

TEST_CASE("gpt-3 175b has 175 billion parameters") {
  // Brown et al. 2020, Table 2.1: "GPT-3 175B ... 175.0B"; its shape gives 174.6B, which the paper
  // states in round billions.
  const parameter_counts c = model_parameters<models::gpt3_175b>();
  CHECK(billions(c.total, 0) == doctest::Approx(175.0).scale(0.0));
  // Narayanan et al. 2021, Table 2, count the GPT-3 shape with their 51,200-token vocabulary as
  // 174.6B parameters.
  CHECK(billions(model_parameters<models::megatron_gpt<96, 12288, 96>>().total, 1) ==
        doctest::Approx(174.6).scale(0.0));
}

TEST_CASE("mixtral 8x7b has 46.7b parameters of which 12.9b are active") {
  const parameter_counts c = model_parameters<models::mixtral_8x7b>();
  // Mistral AI, "Mixtral of experts" (mistral.ai/news/mixtral-of-experts): "Mixtral has 46.7B total
  // parameters but only uses 12.9B parameters per token."
  CHECK(billions(c.total, 1) == doctest::Approx(46.7).scale(0.0));
  CHECK(billions(c.active, 1) == doctest::Approx(12.9).scale(0.0));
  // Hugging Face API `safetensors.total` of mistralai/Mixtral-8x7B-v0.1 (also KerasHub's preset).
  CHECK(c.total == 46'702'792'704);
}

TEST_CASE("deepseek-v3 has 671b parameters of which about 37b are active") {
  const parameter_counts c = model_parameters<models::deepseek_v3>();
  // DeepSeek-V3 technical report (arXiv:2412.19437), abstract: "671B total parameters with 37B
  // activated for each token"; README: the 685B checkpoint adds a 14B MTP module.
  CHECK(billions(c.total, 0) == doctest::Approx(671.0).scale(0.0));
  // The element count of the checkpoint's main-model tensors (layers 0-60, embedding, head, final
  // norm; FP8 scale tensors and layer 61, the MTP module, excluded), as three independent tallies
  // of the safetensors headers in public repositories agree.
  CHECK(c.total == 671'026'419'200);
  // The exact active count with both embedding tables is 37.55B: "37B" is that figure truncated.
  // DeepSeek's README_WEIGHTS.md states 36.7B "including 0.9B for Embedding and 0.9B for the
  // output Head", which config_671B.json does not reproduce (it gives 35.70B without them).
  CHECK(c.active / 1'000'000'000 == 37);
  CHECK(billions(c.embedding / 2, 1) == doctest::Approx(0.9).scale(0.0));
}

TEST_CASE("mla without a query rank counts deepseek-v2-lite's released checkpoint") {
  // deepseek-ai/DeepSeek-V2-Lite config.json: 27 layers, hidden 2048, intermediate 10944, 16 heads,
  // q_lora_rank null, kv_lora_rank 512, qk_nope 128, qk_rope 64, v 128, 64 routed + 2 shared
  // experts of 1408, 6 active, first layer dense, vocab 102400, untied, no gate bias.
  constexpr model_shape lite = {
      .name = "deepseek-v2-lite",
      .layers = 27,
      .d_model = 2048,
      .d_ff = 10944,
      .heads = 16,
      .kv_heads = 16,
      .head_dim = 192,
      .vocab = 102400,
      .moe =
          {.experts = 64, .top_k = 6, .shared_experts = 2, .expert_d_ff = 1408, .dense_layers = 1},
      .mla = {.kv_lora_rank = 512,
              .qk_nope_head_dim = 128,
              .qk_rope_head_dim = 64,
              .v_head_dim = 128},
  };
  static_assert(is_valid(lite));
  // The model card: "15.7B total parameters"; 15,706,484,224 is the count chatllm.cpp prints when
  // it loads the checkpoint, and the Hugging Face total listed by model catalogues.
  CHECK(parameters(lite).total == 15'706'484'224);
}

TEST_CASE("the book's llama-2 13b breakdown follows from the shape") {
  // How to Scale Your Model, Part 5 (training.md) Q1: FFW 3LDF = 8.5e9, attention 4DNHL = 4.2e9,
  // vocab 2VD = 0.33e9, total 13.0e9.
  const model_shape& s = models::llama2_13b::shape;
  const int64_t L = s.layers, D = s.d_model, F = s.d_ff, N = s.heads, H = s.head_dim, V = s.vocab;
  const parameter_counts c = model_parameters<models::llama2_13b>();
  CHECK(c.mlp == 3 * L * D * F);
  CHECK(c.attention == 4 * D * N * H * L);
  CHECK(c.embedding == 2 * V * D);
  CHECK(billions(3 * L * D * F, 1) == doctest::Approx(8.5).scale(0.0));
  CHECK(billions(4 * D * N * H * L, 1) == doctest::Approx(4.2).scale(0.0));
  CHECK(billions(2 * V * D, 2) == doctest::Approx(0.33).scale(0.0));
  CHECK(billions(c.total, 1) == doctest::Approx(13.0).scale(0.0));
}

TEST_CASE("the book's llama-3 70b breakdown follows from the shape") {
  // How to Scale Your Model, Part 6 (applied-training.md): FFW 8192·8192·3.5·3·80 = 56.3e9, vocab
  // 2·128,256·8192 = 2.1e9, attention 80·(2·8192·64·128 + 2·8192·8·128) = 12e9, total 70.4e9.
  const model_shape& s = models::llama3_70b::shape;
  const int64_t L = s.layers, D = s.d_model, N = s.heads, K = s.kv_heads, H = s.head_dim;
  CHECK(2 * s.d_ff == 7 * D);  // the book's F = 3.5·D
  const int64_t ffw = 3 * L * D * s.d_ff;
  const int64_t vocab = 2 * s.vocab * D;
  const int64_t attention = L * (2 * D * N * H + 2 * D * K * H);
  const parameter_counts c = model_parameters<models::llama3_70b>();
  CHECK(c.mlp == ffw);
  CHECK(c.embedding == vocab);
  CHECK(c.attention == attention);
  // The book truncates 56.37e9 and 12.08e9, and sums its rounded parts to 70.4e9.
  CHECK(static_cast<double>(ffw) == doctest::Approx(56.3e9).epsilon(0.1 / 56.3).scale(0.0));
  CHECK(billions(vocab, 1) == doctest::Approx(2.1).scale(0.0));
  CHECK(billions(attention, 0) == doctest::Approx(12.0).scale(0.0));
  CHECK(static_cast<double>(c.total) == doctest::Approx(70.4e9).epsilon(0.2 / 70.4).scale(0.0));
}

TEST_CASE("the book's llama-3 405b breakdown follows from the shape") {
  // How to Scale Your Model, Part 6 Q2 as answered in the reference notes (not by the book): FFW
  // 329.8e9 + attention 71.9e9 + vocab 4.2e9 = 405.8e9.
  const parameter_counts c = model_parameters<models::llama3_405b>();
  CHECK(billions(c.mlp, 1) == doctest::Approx(329.8).scale(0.0));
  CHECK(billions(c.attention, 1) == doctest::Approx(71.9).scale(0.0));
  CHECK(billions(c.embedding, 1) == doctest::Approx(4.2).scale(0.0));
  CHECK(billions(c.total, 1) == doctest::Approx(405.9).scale(0.0));  // 405.85e9: the notes truncate
}

TEST_CASE("a quarter of an mha model's layer weights are attention when f is 4d") {
  // How to Scale Your Model, Part 4 (transformers.md) Q1: D = 4096, F = 4D, V = 32000, L = 64, MHA;
  // params L·(3DF + 4DNH + 2D) + 2DV, a quarter of them in attention. (The book rounds the total
  // to "16B"; the formula gives 17.4e9.)
  constexpr int64_t D = 4096, F = 4 * D, V = 32000, L = 64, N = 32, H = 128;
  constexpr model_shape s = {.name = "book-q1",
                             .layers = L,
                             .d_model = D,
                             .d_ff = F,
                             .heads = N,
                             .kv_heads = N,
                             .head_dim = H,
                             .vocab = V};
  const parameter_counts c = parameters(s);
  // The formula has no final norm (D).
  CHECK(c.total - D == L * (3 * D * F + 4 * D * N * H + 2 * D) + 2 * D * V);
  CHECK(static_cast<double>(c.attention) / static_cast<double>(c.attention + c.mlp) == 0.25);
}

TEST_CASE("the kv projections shrink with kv heads and head_dim sets the attention width") {
  // Wq and Wo are d_model x heads·head_dim, Wk and Wv d_model x kv_heads·head_dim.
  model_shape mha = small_dense;
  model_shape gqa = small_dense;
  gqa.kv_heads = 2;
  model_shape mqa = small_dense;
  mqa.kv_heads = 1;
  model_shape wide = small_dense;
  wide.head_dim = 16;  // heads · head_dim = 128 != d_model = 64
  CHECK(parameters(mha).attention_per_layer == 2 * 64 * 8 * 8 + 2 * 64 * 8 * 8);
  CHECK(parameters(gqa).attention_per_layer == 2 * 64 * 8 * 8 + 2 * 64 * 2 * 8);
  CHECK(parameters(mqa).attention_per_layer == 2 * 64 * 8 * 8 + 2 * 64 * 1 * 8);
  CHECK(parameters(wide).attention_per_layer == 2 * 64 * 8 * 16 + 2 * 64 * 8 * 16);
}

TEST_CASE("tied embeddings, plain mlps, biases and layer norms count as gpt-2 does") {
  // GPT-2 small (Radford et al. 2019; Hugging Face `gpt2`): 12 layers, d 768, 12 heads, vocab
  // 50257, 1024 positions, tied: 124,439,808 parameters (`num_parameters()` of `gpt2`).
  constexpr model_shape gpt2 = {.name = "gpt2",
                                .layers = 12,
                                .d_model = 768,
                                .d_ff = 3072,
                                .heads = 12,
                                .kv_heads = 12,
                                .head_dim = 64,
                                .vocab = 50257,
                                .gated_mlp = false,
                                .tied_embeddings = true,
                                .biases = true,
                                .norm = norm_kind::layer_norm,
                                .position_embeddings = 1024};
  const parameter_counts c = parameters(gpt2);
  CHECK(c.total == 124'439'808);
  CHECK(c.embedding == 50257 * 768);
  CHECK(c.position_embedding == 1024 * 768);
  // Per layer: QKV bias 3d, output bias d, MLP biases 4d + d.
  CHECK(c.biases == 12 * (3 * 768 + 768 + 3072 + 768));
  model_shape untied = gpt2;
  untied.tied_embeddings = false;
  CHECK(parameters(untied).total - c.total == 50257 * 768);
}

TEST_CASE("active parameters count top-k routed experts, shared experts and the router") {
  const parameter_counts c = model_parameters<models::mixtral_8x7b>();
  const int64_t expert = 3 * 4096 * 14336;  // one SwiGLU expert: gate, up, down
  CHECK(c.expert == expert);
  CHECK(c.router_per_layer == 8 * 4096);
  CHECK(c.total - c.active == 32 * (8 - 2) * expert);
  CHECK(c.active_without_embeddings == c.active - 2 * 32000 * 4096);

  const parameter_counts d = model_parameters<models::deepseek_v3>();
  CHECK(d.dense_layers == 3);
  CHECK(d.moe_layers == 58);
  CHECK(d.router_per_layer == 256 * 7168 + 256);  // weight and the balance bias
  CHECK(d.moe_active_per_layer == d.router_per_layer + (8 + 1) * 3 * 7168 * 2048);
  CHECK(d.dense_mlp_per_layer == 3 * 7168 * 18432);
}

TEST_CASE("dense models use every parameter for every token") {
  boost::hana::for_each(models::all, [](auto model) {
    using M = typename decltype(model)::type;
    if constexpr (!is_moe(M::shape)) {
      const parameter_counts c = model_parameters<M>();
      CAPTURE(M::shape.name);
      CHECK(c.active == c.total);
    }
  });
}

TEST_CASE("every preset obeys the shape rules and has its own name") {
  std::set<std::string_view> names;
  boost::hana::for_each(models::all, [&](auto model) {
    using M = typename decltype(model)::type;
    CAPTURE(M::shape.name);
    CHECK(first_broken_rule(M::shape) == shape_rule::none);
    CHECK(names.insert(M::shape.name).second);
  });
  CHECK(names.size() == 38);  // 19 presets and 19 released models (models/released.hpp)
}

TEST_CASE("the first broken rule names what is wrong with a shape") {
  model_shape s = small_dense;
  CHECK(first_broken_rule(s) == shape_rule::none);
  s.kv_heads = 3;  // 8 query heads
  CHECK(first_broken_rule(s) == shape_rule::kv_heads_divide_heads);
  CHECK(rule_text(first_broken_rule(s)) == "shardplan: kv heads must divide query heads");
  s.vocab = 0;  // the earlier rule is reported first
  CHECK(first_broken_rule(s) == shape_rule::sizes_positive);

  model_shape moe = small_dense;
  moe.moe = {.experts = 4, .top_k = 5, .expert_d_ff = 32};
  CHECK(first_broken_rule(moe) == shape_rule::top_k_within_experts);
  moe.moe.top_k = 2;
  moe.moe.dense_layers = 3;  // of 2 layers
  CHECK(first_broken_rule(moe) == shape_rule::dense_layers_within_layers);
  moe.moe.dense_layers = 0;
  moe.moe.expert_d_ff = 0;
  CHECK(first_broken_rule(moe) == shape_rule::experts_have_width);

  model_shape stray = small_dense;
  stray.moe.shared_experts = 1;  // but no routed experts
  CHECK(first_broken_rule(stray) == shape_rule::moe_fields_need_experts);

  model_shape half_mla = small_dense;
  half_mla.mla.kv_lora_rank = 16;
  CHECK(first_broken_rule(half_mla) == shape_rule::mla_complete);

  model_shape no_mlp = small_dense;
  no_mlp.d_ff = 0;
  CHECK(first_broken_rule(no_mlp) == shape_rule::dense_mlp_has_width);
  no_mlp.d_ff = -1;
  CHECK(first_broken_rule(no_mlp) == shape_rule::optional_sizes_not_negative);
}
