// Tests of bounds.hpp: How to Scale Your Model's training rooflines, reproduced from the types.
#include <doctest/doctest.h>

#include <cmath>

#include <shardplan/training/bounds.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

namespace {

byte_rate bandwidth(const system_figures& s, std::int64_t inner, std::int64_t size) {
  return axis_bandwidth(network_of(levels_of(s), inner, size));
}

// A plan's values from degrees (no feasibility check: bounds need none), bf16 mixed Adam.
training_plan_values plan_of(const model_shape& m, const system_figures& s, parallel_config c,
                             std::int64_t sequences, std::int64_t seq_len = 4096,
                             precision_policy q = precision::bf16_mixed_adam::policy) {
  training_setup t;
  t.batch = {sequences * seq_len, seq_len, 1};
  t.precision = q;
  return make_training_plan(m, s, c, t);
}

// LLaMA-3 70B (Meta's count, tests/unit/models.cpp): 70,553,706,496 parameters, of which the
// per-layer norms (80 · 2 · 8192) and the final norm (8192) are replicated by tensor
// parallelism; with 8-way tensor parallelism a device holds (P − n)/8 + n of them.
constexpr double llama3_70b_total = 70'553'706'496.0;
constexpr double llama3_70b_norms = 80.0 * 2 * 8192 + 8192;
constexpr double llama3_70b_tp8_share = ((llama3_70b_total - llama3_70b_norms) / 8 +
                                         llama3_70b_norms) / llama3_70b_total;

}  // namespace

TEST_CASE("data parallelism on v5p needs 2550 tokens a chip on one axis and 850 on three") {
  // training.md: C/W_ici = 4.59e14/1.8e11 = 2550; over 3 axes 850 (7.6 M tokens a pod).
  const auto& pod = systems::tpu_v5p_slice<16, 20, 28>::figures;
  const flop_rate c = pod.chip.peak_bf16;
  CHECK(data_parallel_critical_tokens(c, bandwidth(pod, 1, 16)) ==
        doctest::Approx(2550).epsilon(0.001).scale(0.0));
  CHECK(data_parallel_critical_tokens(c, bandwidth(pod, 1, 8960)) ==
        doctest::Approx(850).epsilon(0.001).scale(0.0));
  // A plan of pure data parallelism over the whole pod: its bound, times 8960 chips, is the
  // book's 7.6 M tokens a pod.
  const training_plan_values p =
      plan_of(models::llama3_70b::shape, pod, {.data = 8960}, 8960, 4096);
  const plan_bounds b = bounds_of(p);
  REQUIRE(b.count == 1);
  CHECK(b.items[0].critical * 8960 == doctest::Approx(7.6e6).epsilon(0.01).scale(0.0));
}

TEST_CASE("the fsdp and tensor-parallel bound is about 100 tokens a chip for F = 32768") {
  // training.md: α²/(M_X·M_Y·F) with α = 2550, M_X·M_Y = 2: 2550²/(2·32768) ≈ 99.
  const auto& s = systems::tpu_v5p_slice<4, 4, 4>::figures;
  const flop_rate c = s.chip.peak_bf16;
  // Mesh {X: 16, Y: 4}: Y innermost on one physical axis, X on the other two.
  const byte_rate w_x = bandwidth(s, 4, 16);
  const byte_rate w_y = bandwidth(s, 1, 4);
  CHECK(fsdp_tensor_critical_tokens(32768, c, w_x, w_y) ==
        doctest::Approx(2550.0 * 2550 / (2 * 32768)).epsilon(0.001).scale(0.0));
  CHECK(fsdp_tensor_critical_tokens(32768, c, w_x, w_y) ==
        doctest::Approx(99).epsilon(0.01).scale(0.0));
}

