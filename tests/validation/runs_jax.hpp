// JAX/XLA runs: PaLM 540B, and S05 MaxText's README tables (v4 and v5e: calibration; v5p and
// A3 H100: held-out). Figures: RUNS.md.
#pragma once

#include "runs_common.hpp"

namespace validation {

// --- PaLM 540B (arXiv:2204.02311) ---------------------------------------------------------------

/// PaLM 540B (Table 1 and Sec. 2): 118 layers, d_model 18432, 48 heads of 256, multi-query
/// attention, d_ff = 4·d_model SwiGLU, 256k vocabulary, shared embeddings, no biases.
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

// 2 TPU v4 pods of 3072 chips, per pod 12-way model parallelism x 256-way fully sharded data
// parallelism, 2-way data parallelism across pods over DCN, batch 2048 x 2048, one activation
// tensor saved per layer. The slice shape 12x16x16 is our assumption; "fully sharded" saved
// activations are split over the model axis too (SP). "238.3K tokens/sec at the batch size of
// 2048".
using palm = training_plan<palm_540b, systems::tpu_v4p_slice<12, 16, 16, 2>,
                           mesh<axis<"pod", 2>, axis<"fsdp", 256>, axis<"mp", 12>>, data<"pod">,
                           zero<3, "fsdp">, tensor<"mp", sequence_parallel>,
                           batch<global_sequences<2048>, seq_len<2048>, micro_batch<4>>,
                           recompute::checkpoints<1>, precision::bf16_mixed_adam, eager_full,
                           framework::generic>;

// --- S05 MaxText (AI-Hypercomputer/maxtext), tables written in 76bd53b (2023-12-15) -------------
// Shapes from base.yml at 76bd53b (rule 4): head_dim 256, MHA, ReLU MLP (two matrices), tied
// embeddings (logits_via_embedding), vocab 32768, RMSNorm, no biases; scaled per
// global_parameter_scale or set explicitly in the v4 scripts. ici_fsdp_parallelism=-1 (the rest
// of the slice), ici_tensor_parallelism as scripted, DCN data parallelism across slices, seq
// 2048, per-device batch as scripted (no gradient accumulation), remat minimal by name,
// full = full. v4-N and v5p-N count TensorCores (2 per chip); v5e-256 is 256 chips.

template <std::int64_t L, std::int64_t D, std::int64_t Heads, std::int64_t Mlp>
struct maxtext_model {
  static constexpr model_shape shape = {.name = "maxtext",
                                        .layers = L,
                                        .d_model = D,
                                        .d_ff = Mlp,
                                        .heads = Heads,
                                        .kv_heads = Heads,
                                        .head_dim = 256,
                                        .vocab = 32768,
                                        .gated_mlp = false,
                                        .tied_embeddings = true,
                                        .biases = false,
                                        .norm = norm_kind::rms_norm};
};
using mt_16b = maxtext_model<32, 5120, 32, 32768>;
using mt_32b = maxtext_model<32, 10240, 32, 32768>;
using mt_64b = maxtext_model<64, 10240, 32, 32768>;
using mt_128b = maxtext_model<64, 10240, 64, 65536>;
using mt_256b = maxtext_model<64, 20480, 64, 65536>;
using mt_512b = maxtext_model<128, 20480, 64, 65536>;
using mt_1024b = maxtext_model<128, 20480, 128, 131072>;
using mt_v4_22b = maxtext_model<48, 6144, 24, 24576>;
using mt_v4_52b = maxtext_model<32, 12288, 32, 49152>;

/// Parameter counts [D] in CANDIDATE_RUNS.md S05 (billions, 2 to 4 significant digits), within
/// 0.3%.
template <class M>
constexpr bool billions(double b) {
  const double x = static_cast<double>(model_parameters<M>().total) / 1e9;
  return x > 0.997 * b && x < 1.003 * b;
}
static_assert(billions<mt_16b>(16.27) && billions<mt_32b>(32.55) && billions<mt_64b>(64.76));
static_assert(billions<mt_128b>(129.2) && billions<mt_256b>(258.4) && billions<mt_512b>(516.1));
static_assert(billions<mt_1024b>(1031.5) && billions<mt_v4_22b>(21.94) &&
              billions<mt_v4_52b>(51.94));

/// A MaxText README row: DCN data parallelism x ICI FSDP x ICI TP on `System`; per-device batch
/// `Pdb` (a replica of Tp chips holds Pdb·Tp sequences).
template <class Model, class System, std::int64_t Dcn, std::int64_t Fsdp, std::int64_t Tp,
          std::int64_t Pdb, class Recompute>
using mt_plan = training_plan<
    Model, System, mesh<axis<"dcn", Dcn>, axis<"fsdp", Fsdp>, axis<"tp", Tp>>, data<"dcn">,
    fsdp<"fsdp">, tensor<"tp", sequence_parallel>,
    batch<global_sequences<Dcn * Fsdp * Tp * Pdb>, seq_len<2048>, micro_batch<Pdb * Tp>>,
    Recompute, precision::bf16_mixed_adam, framework::maxtext>;

template <class Model>
double mt_step(double pdb, double tflops) {
  const model_shape& m = Model::shape;
  return maxtext_step(static_cast<double>(model_parameters<Model>().total),
                      static_cast<double>(m.layers), static_cast<double>(m.heads), 256.0, 2048.0,
                      pdb, tflops);
}

// S05b: MaxText on A3 (8 H100 per VM), Llama-2 7B, configs/gpu/a3/llama_2_7b/{1..16}vm.sh and
// models/llama2_7b.yml at HEAD e591f30 [I for the measured run]: per_device_batch_size 4, seq
// 4096, attention cudnn_flash_te, remat minimal_with_context (selective), ici_fsdp 8, dcn data
// parallelism = VMs, bf16; A3 High's network (`h100_a3_high`).
template <std::int64_t Vms>
using mt_a3_plan =
    training_plan<models::llama2_7b, systems::nvlink_fat_tree<h100_a3_high, Vms>,
                  mesh<axis<"dcn", Vms>, axis<"fsdp", 8>>, data<"dcn">, fsdp<"fsdp">,
                  batch<global_sequences<Vms * 32>, seq_len<4096>, micro_batch<4>>,
                  recompute::selective, precision::bf16_mixed_adam,
                  attention_with<attention_kernel::cudnn>, framework::maxtext>;
static_assert(model_parameters<models::llama2_7b>().total == 6'738'415'616);

inline void add_jax_runs(runs& v) {
  constexpr std::string_view s05a = "S05a MaxText v4+v5e";
  constexpr std::string_view s05b = "S05b MaxText v5p+A3";
  constexpr half cal = half::calibration;
  constexpr half held = half::held_out;
  // The v5p rows ran remat_policy minimal: at 76bd53b `checkpoint_dots_with_no_batch_dims`, every
  // projection's output and not the attention's (batched) products, the set MaxText's `minimal`
  // names at e591f30 (nnx_decoders.py, lines 1142-1153).
  using sel = recompute::maxtext<"minimal">;
  using full = recompute::full;

  v.push_back(evaluate<palm>({"PALM-540B", "PaLM", cal}, step_from_tokens(2048.0 * 2048, 238.3e3)));

  // v5p (held-out): "TFLOP/sec/chip | MFU".
  using namespace systems;
  v.push_back(evaluate<mt_plan<mt_32b, tpu_v5p_slice<4, 4, 4>, 1, 16, 4, 8, sel>>(
      {"MAXTEXT-32B-v5p", s05b, held, false, "shape and batch of 76bd53b (finding F1)"},
      mt_step<mt_32b>(8, 328)));
  v.push_back(evaluate<mt_plan<mt_32b, tpu_v5p_slice<4, 4, 4, 2>, 2, 16, 4, 8, sel>>(
      {"MT-v5p-32B-2x", s05b, held}, mt_step<mt_32b>(8, 319)));
  v.push_back(evaluate<mt_plan<mt_64b, tpu_v5p_slice<4, 4, 4>, 1, 16, 4, 4, sel>>(
      {"MT-v5p-64B-1x", s05b, held}, mt_step<mt_64b>(4, 323)));
  v.push_back(evaluate<mt_plan<mt_64b, tpu_v5p_slice<4, 4, 4, 2>, 2, 16, 4, 4, sel>>(
      {"MT-v5p-64B-2x", s05b, held}, mt_step<mt_64b>(4, 309)));
  v.push_back(evaluate<mt_plan<mt_128b, tpu_v5p_slice<4, 4, 8>, 1, 16, 8, 2, sel>>(
      {"MT-v5p-128B-1x256", s05b, held}, mt_step<mt_128b>(2, 315)));
  v.push_back(evaluate<mt_plan<mt_128b, tpu_v5p_slice<4, 8, 8, 2>, 2, 32, 8, 2, sel>>(
      {"MT-v5p-128B-2x512", s05b, held}, mt_step<mt_128b>(2, 274)));
  v.push_back(evaluate<mt_plan<mt_256b, tpu_v5p_slice<8, 8, 8>, 1, 64, 8, 2, sel>>(
      {"MT-v5p-256B-1x1024", s05b, held}, mt_step<mt_256b>(2, 308)));
  v.push_back(evaluate<mt_plan<mt_512b, tpu_v5p_slice<8, 8, 8>, 1, 32, 16, 2, full>>(
      {"MT-v5p-512B-1x1024", s05b, held}, mt_step<mt_512b>(2, 294)));
  v.push_back(evaluate<mt_plan<mt_1024b, tpu_v5p_slice<8, 16, 16>, 1, 128, 16, 2, full>>(
      {"MT-v5p-1024B-1x4096", s05b, held}, mt_step<mt_1024b>(2, 297)));
  v.push_back(evaluate<mt_plan<mt_1024b, tpu_v5p_slice<8, 16, 16, 2>, 2, 128, 16, 2, full>>(
      {"MT-v5p-1024B-2x4096", s05b, held}, mt_step<mt_1024b>(2, 279)));

  // v5e (calibration): 256-chip pods, up to 32 over DCN.
  v.push_back(evaluate<mt_plan<mt_16b, tpu_v5e_slice<16, 16>, 1, 256, 1, 6, full>>(
      {"MT-v5e-16B-1x", s05a, cal}, mt_step<mt_16b>(6, 120)));
  v.push_back(evaluate<mt_plan<mt_16b, tpu_v5e_slice<16, 16, 32>, 32, 256, 1, 6, full>>(
      {"MT-v5e-16B-32x", s05a, cal}, mt_step<mt_16b>(6, 108)));
  v.push_back(evaluate<mt_plan<mt_32b, tpu_v5e_slice<16, 16>, 1, 256, 1, 4, full>>(
      {"MT-v5e-32B-1x", s05a, cal}, mt_step<mt_32b>(4, 132)));
  v.push_back(evaluate<mt_plan<mt_32b, tpu_v5e_slice<16, 16, 32>, 32, 256, 1, 4, full>>(
      {"MT-v5e-32B-32x", s05a, cal}, mt_step<mt_32b>(4, 119)));
  v.push_back(evaluate<mt_plan<mt_64b, tpu_v5e_slice<16, 16>, 1, 256, 1, 2, full>>(
      {"MT-v5e-64B-1x", s05a, cal}, mt_step<mt_64b>(2, 118)));
  v.push_back(evaluate<mt_plan<mt_64b, tpu_v5e_slice<16, 16, 32>, 32, 256, 1, 2, full>>(
      {"MT-v5e-64B-32x", s05a, cal}, mt_step<mt_64b>(2, 99)));
  v.push_back(evaluate<mt_plan<mt_128b, tpu_v5e_slice<16, 16>, 1, 16, 16, 1, full>>(
      {"MT-v5e-128B-1x", s05a, cal}, mt_step<mt_128b>(1, 110)));
  v.push_back(evaluate<mt_plan<mt_128b, tpu_v5e_slice<16, 16, 32>, 32, 16, 16, 1, full>>(
      {"MT-v5e-128B-32x", s05a, cal}, mt_step<mt_128b>(1, 91)));

  // v4 (calibration): v4-128 = 64 chips, v4-384 = 192 chips.
  v.push_back(evaluate<mt_plan<mt_v4_22b, tpu_v4p_slice<4, 4, 4>, 1, 64, 1, 16, full>>(
      {"MT-v4-22B-1x", s05a, cal}, mt_step<mt_v4_22b>(16, 156)));
  v.push_back(evaluate<mt_plan<mt_v4_22b, tpu_v4p_slice<4, 4, 4, 8>, 8, 64, 1, 16, full>>(
      {"MT-v4-22B-8x", s05a, cal}, mt_step<mt_v4_22b>(16, 146)));
  v.push_back(evaluate<mt_plan<mt_v4_52b, tpu_v4p_slice<4, 4, 12>, 1, 192, 1, 10, full>>(
      {"MT-v4-52B-1x", s05a, cal}, mt_step<mt_v4_52b>(10, 154)));
  v.push_back(evaluate<mt_plan<mt_v4_52b, tpu_v4p_slice<4, 4, 12, 2>, 2, 192, 1, 10, full>>(
      {"MT-v4-52B-2x", s05a, cal, false,
       "the README calls the 2-slice figure \"quirkily higher\" than 1 slice (compiler choices)"},
      mt_step<mt_v4_52b>(10, 162)));

  // A3 (held-out): "TFLOP/sec/chip", MaxText's counter with causal halving [I], N = 6,738,415,616.
  auto a3 = [](double tflops) {
    return maxtext_step(6'738'415'616.0, 32, 32, 128, 4096, 4, tflops);
  };
  v.push_back(evaluate<mt_a3_plan<1>>({"MT-A3-L2-7B-1vm", s05b, held}, a3(492)));
  v.push_back(evaluate<mt_a3_plan<2>>({"MT-A3-L2-7B-2vm", s05b, held}, a3(422)));
  v.push_back(evaluate<mt_a3_plan<4>>({"MT-A3-L2-7B-4vm", s05b, held}, a3(407)));
  v.push_back(evaluate<mt_a3_plan<8>>({"MT-A3-L2-7B-8vm", s05b, held}, a3(409)));
  v.push_back(evaluate<mt_a3_plan<16>>({"MT-A3-L2-7B-16vm", s05b, held}, a3(375)));
}

}  // namespace validation
