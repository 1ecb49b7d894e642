// PyTorch FSDP-family runs: S03 llm-foundry MPT tables, S04 torchtitan benchmark files (2024-12
// and 2025-06), S08 Trainy's torchtitan H200 file. Figures: RUNS.md.
#pragma once

#include "runs_common.hpp"

namespace validation {

// --- S03 mosaicml/llm-foundry scripts/train/benchmarking/README.md (495218376) -------------------

/// MPT as benchmarked: learned positions of the run's sequence length (NumParams grows by
/// (seq - 2048)·d), linear biases, LayerNorm with bias, tied embeddings, vocab 50368, FFN 4d
/// GeLU (scripts/train/yamls/pretrain/mpt-<size>.yaml).
constexpr model_shape mpt_shape(std::int64_t layers, std::int64_t d, std::int64_t heads,
                                std::int64_t positions) {
  return {.name = "mpt",
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
          .position_embeddings = positions};
}
template <std::int64_t L, std::int64_t D, std::int64_t Heads, std::int64_t Seq>
struct mpt {
  static constexpr model_shape shape = mpt_shape(L, D, Heads, Seq);
};
template <std::int64_t Seq>
using mpt_70b = mpt<80, 8192, 64, Seq>;
template <std::int64_t Seq>
using mpt_30b = mpt<48, 7168, 56, Seq>;
template <std::int64_t Seq>
using mpt_13b = mpt<40, 5120, 40, Seq>;
template <std::int64_t Seq>
using mpt_7b = mpt<32, 4096, 32, Seq>;
template <std::int64_t Seq>
using mpt_3b = mpt<32, 2560, 20, Seq>;
template <std::int64_t Seq>
using mpt_1b = mpt<24, 2048, 16, Seq>;
template <std::int64_t Seq>
using mpt_760m = mpt<24, 1536, 12, Seq>;
// NumParams column: 64,862,437,376 (70b), 6,658,859,008 (7b at 2048), 6,918,905,856 (7b at 65536).
static_assert(model_parameters<mpt_70b<2048>>().total == 64'862'437'376);
static_assert(model_parameters<mpt_7b<2048>>().total == 6'658'859'008);
static_assert(model_parameters<mpt_7b<65536>>().total == 6'918'905'856);

/// An llm-foundry row: FSDP (`Sharding`: fsdp<> = FULL_SHARD, zero<2> = SHARD_GRAD_OP) over all
/// GPUs, FlashAttention-2 (`attn_impl: flash`, rule 6); activation checkpointing True = full,
/// False = selective (flash recomputes the softmax, rule 5).
/// The attention kernel follows the table the row comes from (rule 6): the tables written before
/// 2024 were run with llm-foundry's `.[gpu]` extra, flash-attn 1.0.9 (setup.py at 5e85bd62d^;
/// the fp8 rows install flash-attn 1.0.7, submit_benchmarks.py there); the "H100 80GB BF16
/// (Large Scale, >= 128 GPUs)" table, added in 5e85bd62d (2024-01-06), with `.[gpu-flash2]`,
/// flash-attn 2.4.2.
template <class Model, class Chip, std::int64_t Gpus, std::int64_t Gbs, std::int64_t Seq,
          std::int64_t Mbs, class Recompute, class Precision,
          template <detail::fixed_string...> class Sharding = fsdp,
          attention_kernel Kernel = attention_kernel::flash1>
using lf_plan = training_plan<
    Model, systems::nvlink_fat_tree<Chip, (Gpus + 7) / 8, (Gpus < 8 ? Gpus : 8)>,
    mesh<axis<"dp", Gpus>>, Sharding<"dp">,
    batch<global_sequences<Gbs>, seq_len<Seq>, micro_batch<Mbs>>, Recompute, Precision,
    attention_with<Kernel>, framework::generic>;
template <detail::fixed_string... Axes>
using zero2 = zero<2, Axes...>;

using h100 = hardware::h100_sxm;
using a100_80 = hardware::a100_80gb;
using a100_40 = hardware::a100_40gb;
using bf16 = precision::bf16_mixed_adam;
using fp8_te = precision::fp8_delayed;  // llm-foundry amp_fp8: TransformerEngine (rule 7)

// --- S04 pytorch/torchtitan benchmarks -------------------------------------------------------------
// (a) benchmarks/llama3_h100_202412_torchtitan.md (torchtitan 9dec370), (b)
// benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md (torchtitan 820504e). Grand Teton H100
// 96 GB 500 W, 400 Gb/s per GPU. seq 8192 = train_configs default (rule 3) unless the table
// gives it; FSDP over the data (and context) ranks; TP with SequenceParallel norms (rule 8);
// "Float8" = torchao dynamic tensorwise (rule 7); selective = per-op SAC; PyTorch SDPA (flash2).
// "torch.compile" = `compiled_layers` (fused norms, rotary and activation; without it they run as
// eager modules); async TP = `tp_comm_overlap` (PyTorch's symmetric-memory micro-pipelining).

template <std::int64_t Gpus>
using grand_teton = systems::nvlink_fat_tree<h100_96gb_500w, (Gpus + 7) / 8, (Gpus < 8 ? Gpus : 8)>;
using sdpa = attention_with<attention_kernel::flash2>;

/// FSDP (x CP) on Llama 3.1 8B.
template <std::int64_t Dp, std::int64_t Cp, std::int64_t Gbs, std::int64_t Seq, std::int64_t Mbs,
          class Recompute, class Precision, class... Extra>
using tt_8b_plan =
    training_plan<models::llama3_8b, grand_teton<Dp * Cp>, mesh<axis<"dp", Dp>, axis<"cp", Cp>>,
                  fsdp<"dp">, context<"cp">,
                  batch<global_sequences<Gbs>, seq_len<Seq>, micro_batch<Mbs>>, Recompute,
                  Precision, sdpa, framework::torchtitan, Extra...>;
/// FSDP x TP (2D).
/// Every 2D run compiles its layers (Table 4, and the 2025-06 file's "torch.compile").
template <class Model, std::int64_t Dp, std::int64_t Tp, std::int64_t Gbs, std::int64_t Mbs,
          class Recompute, class Precision, class... Extra>
using tt_2d_plan =
    training_plan<Model, grand_teton<Dp * Tp>, mesh<axis<"dp", Dp>, axis<"tp", Tp>>, fsdp<"dp">,
                  tensor<"tp", sequence_parallel>,
                  batch<global_sequences<Gbs>, seq_len<8192>, micro_batch<Mbs>>, Recompute,
                  Precision, sdpa, framework::torchtitan, compiled_layers, Extra...>;
/// Async TP (`enable_async_tensor_parallel`): `tp_comm_overlap` under torchtitan.
using async_tp = shardplan::tp_comm_overlap;
/// 405B: FSDP x CP x PP 8 x TP 8 on 512 GPUs, full AC, Float8; 126 layers on 8 (or 16) stages
/// unevenly; torchtitan's mesh order pp, dp, cp, tp (outermost first, rule 12). The local batch
/// is split into as many micro-batches as there are pipeline ranks, 8, and an interleaved
/// schedule puts 2 stages on each, torchtitan 9dec370's defaults when the job sets neither
/// (`build_pipeline_schedule`: `n_microbatches = pipeline_parallel_degree`;
/// `generate_split_points`: `num_stages_per_rank = 2` for a PipelineScheduleMulti; rule 1):
/// Table 5's local batch of 32 runs 8 micro-batches of 4, Table 6's of 8 runs 8 of 1.
template <std::int64_t Dp, std::int64_t Cp, std::int64_t Gbs, std::int64_t Seq, class Schedule>
using tt_405b_plan = training_plan<
    models::llama3_405b, grand_teton<512>,
    mesh<axis<"pp", 8>, axis<"dp", Dp>, axis<"cp", Cp>, axis<"tp", 8>>, fsdp<"dp">,
    pipeline<"pp", Schedule, uneven_stages>, context<"cp">, tensor<"tp", sequence_parallel>,
    batch<global_sequences<Gbs>, seq_len<Seq>, micro_batch<Gbs / (Dp * 8)>>, recompute::full,
    precision::fp8_tensorwise, sdpa, framework::torchtitan, compiled_layers, async_tp>;

// --- S08 Trainy on WhiteFiber, benchmarks/llama3-8b_h200_202506_trainy-whitefiber.md ---------------
// 4 / 8 nodes of 8 H200, 400 Gb/s per GPU; llama3_8b.toml at e7c0cae: seq 8192, local batch 2,
// selective (op) AC; float8 with FSDP float8 all-gather (tensorwise, rule 7); FSDP over all GPUs.
template <std::int64_t Nodes>
using trainy_plan =
    training_plan<models::llama3_8b, systems::nvlink_fat_tree<hardware::h200, Nodes>,
                  mesh<axis<"dp", Nodes * 8>>, fsdp<"dp">,
                  batch<global_sequences<Nodes * 16>, seq_len<8192>, micro_batch<2>>,
                  recompute::selective, precision::fp8_tensorwise, sdpa, framework::torchtitan,
                  compiled_layers, compiled_loss>;  // --training.compile at torchtitan e7c0cae

inline void add_pytorch_runs(runs& v) {
  constexpr std::string_view s03 = "S03 llm-foundry";
  constexpr std::string_view s04 = "S04 torchtitan";
  constexpr std::string_view s08 = "S08 Trainy";
  constexpr half cal = half::calibration;
  constexpr half held = half::held_out;
  using full = recompute::full;
  using sel = recompute::selective;

  // S03: step = GlobalBatchSize·SeqLen / Throughput (T/s).
  v.push_back(evaluate<lf_plan<mpt_70b<2048>, a100_80, 64, 2048, 2048, 8, full, bf16>>(
      {"MPT-70B-A100", s03, cal}, step_from_tokens(2048.0 * 2048, 26274)));
  v.push_back(evaluate<lf_plan<mpt_70b<2048>, h100, 64, 2048, 2048, 8, full, bf16>>(
      {"MPT-70B-H100", s03, cal, false, "H100 interconnect not stated (catalogue 400 Gb/s)"},
      step_from_tokens(2048.0 * 2048, 66523)));
  v.push_back(evaluate<lf_plan<mpt_7b<2048>, h100, 8, 48, 2048, 6, sel, bf16>>(
      {"MPT-7B-H100", s03, cal}, step_from_tokens(48.0 * 2048, 85144)));
  v.push_back(evaluate<lf_plan<mpt_70b<2048>, h100, 512, 4096, 2048, 8, full, bf16, fsdp,
                                    attention_kernel::flash2>>(
      {"LF-70B-H100-512", s03, cal}, step_from_tokens(4096.0 * 2048, 515636)));
  v.push_back(evaluate<lf_plan<mpt_13b<2048>, h100, 128, 2048, 2048, 16, full, bf16, fsdp,
                                    attention_kernel::flash2>>(
      {"LF-13B-H100-128", s03, cal}, step_from_tokens(2048.0 * 2048, 650264)));
  v.push_back(evaluate<lf_plan<mpt_1b<2048>, h100, 512, 6144, 2048, 12, sel, bf16, zero2,
                                    attention_kernel::flash2>>(
      {"LF-1B-H100-512", s03, cal}, step_from_tokens(6144.0 * 2048, 20396905)));
  v.push_back(evaluate<lf_plan<mpt_30b<8192>, h100, 8, 168, 8192, 1, full, bf16>>(
      {"LF-30B-H100-8k", s03, cal}, step_from_tokens(168.0 * 8192, 11072)));
  v.push_back(evaluate<lf_plan<mpt_13b<32768>, h100, 8, 24, 32768, 1, full, bf16>>(
      {"LF-13B-H100-32k", s03, cal}, step_from_tokens(24.0 * 32768, 15812)));
  v.push_back(evaluate<lf_plan<mpt_7b<65536>, h100, 8, 16, 65536, 1, full, bf16>>(
      {"LF-7B-H100-64k", s03, cal}, step_from_tokens(16.0 * 65536, 15654)));
  v.push_back(evaluate<lf_plan<mpt_3b<32768>, h100, 8, 144, 32768, 3, full, bf16>>(
      {"LF-3B-H100-32k", s03, cal}, step_from_tokens(144.0 * 32768, 46984)));
  v.push_back(evaluate<lf_plan<mpt_1b<32768>, h100, 8, 32, 32768, 1, sel, bf16>>(
      {"LF-1B-H100-32k", s03, cal}, step_from_tokens(32.0 * 32768, 96203)));
  v.push_back(evaluate<lf_plan<mpt_3b<32768>, h100, 8, 144, 32768, 3, full, fp8_te>>(
      {"LF-3B-H100-FP8-32k", s03, cal}, step_from_tokens(144.0 * 32768, 46853)));
  v.push_back(evaluate<lf_plan<mpt_3b<8192>, h100, 8, 144, 8192, 3, sel, fp8_te>>(
      {"LF-3B-H100-FP8-8k", s03, cal}, step_from_tokens(144.0 * 8192, 153174)));
  v.push_back(evaluate<lf_plan<mpt_3b<2048>, h100, 8, 480, 2048, 10, sel, fp8_te>>(
      {"LF-3B-H100-FP8-2k", s03, cal}, step_from_tokens(480.0 * 2048, 244692)));
  v.push_back(evaluate<lf_plan<mpt_1b<32768>, h100, 8, 32, 32768, 1, sel, fp8_te>>(
      {"LF-1B-H100-FP8-32k", s03, cal}, step_from_tokens(32.0 * 32768, 100643)));
  v.push_back(evaluate<lf_plan<mpt_1b<8192>, h100, 8, 64, 8192, 2, sel, fp8_te>>(
      {"LF-1B-H100-FP8-8k", s03, cal}, step_from_tokens(64.0 * 8192, 256087)));
  v.push_back(evaluate<lf_plan<mpt_30b<2048>, a100_80, 8, 504, 2048, 3, full, bf16>>(
      {"LF-30B-A100-80-2k", s03, cal}, step_from_tokens(504.0 * 2048, 7330)));
  v.push_back(evaluate<lf_plan<mpt_13b<8192>, a100_80, 8, 120, 8192, 5, full, bf16>>(
      {"LF-13B-A100-80-8k", s03, cal}, step_from_tokens(120.0 * 8192, 14362)));
  v.push_back(evaluate<lf_plan<mpt_7b<65536>, a100_80, 8, 16, 65536, 1, full, bf16>>(
      {"LF-7B-A100-80-64k", s03, cal}, step_from_tokens(16.0 * 65536, 8108)));
  v.push_back(evaluate<lf_plan<mpt_1b<32768>, a100_80, 8, 32, 32768, 1, sel, bf16>>(
      {"LF-1B-A100-80-32k", s03, cal}, step_from_tokens(32.0 * 32768, 50207)));
  v.push_back(evaluate<lf_plan<mpt_70b<2048>, a100_40, 128, 512, 2048, 4, full, bf16>>(
      {"LF-70B-A100-40-128", s03, cal}, step_from_tokens(512.0 * 2048, 48194)));
  v.push_back(evaluate<lf_plan<mpt_7b<2048>, a100_40, 128, 2304, 2048, 18, full, bf16>>(
      {"LF-7B-A100-40-128", s03, cal}, step_from_tokens(2304.0 * 2048, 463749)));
  v.push_back(evaluate<lf_plan<mpt_3b<32768>, a100_40, 8, 32, 32768, 1, full, bf16>>(
      {"LF-3B-A100-40-32k", s03, cal}, step_from_tokens(32.0 * 32768, 23640)));
  v.push_back(evaluate<lf_plan<mpt_760m<32768>, a100_40, 8, 32, 32768, 1, full, bf16>>(
      {"LF-760M-A100-40-32k", s03, cal}, step_from_tokens(32.0 * 32768, 57464)));

  // S04 (a) 2024-12: TPS/GPU; step = GBS·seq / (TPS/GPU·GPUs).
  using fp8tw = precision::fp8_tensorwise;
  using fp8rw = precision::fp8_rowwise;
  auto tt = [](double gbs, double seq, double tps, double gpus) {
    return step_from_tokens_per_gpu(gbs, seq, tps, gpus);
  };
  v.push_back(evaluate<tt_8b_plan<8, 1, 16, 8192, 2, sel, bf16>>(
      {"TT-L3-8B-FSDP", s04, held, false, "eager PyTorch on 500 W HBM2e H100s; seq 8192 by rule 3"},
      tt(16, 8192, 5762, 8)));
  using cl = compiled_layers;
  v.push_back(evaluate<tt_8b_plan<8, 1, 16, 8192, 2, sel, bf16, cl>>(
      {"TT24-8B-8-compile", s04, held}, tt(16, 8192, 6667, 8)));
  v.push_back(evaluate<tt_8b_plan<8, 1, 16, 8192, 2, sel, fp8tw, cl>>(
      {"TT24-8B-8-fp8", s04, held}, tt(16, 8192, 8532, 8)));
  v.push_back(evaluate<tt_8b_plan<8, 1, 8, 32768, 1, full, fp8tw, cl>>(
      {"TT24-8B-CP1-32k", s04, held}, tt(8, 32768, 3890, 8)));
  v.push_back(evaluate<tt_8b_plan<4, 2, 4, 65536, 1, full, fp8tw, cl>>(
      {"TT24-8B-CP2-64k", s04, held}, tt(4, 65536, 2540, 8)));
  v.push_back(evaluate<tt_8b_plan<2, 4, 2, 131072, 1, full, fp8tw, cl>>(
      {"TT24-8B-CP4-128k", s04, held}, tt(2, 131072, 1071, 8)));
  v.push_back(evaluate<tt_8b_plan<1, 8, 1, 262144, 1, full, fp8tw, cl>>(
      {"TT24-8B-CP8-256k", s04, held}, tt(1, 262144, 548, 8)));
  v.push_back(evaluate<tt_8b_plan<128, 1, 256, 8192, 2, sel, bf16>>(
      {"TT24-8B-128-FSDP", s04, held, false, "eager PyTorch"}, tt(256, 8192, 5605, 128)));
  v.push_back(evaluate<tt_8b_plan<128, 1, 256, 8192, 2, sel, bf16, cl>>(
      {"TT24-8B-128-compile", s04, held}, tt(256, 8192, 6514, 128)));
  v.push_back(evaluate<tt_8b_plan<128, 1, 256, 8192, 2, sel, fp8tw, cl>>(
      {"TT24-8B-128-fp8", s04, held}, tt(256, 8192, 8380, 128)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, fp8tw>>(
      {"TT24-70B-2D", s04, held}, tt(512, 8192, 829, 256)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, fp8tw, async_tp, async_tp>>(
      {"TT24-70B-2D-asyncTP", s04, held},
      tt(512, 8192, 876, 256)));
  v.push_back(evaluate<tt_405b_plan<8, 1, 256, 8192, schedule::one_f_one_b>>(
      {"TT24-405B-1F1B", s04, held}, tt(256, 8192, 100, 512)));
  v.push_back(evaluate<tt_405b_plan<8, 1, 256, 8192, schedule::interleaved<2>>>(
      {"TT24-405B-i1F1B", s04, held, false, "stages per rank unstated: torchtitan's 2"},
      tt(256, 8192, 128, 512)));
  v.push_back(evaluate<tt_405b_plan<8, 1, 64, 32768, schedule::one_f_one_b>>(
      {"TT24-405B-CP1-32k", s04, held}, tt(64, 32768, 76, 512)));
  v.push_back(evaluate<tt_405b_plan<4, 2, 32, 65536, schedule::one_f_one_b>>(
      {"TT24-405B-CP2-64k", s04, held}, tt(32, 65536, 47, 512)));
  v.push_back(evaluate<tt_405b_plan<2, 4, 16, 131072, schedule::one_f_one_b>>(
      {"TT24-405B-CP4-128k", s04, held}, tt(16, 131072, 31, 512)));
  v.push_back(evaluate<tt_405b_plan<1, 8, 8, 262144, schedule::one_f_one_b>>(
      {"TT24-405B-CP8-256k", s04, held}, tt(8, 262144, 16, 512)));
  // S04 (b) 2025-06: compile on, 70B FSDP 32 x TP 8 full AC, 8B FSDP 8 x TP 8 per-op SAC.
  v.push_back(evaluate<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, bf16>>(
      {"TTA25-70B-bf16-TP", s04, held}, tt(512, 8192, 597.3, 256)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, bf16, async_tp, async_tp>>(
      {"TTA25-70B-bf16-asyncTP", s04, held},
      tt(512, 8192, 652.4, 256)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, fp8tw>>(
      {"TTA25-70B-fp8tw-TP", s04, held}, tt(512, 8192, 809.8, 256)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, fp8tw, async_tp, async_tp>>(
      {"TTA25-70B-fp8tw-asyncTP", s04, held},
      tt(512, 8192, 942.4, 256)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, fp8rw>>(
      {"TTA25-70B-fp8rw-TP", s04, held, true,
       "the file flags float8 rowwise with vanilla TP as anomalously slow (torchtitan issue 1207)"},
      tt(512, 8192, 599.6, 256)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_70b, 32, 8, 512, 16, full, fp8rw, async_tp, async_tp>>(
      {"TTA25-70B-fp8rw-asyncTP", s04, held, true,
       "runs on the slow rowwise baseline: 4% over it and below bf16 (torchtitan issue 866, "
       "\"Rowwise with AsyncTP runs at roughly same perf as vanilla TP\", labelled a bug)"},
      tt(512, 8192, 624.8, 256)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_8b, 8, 8, 96, 12, sel, bf16>>(
      {"TTA25-8B-bf16-TP", s04, held}, tt(96, 8192, 4378, 64)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_8b, 8, 8, 96, 12, sel, bf16, async_tp, async_tp>>(
      {"TTA25-8B-bf16-asyncTP", s04, held},
      tt(96, 8192, 4809.4, 64)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_8b, 8, 8, 96, 12, sel, fp8tw>>(
      {"TTA25-8B-fp8tw-TP", s04, held}, tt(96, 8192, 5078.1, 64)));
  v.push_back(evaluate<tt_2d_plan<models::llama3_8b, 8, 8, 96, 12, sel, fp8tw, async_tp, async_tp>>(
      {"TTA25-8B-fp8tw-asyncTP", s04, held},
      tt(96, 8192, 5570.1, 64)));

  // S08: TPS/GPU at the 100th iteration.
  v.push_back(evaluate<trainy_plan<4>>({"TRAINY-8B-H200-32", s08, held}, tt(64, 8192, 10938, 32)));
  v.push_back(evaluate<trainy_plan<8>>({"TRAINY-8B-H200-64", s08, held}, tt(128, 8192, 10753, 64)));
}

}  // namespace validation