TEST_CASE("x_opt is about 13.9 for the 4x4x4 example") {
  // training.md: N = 64, B = 48,000, F = 32768, M_X/M_Y = 2: sqrt((B/F)·2·N) ≈ 13.9 → X = 16.
  const auto& s = systems::tpu_v5p_slice<4, 4, 4>::figures;
  // sqrt(48000/32768 · 2 · 64) = 13.69; the book's 13.9 rounds B/F to 1.5 (1.5% apart).
  CHECK(optimal_fsdp_degree(48000, 64, 32768, bandwidth(s, 4, 16), bandwidth(s, 1, 4)) ==
        doctest::Approx(sqrt(48000.0 / 32768 * 2 * 64)).scale(0.0));
  CHECK(optimal_fsdp_degree(48000, 64, 32768, bandwidth(s, 4, 16), bandwidth(s, 1, 4)) ==
        doctest::Approx(13.9).epsilon(0.02).scale(0.0));
}

TEST_CASE("pure data parallelism across v5p pods needs 73,440 tokens a pod") {
  // training.md: 4.59e14 / 6.25e9 = 73,440.
  const auto& chip = hardware::tpu_v5p::figures;
  CHECK(dcn_critical_tokens_per_slice(chip.peak_bf16, chip.scale_out_bandwidth) ==
        doctest::Approx(73440).epsilon(0.001).scale(0.0));
}

TEST_CASE("tensor parallelism for llama-3 70b: 8-way is fine, 16-way is communication-bound") {
  // training.md: Y < M_Y·F/2550 with F = 28,672 on one v5p axis: 11.2.
  const auto& s = systems::tpu_v5p_slice<16, 16, 16>::figures;
  const double limit = tensor_parallel_limit(28672, s.chip.peak_bf16, bandwidth(s, 1, 16));
  CHECK(limit == doctest::Approx(28672.0 / 2550).epsilon(0.001).scale(0.0));
  CHECK(8 < limit);
  CHECK(16 > limit);
}

TEST_CASE("an h100's data-parallel threshold is 2200 in a node and 2475 across nodes") {
  // gpus.md: 990e12/450e9 = 2200 and 990e12/400e9 = 2475; our all-gather keeps the (N−1)/N of
  // an 8-GPU node (450e9·8/7) and of a 32-node leaf (400e9·32/31).
  const auto& s = systems::dgx_h100_superpod<32>::figures;
  const flop_rate c = 990e12 * flop / second;
  CHECK(data_parallel_critical_tokens(c, bandwidth(s, 1, 8)) ==
        doctest::Approx(2200.0 * 7 / 8).scale(0.0));
  CHECK(data_parallel_critical_tokens(c, bandwidth(s, 1, 256)) ==
        doctest::Approx(990e12 / (400e9 * 32 / 31)).scale(0.0));
}

TEST_CASE("an outer data axis over tensor-parallel nodes keeps the 2475 threshold per device") {
  // gpus.md: the cost of the outer reduction falls by the nodes the inner axis spans; with
  // 8-way tensor parallelism in each node the data-parallel threshold per GPU is still
  // C/W_node egress (·31/32 for the 32-node ring).
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<32>,
                             mesh<axis<"dp", 32>, axis<"tp", 8>>, data<"dp">, tensor<"tp">,
                             batch<global_sequences<256>, seq_len<4096>, micro_batch<1>>>;
  const plan_bounds b = bounds_of(plan::values);
  REQUIRE(b.count == 2);
  // The gradients a GPU reduces are its 1/8 of the model plus the replicated norms: 0.013% over
  // C/W_node (the inner axis's 8 GPUs make the arrays 8 times smaller).
  CHECK(b.items[0].critical ==
        doctest::Approx(989.4e12 / (400e9 * 32 / 31) * 8 * llama3_70b_tp8_share).scale(0.0));
  CHECK(b.items[0].critical ==
        doctest::Approx(989.4e12 / (400e9 * 32 / 31)).epsilon(0.0002).scale(0.0));
}

