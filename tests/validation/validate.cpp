// Validation against published LLM training runs: each run is a training_plan built from its
// published configuration; the runner compares the predicted step time with the published (or
// published-derived) one and exits non-zero when the mean absolute error exceeds 10%.
// Sources, verbatim figures and gaps: tests/validation/RUNS.md. Uses the library defaults
// (efficiency 0 = default_efficiency(chip)); only the attention convention and the overlap of
// data-parallel gradients are set per run, from what each run is documented to have done.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "shardplan/training/cost.hpp"
#include "shardplan/shardplan.hpp"

namespace {

using namespace shardplan;

// --- chips that differ from the catalogue ---------------------------------------------------

/// Meta Grand Teton H100 as in torchtitan's benchmark: "96GB HBM2e with 2.4 TB/sec ... default
/// 500W power limit". Peak rates kept at the SXM datasheet's (the benchmark says the 500 W part
/// runs below them).
struct h100_96gb_500w {
  static constexpr chip_figures figures = [] {
    chip_figures f = hardware::h100_sxm::figures;
    f.name = "h100 96gb hbm2e 500w";
    f.memory = 96.0 * giga * byte;
    f.memory_bandwidth = 2.4 * tera * byte / second;
    return f;
  }();
};

/// Jean Zay A100 80 GB nodes (BLOOM): "8 GPUs per node Using NVLink 4 inter-gpu connects, 4
/// OmniPath links". The OmniPath rate is not stated; 100 Gb/s per link (400 Gb/s per node, 50
/// Gb/s per GPU) is our assumption.
struct a100_80gb_jean_zay {
  static constexpr chip_figures figures = [] {
    chip_figures f = hardware::a100_80gb::figures;
    f.name = "a100 80gb (jean zay, omnipath)";
    f.scale_out_bandwidth = 4.0 * 100.0 * giga * bits * byte / second / 8.0;
    return f;
  }();
};

// --- models that are not presets ------------------------------------------------------------

/// BLOOM 176B (bigscience tr11-176B-ml.slurm): NLAYERS=70 NHIDDEN=14336 NHEADS=112, FFN 4h GeLU,
/// ALiBi (no learned positions), tied embeddings, biases, LayerNorm, --pad-vocab-size-to 250880.
/// The embedding LayerNorm (2h = 28,672 parameters) is not modelled.
struct bloom_176b {
  static constexpr model_shape shape = {.name = "bloom-176b",
                                        .layers = 70,
                                        .d_model = 14336,
                                        .d_ff = 4 * 14336,
                                        .heads = 112,
                                        .kv_heads = 112,
                                        .head_dim = 128,
                                        .vocab = 250880,
                                        .gated_mlp = false,
                                        .tied_embeddings = true,
                                        .biases = true,
                                        .norm = norm_kind::layer_norm};
};
// Published 176,247,271,424 parameters less the embedding LayerNorm.
static_assert(model_parameters<bloom_176b>().total == 176'247'271'424 - 28'672);

/// MPT as benchmarked by llm-foundry (scripts/train/benchmarking/README.md): the NumParams
/// column (64,862,437,376 and 6,658,859,008) is matched exactly by learned positions (2048),
/// linear biases, LayerNorm with bias, tied embeddings, vocab 50368, FFN 4d GeLU.
constexpr model_shape mpt_shape(std::string_view name, std::int64_t layers, std::int64_t d,
                                std::int64_t heads) {
  return {.name = name,
          .layers = layers,
          .d_model = d,
          .d_ff = 4 * d,
          .heads = heads,
          .kv_heads = heads,
          .head_dim = d / heads,
          .vocab = 50368,
          .gated_mlp = false,
          .tied_embeddings = true,
          .biases = true,
          .norm = norm_kind::layer_norm,
          .position_embeddings = 2048};
}
struct mpt_70b {
  static constexpr model_shape shape = mpt_shape("mpt-70b", 80, 8192, 64);
};
struct mpt_7b {
  static constexpr model_shape shape = mpt_shape("mpt-7b", 32, 4096, 32);
};
static_assert(model_parameters<mpt_70b>().total == 64'862'437'376);
static_assert(model_parameters<mpt_7b>().total == 6'658'859'008);

/// PaLM 540B (Chowdhery et al. 2022, Table 1 and Sec. 2): 118 layers, d_model 18432, 48 heads of
/// 256, multi-query attention, d_ff = 4·d_model SwiGLU, 256k vocabulary, shared input/output
/// embeddings, no biases. Parallel attention/MLP blocks do not change FLOPs or bytes here.
struct palm_540b {
  static constexpr model_shape shape = {.name = "palm-540b",
                                        .layers = 118,
                                        .d_model = 18432,
                                        .d_ff = 4 * 18432,
                                        .heads = 48,
                                        .kv_heads = 1,
                                        .head_dim = 256,
                                        .vocab = 256000,
                                        .gated_mlp = true,
                                        .tied_embeddings = true,
                                        .biases = false,
                                        .norm = norm_kind::rms_norm};
};
static_assert(model_parameters<palm_540b>().total > 540'300'000'000 &&
              model_parameters<palm_540b>().total < 540'400'000'000);  // "540.35"

/// MaxText "32B" (configs/v5p/32b.sh: global_parameter_scale=32 on base.yml): d 8192, 64 heads
/// of 128 (MHA), mlp 28672 SwiGLU, 32 layers, vocab 32000, untied logits, RMSNorm. Derived from
/// the scale rules, not published as a shape.
struct maxtext_32b {
  static constexpr model_shape shape = {.name = "maxtext-32b",
                                        .layers = 32,
                                        .d_model = 8192,
                                        .d_ff = 28672,
                                        .heads = 64,
                                        .kv_heads = 64,
                                        .head_dim = 128,
                                        .vocab = 32000};
};

// --- the runs ---------------------------------------------------------------------------------

// [1] Narayanan et al. 2021 (arXiv:2104.04473) Table 1, row 1.7B, with the run settings of
// NVIDIA/Megatron-LM examples/sc21/run_table_1.sh: TP=1 PP=1 MBS=16 GBS=512, 32 GPUs (4 nodes),
// --activations-checkpoint-method uniform, --fp16, DDP=torch. "137" TFLOP/s/GPU (Eq. 3).
using meg21_1_7b =
    training_plan<models::megatron_gpt_1_7b, systems::dgx_a100_superpod<4>, mesh<axis<"dp", 32>>,
                  data<"dp">, batch<global_sequences<512>, seq_len<2048>, micro_batch<16>>,
                  recompute::full, precision::megatron_mixed_adam, with_dropout, eager_attention>;

// [2] Same table, row 1T: TP=8 PP=64 MBS=1 GBS=3072, 3072 GPUs (384 nodes), DDP=local (no
// gradient overlap), full recompute; the script sets no virtual stages, so 1F1B. "163" TFLOP/s.
using meg21_1t =
    training_plan<models::megatron_gpt_1t, systems::nvlink_fat_tree<hardware::a100_80gb, 384>,
                  mesh<axis<"dp", 6>, axis<"pp", 64>, axis<"tp", 8>>, data<"dp">, pipeline<"pp">,
                  tensor<"tp">, batch<global_sequences<3072>, seq_len<2048>, micro_batch<1>>,
                  recompute::full, precision::megatron_mixed_adam, with_dropout, eager_attention>;

// [3] Korthikanti et al. 2022 (arXiv:2205.05198) Table 3 and 5: GPT-3 175B, TP8 PP8, 64 GPUs,
// GBS 64, MBS 1, interleaved m = 3, no data parallelism. 18.13 s (full recompute) and 13.75 s
// (sequence parallelism + selective recompute).
template <class Tensor, class Recompute>
using kor22_175b =
    training_plan<models::megatron_gpt<96, 12288, 96>, systems::dgx_a100_superpod<8>,
                  mesh<axis<"pp", 8>, axis<"tp", 8>>, pipeline<"pp", schedule::interleaved<3>>,
                  Tensor, batch<global_sequences<64>, seq_len<2048>, micro_batch<1>>, Recompute,
                  precision::megatron_mixed_adam, with_dropout, eager_attention>;

// [4] Same paper: MT-NLG 530B (105 layers, h 20480, 128 heads), TP8 PP35, 280 GPUs, GBS 280,
// m = 3. 49.05 s (full) and 37.83 s (SP + selective).
template <class Tensor, class Recompute>
using kor22_530b =
    training_plan<models::megatron_gpt_530b, systems::dgx_a100_superpod<35>,
                  mesh<axis<"pp", 35>, axis<"tp", 8>>, pipeline<"pp", schedule::interleaved<3>>,
                  Tensor, batch<global_sequences<280>, seq_len<2048>, micro_batch<1>>, Recompute,
                  precision::megatron_mixed_adam, with_dropout, eager_attention>;

// [4b] Same paper, Sec. 6.3: 530B at 8-way data parallelism (2240 GPUs, 280 nodes), batch per
// model instance constant (GBS 2240), SP + selective, "we do not use any overlapping of gradient
// all-reduces with back-propagation". 39.15 s.
using kor22_530b_dp8 =
    training_plan<models::megatron_gpt_530b, systems::nvlink_fat_tree<hardware::a100_80gb, 280>,
                  mesh<axis<"dp", 8>, axis<"pp", 35>, axis<"tp", 8>>, data<"dp">,
                  pipeline<"pp", schedule::interleaved<3>>, tensor<"tp", sequence_parallel>,
                  batch<global_sequences<2240>, seq_len<2048>, micro_batch<1>>,
                  recompute::selective, precision::megatron_mixed_adam, with_dropout, eager_attention>;

// [A3] Same paper, 22B (48 layers, h 6144, 64 heads) on one DGX node: TP8, GBS 4, MBS 4.
// 1.42 s (full) and 1.10 s (SP + selective).
template <class Tensor, class Recompute>
using kor22_22b = training_plan<models::megatron_gpt<48, 6144, 64>, systems::dgx_a100_superpod<1>,
                                mesh<axis<"tp", 8>>, Tensor,
                                batch<global_sequences<4>, seq_len<2048>, micro_batch<4>>,
                                Recompute, precision::megatron_mixed_adam, with_dropout, eager_attention>;

// [A3] Same paper, 1T (128 layers, h 25600, 160 heads): TP8 PP64, 512 GPUs, GBS 512, MBS 1,
// no interleaving. 94.42 s (full) and 71.49 s (SP + selective).
template <class Tensor, class Recompute>
using kor22_1t = training_plan<models::megatron_gpt_1t, systems::dgx_a100_superpod<64>,
                               mesh<axis<"pp", 64>, axis<"tp", 8>>, pipeline<"pp">, Tensor,
                               batch<global_sequences<512>, seq_len<2048>, micro_batch<1>>,
                               Recompute, precision::megatron_mixed_adam, with_dropout, eager_attention>;

// [6] BLOOM 176B, bigscience train/tr11-176B-ml (README and slurm): 384 A100 80GB (48 nodes),
// TP=4 PP=12 DP=8, ZeRO-1 (DeepSpeed bf16 "its own zero stage 1 equivalent"), MBS 2, GBS 2048,
// seq 2048, --checkpoint-activations, --bf16. "elapsed time per iteration (s): 104.70".
using bloom =
    training_plan<bloom_176b, systems::nvlink_fat_tree<a100_80gb_jean_zay, 48>,
                  mesh<axis<"dp", 8>, axis<"pp", 12>, axis<"tp", 4>>, zero<1, "dp">,
                  pipeline<"pp", schedule::one_f_one_b, uneven_stages>, tensor<"tp">,
                  batch<global_sequences<2048>, seq_len<2048>, micro_batch<2>>, recompute::full,
                  precision::bf16_mixed_adam, eager_attention>;

// [7] llm-foundry benchmarks, "A100 80GB with 1600 Gbps node-node interconnect (RoCE)": MPT-70B,
// 64 GPUs, FULL_SHARD, MBS 8, GA 4, GBS 2048, seq 2048, activation checkpointing, bf16.
// 26274 tokens/s (410 per GPU).
using mpt_70b_a100 =
    training_plan<mpt_70b, systems::nvlink_fat_tree<hardware::a100_80gb, 8>, mesh<axis<"dp", 64>>,
                  fsdp<"dp">, batch<global_sequences<2048>, seq_len<2048>, micro_batch<8>>,
                  recompute::full, precision::bf16_mixed_adam>;

// [A4] Same file, "H100 80GB BF16": MPT-70B, 64 GPUs, MBS 8, GA 4, GBS 2048, activation
// checkpointing. 66523 tokens/s. Interconnect not stated (we assume 400 Gb/s per GPU).
using mpt_70b_h100 =
    training_plan<mpt_70b, systems::nvlink_fat_tree<hardware::h100_sxm, 8>, mesh<axis<"dp", 64>>,
                  fsdp<"dp">, batch<global_sequences<2048>, seq_len<2048>, micro_batch<8>>,
                  recompute::full, precision::bf16_mixed_adam>;

// [8] Same file: MPT-7B on 8 H100, FULL_SHARD, MBS 6, GA 1, GBS 48, seq 2048, no activation
// checkpointing (flash attention: the softmax is recomputed, which `selective` models).
// 85144 tokens/s (10643 per GPU).
using mpt_7b_h100 =
    training_plan<mpt_7b, systems::nvlink_fat_tree<hardware::h100_sxm, 1>, mesh<axis<"dp", 8>>,
                  fsdp<"dp">, batch<global_sequences<48>, seq_len<2048>, micro_batch<6>>,
                  recompute::selective, precision::bf16_mixed_adam>;

// [9] torchtitan benchmarks/llama3_h100_202412_torchtitan.md, Table 1: Llama 3.1 8B, 8 GPUs,
// FSDP, local batch 2, global batch 16, selective activation checkpointing, bf16 (no compile, no
// Float8): "FSDP | 5,762" tokens/s/GPU. Sequence length 8192 is torchtitan's default, not stated.
using tt_8b = training_plan<models::llama3_8b, systems::nvlink_fat_tree<h100_96gb_500w, 1>,
                            mesh<axis<"dp", 8>>, fsdp<"dp">,
                            batch<global_sequences<16>, seq_len<8192>, micro_batch<2>>,
                            recompute::selective, precision::bf16_mixed_adam>;

// [13] Llama 3 (arXiv:2407.21783) Sec. 3.3.2, Table 4: 405B, TP8 CP1 PP16, DP 64 (8192 GPUs)
// or 128 (16384 GPUs), seq 8192, 16M tokens per batch, FSDP that shards optimizer states and
// gradients but keeps parameters (ZeRO-2), interleaved 1F1B, no activation checkpointing at 8K.
// 430 and 400 TFLOPs/GPU (BF16 MFU 43% and 41%). Micro-batch (1) and virtual stages (2) are
// not published; 126 layers sit unevenly on 16 stages (Meta drops one layer from the first
// and the last stage).
template <std::int64_t Nodes, std::int64_t Data>
using llama3_405b_meta =
    training_plan<models::llama3_405b, systems::nvlink_fat_tree<hardware::h100_sxm, Nodes>,
                  mesh<axis<"dp", Data>, axis<"pp", 16>, axis<"tp", 8>>, zero<2, "dp">,
                  pipeline<"pp", schedule::interleaved<2>, uneven_stages>,
                  tensor<"tp", sequence_parallel>,
                  batch<global_sequences<2048>, seq_len<8192>, micro_batch<1>>,
                  recompute::selective, precision::bf16_mixed_adam>;

// [15] PaLM (arXiv:2204.02311) Sec. 4 and 5: 540B on 2 TPU v4 pods of 3072 chips, per pod
// 12-way model parallelism x 256-way fully sharded data parallelism, 2-way data parallelism
// across pods over DCN, batch 2048 x 2048, one activation tensor saved per layer (the rest
// rematerialised). "238.3K tokens/sec at the batch size of 2048". The 3072-chip slice shape
// (12x16x16) is our assumption; "fully sharded" saved activations are split over the model axis
// too (sequence parallelism); MQA's single KV head is replicated over the 12 model-parallel
// ranks, which the rule check reports.
using palm = training_plan<palm_540b, systems::tpu_v4p_slice<12, 16, 16, 2>,
                           mesh<axis<"pod", 2>, axis<"fsdp", 256>, axis<"mp", 12>>, data<"pod">,
                           zero<3, "fsdp">, tensor<"mp", sequence_parallel>,
                           batch<global_sequences<2048>, seq_len<2048>, micro_batch<4>>,
                           recompute::checkpoints<1>, precision::bf16_mixed_adam>;

// [16] AI-Hypercomputer/maxtext MaxText/configs/v5p/README.md "1x v5p-128 | 328 | 71.47%" and
// configs/v5p/32b.sh: per_device_batch_size=7 remat_policy=minimal ici_fsdp_parallelism=-1
// ici_tensor_parallelism=4 max_target_length=2048 attention=flash. v5p-128 counts TensorCores:
// 64 chips, a 4x4x4 cube, so FSDP 16 x TP 4 and a global batch of 7 x 64 = 448 sequences,
// sharded over the FSDP axis only (28 per replica). remat "minimal" saves the matmul outputs
// and recomputes attention: `selective`; activations sharded over the tensor axis: SP.
using maxtext_32b_v5p = training_plan<maxtext_32b, systems::tpu_v5p_slice<4, 4, 4>,
                                      mesh<axis<"fsdp", 16>, axis<"tp", 4>>, fsdp<"fsdp">,
                                      tensor<"tp", sequence_parallel>,
                                      batch<global_sequences<448>, seq_len<2048>, micro_batch<28>>,
                                      recompute::selective, precision::bf16_mixed_adam>;

// --- published figures as step times -----------------------------------------------------------

/// Seconds per iteration from Megatron's Eq. 3 hardware TFLOP/s (Narayanan et al. 2021).
double megatron_step(double batch, double layers, double hidden, double gpus, double tflops) {
  return (megatron_flops_per_iteration(batch, 2048.0, layers, hidden, 51200.0) /
          (gpus * tflops * tera * flop / second))
      .value();
}

/// Seconds per step from published tokens per second (whole job).
double step_from_tokens(double tokens_per_step, double tokens_per_second) {
  return tokens_per_step / tokens_per_second;
}

/// Seconds per step from published model TFLOP/s per chip under PaLM's 6N + 12·L·H·Q·T.
template <class Model>
double palm_step(double tokens_per_step, double seq, double chips, double tflops) {
  const model_shape& m = Model::shape;
  const double n = static_cast<double>(model_parameters<Model>().total);
  const flops per_token =
      palm_flops_per_token(n, static_cast<double>(m.layers), static_cast<double>(m.heads),
                           static_cast<double>(m.head_dim), seq);
  return (per_token * tokens_per_step / (chips * tflops * tera * flop / second)).value();
}

// --- the runner --------------------------------------------------------------------------------

enum class family { a100, h100, tpu };

constexpr const char* name_of(family f) {
  switch (f) {
    case family::a100:
      return "A100";
    case family::h100:
      return "H100";
    case family::tpu:
      return "TPU";
  }
  return "?";
}

/// The chip class `default_efficiency` distinguishes.
constexpr family family_of(const chip_figures& c) {
  if (c.kind == chip_kind::tpu) return family::tpu;
  return c.peak_bf16.value() > 500e12 ? family::h100 : family::a100;
}

struct result {
  std::string id;
  family fam = family::a100;
  std::int64_t chips = 0;
  std::string rules;  ///< broken plan rules, empty when the plan is feasible
  double predicted = 0.0;
  double published = 0.0;
  step_cost cost{};
  std::string why;

  double error() const { return (predicted - published) / published * 100.0; }
};

template <class Plan>
result evaluate(std::string id, double published_step, step_assumptions a, std::string why) {
  result r;
  r.id = std::move(id);
  r.fam = family_of(Plan::values.system.chip);
  r.chips = mesh_devices(Plan::values);
  for (std::size_t i = 0; i < Plan::violations.count; ++i) {
    const violation& x = Plan::violations.items[i];
    if (!r.rules.empty()) r.rules += "; ";
    r.rules += x.rule == plan_rule::fits_in_memory ? "DOES NOT FIT: " : "rule broken: ";
    r.rules += describe(x);
  }
  r.cost = estimate_step(Plan::values, a);
  r.predicted = r.cost.step.value();
  r.published = published_step;
  r.why = std::move(why);
  return r;
}

std::vector<result> runs() {
  using tp_sp = tensor<"tp", sequence_parallel>;
  using tp = tensor<"tp">;
  constexpr step_assumptions full{.attention = attention_flops::full};
  constexpr step_assumptions full_no_overlap{.attention = attention_flops::full,
                                             .overlap_data_parallel = false};
  constexpr step_assumptions causal{.attention = attention_flops::causal};
  std::vector<result> v;
  v.push_back(
      evaluate<meg21_1_7b>("MEG21-1.7B", megatron_step(512, 24, 2304, 32, 137), full,
                           "no tensor or pipeline parallelism: compute only; the "
                           "elementwise-traffic estimate (0.81 of 3.3 s) carries any miss"));
  v.push_back(evaluate<meg21_1t>("MEG21-1T", megatron_step(3072, 128, 25600, 3072, 163),
                                 full_no_overlap,
                                 "1F1B as the script runs it; with the paper's interleaving (v = "
                                 "2) the prediction is 98.8 s (-3.8%)"));
  v.push_back(evaluate<kor22_22b<tp, recompute::full>>(
      "KOR22-22B-full", 1.42, full,
      "small per-GPU GEMMs (h/t = 768) run below the A100 default efficiency"));
  v.push_back(evaluate<kor22_22b<tp_sp, recompute::selective>>(
      "KOR22-22B-selSP", 1.10, full,
      "small per-GPU GEMMs (h/t = 768) run below the A100 default efficiency"));
  v.push_back(evaluate<kor22_175b<tp, recompute::full>>(
      "KOR22-175B-full", 18.13, full,
      "TP all-reduces (1.4 s) and bubble (0.6 s) on top of compute"));
  v.push_back(evaluate<kor22_175b<tp_sp, recompute::selective>>(
      "KOR22-175B-selSP", 13.75, full,
      "eager attention: the recomputed softmax is charged its s x s traffic"));
  v.push_back(evaluate<kor22_530b<tp, recompute::full>>(
      "KOR22-530B-full", 49.05, full,
      "interleaved bubble (p-1)/(v m) with m = p; TP all-reduces on the critical path"));
  v.push_back(evaluate<kor22_530b<tp_sp, recompute::selective>>(
      "KOR22-530B-selSP", 37.83, full,
      "interleaved bubble (p-1)/(v m) with m = p; TP all-reduces on the critical path"));
  v.push_back(evaluate<kor22_530b_dp8>(
      "KOR22-530B-DP8-selSP", 39.15, full_no_overlap,
      "no overlap of the gradient all-reduce (the paper: \"we do not use any overlapping\")"));
  v.push_back(evaluate<kor22_1t<tp, recompute::full>>(
      "KOR22-1T-full", 94.42, full,
      "the 2022 code runs the same per-replica work 8% faster than the 2021 code (94.4 vs 102.6 "
      "s); one A100 efficiency cannot fit both papers"));
  v.push_back(evaluate<kor22_1t<tp_sp, recompute::selective>>(
      "KOR22-1T-selSP", 71.49, full,
      "the 2022 code runs the same per-replica work 8% faster than the 2021 code; one A100 "
      "efficiency cannot fit both papers"));
  v.push_back(evaluate<bloom>("BLOOM-176B", 104.70, full,
                              "70 layers unevenly on 12 stages (the fullest holds 6); OmniPath link "
                              "rate assumed"));
  v.push_back(evaluate<mpt_70b_a100>(
      "MPT-70B-A100", step_from_tokens(2048.0 * 2048.0, 26274.0), causal,
      "the run reached 71% HFU, above what the 0.62 A100 default gives (it needs 0.77): "
      "llm-foundry's flash-attention and FSDP kernels beat Megatron-2021's"));
  v.push_back(evaluate<mpt_70b_h100>(
      "MPT-70B-H100", step_from_tokens(2048.0 * 2048.0, 66523.0), causal,
      "interconnect not stated (400 Gb/s per GPU assumed)"));
  v.push_back(evaluate<mpt_7b_h100>(
      "MPT-7B-H100", step_from_tokens(48.0 * 2048.0, 85144.0), causal,
      "small GEMMs (d_model 4096, 6 x 2048 tokens per GPU) reach 46% MFU; one H100 efficiency "
      "(0.62) is too high for them (this run needs 0.49)"));
  v.push_back(evaluate<tt_8b>(
      "TT-L3-8B-FSDP", step_from_tokens(16.0 * 8192.0, 5762.0 * 8.0), causal,
      "500 W-capped HBM2e H100s in eager PyTorch (torch.compile alone adds 16%): the run needs "
      "efficiency 0.33; seq 8192 is inferred (at 2048 the miss is -49%)"));
  v.push_back(evaluate<llama3_405b_meta<1024, 64>>(
      "L3-405B-8K-GPU", palm_step<models::llama3_405b>(2048.0 * 8192.0, 8192, 8192, 430), causal,
      "virtual stages unpublished: V = 1/2/4/8 give +11/-5/-13/-17%"));
  v.push_back(evaluate<llama3_405b_meta<2048, 128>>(
      "L3-405B-16K-GPU", palm_step<models::llama3_405b>(2048.0 * 8192.0, 8192, 16384, 400), causal,
      "virtual stages unpublished: V = 1/2/4/8 give +33/+4/-12/-19%"));
  v.push_back(evaluate<palm>(
      "PALM-540B", step_from_tokens(2048.0 * 2048.0, 238.3e3), full,
      "the plain data axis over DCN is charged ZeRO-3 gathers and scatters of the whole 90 GB "
      "tensor-parallel shard (21.6 s, 11.1 s exposed) instead of one all-reduce of the 352 MB ZeRO "
      "shard (0.06 s): one pod alone predicts +16.5%; the 12-way TP all-reduces (4.75 s) are all "
      "exposed though XLA overlaps them"));
  v.push_back(evaluate<maxtext_32b_v5p>(
      "MAXTEXT-32B-v5p", palm_step<maxtext_32b>(448.0 * 2048.0, 2048, 64, 328), causal,
      "the TPU default 0.70 is below what MaxText reaches (this run needs 0.86 with its TP "
      "all-reduces exposed); the TP all-reduces (1.34 s) sit on the critical path; shape derived "
      "from scale rules"));
  return v;
}

}  // namespace

int main() {
  const std::vector<result> v = runs();
  std::printf("shardplan validation: predicted vs published step time (s), library defaults\n\n");
  std::printf("%-22s %-5s %6s %10s %10s %8s  %s\n", "run", "chip", "chips", "predicted",
              "published", "error%", "fits? / why it misses (|error| > 10%)");
  double sum = 0.0;
  double fam_sum[3] = {0.0, 0.0, 0.0};
  int fam_n[3] = {0, 0, 0};
  for (const result& r : v) {
    const double e = r.error();
    sum += std::fabs(e);
    fam_sum[static_cast<int>(r.fam)] += std::fabs(e);
    ++fam_n[static_cast<int>(r.fam)];
    std::printf("%-22s %-5s %6lld %10.2f %10.2f %+8.1f  %s\n", r.id.c_str(), name_of(r.fam),
                static_cast<long long>(r.chips), r.predicted, r.published, e,
                r.rules.empty() ? "fits" : r.rules.c_str());
    if (std::fabs(e) > 10.0) std::printf("%-22s   why: %s\n", "", r.why.c_str());
  }
  std::printf(
      "\nbreakdown of the prediction (s): compute (of which elementwise), bubble, exposed "
      "communication, optimizer; predicted MFU (run's attention convention)\n");
  std::printf("%-22s %9s %9s %8s %8s %8s %6s\n", "run", "compute", "(elemw)", "bubble", "comm",
              "optim", "MFU%");
  for (const result& r : v) {
    const step_cost& c = r.cost;
    std::printf("%-22s %9.2f %9.2f %8.2f %8.2f %8.2f %6.1f\n", r.id.c_str(), c.compute.value(),
                c.elementwise.value(), c.bubble.value(), c.communication_exposed.value(),
                c.optimizer.value(), c.mfu * 100.0);
  }
  const double mae = sum / static_cast<double>(v.size());
  std::printf("\nmean absolute error over %zu runs: %.1f%%\n", v.size(), mae);
  for (int f = 0; f < 3; ++f)
    if (fam_n[f] > 0)
      std::printf("  %-5s (%2d runs): %.1f%%\n", name_of(static_cast<family>(f)), fam_n[f],
                  fam_sum[f] / fam_n[f]);
  std::printf("regression threshold 10%%: %s\n", mae <= 10.0 ? "pass" : "FAIL");
  return mae <= 10.0 ? 0 : 1;
}
