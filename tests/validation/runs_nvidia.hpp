// Megatron-Core-based runs by their users and by NVIDIA's later teams: Llama 3 405B (Meta), S06
// NeMo 24.07 and the NeMo long-sequence tables, S07 Megatron-Bridge 25.11. Figures: RUNS.md.
#pragma once

#include "runs_common.hpp"

namespace validation {

// --- Llama 3 (arXiv:2407.21783) Sec. 3.3.2, Table 4 ----------------------------------------------
// 405B, TP8 CP1 PP16, DP 64 (8192 GPUs) or 128 (16384 GPUs), seq 8192, 16M tokens per batch,
// FSDP that shards optimizer states and gradients but keeps parameters (ZeRO-2), interleaved
// 1F1B (V unstated: 2, rule 2), rank order [TP, CP, PP, DP] innermost first (stated), MBS 1 (rule 1), no activation checkpointing at 8K (flash:
// selective, rule 5); 126 layers unevenly on 16 stages. 430 and 400 TFLOPs/GPU (BF16).
template <std::int64_t Nodes, std::int64_t Data>
using llama3_405b_meta =
    training_plan<models::llama3_405b, systems::nvlink_fat_tree<hardware::h100_sxm, Nodes>,
                  mesh<axis<"dp", Data>, axis<"pp", 16>, axis<"tp", 8>>, zero<2, "dp">,
                  pipeline<"pp", schedule::interleaved<2>, uneven_stages>,
                  tensor<"tp", sequence_parallel>,
                  batch<global_sequences<2048>, seq_len<8192>, micro_batch<1>>,
                  recompute::selective, precision::bf16_mixed_adam, framework::generic>;

// --- NeMo / Megatron-Bridge layouts ----------------------------------------------------------------
// Mesh pp x dp x cp x tp (Megatron-Core's default order tp-cp-ep-dp-pp, innermost first: rule 12); distributed optimizer (ZeRO-1) and sequence parallelism as the recipes
// set them (rule 8); recompute unstated: none, i.e. `selective` with the fused attention kernel
// (rule 5); the chip's default attention kernel (rule 6).
template <class Model, class System, std::int64_t Dp, std::int64_t Pp, std::int64_t Cp,
          std::int64_t Tp, class Schedule, std::int64_t Gbs, std::int64_t Seq, std::int64_t Mbs,
          class Precision, class DataParallel = zero<1, "dp">, class... Extra>
using nemo_plan = training_plan<
    Model, System, mesh<axis<"pp", Pp>, axis<"dp", Dp>, axis<"cp", Cp>, axis<"tp", Tp>>,
    DataParallel, pipeline<"pp", Schedule, uneven_stages>, context<"cp">,
    tensor<"tp", sequence_parallel>, batch<global_sequences<Gbs>, seq_len<Seq>, micro_batch<Mbs>>,
    recompute::selective, Precision, framework::megatron_core, Extra...>;

template <std::int64_t Gpus>
using dgx_h100 = systems::dgx_h100_superpod<(Gpus + 7) / 8>;
template <std::int64_t Gpus>
using dgx_b200 = systems::dgx_b200_superpod<(Gpus + 7) / 8>;
template <std::int64_t Gpus>
using nvl72 = systems::gb200_nvl72<(Gpus + 71) / 72>;

/// NeMo's tables of 24.03.01 and 24.07 (S06) as NeMo-Framework-Launcher runs them (rule 6): its
/// launcher_scripts/conf/config.yaml sets `NVTE_FUSED_ATTN: 0 # Disable cudnn FA until we've
/// tested it more` at every tag from 24.01 to 24.07 (added in 562dcb45, 2024-02-13), so
/// Transformer Engine's DotProductAttention, and its context-parallel `AttnFuncWithCP`, call the
/// flash-attn 2 package (TE 1.3's setup.py: flash-attn <= 2.4.2) instead of cuDNN. `Extra`: what
/// a row's launcher recipe adds. At tag 24.07 (commit in RUNS.md rule 8)
/// launcher_scripts/conf/training/llama/llama2_70b.yaml and llama3_70b.yaml set
/// `ub_tp_comm_overlap: true` (Transformer Engine's userbuffers, `tp_comm_overlap`, with the
/// tp_overlap/ub_cfg_h100_h8192_tp4_* method files: ring-exchange all-gathers, 4-way pipelined
/// reduce-scatters, bulk backward, as `userbuffers` models them); gpt3/175b.yaml sets it False;
/// the 7B, 8B and 13B recipes run at tensor parallelism 1.
template <class Model, class System, std::int64_t Dp, std::int64_t Pp, std::int64_t Cp,
          std::int64_t Tp, class Schedule, std::int64_t Gbs, std::int64_t Seq, std::int64_t Mbs,
          class Precision, class... Extra>
using nemo_launcher_plan = nemo_plan<Model, System, Dp, Pp, Cp, Tp, Schedule, Gbs, Seq, Mbs,
                                     Precision, zero<1, "dp">,
                                     attention_with<attention_kernel::flash2>, Extra...>;

// S06a NeMo 24.07 docs/source/performance/performance_summary.md (8e3d65d): "pre-training
// performance ... at FP8 precision", DGX-H100; FP8 recipe unnamed: TransformerEngine delayed
// scaling (rule 7). GPT3-175B is the GPT-3 preset (NeMo's GPT-3 vocabulary, learned positions).
using te_fp8 = precision::fp8_delayed;
// S06b NeMo long-sequence tables (19fadb6), Llama 2 7B FP8 on DGX-H100 (NeMo 24.03).
template <std::int64_t Gpus, std::int64_t Tp, std::int64_t Dp, std::int64_t Cp, std::int64_t Gbs,
          std::int64_t Seq>
using nemo_ls_plan = nemo_launcher_plan<models::llama2_7b, dgx_h100<Gpus>, Dp, 1, Cp, Tp,
                                        schedule::one_f_one_b, Gbs, Seq, 1, te_fp8>;

// S07 Megatron-Bridge docs/performance-summary-archive.md (4ab94df), 25.11 NeMo container:
// "FP8-CS" = current scaling (per-tensor dynamic): fp8_tensorwise (rule 7). "FSDP > 0: use FSDP
// with sharding group size = #GPUs / (TP x PP)"; "FSDP = 0: use DDP" (with the distributed
// optimizer, rule 8).
using fp8_cs = precision::fp8_tensorwise;
/// Megatron-Bridge's Llama 3 / 3.1 performance configs reduce gradients in bf16
/// (`cfg.ddp.grad_reduce_in_fp32 = False`, `set_llama3_common_configs` and
/// `set_llama31_common_configs` in scripts/performance/configs/llama3/llama3_llm_pretrain.py and
/// configs/llama31/llama31_llm_pretrain.py at Megatron-Bridge v0.2.0,
/// 717c62de401bce92e913fd1c66c03f4e17bff265; v0.2.0 as the 25.11 container's Bridge is [I]),
/// and overlap tensor-parallel communication with userbuffers (`tp_comm_overlap`): the 70B and
/// 405B pretrain recipes set `CommOverlapConfig(tp_comm_overlap=True, ...)`
/// (src/megatron/bridge/recipes/llama/llama3.py, same commit), the 8B configs
/// `tp_comm_overlap=bool(tensor_model_parallel_size > 1)`, and the performance configs keep it
/// but for NVFP4 (none here); at TP 1 it changes nothing.
template <class Model, class System, std::int64_t Dp, std::int64_t Pp, std::int64_t Cp,
          std::int64_t Tp, class Schedule, std::int64_t Gbs, std::int64_t Seq, std::int64_t Mbs,
          class Precision, class DataParallel = zero<1, "dp">>
using bridge_plan = nemo_plan<Model, System, Dp, Pp, Cp, Tp, Schedule, Gbs, Seq, Mbs, Precision,
                              DataParallel, grad_reduce_in_bf16, tp_comm_overlap>;

inline void add_nvidia_runs(runs& v) {
  constexpr std::string_view l3 = "Llama 3";
  constexpr std::string_view s06 = "S06 NeMo";
  constexpr std::string_view s07 = "S07 Megatron-Bridge";
  constexpr half cal = half::calibration;
  constexpr half held = half::held_out;
  using one_f = schedule::one_f_one_b;

  v.push_back(evaluate<llama3_405b_meta<1024, 64>>(
      {"L3-405B-8K-GPU", l3, held, false, "virtual stages unpublished: V = 2 by rule 2"},
      palm_step<models::llama3_405b>(2048.0 * 8192, 8192, 8192, 430)));
  v.push_back(evaluate<llama3_405b_meta<2048, 128>>(
      {"L3-405B-16K-GPU", l3, held, false, "virtual stages unpublished: V = 2 by rule 2"},
      palm_step<models::llama3_405b>(2048.0 * 8192, 8192, 16384, 400)));

  // S06a: "Tokens/sec/GPU", step = GBS·seq / (tokens/s/GPU · GPUs).
  auto tk = [](double gbs, double seq, double per_gpu, double gpus) {
    return step_from_tokens_per_gpu(gbs, seq, per_gpu, gpus);
  };
  v.push_back(evaluate<nemo_launcher_plan<models::gpt3_175b, dgx_h100<128>, 4, 8, 1, 4,
                                 schedule::interleaved<6>, 256, 2048, 1, te_fp8>>(
      {"NEMO2407-GPT3-175B-128", s06, held}, tk(256, 2048, 716, 128)));
  v.push_back(evaluate<nemo_launcher_plan<models::gpt3_175b, dgx_h100<512>, 16, 8, 1, 4,
                                 schedule::interleaved<6>, 2048, 2048, 2, te_fp8>>(
      {"NEMO2407-GPT3-175B-512", s06, held}, tk(2048, 2048, 825, 512)));
  v.push_back(evaluate<nemo_launcher_plan<models::llama2_7b, dgx_h100<8>, 8, 1, 1, 1, one_f, 128, 4096, 1,
                                 te_fp8>>({"NEMO2407-L2-7B", s06, held}, tk(128, 4096, 16934, 8)));
  v.push_back(evaluate<nemo_launcher_plan<models::llama2_13b, dgx_h100<16>, 4, 4, 1, 1,
                                 schedule::interleaved<10>, 128, 4096, 1, te_fp8>>(
      {"NEMO2407-L2-13B", s06, held}, tk(128, 4096, 8715, 16)));
  v.push_back(evaluate<nemo_launcher_plan<models::llama2_70b, dgx_h100<64>, 4, 4, 1, 4,
                                 schedule::interleaved<20>, 128, 4096, 1, te_fp8, tp_comm_overlap>>(
      {"NEMO2407-L2-70B", s06, held}, tk(128, 4096, 1728, 64)));
  v.push_back(evaluate<nemo_launcher_plan<models::llama3_8b, dgx_h100<8>, 4, 1, 2, 1, one_f, 128, 8192, 1,
                                 te_fp8>>({"NEMO2407-L3-8B", s06, held}, tk(128, 8192, 12273, 8)));
  v.push_back(evaluate<nemo_launcher_plan<models::llama3_70b, dgx_h100<64>, 2, 4, 2, 4,
                                 schedule::interleaved<5>, 128, 8192, 1, te_fp8, tp_comm_overlap>>(
      {"NEMO2407-L3-70B", s06, held}, tk(128, 8192, 1524, 64)));

  // S06b: "with CP" TFLOPS/GPU under NeMo's llama2 FLOP formula; s = K·1024 [I].
  auto ls = [](double gbs, double seq, double gpus, double tflops) {
    return nemo_llama_step(gbs, seq, 32, 4096, 32, 32, 11008, 32000, gpus, tflops);
  };
  v.push_back(evaluate<nemo_ls_plan<32, 2, 8, 2, 128, 32768>>({"NEMOLS-L2-7B-H100-32k", s06, held},
                                                              ls(128, 32768, 32, 610)));
  v.push_back(evaluate<nemo_ls_plan<64, 4, 8, 2, 64, 65536>>({"NEMOLS-L2-7B-H100-64k", s06, held},
                                                             ls(64, 65536, 64, 574)));
  v.push_back(evaluate<nemo_ls_plan<128, 4, 8, 4, 32, 131072>>(
      {"NEMOLS-L2-7B-H100-128k", s06, held}, ls(32, 131072, 128, 555)));
  v.push_back(evaluate<nemo_ls_plan<256, 4, 8, 8, 16, 262144>>(
      {"NEMOLS-L2-7B-H100-256k", s06, held}, ls(16, 262144, 256, 549)));
  v.push_back(evaluate<nemo_ls_plan<512, 8, 4, 16, 8, 524288>>(
      {"NEMOLS-L2-7B-H100-512k", s06, held}, ls(8, 524288, 512, 549)));
  v.push_back(evaluate<nemo_ls_plan<1024, 8, 4, 32, 4, 1048576>>(
      {"NEMOLS-L2-7B-H100-1M", s06, held}, ls(4, 1048576, 1024, 536)));

  // S07 25.11: "Tokens / sec / GPU".
  v.push_back(evaluate<bridge_plan<models::llama3_8b, dgx_b200<8>, 8, 1, 1, 1, one_f, 128, 8192, 2,
                                 fp8_cs>>({"MB2511-L3-8B-B200", s07, cal}, tk(128, 8192, 30624, 8)));
  v.push_back(evaluate<bridge_plan<models::llama3_8b, nvl72<8>, 8, 1, 1, 1, one_f, 128, 8192, 2,
                                 fp8_cs>>({"MB2511-L3-8B-GB200", s07, cal},
                                          tk(128, 8192, 31508, 8)));
  v.push_back(evaluate<bridge_plan<models::llama3_8b, dgx_h100<8>, 8, 1, 1, 1, one_f, 128, 8192, 1,
                                 fp8_cs, fsdp<"dp">>>({"MB2511-L3-8B-H100", s07, cal},
                                                      tk(128, 8192, 14451, 8)));
  v.push_back(evaluate<bridge_plan<models::llama3_70b, nvl72<64>, 64, 1, 1, 1, one_f, 256, 8192, 2,
                                 fp8_cs, fsdp<"dp">>>({"MB2511-L3-70B-GB200", s07, cal},
                                                      tk(256, 8192, 4312, 64)));
  v.push_back(evaluate<bridge_plan<models::llama3_70b, dgx_h100<64>, 2, 8, 1, 4,
                                 schedule::interleaved<5>, 128, 8192, 1, fp8_cs>>(
      {"MB2511-L3-70B-H100", s07, cal}, tk(128, 8192, 1602, 64)));
  v.push_back(evaluate<bridge_plan<models::llama3_405b, nvl72<256>, 4, 16, 1, 4,
                                 schedule::interleaved<4>, 1536, 8192, 1, fp8_cs>>(
      {"MB2511-L31-405B-GB200", s07, cal}, tk(1536, 8192, 813, 256)));
  v.push_back(evaluate<bridge_plan<models::llama3_405b, dgx_b200<128>, 2, 8, 2, 4,
                                 schedule::interleaved<8>, 64, 8192, 1, fp8_cs>>(
      {"MB2511-L31-405B-B200", s07, cal}, tk(64, 8192, 661, 128)));
  v.push_back(evaluate<bridge_plan<models::llama3_405b, dgx_h100<1024>, 8, 8, 2, 8,
                                 schedule::interleaved<8>, 512, 8192, 1, fp8_cs>>(
      {"MB2511-L31-405B-H100", s07, cal}, tk(512, 8192, 292, 1024)));
}

}  // namespace validation