TEST_CASE("the book's small-x form: data parallelism over 2 nodes needs 1237 tokens a gpu") {
  // gpus.md: T_comms = 8DF(X−1)/(X·W), so B/N > α(X−1)/X; "for 2 nodes this is B/N > 1237"
  // (α = 2475), with 8-way tensor parallelism inside each node.
  const training_plan_values p = plan_of(models::llama3_70b::shape,
                                         systems::dgx_h100_superpod<2>::figures,
                                         {.data = 2, .tensor = 8}, 256);
  const plan_bounds b = bounds_of(p);
  REQUIRE(b.count == 2);
  CHECK(b.items[0].critical ==
        doctest::Approx(989.4e12 / 400e9 / 2 * 8 * llama3_70b_tp8_share).scale(0.0));
  CHECK(b.items[0].critical == doctest::Approx(1237).epsilon(0.001).scale(0.0));
}

TEST_CASE("one ring convention: an h100 node's data axis needs 2199 x 7/8 = 1924 tokens a gpu") {
  // Issue 15 finding 7: bounds_of (1924) and scale_up_intensity (2199) differ by the ring's
  // (n−1)/n. The bounds keep it; the book's "2200 inside a node" (gpus.md) drops it, which is
  // C/W_link = scale_up_intensity: 989.4e12/450e9 = 2198.7.
  const auto& node = systems::dgx_h100_superpod<1>::figures;
  CHECK(scale_up_intensity(node.chip).value() == doctest::Approx(989.4e12 / 450e9).scale(0.0));
  CHECK(scale_up_intensity(node.chip).value() == doctest::Approx(2200).epsilon(0.001).scale(0.0));
  // LLaMA-3 8B without model parallelism: a GPU reduces every parameter, P_reduced = P_active.
  const plan_bounds b = bounds_of(plan_of(models::llama3_8b::shape, node, {.data = 8}, 64));
  REQUIRE(b.count == 1);
  CHECK(b.items[0].critical == doctest::Approx(989.4e12 / 450e9 * 7 / 8).scale(0.0));
  CHECK(b.items[0].critical == doctest::Approx(1924).epsilon(0.001).scale(0.0));
  CHECK(b.items[0].critical ==
        doctest::Approx(scale_up_intensity(node.chip).value() * 7.0 / 8.0).scale(0.0));
  // The report's label says so.
  CHECK(bound_formula(b.items[0]).find("(n-1)/n") != std::string_view::npos);
}

TEST_CASE("fp32 gradients double the data-parallel threshold") {
  // Megatron's fp32 gradient all-reduce moves 4 bytes a parameter against the book's 2.
  const auto& node = systems::dgx_h100_superpod<1>::figures;
  const plan_bounds b = bounds_of(plan_of(models::llama3_8b::shape, node, {.data = 8}, 64, 4096,
                                          precision::megatron_mixed_adam::policy));
  REQUIRE(b.count == 1);
  CHECK(b.items[0].critical == doctest::Approx(989.4e12 / 450e9 * 7 / 8 * 2).scale(0.0));
}

TEST_CASE("context parallelism does not shrink the gradients a data axis reduces") {
  // With cp 2 the devices sharing a replica double but each still holds the whole model: the
  // threshold stays C/W (the previous C/(W·M) halved it). dp 4 x cp 2 in one node; the dp
  // axis's groups stride over the cp pairs, 4 GPUs of the node's 8.
  const auto& node = systems::dgx_h100_superpod<1>::figures;
  const plan_bounds b = bounds_of(plan_of(models::llama3_8b::shape, node,
                                          {.data = 4, .context = 2}, 64));
  REQUIRE(b.count == 1);
  // C over the dp axis's all-gather bandwidth (4-member groups inside cp pairs), times 1.
  const double c_over_w = 989.4e12 / bandwidth(node, 2, 4).value();
  CHECK(b.items[0].critical == doctest::Approx(c_over_w).scale(0.0));
}

