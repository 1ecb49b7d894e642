// Megatron-stack measured peaks: S4 Megatron-LM functional-test golden values
// (`mem-max-allocated-bytes`, last rank) and S6 Megatron-Bridge's recompute card.
// Verbatim figures, commits and tags: CANDIDATE_MEMORY_PEAKS.md; rules M1-M8: MEMORY.md.
#pragma once

#include "memory_runs_common.hpp"
#include "runs_megatron.hpp"

namespace validation {

/// Megatron-LM `--bf16` with fp8 linear layers (Transformer Engine current scaling): fp32 main
/// gradients and master weights, fp32 Adam moments (18 B/param, rule M1).
struct megatron_fp8_tensorwise {
  static constexpr precision_policy policy{.name = "Megatron mixed-precision Adam, fp8 linears",
                                           .gradient_bytes = 4.0,
                                           .compute = number_format::fp8,
                                           .scaling = low_precision_scaling::tensorwise};
};

// --- S4a gpt/gpt3_7b_{tp1_pp4,tp4_pp1}_memory_speed (model_config.yaml at Megatron-LM d98e8a64):
// 32 layers, hidden 4096, 32 heads, 8 query groups, untied, seq 8192, max-pos 8192, vocab 131073
// (padded, rule M5); Megatron defaults: FFN 4h GeLU, learned absolute positions, LayerNorm,
// biases, hidden dropout 0.1 (masks stored, rule M6). --------------------------------------------
template <std::int64_t Vocab>
struct meg_gpt7b {
  static constexpr model_shape shape = {.name = "megatron-gpt-7b-gqa",
                                        .layers = 32,
                                        .d_model = 4096,
                                        .d_ff = 16384,
                                        .heads = 32,
                                        .kv_heads = 8,
                                        .head_dim = 128,
                                        .vocab = Vocab,
                                        .gated_mlp = false,
                                        .tied_embeddings = false,
                                        .biases = true,
                                        .norm = norm_kind::layer_norm,
                                        .position_embeddings = 8192};
};

using meg_gb200_8 = systems::nvlink_fat_tree<hardware::gb200, 2, 4>;

/// TP1 PP4, 1 layer per virtual stage (8 chunks per rank), DP 2, distributed optimizer,
/// MBS 1, GBS 8.
template <class System>
using meg_7b_pp4 =
    training_plan<meg_gpt7b<131200>, System, mesh<axis<"pp", 4>, axis<"dp", 2>>, zero<1, "dp">,
                  pipeline<"pp", schedule::interleaved<8>>,
                  batch<global_sequences<8>, seq_len<8192>, micro_batch<1>>, recompute::none,
                  precision::megatron_mixed_adam, with_dropout, framework::megatron_core>;
/// TP4 (no sequence parallel) PP1, DP 2, distributed optimizer, MBS 2, GBS 8.
template <class System>
using meg_7b_tp4 =
    training_plan<meg_gpt7b<131584>, System, mesh<axis<"dp", 2>, axis<"tp", 4>>, zero<1, "dp">,
                  tensor<"tp">, batch<global_sequences<8>, seq_len<8192>, micro_batch<2>>,
                  recompute::none, precision::megatron_mixed_adam, with_dropout,
                  framework::megatron_core>;

// --- S4b gpt/gpt3_15b_8t_release: 32 layers, hidden 6144, 48 heads, 8 groups, seq 4096,
// squared-ReLU (not gated), FFN 4h, no biases, LayerNorm-1p, untied, RoPE; vocab 256000 (rule
// M5); TP 8 + SP, distributed optimizer, MBS 4, first GBS 384; DP 8 (rule M4); dropout 0. -----
struct meg_gpt15b {
  static constexpr model_shape shape = {.name = "megatron-gpt-15b",
                                        .layers = 32,
                                        .d_model = 6144,
                                        .d_ff = 24576,
                                        .heads = 48,
                                        .kv_heads = 8,
                                        .head_dim = 128,
                                        .vocab = 256000,
                                        .gated_mlp = false,
                                        .tied_embeddings = false,
                                        .biases = false,
                                        .norm = norm_kind::layer_norm};
};
template <class System>
using meg_15b = training_plan<meg_gpt15b, System, mesh<axis<"dp", 8>, axis<"tp", 8>>,
                              zero<1, "dp">, tensor<"tp", sequence_parallel>,
                              batch<global_sequences<384>, seq_len<4096>, micro_batch<4>>,
                              recompute::none, precision::megatron_mixed_adam,
                              framework::megatron_core>;

// --- S4c mixtral/mixtral_8x7b_alltoall_tp2pp4ep4_release: Mixtral 8x7B's shape with the
// `nemotron_2_256k.model` tokenizer (vocab 256000, rule M5; the config names this tokenizer, not
// Mixtral's 32000); TP 2 + SP, PP 4 (1F1B), EP 4, distributed optimizer, MBS 1, GBS 1024; 64
// GPUs (rule M4) -> DP 8 = 2 x EP 4. ------------------------------------------------------------
struct meg_mixtral_256k {
  static constexpr model_shape shape = [] {
    model_shape s = models::mixtral_8x7b::shape;
    s.name = "mixtral-8x7b (256k vocab)";
    s.vocab = 256000;
    return s;
  }();
};
template <class System>
using meg_mixtral =
    training_plan<meg_mixtral_256k, System,
                  mesh<axis<"pp", 4>, axis<"dp", 2>, axis<"ep", 4>, axis<"tp", 2>>,
                  zero<1, "dp", "ep">, expert<"ep">, pipeline<"pp">,
                  tensor<"tp", sequence_parallel>,
                  batch<global_sequences<1024>, seq_len<4096>, micro_batch<1>>, recompute::none,
                  precision::megatron_mixed_adam, framework::megatron_core>;

// --- S4d moe/gpt3_mcore_te_tp2_pp2_ep4_etp1_memory_speed: 16 layers (1 dense, 15 MoE), hidden
// 1024, dense FFN 4096, 32 heads, MLA (q-lora 1536, kv-lora 512, qk 128 + rope 64, v 128), 32
// experts top-4 of width 1024 + 1 shared of 1024, expert bias, SwiGLU, RMSNorm, untied, seq 4096,
// vocab 51712 (rule M5); MTP not modelled (M6); TP 2 + SP, PP 2 x 4 virtual stages, EP 4 x ETP 1
// expressed as EP 2 over DP 2 (rule M7); MBS 4, GBS 32; unfused attention. ---------------------
struct meg_moe_mem {
  static constexpr model_shape shape = {.name = "megatron-moe-mla-test",
                                        .layers = 16,
                                        .d_model = 1024,
                                        .d_ff = 4096,
                                        .heads = 32,
                                        .kv_heads = 32,
                                        .head_dim = 192,
                                        .vocab = 51712,
                                        .moe = {.experts = 32,
                                                .top_k = 4,
                                                .shared_experts = 1,
                                                .expert_d_ff = 1024,
                                                .dense_layers = 1,
                                                .router_bias = true},
                                        .mla = {.q_lora_rank = 1536,
                                                .kv_lora_rank = 512,
                                                .qk_nope_head_dim = 128,
                                                .qk_rope_head_dim = 64,
                                                .v_head_dim = 128}};
};
using meg_moe =
    training_plan<meg_moe_mem, systems::dgx_h100_superpod<1>,
                  mesh<axis<"pp", 2>, axis<"dp", 2>, axis<"tp", 2>>, zero<1, "dp">, expert<"dp">,
                  pipeline<"pp", schedule::interleaved<4>>, tensor<"tp", sequence_parallel>,
                  batch<global_sequences<32>, seq_len<4096>, micro_batch<4>>, recompute::none,
                  precision::megatron_mixed_adam, eager_attention, framework::megatron_core>;

// --- S6 Megatron-Bridge: Llama 3 70B SFT, 32 H100, TP4 PP4 VPP5 DP2, MBS 1, GBS 32, seq 4096,
// FP8 current scaling, recompute `mlp` -> `recompute::mlp` (rule M2); SP with TP [I]. Gradients
// reduced in bf16: `llama3_70b_sft_config_h100` calls `set_llama3_common_peft_configs`, which sets
// `cfg.ddp.grad_reduce_in_fp32 = False` (Megatron-Bridge
// scripts/performance/configs/llama/llama3_llm_finetune.py at
// 0026ec18706925001415cfb297834e77a375c925, the commit that recorded PR #3107's experiment; that
// the experiment ran this config is [I]). -----------------------------------------------------
using bridge_l70 =
    training_plan<models::llama3_70b, systems::dgx_h100_superpod<4>,
                  mesh<axis<"pp", 4>, axis<"dp", 2>, axis<"tp", 4>>, zero<1, "dp">,
                  pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
                  batch<global_sequences<32>, seq_len<4096>, micro_batch<1>>,
                  recompute::mlp, megatron_fp8_tensorwise, framework::megatron_core,
                  grad_reduce_in_bf16>;

inline void add_megatron_memory_runs(memory_runs& v) {
  constexpr std::string_view s4 = "S4 Megatron-LM CI";
  constexpr std::string_view s6 = "S6 Megatron-Bridge";
  constexpr half cal = half::calibration;
  constexpr half held = half::held_out;
  constexpr peak_kind allocated = peak_kind::allocated;
  using dgx_h100 = systems::dgx_h100_superpod<1>;
  using dgx_a100 = systems::dgx_a100_superpod<1>;

  // S4a: mem-max-allocated-bytes, max over the logged steps (cumulative peak), last rank.
  v.push_back(measure<meg_7b_pp4<dgx_h100>>({"MEG-7B-PP4-H100", s4, cal, allocated},
                                        from_bytes(60'720'852'992.0)));
  v.push_back(measure<meg_7b_pp4<dgx_a100>>({"MEG-7B-PP4-A100", s4, cal, allocated},
                                        from_bytes(60'489'064'448.0)));
  v.push_back(measure<meg_7b_pp4<meg_gb200_8>>({"MEG-7B-PP4-GB200", s4, cal, allocated},
                                               from_bytes(60'519'342'080.0)));
  v.push_back(measure<meg_7b_tp4<dgx_h100>>({"MEG-7B-TP4-H100", s4, cal, allocated},
                                        from_bytes(57'143'791'616.0)));
  v.push_back(measure<meg_7b_tp4<dgx_a100>>({"MEG-7B-TP4-A100", s4, cal, allocated},
                                        from_bytes(58'188'115'968.0)));
  v.push_back(measure<meg_7b_tp4<meg_gb200_8>>({"MEG-7B-TP4-GB200", s4, cal, allocated},
                                               from_bytes(58'217'476'096.0)));
  // S4b, S4c, S4d: the max over the logged steps (the first step's value is lower).
  v.push_back(measure<meg_15b<systems::dgx_h100_superpod<8>>>(
      {"MEG-15B-H100", s4, cal, allocated, "DP 8 by rule M4"}, from_bytes(28'160'194'560.0)));
  v.push_back(measure<meg_15b<systems::dgx_a100_superpod<8>>>(
      {"MEG-15B-A100", s4, cal, allocated, "DP 8 by rule M4"}, from_bytes(28'391'901'184.0)));
  v.push_back(measure<meg_mixtral<systems::dgx_h100_superpod<8>>>(
      {"MEG-MIX8x7B-H100", s4, cal, allocated, "routing imbalance raises the peak over the run"},
      from_bytes(26'495'959'040.0)));
  v.push_back(measure<meg_mixtral<systems::dgx_a100_superpod<8>>>(
      {"MEG-MIX8x7B-A100", s4, cal, allocated, "routing imbalance raises the peak over the run"},
      from_bytes(26'760'161'280.0)));
  v.push_back(measure<meg_moe>({"MEG-MOE-MEM-H100", s4, cal, allocated, "MTP layer not modelled"},
                               from_bytes(60'111'630'336.0)));
  v.push_back(measure<meg_moe>({"MEG-MOE-MEM-DGXC", s4, cal, allocated, "MTP layer not modelled"},
                               from_bytes(57'961'472'000.0)));

  // S6: Llama 3 70B SFT, kind and rank unstated.
  v.push_back(measure<bridge_l70>({"MB-L70-mlp", s6, held, peak_kind::unstated,
                                   "recompute `mlp`: recompute::mlp (rule M2)"},
                                  gb(55.6)));
}

}  // namespace validation
