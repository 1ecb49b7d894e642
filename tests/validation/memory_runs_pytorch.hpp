// PyTorch-stack measured peaks: S1 torchtitan benchmarks (H100 96 GB), S2 Trainy (H200),
// S3 torchao training benchmarks (H100 / MI300X / B200), S5 torchtune README ablation (A100).
// Verbatim figures, commits and tags: CANDIDATE_MEMORY_PEAKS.md; rules M1-M8: MEMORY.md.
#pragma once

#include <type_traits>

#include "memory_runs_common.hpp"
#include "runs_pytorch.hpp"

namespace validation {

// --- S1 / S3: torchtitan FSDP2 (x CP) on Llama 3.1 8B, `framework::torchtitan` (rule M9), which
// shards the states over the data and context ranks together (rule M3: the plan names FSDP over
// "dp" only, the framework adds CP), SDPA (flash) attention ----------------------------------------
template <class Chip, std::int64_t Dp, std::int64_t Cp, std::int64_t Gbs, std::int64_t Seq,
          std::int64_t Mbs, class Recompute, class Precision, class... Extra>
using mem_tt_8b_cp = training_plan<
    models::llama3_8b,
    systems::nvlink_fat_tree<Chip, (Dp * Cp + 7) / 8, (Dp * Cp < 8 ? Dp * Cp : 8)>,
    mesh<axis<"dp", Dp>, axis<"cp", Cp>>, fsdp<"dp">, context<"cp">,
    batch<global_sequences<Gbs>, seq_len<Seq>, micro_batch<Mbs>>, Recompute, Precision, sdpa,
    framework::torchtitan, Extra...>;
/// Without CP: FSDP over the data ranks, no context axis.
template <class Chip, std::int64_t Dp, std::int64_t Gbs, std::int64_t Seq, std::int64_t Mbs,
          class Recompute, class Precision, class... Extra>
using mem_tt_8b_dp = training_plan<
    models::llama3_8b, systems::nvlink_fat_tree<Chip, (Dp + 7) / 8, (Dp < 8 ? Dp : 8)>,
    mesh<axis<"dp", Dp>>, fsdp<"dp">,
    batch<global_sequences<Gbs>, seq_len<Seq>, micro_batch<Mbs>>, Recompute, Precision, sdpa,
    framework::torchtitan, Extra...>;
template <class Chip, std::int64_t Dp, std::int64_t Cp, std::int64_t Gbs, std::int64_t Seq,
          std::int64_t Mbs, class Recompute, class Precision, class... Extra>
using mem_tt_8b = std::conditional_t<
    Cp == 1, mem_tt_8b_dp<Chip, Dp, Gbs, Seq, Mbs, Recompute, Precision, Extra...>,
    mem_tt_8b_cp<Chip, Dp, Cp, Gbs, Seq, Mbs, Recompute, Precision, Extra...>>;

/// S1 405B: PP 8 x FSDP x CP x TP 8 on 512 GPUs, full AC, Float8; MBS = local batch / 8 stages
/// (rule M3); 126 layers on the stages unevenly; mesh order pp, dp, cp, tp; FSDP over "dp", to
/// which `framework::torchtitan` adds CP.
template <std::int64_t Dp, std::int64_t Cp, std::int64_t Gbs, std::int64_t Seq, std::int64_t Mbs,
          class Schedule>
using mem_tt_405b = training_plan<
    models::llama3_405b, grand_teton<512>,
    mesh<axis<"pp", 8>, axis<"dp", Dp>, axis<"cp", Cp>, axis<"tp", 8>>, fsdp<"dp">,
    pipeline<"pp", Schedule, uneven_stages>, context<"cp">, tensor<"tp", sequence_parallel>,
    batch<global_sequences<Gbs>, seq_len<Seq>, micro_batch<Mbs>>, recompute::full,
    precision::fp8_tensorwise, sdpa, framework::torchtitan>;

// --- S5: torchtune full_finetune_single_device, Llama 3.2 3B ----------------------------------

/// Llama 3.2 3B as torchtune builds it: `torchtune/models/llama3_2/_model_builders.py`
/// `llama3_2_3b` at torchtune bd2a0fc7c31430972728494fa01aaeeb0ebf1ba1: vocab_size 128_256,
/// num_layers 28, num_heads 24, num_kv_heads 8, embed_dim 3072, intermediate_dim 8192,
/// tie_word_embeddings True; RMSNorm, SwiGLU, RoPE, no biases (the Llama 3 family).
struct llama3_2_3b {
  static constexpr model_shape shape = {.name = "llama-3.2-3b",
                                        .layers = 28,
                                        .d_model = 3072,
                                        .d_ff = 8192,
                                        .heads = 24,
                                        .kv_heads = 8,
                                        .head_dim = 128,
                                        .vocab = 128256,
                                        .tied_embeddings = true};
};

/// torchtune `dtype: bf16` with torch AdamW (rule M1): bf16 weights, gradients and both moments,
/// no fp32 master copy: 8 bytes per parameter.
struct torchtune_bf16_adam {
  static constexpr precision_policy policy{.name = "bf16 weights + bf16 AdamW (torchtune)",
                                           .master_bytes = 0.0,
                                           .optimizer_state_bytes = 2.0};
};

template <class Recompute, class... Options>
using mem_tune_3b =
    training_plan<llama3_2_3b, systems::nvlink_fat_tree<hardware::a100_80gb, 1, 1>,
                  mesh<axis<"dp", 1>>, data<"dp">,
                  batch<global_sequences<2>, seq_len<4096>, micro_batch<2>>, Recompute,
                  torchtune_bf16_adam, sdpa, framework::torchtune, Options...>;

inline void add_pytorch_memory_runs(memory_runs& v) {
  constexpr std::string_view s1 = "S1 torchtitan";
  constexpr std::string_view s2 = "S2 Trainy";
  constexpr std::string_view s3 = "S3 torchao";
  constexpr std::string_view s5 = "S5 torchtune";
  constexpr half cal = half::calibration;
  constexpr half held = half::held_out;
  constexpr peak_kind reserved = peak_kind::reserved;
  using sel = recompute::selective;
  using full = recompute::full;
  using none = recompute::none;
  using fp8tw = precision::fp8_tensorwise;
  using fp8rw = precision::fp8_rowwise;
  using mx = precision::mxfp8;
  using gt = h100_96gb_500w;

  // S1 Table 1: 8 GPUs, FSDP 8, local batch 2, seq 8192 [I], selective (op) AC. "Memory(GiB)".
  v.push_back(measure<mem_tt_8b<gt, 8, 1, 16, 8192, 2, sel, bf16>>(
      {"TT-T1-a", s1, held, reserved, "eager"}, gib(82.4)));
  v.push_back(measure<mem_tt_8b<gt, 8, 1, 16, 8192, 2, sel, bf16>>(
      {"TT-T1-b", s1, held, reserved, "torch.compile not modelled (rule M6)"}, gib(77.0)));
  v.push_back(measure<mem_tt_8b<gt, 8, 1, 16, 8192, 2, sel, fp8tw>>(
      {"TT-T1-c", s1, held, reserved, "Float8 + compile"}, gib(76.8)));
  // S1 Table 2: CP at 32768 tokens per GPU, full AC, Float8 + compile.
  v.push_back(measure<mem_tt_8b<gt, 8, 1, 8, 32768, 1, full, fp8tw>>(
      {"TT-T2-a", s1, held, reserved}, gib(83.9)));
  v.push_back(measure<mem_tt_8b<gt, 4, 2, 4, 65536, 1, full, fp8tw>>(
      {"TT-T2-b", s1, held, reserved}, gib(84.2)));
  v.push_back(measure<mem_tt_8b<gt, 2, 4, 2, 131072, 1, full, fp8tw>>(
      {"TT-T2-c", s1, held, reserved}, gib(84.0)));
  v.push_back(measure<mem_tt_8b<gt, 1, 8, 1, 262144, 1, full, fp8tw>>(
      {"TT-T2-d", s1, held, reserved}, gib(84.5)));
  // S1 Table 3: 128 GPUs, FSDP 128, local batch 2.
  v.push_back(measure<mem_tt_8b<gt, 128, 1, 256, 8192, 2, sel, bf16>>(
      {"TT-T3-a", s1, held, reserved, "eager"}, gib(67.0)));
  v.push_back(measure<mem_tt_8b<gt, 128, 1, 256, 8192, 2, sel, bf16>>(
      {"TT-T3-b", s1, held, reserved, "torch.compile not modelled (rule M6)"}, gib(62.0)));
  v.push_back(measure<mem_tt_8b<gt, 128, 1, 256, 8192, 2, sel, fp8tw>>(
      {"TT-T3-c", s1, held, reserved}, gib(61.8)));
  // S1 Table 4: 70B, FSDP 32 x TP 8 (+SP), local batch 16, full AC, Float8 + compile.
  v.push_back(measure<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, fp8tw>>(
      {"TT-T4-a", s1, held, reserved}, gib(71.9)));
  v.push_back(measure<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, fp8tw>>(
      {"TT-T4-b", s1, held, reserved, "async TP not modelled (rule M6)"}, gib(67.6)));
  // S1 Table 5: 405B, FSDP 8 x TP 8 x PP 8, local batch 32 -> MBS 4 (rule M3).
  v.push_back(measure<mem_tt_405b<8, 1, 256, 8192, 4, schedule::one_f_one_b>>(
      {"TT-T5-a", s1, held, reserved}, gib(82.5)));
  v.push_back(measure<mem_tt_405b<8, 1, 256, 8192, 4, schedule::interleaved<2>>>(
      {"TT-T5-b", s1, held, reserved, "stages per rank unstated: V = 2 (rule M3)"}, gib(72.7)));
  // S1 Table 6: 405B, CP x FSDP at 32768 tokens per GPU, local batch 8 -> MBS 1 (rule M3).
  v.push_back(measure<mem_tt_405b<8, 1, 64, 32768, 1, schedule::one_f_one_b>>(
      {"TT-T6-a", s1, held, reserved}, gib(75.3)));
  v.push_back(measure<mem_tt_405b<4, 2, 32, 65536, 1, schedule::one_f_one_b>>(
      {"TT-T6-b", s1, held, reserved}, gib(75.9)));
  v.push_back(measure<mem_tt_405b<2, 4, 16, 131072, 1, schedule::one_f_one_b>>(
      {"TT-T6-c", s1, held, reserved}, gib(77.1)));
  v.push_back(measure<mem_tt_405b<1, 8, 8, 262144, 1, schedule::one_f_one_b>>(
      {"TT-T6-d", s1, held, reserved}, gib(84.9)));

  // S2: FSDP over 32 / 64 H200, local batch 2, selective, Float8 tensorwise + compile.
  v.push_back(measure<trainy_plan<4>>({"TRAINY-4N", s2, held, reserved}, gib(47.96)));
  v.push_back(measure<trainy_plan<8>>({"TRAINY-8N", s2, held, reserved}, gib(46.97)));

  // S3: 8 GPUs, FSDP2 8, batch 1, seq 8192, per-op SAC, compile. "GB" column = GiB.
  // The H100 rows ran before torchtitan compiled its loss (torchao 890e0ac8 of 2025-02-28, the
  // table's commit 8c81863b of 2025-03-12; torchtitan's compiled loss is bbb1b616e, 2025-04-02):
  // eager loss. The MI300X and B200 rows ran torchtitan 2c8b5947 / 6fc499f6 (August 2025), whose
  // `build_cross_entropy_loss` compiles the loss under `--training.compile`: `compiled_loss`.
  using mi300 = hardware::mi300x;
  using b200 = hardware::b200;
  using cl = compiled_loss;
  v.push_back(measure<mem_tt_8b<h100, 8, 1, 8, 8192, 1, sel, bf16>>(
      {"AO-H100-bf16", s3, cal, reserved}, gib(47.65)));
  v.push_back(measure<mem_tt_8b<h100, 8, 1, 8, 8192, 1, sel, fp8tw>>(
      {"AO-H100-f8tw", s3, cal, reserved}, gib(47.77)));
  v.push_back(measure<mem_tt_8b<h100, 8, 1, 8, 8192, 1, sel, fp8rw>>(
      {"AO-H100-f8rw", s3, cal, reserved}, gib(47.79)));
  v.push_back(measure<mem_tt_8b<mi300, 8, 1, 8, 8192, 1, sel, bf16, cl>>(
      {"AO-MI300-bf16", s3, cal, reserved}, gib(39.09)));
  v.push_back(measure<mem_tt_8b<mi300, 8, 1, 8, 8192, 1, sel, fp8tw, cl>>(
      {"AO-MI300-f8tw", s3, cal, reserved}, gib(39.07)));
  v.push_back(measure<mem_tt_8b<mi300, 8, 1, 8, 8192, 1, sel, fp8rw, cl>>(
      {"AO-MI300-f8rw-gwhp", s3, cal, reserved, "rowwise_with_gw_hp as rowwise"}, gib(39.32)));
  v.push_back(measure<mem_tt_8b<mi300, 8, 1, 8, 8192, 1, sel, fp8rw, cl>>(
      {"AO-MI300-f8rw", s3, cal, reserved}, gib(39.32)));
  v.push_back(measure<mem_tt_8b<b200, 8, 1, 8, 8192, 1, sel, bf16, cl>>(
      {"AO-B200-bf16", s3, cal, reserved}, gib(33.71)));
  v.push_back(measure<mem_tt_8b<b200, 8, 1, 8, 8192, 1, sel, fp8tw, cl>>(
      {"AO-B200-f8tw", s3, cal, reserved}, gib(33.38)));
  v.push_back(measure<mem_tt_8b<b200, 8, 1, 8, 8192, 1, sel, mx, cl>>(
      {"AO-B200-mxfp8", s3, cal, reserved}, gib(33.88)));
  v.push_back(measure<mem_tt_8b<b200, 8, 1, 8, 8192, 1, sel, mx, cl>>(
      {"AO-B200-mxfp8rc", s3, cal, reserved, "rceil rounding: same memory"}, gib(33.88)));
  v.push_back(measure<mem_tt_8b<b200, 8, 1, 8, 8192, 1, sel, fp8rw, cl>>(
      {"AO-B200-f8rw", s3, cal, reserved}, gib(33.72)));

  // S5: one A100, batch 2 x 4096 packed, bf16; each row adds a technique. "Peak Memory Active".
  constexpr peak_kind active = peak_kind::active;
  // torchtune's `compile: True` compiles the layers and the loss (rule M12).
  using cl = compiled_loss;
  using clay = compiled_layers;
  using chunk = chunked_loss;
  using obwd = optimizer_in_backward;
  v.push_back(measure<mem_tune_3b<none>>({"TT3B-packed", s5, cal, active}, gib(60.0)));
  v.push_back(
      measure<mem_tune_3b<none, clay, cl>>({"TT3B-compile", s5, cal, active}, gib(51.0)));
  v.push_back(measure<mem_tune_3b<none, clay, cl, chunk>>({"TT3B-chunkCE", s5, cal, active},
                                                         gib(42.9)));
  v.push_back(
      measure<mem_tune_3b<full, clay, cl, chunk>>({"TT3B-AC", s5, cal, active}, gib(24.9)));
  v.push_back(measure<mem_tune_3b<full, clay, cl, chunk, obwd>>(
      {"TT3B-optbwd", s5, cal, active}, gib(23.1)));
}

}  // namespace validation