namespace {

// Mixtral 8x7B written out (config.json: 32 layers, h 4096, 32 heads, 8 kv heads of 128, 8
// experts of 14336, top 2, vocab 32000 untied): attention 2·4096² + 2·4096·1024 = 41,943,040,
// an expert 3·4096·14336 = 176,160,768, router 8·4096 and norms 2·4096 a layer, embeddings
// 2·32000·4096 and a final norm of 4096.
constexpr double mixtral_dense_layer = 41'943'040.0 + 8 * 4096 + 2 * 4096;
constexpr double mixtral_embeddings = 2.0 * 32000 * 4096 + 4096;
constexpr double mixtral_total = 32 * (mixtral_dense_layer + 8 * 176'160'768.0) + mixtral_embeddings;
constexpr double mixtral_active = 32 * (mixtral_dense_layer + 2 * 176'160'768.0) + mixtral_embeddings;
constexpr double mixtral_dense = 32 * mixtral_dense_layer + mixtral_embeddings;

// A 128-expert, top-8 model, Qwen3-235B-A22B's shape (config.json: 94 layers, h 4096, 64 heads
// and 4 kv heads of 128, 128 experts of 1536, vocab 151936 untied; its per-head q/k norms are
// left out): "235B total and 22B activated" (Qwen3 technical report).
constexpr model_shape qwen3_235b{.name = "qwen3-235b-a22b",
                                 .layers = 94,
                                 .d_model = 4096,
                                 .heads = 64,
                                 .kv_heads = 4,
                                 .head_dim = 128,
                                 .vocab = 151936,
                                 .moe = {.experts = 128, .top_k = 8, .expert_d_ff = 1536}};
// attention 4096·8192·2 + 2·4096·512, expert 3·4096·1536, router 128·4096, norms 2·4096.
constexpr double qwen_dense_layer = 71'303'168.0 + 128 * 4096 + 2 * 4096;
constexpr double qwen_embeddings = 2.0 * 151936 * 4096 + 4096;
constexpr double qwen_total = 94 * (qwen_dense_layer + 128 * 18'874'368.0) + qwen_embeddings;
constexpr double qwen_active = 94 * (qwen_dense_layer + 8 * 18'874'368.0) + qwen_embeddings;

}  // namespace

