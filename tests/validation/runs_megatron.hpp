// Megatron-LM runs: S01 Narayanan et al. 2021 (Tables 1, 2), Korthikanti et al. 2022, S02 the
// Megatron-Core r0.8 README, and BLOOM (Megatron-DeepSpeed). Figures: RUNS.md.
#pragma once

#include "runs_common.hpp"

namespace validation {

// --- S01 Narayanan et al. 2021 (arXiv:2104.04473), Table 1, with the settings of
// NVIDIA/Megatron-LM examples/sc21/run_table_1.sh (parent of f2e72c8): --fp16, full recompute
// (--activations-checkpoint-method uniform), eager attention, dropout. DDP=torch overlaps the
// gradient all-reduce; DDP=local (39.1B and up) does not. The Megatron-LM of 2021 all-reduced
// each input gradient before its weight gradient (`sync_tp_backward`). -----------------------

/// A Table 1 row: `Nodes` DGX A100 (superpod up to its 140 nodes, else a fat tree of A100s),
/// DP x PP x TP, GBS, MBS, schedule, overlap.
template <class Model, class System, std::int64_t Dp, std::int64_t Pp, std::int64_t Tp,
          std::int64_t Gbs, std::int64_t Mbs, class Schedule, class... Extra>
using meg21_plan = training_plan<
    Model, System, mesh<axis<"pp", Pp>, axis<"dp", Dp>, axis<"tp", Tp>>, data<"dp">,
    pipeline<"pp", Schedule>, tensor<"tp">,
    batch<global_sequences<Gbs>, seq_len<2048>, micro_batch<Mbs>>, recompute::full,
    precision::megatron_mixed_adam, with_dropout, eager_attention, eager_full,
    framework::megatron_core, sync_tp_backward, Extra...>;

using a100_fat = hardware::a100_80gb;
template <std::int64_t Nodes>
using selene = systems::dgx_a100_superpod<Nodes>;
template <std::int64_t Nodes>
using selene_big = systems::nvlink_fat_tree<a100_fat, Nodes>;

// [1] row 1.7B: TP=1 PP=1 MBS=16 GBS=512, 32 GPUs, DDP=torch. "137" TFLOP/s/GPU (Eq. 3).
using meg21_1_7b =
    training_plan<models::megatron_gpt_1_7b, systems::dgx_a100_superpod<4>, mesh<axis<"dp", 32>>,
                  data<"dp">, batch<global_sequences<512>, seq_len<2048>, micro_batch<16>>,
                  recompute::full, precision::megatron_mixed_adam, with_dropout, eager_attention,
                  eager_full, framework::megatron_core>;
// row 3.6B: TP=2, 64 GPUs, MBS 16, GBS 512, DDP=torch. "138".
using meg21_3_6b =
    training_plan<models::megatron_gpt_3_6b, selene<8>, mesh<axis<"dp", 32>, axis<"tp", 2>>,
                  data<"dp">, tensor<"tp">,
                  batch<global_sequences<512>, seq_len<2048>, micro_batch<16>>, recompute::full,
                  precision::megatron_mixed_adam, with_dropout, eager_attention, eager_full,
                  framework::megatron_core, sync_tp_backward>;
// row 7.5B: TP=4, 128 GPUs, MBS 16, GBS 512, DDP=torch. "142".
using meg21_7_5b =
    training_plan<models::megatron_gpt_7_5b, selene<16>, mesh<axis<"dp", 32>, axis<"tp", 4>>,
                  data<"dp">, tensor<"tp">,
                  batch<global_sequences<512>, seq_len<2048>, micro_batch<16>>, recompute::full,
                  precision::megatron_mixed_adam, with_dropout, eager_attention, eager_full,
                  framework::megatron_core, sync_tp_backward>;
// row 18.4B: TP=8, 256 GPUs, MBS 8, GBS 1024, DDP=torch. "135".
using meg21_18b =
    training_plan<models::megatron_gpt_18b, selene<32>, mesh<axis<"dp", 32>, axis<"tp", 8>>,
                  data<"dp">, tensor<"tp">,
                  batch<global_sequences<1024>, seq_len<2048>, micro_batch<8>>, recompute::full,
                  precision::megatron_mixed_adam, with_dropout, eager_attention, eager_full,
                  framework::megatron_core, sync_tp_backward>;
// row 39.1B: TP8 PP2, 512 GPUs, MBS 4, GBS 1536, no virtual stages set (1F1B), DDP=local. "138".
using meg21_39b = meg21_plan<models::megatron_gpt_39b, selene<64>, 32, 2, 8, 1536, 4,
                             schedule::one_f_one_b, no_overlap>;
// row 76.1B: TP8 PP4, 1024 GPUs, MBS 2, GBS 1792, 5 layers per virtual stage (3 chunks). "140".
using meg21_76b = meg21_plan<models::megatron_gpt_76b, selene<128>, 32, 4, 8, 1792, 2,
                             schedule::interleaved<3>, no_overlap>;
// row 145.6B: TP8 PP8, 1536 GPUs, MBS 2, GBS 2304, 5 layers per virtual stage (2 chunks). "148".
using meg21_145b = meg21_plan<models::megatron_gpt_145b, selene_big<192>, 24, 8, 8, 2304, 2,
                              schedule::interleaved<2>, no_overlap>;
// row 310.1B: TP8 PP16, 1920 GPUs, MBS 1, GBS 2160, 3 layers per virtual stage (2 chunks). "155".
using meg21_310b = meg21_plan<models::megatron_gpt_310b, selene_big<240>, 15, 16, 8, 2160, 1,
                              schedule::interleaved<2>, no_overlap>;
// row 529.6B: TP8 PP35, 2520 GPUs, MBS 1, GBS 2520, 1 layer per virtual stage (3 chunks). "163".
using meg21_530b = meg21_plan<models::megatron_gpt_530b, selene_big<315>, 9, 35, 8, 2520, 1,
                              schedule::interleaved<3>, no_overlap>;
// [2] row 1T: TP=8 PP=64 MBS=1 GBS=3072, 3072 GPUs, DDP=local; no virtual stages set. "163".
using meg21_1t = meg21_plan<models::megatron_gpt_1t, selene_big<384>, 6, 64, 8, 3072, 1,
                            schedule::one_f_one_b, no_overlap>;

// Table 2: ZeRO-3 (DeepSpeed in Megatron, TP = PP = 1) against PTD-P; GPT-3 175B (96 L, h 12288,
// 96 heads) and 530B; s = 2048, V = 51200. Recompute: Eq. 3 "assumes activation recomputation"
// for every figure (full). PTD-P split TP 8 x PP 12 (175B) and TP 8 x PP 35 (530B) [I, the
// table gives the model-parallel size 96 / 280 only]; interleaved, V unstated: V = 2 for 175B
// (rule 2), 3 chunks for 530B as in its Table 1 row. ZeRO-3 as DeepSpeed ran it with its
// defaults until v0.4.2 (`zero3_per_tensor`): the paper is of April 2021 (arXiv:2104.04473),
// when v0.3.13 to v0.3.16 were current; its DeepSpeed configuration is not published.
template <class Model, std::int64_t Gpus, std::int64_t Gbs, std::int64_t Mbs>
using meg21_z3 = training_plan<Model, selene_big<Gpus / 8>, mesh<axis<"dp", Gpus>>, fsdp<"dp">,
                               batch<global_sequences<Gbs>, seq_len<2048>, micro_batch<Mbs>>,
                               recompute::full, precision::megatron_mixed_adam, with_dropout,
                               eager_attention, eager_full, framework::deepspeed,
                               zero3_per_tensor>;
using gpt3_175b_meg = models::megatron_gpt<96, 12288, 96>;
template <std::int64_t Gpus, std::int64_t Gbs>
using meg21_p175 = meg21_plan<gpt3_175b_meg, selene_big<Gpus / 8>, Gpus / 96, 12, 8, Gbs, 1,
                              schedule::interleaved<2>, no_overlap>;
template <std::int64_t Gpus, std::int64_t Gbs>
using meg21_p530 = meg21_plan<models::megatron_gpt_530b, selene_big<Gpus / 8>, Gpus / 280, 35, 8,
                              Gbs, 1, schedule::interleaved<3>, no_overlap>;

// --- Korthikanti et al. 2022 (arXiv:2205.05198) Tables 3 and 5 ---------------------------------

// GPT-3 175B, TP8 PP8, 64 GPUs, GBS 64, MBS 1, interleaved m = 3, no data parallelism.
template <class Tensor, class Recompute>
using kor22_175b =
    training_plan<gpt3_175b_meg, systems::dgx_a100_superpod<8>,
                  mesh<axis<"pp", 8>, axis<"tp", 8>>, pipeline<"pp", schedule::interleaved<3>>,
                  Tensor, batch<global_sequences<64>, seq_len<2048>, micro_batch<1>>, Recompute,
                  precision::megatron_mixed_adam, with_dropout, eager_attention, eager_full,
                  framework::megatron_core>;
// MT-NLG 530B, TP8 PP35, 280 GPUs, GBS 280, m = 3.
template <class Tensor, class Recompute>
using kor22_530b =
    training_plan<models::megatron_gpt_530b, systems::dgx_a100_superpod<35>,
                  mesh<axis<"pp", 35>, axis<"tp", 8>>, pipeline<"pp", schedule::interleaved<3>>,
                  Tensor, batch<global_sequences<280>, seq_len<2048>, micro_batch<1>>, Recompute,
                  precision::megatron_mixed_adam, with_dropout, eager_attention, eager_full,
                  framework::megatron_core>;
// Sec. 6.3: 530B at 8-way data parallelism (2240 GPUs), GBS 2240, SP + selective, "we do not
// use any overlapping of gradient all-reduces with back-propagation".
using kor22_530b_dp8 =
    training_plan<models::megatron_gpt_530b, systems::nvlink_fat_tree<a100_fat, 280>,
                  mesh<axis<"pp", 35>, axis<"dp", 8>, axis<"tp", 8>>, data<"dp">,
                  pipeline<"pp", schedule::interleaved<3>>, tensor<"tp", sequence_parallel>,
                  batch<global_sequences<2240>, seq_len<2048>, micro_batch<1>>,
                  recompute::selective, precision::megatron_mixed_adam, with_dropout,
                  eager_attention, eager_full, no_overlap, framework::megatron_core>;
// 22B (48 layers, h 6144, 64 heads) on one DGX node: TP8, GBS 4, MBS 4.
template <class Tensor, class Recompute>
using kor22_22b =
    training_plan<models::megatron_gpt<48, 6144, 64>, systems::dgx_a100_superpod<1>,
                  mesh<axis<"tp", 8>>, Tensor,
                  batch<global_sequences<4>, seq_len<2048>, micro_batch<4>>, Recompute,
                  precision::megatron_mixed_adam, with_dropout, eager_attention, eager_full,
                  framework::megatron_core>;
// 1T: TP8 PP64, 512 GPUs, GBS 512, MBS 1, no interleaving.
template <class Tensor, class Recompute>
using kor22_1t =
    training_plan<models::megatron_gpt_1t, systems::dgx_a100_superpod<64>,
                  mesh<axis<"pp", 64>, axis<"tp", 8>>, pipeline<"pp">, Tensor,
                  batch<global_sequences<512>, seq_len<2048>, micro_batch<1>>, Recompute,
                  precision::megatron_mixed_adam, with_dropout, eager_attention, eager_full,
                  framework::megatron_core>;

// --- S02 NVIDIA Megatron-LM README "Performance Benchmarking" (Megatron-Core r0.8.0, H100) ----
// [R] NVIDIA/Megatron-LM images/model_table.png at f2e5db4: V 131072, seq 4096, up to 6144
// H100, --overlap-grad-reduce --overlap-param-gather (distributed optimizer: ZeRO-1, rule 8)
// --tp-comm-overlap (needs sequence parallelism, rule 8). FFN 4h, MHA, untied embeddings [I]
// (their parameter counts match the table's names); precision BF16 [D: 408.8 / 0.41 = 997];
// MBS 1 (rule 1); 1F1B where PP > 1 (rule 2, no VP stated); recompute none (rule 5).

/// The README's GPT: FFN 4h GeLU, MHA, untied embeddings, RoPE-free (no learned positions
/// counted), LayerNorm with biases [I].
constexpr model_shape mcore_shape(std::int64_t layers, std::int64_t h, std::int64_t heads) {
  return {.name = "mcore-gpt",
          .layers = layers,
          .d_model = h,
          .d_ff = 4 * h,
          .heads = heads,
          .kv_heads = heads,
          .head_dim = h / heads,
          .vocab = 131072,
          .gated_mlp = false,
          .tied_embeddings = false,
          .biases = true,
          .norm = norm_kind::layer_norm};
}
template <std::int64_t L, std::int64_t H, std::int64_t Heads>
struct mcore_gpt {
  static constexpr model_shape shape = mcore_shape(L, H, Heads);
};
// The names 1.7 / 7.1 / 16 / 32 / 70 / 119 / 177 / 314 / 462 B, within 3% (biases and norms
// add a little to 12·l·h² + 2·V·h).
constexpr bool near(std::int64_t n, double billions) {
  const double x = static_cast<double>(n) / 1e9;
  return x > 0.97 * billions && x < 1.03 * billions;
}
static_assert(near(model_parameters<mcore_gpt<24, 2048, 16>>().total, 1.7));
static_assert(near(model_parameters<mcore_gpt<30, 4096, 32>>().total, 7.1));
static_assert(near(model_parameters<mcore_gpt<32, 6144, 48>>().total, 16));
static_assert(near(model_parameters<mcore_gpt<48, 7168, 56>>().total, 32));
static_assert(near(model_parameters<mcore_gpt<84, 8192, 64>>().total, 70));
static_assert(near(model_parameters<mcore_gpt<92, 10240, 80>>().total, 119));
static_assert(near(model_parameters<mcore_gpt<96, 12288, 96>>().total, 177));
static_assert(near(model_parameters<mcore_gpt<96, 16384, 128>>().total, 314));
static_assert(near(model_parameters<mcore_gpt<112, 18432, 144>>().total, 462));

template <std::int64_t L, std::int64_t H, std::int64_t Heads, std::int64_t Tp, std::int64_t Pp,
          std::int64_t Dp, std::int64_t Gbs>
using mcore24_plan = training_plan<
    mcore_gpt<L, H, Heads>, systems::dgx_h100_superpod<Tp * Pp * Dp / 8>,
    mesh<axis<"pp", Pp>, axis<"dp", Dp>, axis<"tp", Tp>>, zero<1, "dp">, pipeline<"pp">,
    tensor<"tp", sequence_parallel>, batch<global_sequences<Gbs>, seq_len<4096>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam, framework::megatron_core, tp_comm_overlap>;

// --- BLOOM 176B, bigscience train/tr11-176B-ml (README and slurm) ------------------------------

/// A BLOOM-family shape (bigscience train/tr11-176B-ml): Megatron's GPT (`megatron_gpt_shape`:
/// FFN 4h GeLU, tied embeddings, biases, LayerNorm) with ALiBi instead of learned positions and
/// --pad-vocab-size-to 250880. The embedding LayerNorm (2h parameters) is not modelled.
constexpr model_shape bloom_shape(std::string_view name, std::int64_t layers, std::int64_t hidden,
                                  std::int64_t heads) {
  model_shape s = models::megatron_gpt_shape(name, layers, hidden, heads);
  s.vocab = 250880;
  s.position_embeddings = 0;
  return s;
}

/// BLOOM 176B (tr11-176B-ml.slurm): NLAYERS=70 NHIDDEN=14336 NHEADS=112.
struct bloom_176b {
  static constexpr model_shape shape = bloom_shape("bloom-176b", 70, 14336, 112);
};
// Published 176,247,271,424 parameters less the embedding LayerNorm.
static_assert(model_parameters<bloom_176b>().total == 176'247'271'424 - 28'672);

/// BLOOM's layout on Jean Zay, for `Model`, a batch and a precision: 384 A100 80GB (48 nodes),
/// TP=4 PP=12 DP=8, ZeRO-1, seq 2048, --checkpoint-activations, eager attention, DeepSpeed.
template <class Model, std::int64_t Gbs, std::int64_t Mbs, class Precision>
using bloom_plan =
    training_plan<Model, systems::nvlink_fat_tree<a100_80gb_jean_zay, 48>,
                  mesh<axis<"pp", 12>, axis<"dp", 8>, axis<"tp", 4>>, zero<1, "dp">,
                  pipeline<"pp", schedule::one_f_one_b, uneven_stages>, tensor<"tp">,
                  batch<global_sequences<Gbs>, seq_len<2048>, micro_batch<Mbs>>, recompute::full,
                  Precision, eager_attention, eager_full, framework::deepspeed>;

// BLOOM 176B at a batch, --bf16 (BF16_Optimizer: fp32 gradients, `megatron_mixed_adam`'s 4
// bytes). Its batch-size ramp-up (same plan, fewer sequences): tr11's README, "the data comes
// from" (GBS 16, MBS 2, one micro-batch per pipeline): "elapsed time per iteration (s): 15.23
// | ... global batch size: 16 | ... TFLOPs: 8.04"; its update: "the current setup starts with
// GBS=192/MBS=1 @ 73 TFLOPs" (step [D] from Megatron-DeepSpeed's TFLOPs formula, `bloom_step`).
template <std::int64_t Gbs, std::int64_t Mbs>
using bloom_ramp = bloom_plan<bloom_176b, Gbs, Mbs, precision::megatron_mixed_adam>;

// The full batch: MBS 2, GBS 2048. "elapsed time per iteration (s): 104.70".
using bloom = bloom_ramp<2048, 2>;

/// BLOOM's pre-training search (train/tr11-176B-ml/chronicles-prequel.md, "Batchsize Warmup",
/// 2022-02-26): 48 nodes, NHIDDEN 13824, NLAYERS 78, NHEADS 96, TP 4, PP 12, DP 8, MBS 2, GBS
/// 512 to 2048 (`bloom_shape`; head dim 144); otherwise tr11's settings (full recompute).
/// Before the BF16 optimizer of 02-28 these ran fp16 ("compared to fp16 which grad accumulates
/// in fp16").
struct bloom_prequel_182b {
  static constexpr model_shape shape = bloom_shape("bloom-prequel-182b", 78, 13824, 96);
};
template <std::int64_t Gbs>
using bloom_prequel = bloom_plan<bloom_prequel_182b, Gbs, 2, precision::bf16_mixed_adam>;

/// Seconds per iteration from the TFLOP/s Megatron-DeepSpeed printed for BLOOM
/// (`throughput_calculator`, checkpoint factor 4): 24·4·B·s·L·h²·(1 + s/(6h) + V/(16·L·h)).
/// Checked against the README's own line: GBS 16 at 15.23 s gives 8.04 TFLOP/s on 384 GPUs.
constexpr double bloom_step(double batch, double layers, double hidden, double vocab,
                            double gpus, double tflops) {
  const double s = 2048.0;
  const double f = 96.0 * batch * s * layers * hidden * hidden *
                   (1.0 + s / (6.0 * hidden) + vocab / (16.0 * layers * hidden));
  return f / (gpus * tflops * 1e12);
}

// --- S13 Zero Bubble (Qi et al., ICLR 2024, "Zero Bubble (Almost) Pipeline Parallelism") -------
// Sea AI Lab's Megatron-LM fork (sail-sg/zero-bubble-pipeline-parallelism) on up to 32 A100 SXM
// 80GB, 4 nodes, RoCE. Table 3: GPT-3-like models, sequence 1024, pipeline = all GPUs (no data
// or tensor parallelism), "both the initial and final pipeline stages possess one fewer
// transformer layer" (22 = 2 + 6·3 + 2 on 8 stages: `uneven_stages` gives the same bottleneck).
// fp16 and flash attention as the fork's examples/pretrain_zero_bubble.sh sets them [I: the
// paper names neither]; vocabulary 51200 [I]. Throughput in samples per GPU per second:
// step = m·b / (rate · GPUs).
template <std::int64_t L, std::int64_t H, std::int64_t Heads, std::int64_t P, std::int64_t M,
          std::int64_t B, class Schedule>
using zb24_plan =
    training_plan<models::megatron_gpt<L, H, Heads>,
                  systems::nvlink_fat_tree<a100_fat, (P + 7) / 8>, mesh<axis<"pp", P>>,
                  pipeline<"pp", Schedule, uneven_stages>,
                  batch<global_sequences<M * B>, seq_len<1024>, micro_batch<B>>,
                  recompute::selective, precision::megatron_mixed_adam, with_dropout,
                  framework::megatron_core>;
template <std::int64_t P, std::int64_t M, std::int64_t B, class S>
using zb_1_5b = zb24_plan<22, 2304, 24, P, M, B, S>;
template <std::int64_t P, std::int64_t M, std::int64_t B, class S>
using zb_6_2b = zb24_plan<30, 4096, 32, P, M, B, S>;
template <std::int64_t P, std::int64_t M, std::int64_t B, class S>
using zb_14_6b = zb24_plan<46, 5120, 40, P, M, B, S>;
template <std::int64_t P, std::int64_t M, std::int64_t B, class S>
using zb_28_3b = zb24_plan<62, 6144, 48, P, M, B, S>;

/// Seconds per step from samples per GPU per second.
constexpr double zb_step(double m, double b, double gpus, double rate) {
  return m * b / (rate * gpus);
}

inline void add_megatron_runs(runs& v) {
  using tp_sp = tensor<"tp", sequence_parallel>;
  using tp = tensor<"tp">;
  constexpr std::string_view s01 = "S01 Narayanan 2021";
  constexpr std::string_view kor = "Korthikanti 2022";
  constexpr std::string_view s02 = "S02 Megatron-Core README";
  constexpr half cal = half::calibration;
  constexpr half held = half::held_out;

  v.push_back(evaluate<meg21_1_7b>({"MEG21-1.7B", s01, cal}, megatron_step(512, 24, 2304, 32, 137)));
  v.push_back(evaluate<meg21_3_6b>({"MEG21-3.6B", s01, cal}, megatron_step(512, 30, 3072, 64, 138)));
  v.push_back(evaluate<meg21_7_5b>({"MEG21-7.5B", s01, cal}, megatron_step(512, 36, 4096, 128, 142)));
  v.push_back(evaluate<meg21_18b>({"MEG21-18.4B", s01, cal}, megatron_step(1024, 40, 6144, 256, 135)));
  v.push_back(evaluate<meg21_39b>({"MEG21-39.1B", s01, cal}, megatron_step(1536, 48, 8192, 512, 138)));
  v.push_back(evaluate<meg21_76b>({"MEG21-76.1B", s01, cal}, megatron_step(1792, 60, 10240, 1024, 140)));
  v.push_back(evaluate<meg21_145b>({"MEG21-145.6B", s01, cal}, megatron_step(2304, 80, 12288, 1536, 148)));
  v.push_back(evaluate<meg21_310b>({"MEG21-310.1B", s01, cal}, megatron_step(2160, 96, 16384, 1920, 155)));
  v.push_back(evaluate<meg21_530b>({"MEG21-529.6B", s01, cal}, megatron_step(2520, 105, 20480, 2520, 163)));
  v.push_back(evaluate<meg21_1t>(
      {"MEG21-1T", s01, cal, false,
       "1F1B as the script runs it (the paper says interleaving was used throughout)"},
      megatron_step(3072, 128, 25600, 3072, 163)));
  // Table 2 (TFLOP/s per GPU, Eq. 3).
  v.push_back(evaluate<meg21_z3<gpt3_175b_meg, 384, 1536, 4>>(
      {"MEG21-Z3-175B-384", s01, cal}, megatron_step(1536, 96, 12288, 384, 144)));
  v.push_back(evaluate<meg21_z3<gpt3_175b_meg, 768, 1536, 2>>(
      {"MEG21-Z3-175B-768", s01, cal}, megatron_step(1536, 96, 12288, 768, 88)));
  v.push_back(evaluate<meg21_z3<gpt3_175b_meg, 1536, 1536, 1>>(
      {"MEG21-Z3-175B-1536", s01, cal}, megatron_step(1536, 96, 12288, 1536, 44)));
  v.push_back(evaluate<meg21_z3<models::megatron_gpt_530b, 640, 2560, 4>>(
      {"MEG21-Z3-530B-640", s01, cal}, megatron_step(2560, 105, 20480, 640, 138)));
  v.push_back(evaluate<meg21_z3<models::megatron_gpt_530b, 1120, 2240, 2>>(
      {"MEG21-Z3-530B-1120", s01, cal}, megatron_step(2240, 105, 20480, 1120, 98)));
  v.push_back(evaluate<meg21_z3<models::megatron_gpt_530b, 2240, 2240, 1>>(
      {"MEG21-Z3-530B-2240", s01, cal}, megatron_step(2240, 105, 20480, 2240, 48)));
  v.push_back(evaluate<meg21_p175<384, 1536>>({"MEG21-P-175B-384", s01, cal},
                                              megatron_step(1536, 96, 12288, 384, 153)));
  v.push_back(evaluate<meg21_p175<768, 1536>>({"MEG21-P-175B-768", s01, cal},
                                              megatron_step(1536, 96, 12288, 768, 149)));
  v.push_back(evaluate<meg21_p175<1536, 1536>>({"MEG21-P-175B-1536", s01, cal},
                                               megatron_step(1536, 96, 12288, 1536, 141)));
  v.push_back(evaluate<meg21_p530<560, 2240>>({"MEG21-P-530B-560", s01, cal},
                                              megatron_step(2240, 105, 20480, 560, 171)));
  v.push_back(evaluate<meg21_p530<1120, 2240>>({"MEG21-P-530B-1120", s01, cal},
                                               megatron_step(2240, 105, 20480, 1120, 167)));
  v.push_back(evaluate<meg21_p530<2240, 2240>>({"MEG21-P-530B-2240", s01, cal},
                                               megatron_step(2240, 105, 20480, 2240, 159)));

  // Korthikanti 2022: published seconds per iteration.
  v.push_back(evaluate<kor22_22b<tp, recompute::full>>({"KOR22-22B-full", kor, held}, 1.42));
  v.push_back(evaluate<kor22_22b<tp_sp, recompute::selective>>({"KOR22-22B-selSP", kor, held}, 1.10));
  v.push_back(evaluate<kor22_175b<tp, recompute::full>>({"KOR22-175B-full", kor, held}, 18.13));
  v.push_back(evaluate<kor22_175b<tp_sp, recompute::selective>>({"KOR22-175B-selSP", kor, held}, 13.75));
  v.push_back(evaluate<kor22_530b<tp, recompute::full>>({"KOR22-530B-full", kor, held}, 49.05));
  v.push_back(evaluate<kor22_530b<tp_sp, recompute::selective>>({"KOR22-530B-selSP", kor, held}, 37.83));
  v.push_back(evaluate<kor22_530b_dp8>({"KOR22-530B-DP8-selSP", kor, held}, 39.15));
  v.push_back(evaluate<kor22_1t<tp, recompute::full>>(
      {"KOR22-1T-full", kor, held, false,
       "the 2022 code runs the same per-replica work 8% faster than the 2021 code (94.4 vs 102.6 s)"},
      94.42));
  v.push_back(evaluate<kor22_1t<tp_sp, recompute::selective>>({"KOR22-1T-selSP", kor, held}, 71.49));

  // S02: Megatron's own FLOP count, s = 4096, V = 131072, d_ff = 4h.
  auto mc = [](double b, double l, double h, double gpus, double tf) {
    return mcore_step(b, 4096, l, h, 4 * h, 131072, gpus, tf);
  };
  v.push_back(evaluate<mcore24_plan<24, 2048, 16, 1, 1, 48, 192>>({"MCORE24-1.7B", s02, held},
                                                                  mc(192, 24, 2048, 48, 408.8)));
  v.push_back(evaluate<mcore24_plan<30, 4096, 32, 2, 1, 48, 192>>({"MCORE24-7.1B", s02, held},
                                                                  mc(192, 30, 4096, 96, 465.9)));
  v.push_back(evaluate<mcore24_plan<32, 6144, 48, 4, 1, 48, 192>>({"MCORE24-16B", s02, held},
                                                                  mc(192, 32, 6144, 192, 489.1)));
  v.push_back(evaluate<mcore24_plan<48, 7168, 56, 8, 1, 48, 192>>({"MCORE24-32B", s02, held},
                                                                  mc(192, 48, 7168, 384, 459.6)));
  v.push_back(evaluate<mcore24_plan<84, 8192, 64, 8, 2, 48, 384>>({"MCORE24-70B", s02, held},
                                                                  mc(384, 84, 8192, 768, 419.7)));
  v.push_back(evaluate<mcore24_plan<92, 10240, 80, 8, 4, 48, 768>>(
      {"MCORE24-119B", s02, held}, mc(768, 92, 10240, 1536, 420.5)));
  v.push_back(evaluate<mcore24_plan<96, 12288, 96, 8, 6, 48, 1152>>(
      {"MCORE24-177B", s02, held}, mc(1152, 96, 12288, 2304, 432.8)));
  v.push_back(evaluate<mcore24_plan<96, 16384, 128, 8, 8, 48, 1536>>(
      {"MCORE24-314B", s02, held}, mc(1536, 96, 16384, 3072, 474.4)));
  v.push_back(evaluate<mcore24_plan<112, 18432, 144, 8, 16, 48, 3072>>(
      {"MCORE24-462B", s02, held}, mc(3072, 112, 18432, 6144, 459.9)));

  v.push_back(evaluate<bloom>({"BLOOM-176B", "BLOOM", cal, false,
                               "70 layers unevenly on 12 stages; OmniPath link rate assumed"},
                              104.70));
  // The ramp-up's small batches: one micro-batch per pipeline (GBS 16), then 24 (GBS 192).
  v.push_back(evaluate<bloom_ramp<16, 2>>(
      {"BLOOM-176B-GBS16", "BLOOM", cal, false, "one micro-batch per pipeline of 12 stages"},
      15.23));
  v.push_back(evaluate<bloom_ramp<192, 1>>({"BLOOM-176B-GBS192", "BLOOM", cal, false,
                                            "\"@ 73 TFLOPs\", two figures"},
                                           bloom_step(192, 70, 14336, 250880, 384, 73)));
  v.push_back(evaluate<bloom_prequel<512>>({"BLOOM-PRE-182B-GBS512", "BLOOM", cal}, 35.77));
  v.push_back(evaluate<bloom_prequel<1024>>({"BLOOM-PRE-182B-GBS1024", "BLOOM", cal}, 59.65));
  v.push_back(evaluate<bloom_prequel<1536>>({"BLOOM-PRE-182B-GBS1536", "BLOOM", cal}, 83.11));
  v.push_back(evaluate<bloom_prequel<2048>>({"BLOOM-PRE-182B-GBS2048", "BLOOM", cal}, 107.12));

  // S13 Zero Bubble, Table 9 (m <= p, 1F1B) and Table 4 (m = 3p, 4p, 8p: 1F1B and ZB-1p, whose
  // bubble equals ZB-H1's in every setting of the paper's Table 5, run as `zero_bubble`).
  constexpr std::string_view zb = "S13 Zero Bubble 2024";
  using f1b = schedule::one_f_one_b;
  using zbh1 = schedule::zero_bubble;
  v.push_back(evaluate<zb_1_5b<8, 2, 6, f1b>>({"ZB24-1.5B-m2", zb, held}, zb_step(2, 6, 8, 3.56)));
  v.push_back(evaluate<zb_1_5b<8, 4, 6, f1b>>({"ZB24-1.5B-m4", zb, held}, zb_step(4, 6, 8, 5.74)));
  v.push_back(evaluate<zb_1_5b<8, 8, 6, f1b>>({"ZB24-1.5B-m8", zb, held}, zb_step(8, 6, 8, 8.26)));
  v.push_back(evaluate<zb_6_2b<8, 2, 3, f1b>>({"ZB24-6.2B-m2", zb, held}, zb_step(2, 3, 8, 1.04)));
  v.push_back(evaluate<zb_6_2b<8, 4, 3, f1b>>({"ZB24-6.2B-m4", zb, held}, zb_step(4, 3, 8, 1.69)));
  v.push_back(evaluate<zb_6_2b<8, 8, 3, f1b>>({"ZB24-6.2B-m8", zb, held}, zb_step(8, 3, 8, 2.45)));
  v.push_back(evaluate<zb_14_6b<16, 4, 1, f1b>>({"ZB24-14.6B-m4", zb, held},
                                                zb_step(4, 1, 16, 0.39)));
  v.push_back(evaluate<zb_14_6b<16, 8, 1, f1b>>({"ZB24-14.6B-m8", zb, held},
                                                zb_step(8, 1, 16, 0.65)));
  v.push_back(evaluate<zb_14_6b<16, 16, 1, f1b>>({"ZB24-14.6B-m16", zb, held},
                                                 zb_step(16, 1, 16, 0.95)));
  v.push_back(evaluate<zb_1_5b<8, 24, 6, f1b>>(
      {"ZB24-1.5B-m24", zb, held}, zb_step(24, 6, 8, 11.80)));
  v.push_back(evaluate<zb_1_5b<8, 32, 6, f1b>>(
      {"ZB24-1.5B-m32", zb, held}, zb_step(32, 6, 8, 12.50)));
  v.push_back(evaluate<zb_1_5b<8, 64, 6, f1b>>(
      {"ZB24-1.5B-m64", zb, held}, zb_step(64, 6, 8, 13.60)));
  v.push_back(evaluate<zb_1_5b<8, 24, 6, zbh1>>(
      {"ZB24-1.5B-m24-ZB1p", zb, held}, zb_step(24, 6, 8, 12.90)));
  v.push_back(evaluate<zb_1_5b<8, 32, 6, zbh1>>(
      {"ZB24-1.5B-m32-ZB1p", zb, held}, zb_step(32, 6, 8, 13.40)));
  v.push_back(evaluate<zb_1_5b<8, 64, 6, zbh1>>(
      {"ZB24-1.5B-m64-ZB1p", zb, held}, zb_step(64, 6, 8, 14.20)));
  v.push_back(evaluate<zb_6_2b<8, 24, 3, f1b>>(
      {"ZB24-6.2B-m24", zb, held}, zb_step(24, 3, 8, 3.50)));
  v.push_back(evaluate<zb_6_2b<8, 32, 3, f1b>>(
      {"ZB24-6.2B-m32", zb, held}, zb_step(32, 3, 8, 3.70)));
  v.push_back(evaluate<zb_6_2b<8, 64, 3, f1b>>(
      {"ZB24-6.2B-m64", zb, held}, zb_step(64, 3, 8, 4.03)));
  v.push_back(evaluate<zb_6_2b<8, 24, 3, zbh1>>(
      {"ZB24-6.2B-m24-ZB1p", zb, held}, zb_step(24, 3, 8, 3.88)));
  v.push_back(evaluate<zb_6_2b<8, 32, 3, zbh1>>(
      {"ZB24-6.2B-m32-ZB1p", zb, held}, zb_step(32, 3, 8, 4.00)));
  v.push_back(evaluate<zb_6_2b<8, 64, 3, zbh1>>(
      {"ZB24-6.2B-m64-ZB1p", zb, held}, zb_step(64, 3, 8, 4.20)));
  v.push_back(evaluate<zb_14_6b<16, 48, 1, f1b>>(
      {"ZB24-14.6B-m48", zb, held}, zb_step(48, 1, 16, 1.40)));
  v.push_back(evaluate<zb_14_6b<16, 64, 1, f1b>>(
      {"ZB24-14.6B-m64", zb, held}, zb_step(64, 1, 16, 1.49)));
  v.push_back(evaluate<zb_14_6b<16, 128, 1, f1b>>(
      {"ZB24-14.6B-m128", zb, held}, zb_step(128, 1, 16, 1.64)));
  v.push_back(evaluate<zb_14_6b<16, 48, 1, zbh1>>(
      {"ZB24-14.6B-m48-ZB1p", zb, held}, zb_step(48, 1, 16, 1.61)));
  v.push_back(evaluate<zb_14_6b<16, 64, 1, zbh1>>(
      {"ZB24-14.6B-m64-ZB1p", zb, held}, zb_step(64, 1, 16, 1.67)));
  v.push_back(evaluate<zb_14_6b<16, 128, 1, zbh1>>(
      {"ZB24-14.6B-m128-ZB1p", zb, held}, zb_step(128, 1, 16, 1.76)));
  v.push_back(evaluate<zb_28_3b<32, 96, 1, f1b>>(
      {"ZB24-28.3B-m96", zb, held}, zb_step(96, 1, 32, 0.76)));
  v.push_back(evaluate<zb_28_3b<32, 128, 1, f1b>>(
      {"ZB24-28.3B-m128", zb, held}, zb_step(128, 1, 32, 0.80)));
  v.push_back(evaluate<zb_28_3b<32, 256, 1, f1b>>(
      {"ZB24-28.3B-m256", zb, held}, zb_step(256, 1, 32, 0.88)));
  v.push_back(evaluate<zb_28_3b<32, 96, 1, zbh1>>(
      {"ZB24-28.3B-m96-ZB1p", zb, held}, zb_step(96, 1, 32, 0.87)));
  v.push_back(evaluate<zb_28_3b<32, 128, 1, zbh1>>(
      {"ZB24-28.3B-m128-ZB1p", zb, held}, zb_step(128, 1, 32, 0.90)));
  v.push_back(evaluate<zb_28_3b<32, 256, 1, zbh1>>(
      {"ZB24-28.3B-m256-ZB1p", zb, held}, zb_step(256, 1, 32, 0.96)));
}

}  // namespace validation