TEST_CASE("an moe data axis reduces every expert: mixtral's threshold is P/P_active = 3.6x") {
  // Issue 15 finding 5. gpus.md, "MoE DP": T_math = 8kBDF/(XC) against T_comms = 8EDF/W, so
  // B/X > (E/k)·C/W. With attention and embeddings, which every token uses, the factor is
  // P_total/P_active: 46,702,792,704 / 12,879,925,248 (Mistral: "46.7B total ... 12.9B per
  // token").
  CHECK(mixtral_total == 46'702'792'704.0);
  CHECK(mixtral_active == doctest::Approx(12.9e9).epsilon(0.002).scale(0.0));
  const auto& node = systems::dgx_h100_superpod<1>::figures;
  const double dense_bound = 989.4e12 / 450e9 * 7 / 8;  // 1924, as for a dense model
  const plan_bounds b = bounds_of(plan_of(models::mixtral_8x7b::shape, node, {.data = 8}, 64));
  REQUIRE(b.count == 1);
  CHECK(b.items[0].critical ==
        doctest::Approx(dense_bound * mixtral_total / mixtral_active).scale(0.0));
  CHECK(b.items[0].critical > 3.5 * dense_bound);
  CHECK(b.items[0].critical < 4.0 * dense_bound);  // the book's E/k = 4 counts experts only
}

TEST_CASE("a 128-expert top-8 model needs 10.6x the dense threshold, 16x if all were experts") {
  const auto& node = systems::dgx_h100_superpod<1>::figures;
  const double dense_bound = 989.4e12 / 450e9 * 7 / 8;
  CHECK(qwen_total == doctest::Approx(235e9).epsilon(0.001).scale(0.0));
  CHECK(qwen_active == doctest::Approx(22e9).epsilon(0.01).scale(0.0));
  const plan_bounds b = bounds_of(plan_of(qwen3_235b, node, {.data = 8}, 64));
  REQUIRE(b.count == 1);
  CHECK(b.items[0].critical == doctest::Approx(dense_bound * qwen_total / qwen_active).scale(0.0));
  CHECK(b.items[0].critical > 10.0 * dense_bound);
  // The book's E/k itself, for a model that is nearly all experts (one 8-wide head, vocab 8):
  // 128·e/(8·e) up to the tiny attention, router and norms.
  model_shape experts_only = qwen3_235b;
  experts_only.heads = 1;
  experts_only.kv_heads = 1;
  experts_only.head_dim = 8;
  experts_only.vocab = 8;
  const plan_bounds e = bounds_of(plan_of(experts_only, node, {.data = 8}, 64));
  REQUIRE(e.count == 1);
  CHECK(e.items[0].critical == doctest::Approx(dense_bound * 128 / 8).epsilon(0.01).scale(0.0));
}

TEST_CASE("an expert axis reduces only the dense parameters") {
  // Mixtral with ep 8 = dp 8: each GPU holds one expert of each layer, whose gradients stay on
  // it; the axis all-reduces attention, routers, norms and embeddings: 1,605,636,096 of the
  // 12.9 B active, 0.125 of the dense threshold.
  CHECK(mixtral_dense == 1'605'636'096.0);
  const auto& node = systems::dgx_h100_superpod<1>::figures;
  const plan_bounds b = bounds_of(plan_of(models::mixtral_8x7b::shape, node,
                                          {.data = 8, .expert = 8}, 64));
  REQUIRE(b.count == 1);
  CHECK(b.items[0].critical ==
        doctest::Approx(989.4e12 / 450e9 * 7 / 8 * mixtral_dense / mixtral_active).scale(0.0));
}

TEST_CASE("llama-3 70b on a full v5p pod at 40% mfu takes 44 days") {
  // applied-training.md: 6 · 70e9 · 15e12 = 6.3e24 FLOP; 8960 chips at 40% of 4.59e14:
  // 3.8e6 s = 44 days. The book counts 6·N·D and ignores attention.
  const flops work =
      model_flops_per_token(models::llama3_70b::shape, 8192, attention_flops::ignored) * 15e12;
  const seconds t = time_at_mfu(work, 8960, hardware::tpu_v5p::figures.peak_bf16, 0.4);
  CHECK(t.value() / 86400 == doctest::Approx(44).epsilon(0.02).scale(0.0));
}

TEST_CASE("the book's llama-2 13b step on 4096 v5p at 40% mfu is about 300 ms") {
  // training.md Q3: 6 · 3e6 · 13e9 / (4096 · 4.6e14 · 0.4) = 0.31 s, "300ms".
  const flops work =
      model_flops_per_token(models::llama2_13b::shape, 32768, attention_flops::ignored) * 3e6;
  const seconds t = time_at_mfu(work, 4096, hardware::tpu_v5p::figures.peak_bf16, 0.4);
  CHECK(t.value() ==
        doctest::Approx(6 * 3e6 * 13e9 / (4096 * 4.59e14 * 0.4)).epsilon(0.02).scale(0.0));
  CHECK(t.value() == doctest::Approx(0.3).epsilon(0.05).scale(0.0));
}

TEST_CASE("expert parallelism conditions of gpus.md") {
  // α = C/W_node = 2475 for H100; k = 8 experts of F = 2048 over Z = 64 GPUs (8 nodes):
  // k > Z/8 fails (8 = 8), so F > 8α = 19,800 is needed: communication-bound.
  CHECK_FALSE(expert_parallel_compute_bound(2048, 8, 64, 2475));
  CHECK(expert_parallel_compute_bound(2048, 8, 8, 2475));
  CHECK(expert_parallel_compute_bound(30000, 8, 16, 2475));  // k > 2 and F > 2475·8/8
}

TEST_CASE("a plan's bounds compare each axis with its threshold") {
  using plan = training_plan<models::llama3_70b, systems::tpu_v5p_slice<8, 8, 16>,
                             mesh<axis<"fsdp", 256>, axis<"tp", 4>>, fsdp<"fsdp">, tensor<"tp">,
                             batch<global_tokens<2048 * 4096>, seq_len<4096>, micro_batch<1>>>;
  const plan_bounds b = bounds_of(plan::values);
  REQUIRE(b.count == 2);
  // 8 M tokens over 1024 chips: 8192 a chip; FSDP over 256 with 4-way tensor parallelism.
  CHECK(b.items[0].actual == doctest::Approx(2048.0 * 4096 / 1024).scale(0.0));
  CHECK(b.items[1].actual == 4);
}
