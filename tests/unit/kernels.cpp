// Tests of kernels.hpp against published microbenchmarks (tests/validation/KERNELS.md): GEMM
// throughput by shape (DeepGEMM on H800, CUTLASS on A100), the memory-bound small-M rows, norm,
// softmax and activation kernels (QuACK, Liger-Kernel), FlashAttention-2, -3 and cuDNN on H100
// SXM, and tile and wave quantisation derived by hand. Every expected value is a published
// measurement; the model's miss on each point left out is written beside it ("misses: ...").
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/hardware/nvidia.hpp>

namespace {

using namespace shardplan;

/// |predicted / published - 1|, the relative error of a prediction.
double relative_error(double predicted, double published) {
  return std::fabs(predicted / published - 1.0);
}

/// TFLOP/s a GEMM reaches by `gemm_time`, its FLOPs counted as 2·m·n·k per group (the
/// convention of DeepGEMM's and CUTLASS's figures), not by `gemm_flops`.
double gemm_tflops(const chip_figures& chip, number_format f, const gemm_shape& g,
                   double scaling_share = 1.0) {
  const double work = 2.0 * g.m * g.n * g.k * g.groups;
  return work / gemm_time(chip, f, g, 0.0, scaling_share).value() / 1e12;
}

/// A row of DeepGEMM's "Normal GEMMs for dense models" table: M, N, K, TFLOPS and GB/s.
/// deepseek-ai/DeepGEMM README.md @ 327ec92f6977e7fee022cb76a8f273b75483c3d8 (2025-04-09), fp8
/// E4M3 inputs with 1x128 / 128x128 block scales, bf16 output, H800 SXM5, NVCC 12.8
/// (KERNELS.md 1.1).
struct deepgemm_row {
  double m, n, k, tflops, gbps;
};

// clang-format off
constexpr std::array<deepgemm_row, 18> deepgemm_dense = {{
    {64, 2112, 7168, 206, 1688},   {64, 24576, 1536, 289, 2455},   {64, 32768, 512, 219, 2143},
    {64, 7168, 16384, 336, 2668},  {64, 4096, 7168, 287, 2320},    {64, 7168, 2048, 295, 2470},
    {128, 2112, 7168, 352, 1509},  {128, 24576, 1536, 535, 2448},  {128, 32768, 512, 358, 2103},
    {128, 7168, 16384, 645, 2604}, {128, 4096, 7168, 533, 2221},   {128, 7168, 2048, 510, 2277},
    {4096, 2112, 7168, 1127, 562}, {4096, 24576, 1536, 1212, 962}, {4096, 32768, 512, 775, 1620},
    {4096, 7168, 16384, 1520, 384}, {4096, 4096, 7168, 1410, 541}, {4096, 7168, 2048, 1168, 794},
}};
// clang-format on

/// FLOPs of an attention call as FlashAttention's benchmark counts them:
/// 4·b·s²·h·d forward, halved when causal, 2.5x that backward
/// (Dao-AILab/flash-attention benchmarks/benchmark_flash_attention.py @ 0469c72, KERNELS.md 2.1).
double flash_convention_flops(double batch, double heads, double seq, double head_dim,
                              bool causal, bool backward) {
  const double forward = 4.0 * batch * seq * seq * heads * head_dim / (causal ? 2.0 : 1.0);
  return backward ? 2.5 * forward : forward;
}

/// TFLOP/s of one attention call by `attention_time` at the FlashAttention benchmark's sizes:
/// b·s = 16k tokens and heads·d = 2048 (benchmark_flash_attention.py @ 0469c72; pytorch/benchmark
/// ff65cb6 "the FA3 paper sizes inputs such that B*S=16k and H*Dhead=2048").
double attention_tflops(attention_kernel kernel, double seq, double head_dim, bool causal,
                        bool backward,
                        const chip_figures& chip = hardware::h100_sxm::figures) {
  const double batch = 16384.0 / seq;
  const double heads = 2048.0 / head_dim;
  const attention_shape a{batch, heads, heads, seq, seq, head_dim, head_dim, causal};
  const seconds t = attention_time(chip, kernel, number_format::bf16, a, backward);
  return flash_convention_flops(batch, heads, seq, head_dim, causal, backward) / t.value() / 1e12;
}

/// TFLOP/s of a forward and a backward call together, as the FlashAttention-2 paper's fwd+bwd
/// bars count them: 3.5 forward FLOPs over the two times.
double attention_fwd_bwd_tflops(attention_kernel kernel, double seq, double head_dim,
                                bool causal, const chip_figures& chip) {
  const double forward = attention_tflops(kernel, seq, head_dim, causal, false, chip);
  const double backward = attention_tflops(kernel, seq, head_dim, causal, true, chip);
  return 3.5 / (1.0 / forward + 2.5 / backward);
}

/// Sequence lengths of the FlashAttention-3 paper's sweeps.
constexpr std::array<double, 6> flash_seqs = {512, 1024, 2048, 4096, 8192, 16384};

/// One bar series of the FlashAttention-3 paper (Shah et al. 2024, arXiv:2407.08608), H100 80GB
/// SXM5, bf16, TFLOP/s at 512..16k tokens; `met` marks the points the test checks.
struct flash_series {
  double head_dim;
  bool causal;
  std::array<double, 6> tflops;
  std::array<bool, 6> met;
};

/// Checks each point of `s` that it marks met against `predict(seq, head_dim, causal)`, the
/// model's TFLOP/s, within `tolerance`.
template <class Predict>
void check_bars(const flash_series& s, double tolerance, Predict predict) {
  for (std::size_t i = 0; i < flash_seqs.size(); ++i) {
    if (!s.met[i]) continue;
    const double predicted = predict(flash_seqs[i], s.head_dim, s.causal);
    CAPTURE(s.head_dim);
    CAPTURE(s.causal);
    CAPTURE(flash_seqs[i]);
    CAPTURE(predicted);
    CAPTURE(s.tflops[i]);
    CHECK(relative_error(predicted, s.tflops[i]) <= tolerance);
  }
}

/// `check_bars` for one pass of `kernel` on H100 SXM (the FlashAttention-3 paper's bars).
void check_series(attention_kernel kernel, const flash_series& s, bool backward,
                  double tolerance) {
  check_bars(s, tolerance, [&](double seq, double head_dim, bool causal) {
    return attention_tflops(kernel, seq, head_dim, causal, backward);
  });
}

constexpr std::array<bool, 6> all_met = {true, true, true, true, true, true};

}  // namespace

TEST_CASE("large gemms: deepgemm's fp8 shapes on h800 and cutlass's a100 point within 10%") {
  const chip_figures& h800 = hardware::h800::figures;
  // DeepGEMM README @ 327ec92, dense table, the six M = 4096 rows (KERNELS.md 1.1), block-scaled
  // fp8 (so at `block_scaled_gemm_share` of a tensor-scaled GEMM's rate). The reduction overhead
  // k0 = 496 was fitted to these rows and the share from them too: a check that the fit holds
  // in gemm_time with its roofline, not an independent one.
  for (std::size_t i = 12; i < 18; ++i) {
    const deepgemm_row& r = deepgemm_dense[i];
    const double predicted =
        gemm_tflops(h800, number_format::fp8, {r.m, r.n, r.k}, block_scaled_gemm_share);
    CAPTURE(r.n);
    CAPTURE(r.k);
    CAPTURE(predicted);
    CHECK(relative_error(predicted, r.tflops) <= 0.10);
  }

  // DeepGEMM README @ 327ec92, grouped GEMMs, contiguous layout (KERNELS.md 1.1): groups x M
  // per group x N x K, TFLOP/s.
  struct grouped_row {
    double groups, m, n, k, tflops;
  };
  // Not used in any fit.
  constexpr std::array<grouped_row, 4> grouped = {{{4, 8192, 4096, 7168, 1346},
                                                   {4, 8192, 7168, 2048, 1214},
                                                   {8, 4096, 4096, 7168, 1346},
                                                   {8, 4096, 7168, 2048, 1214}}};
  for (const grouped_row& r : grouped) {
    const double predicted = gemm_tflops(h800, number_format::fp8, {r.m, r.n, r.k, r.groups},
                                         block_scaled_gemm_share);
    CAPTURE(r.groups);
    CAPTURE(r.n);
    CAPTURE(r.k);
    CAPTURE(predicted);
    CHECK(relative_error(predicted, r.tflops) <= 0.10);
  }

  // NVIDIA/cutlass media/docs/profiler.md (KERNELS.md 1.3): cutlass_profiler --m=3456 --n=4096
  // --k=8192, cutlass_tensorop_s16816gemm_f16_256x128_32x3_nn_align8, "Runtime: 0.98647 ms"
  // (235.1 TFLOP/s; the doc does not name the GPU, NVIDIA/cutlass issue #956 reads it as the
  // A100). misses: on the A100 SXM the model gives 284 TFLOP/s (+20.8%): its Ampere fraction
  // reproduces the best over a search of shapes (MAMF, 0.869 at 1024x10240x5120) and this
  // CUTLASS kernel at this shape reached 0.75.
}

TEST_CASE("small-m gemms are memory-bound: deepgemm's bytes and its best bandwidth rows") {
  const chip_figures& h800 = hardware::h800::figures;
  // DeepGEMM's GB/s column counts what gemm_bytes counts (fp8 A and B once, bf16 C once): the
  // bytes its TFLOPS and GB/s imply, (GB/s / TFLOPS) · 2mnk, are gemm_bytes within the rounding
  // of the table's integers, on all 18 rows (DeepGEMM README @ 327ec92).
  for (const deepgemm_row& r : deepgemm_dense) {
    const double implied = r.gbps * 1e9 / (r.tflops * 1e12) * (2.0 * r.m * r.n * r.k);
    CAPTURE(r.m);
    CAPTURE(r.n);
    CAPTURE(r.k);
    CHECK(relative_error(gemm_bytes({r.m, r.n, r.k}, number_format::fp8), implied) <= 0.005);
  }

  // The roofline: the rows where DeepGEMM streams fastest, M = 64 and 128 against N = 7168,
  // K = 16384 (2668 and 2604 GB/s, 0.80 and 0.78 of 3.35 TB/s), take memory_time of their bytes
  // within 10% (published time = 2mnk / TFLOPS: 336 and 645 TFLOP/s).
  for (const deepgemm_row& r : {deepgemm_dense[3], deepgemm_dense[9]}) {
    const double published = 2.0 * r.m * r.n * r.k / (r.tflops * 1e12);
    const seconds t = memory_time(h800, gemm_bytes({r.m, r.n, r.k}, number_format::fp8) * byte);
    CAPTURE(r.m);
    CAPTURE(t.value());
    CHECK(relative_error(t.value(), published) <= 0.10);
  }
  // misses (gemm_time in the working tree of 2026-12-01 against the published TFLOP/s; 15%):
  //   M = 64:  2112x7168 206 -> 43.5 (-78.9%); 24576x1536 289 -> 335.6 (+16.1%);
  //            32768x512 219 -> 291.1 (+32.9%); 7168x16384 336 -> 148.2 (-55.9%);
  //            4096x7168 287 -> 84.3 (-70.6%); 7168x2048 295 -> 144.3 (-51.1%).
  //   M = 128: 2112x7168 352 -> 86.9 (-75.3%); 24576x1536 535 -> 622.0 (+16.3%);
  //            32768x512 358 -> 484.7 (+35.4%); 7168x16384 645 -> 296.5 (-54.0%);
  //            4096x7168 533 -> 168.6 (-68.4%); 7168x2048 510 -> 288.6 (-43.4%).
  // The model's 128 x 256 tile with one tile per SM leaves an M = 64 GEMM of N = 2112 on 9 of
  // 132 SMs and calls it compute-bound; DeepGEMM picks block sizes that fill the SMs (its README
  // @ 37aa127, "Unaligned block sizes") and every one of these rows is memory-bound there. The
  // memory-bound rows it does call memory-bound run at 0.85 of HBM in the model against
  // 2103-2455 GB/s measured (0.63-0.73).
}

TEST_CASE("memory-bound kernels: quack's and liger's h100 bandwidths within 10%") {
  // A norm, softmax or activation kernel that streams its tensors once takes memory_time of its
  // bytes (0.85 of HBM on Hopper). Published H100 SXM figures (KERNELS.md 4), bytes as each
  // benchmark counts them (read and write once; weights under 0.1%):
  // - QuACK (Dao-AILab/quack, media/bf16_kernel_benchmarks_single_row.svg @ 9649d34, read off
  //   the plot to about 5 GB/s): bf16 RMSNorm 32K x 32K at 2987 GB/s, softmax 2985;
  // - Liger-Kernel (benchmark/data/all_benchmark_data.csv @ ead96b6, median ms): Megatron
  //   SwiGLU forward, (8192, 65536) in and (8192, 32768) out in bf16, 0.5275 ms; RMSNorm
  //   4096 x 16384 bf16, 0.0950 ms; LayerNorm 4096 x 16384 fp32, 0.1848 ms.
  const chip_figures& h100 = hardware::h100_sxm::figures;
  const double quack = 2.0 * 32768.0 * 32768.0 * 2.0;
  CHECK(relative_error(memory_time(h100, quack * byte).value(), quack / 2987e9) <= 0.10);
  CHECK(relative_error(memory_time(h100, quack * byte).value(), quack / 2985e9) <= 0.10);
  const double swiglu = 3.0 * 8192.0 * 32768.0 * 2.0;
  CHECK(relative_error(memory_time(h100, swiglu * byte).value(), 0.5275e-3) <= 0.10);
  const double rms = 2.0 * 4096.0 * 16384.0 * 2.0;
  CHECK(relative_error(memory_time(h100, rms * byte).value(), 0.0950e-3) <= 0.10);
  const double layer_norm = 2.0 * 4096.0 * 16384.0 * 4.0;
  CHECK(relative_error(memory_time(h100, layer_norm * byte).value(), 0.1848e-3) <= 0.10);
  // misses: rows of 256 elements (QuACK, 32K x 256: 1913 GB/s, 0.57 of peak; the model's time
  // is 33% short), and unfused PyTorch kernels, which the model charges as more passes instead
  // (`eager_modules_of`): torch's RMSNorm and LayerNorm at 0.52-0.54 in Liger's rows, and
  // torch.compile's row reductions at 0.45-0.69 in QuACK's. On A100 80GB Liger 0.2.1's
  // LayerNorm (fp32, 0.3223 ms) is within 5% of 0.85 of 2.039 TB/s and its RMSNorm (bf16,
  // 2048 x 32768, 0.1822 ms, 0.72 of peak) 15% longer than the model's time.
}

TEST_CASE("flashattention-3 on h100 sxm: bf16 forward and backward within 15% from 512 to 16k") {
  // Shah et al. 2024 (arXiv:2407.08608), the bf16 forward and backward speed figures on H100
  // 80GB SXM5, b·s = 16k, heads·d = 2048; bar labels as transcribed by a third party
  // (subtext.edge.nugit.net, image ids in KERNELS.md 2.2), the causal / non-causal assignment of
  // the forward charts inferred there from the shape of the data.
  // clang-format off
  constexpr std::array<flash_series, 6> forward = {{
      {64, false, {333, 392, 460, 476, 496, 497}, all_met},
      // misses: 512: 197, model 237 (+20.1%); 1k: 265, model 315 (+19.0%).
      {64, true, {197, 265, 371, 420, 460, 473}, {false, false, true, true, true, true}},
      // 512: the two transcriptions disagree (467 or 497); the model (438) meets both.
      {128, false, {467, 565, 625, 638, 646, 648}, all_met},
      {128, true, {292, 423, 521, 579, 602, 616}, all_met},
      {256, false, {482, 639, 707, 736, 746, 756}, all_met},
      // misses: 512: 286, model 360 (+25.9%).
      {256, true, {286, 427, 537, 612, 628, 642}, {false, true, true, true, true, true}},
  }};
  // Backward, non-causal (backward FLOPs 2.5x the forward's).
  constexpr std::array<flash_series, 2> backward = {{
      {64, false, {272, 363, 422, 453, 472, 474}, all_met},
      // misses: 512: 316, model 402 (+27.3%).
      {128, false, {316, 424, 501, 542, 559, 561}, {false, true, true, true, true, true}},
  }};
  // clang-format on
  for (const flash_series& s : forward) check_series(attention_kernel::flash3, s, false, 0.15);
  for (const flash_series& s : backward) check_series(attention_kernel::flash3, s, true, 0.15);

  // A first-hand run of the same sizes: pytorch/benchmark commit ff65cb6 (PR #2391), H100, FA3
  // forward, head dim 128, 16 heads, non-causal: 430.32, 517.099, 565.544, 590.233, 614.234 and
  // 620.73 TFLOP/s at (32, 512) .. (1, 16k) (KERNELS.md 2.3).
  constexpr flash_series torchbench{128, false, {430.32, 517.099, 565.544, 590.233, 614.234,
                                                 620.73}, all_met};
  check_series(attention_kernel::flash3, torchbench, false, 0.15);
}

TEST_CASE("flashattention-2 on h100 sxm: the points of the fa3 paper's fa2 bars within 15%") {
  // Same figures and transcription as above (Shah et al. 2024, KERNELS.md 2.2), the
  // FlashAttention-2 bars. The model's figures for it come from the head-dim-128 bars at 16k
  // (335 causal, 370 without the mask forward; 322 backward); the other points are not fitted.
  // clang-format off
  constexpr std::array<flash_series, 6> forward = {{
      {64, false, {282, 306, 318, 321, 322, 324}, all_met},
      {64, true, {180, 229, 262, 284, 295, 299}, all_met},
      {128, false, {309, 350, 362, 368, 370, 370}, all_met},
      {128, true, {191, 260, 298, 319, 333, 335}, all_met},
      {256, false, {275, 313, 321, 323, 324, 326}, all_met},
      // misses: 512: 208 -> 168 (-19.2%).
      {256, true, {208, 251, 278, 293, 297, 298}, {false, true, true, true, true, true}},
  }};
  constexpr std::array<flash_series, 2> backward = {{
      // misses: 512: 198 -> 230 (+16.2%).
      {64, false, {198, 238, 264, 279, 287, 291}, {false, true, true, true, true, true}},
      {128, false, {214, 260, 291, 310, 318, 322}, all_met},
  }};
  // clang-format on
  // FlashAttention-2 on Hopper barely changes with the head dim (324, 370 and 326 TFLOP/s at
  // 16k for d = 64, 128, 256), so the model gives it no head-dim law.
  for (const flash_series& s : forward) check_series(attention_kernel::flash2, s, false, 0.15);
  for (const flash_series& s : backward) check_series(attention_kernel::flash2, s, true, 0.15);
}

TEST_CASE("flashattention-2 paper's bars: h100 fwd+bwd, a100 forward and backward within 15%") {
  // Dao 2023, arXiv:2307.08691 v1, the value labels of Fig. 7 (H100 80GB SXM5, fwd+bwd) and
  // Fig. 5 and 6 (A100 80GB SXM4, forward and backward) at 512 .. 16k tokens, b·s = 16k, h·d =
  // 2048 (KERNELS.md 2.4; A100's 1k causal forward, 167, read off the bar's height). The model's
  // FlashAttention-2 figures: on H100 the FlashAttention-3 paper's forwards and 325 backward
  // (this fwd+bwd bar, 328 at 16k causal, over the 335 forward); on A100 the 16k causal bars
  // here (197, 186) and the forward's 223 / 197 without the mask; the other points not fitted.
  const chip_figures& h100 = hardware::h100_sxm::figures;
  const chip_figures& a100 = hardware::a100_80gb::figures;
  // clang-format off
  constexpr std::array<flash_series, 4> h100_fwd_bwd = {{
      {64, false, {215, 254, 274, 288, 294, 296}, all_met},
      {128, false, {248, 294, 320, 326, 335, 338}, all_met},
      // misses: 512: 141 -> 164 (+16.4%).
      {64, true, {141, 192, 232, 257, 273, 284}, {false, true, true, true, true, true}},
      {128, true, {163, 221, 265, 294, 308, 328}, all_met},
  }};
  constexpr std::array<flash_series, 4> a100_forward = {{
      // misses: 16k: 192 -> 222 (+15.8%; the model gives FlashAttention-2 no head-dim law).
      {64, false, {178, 191, 193, 192, 192, 192}, {true, true, true, true, true, false}},
      // misses: 512: 209 -> 164 (-21.7%); 1k: 224 -> 189 (-15.4%).
      {128, false, {209, 224, 227, 222, 224, 223}, {false, false, true, true, true, true}},
      {64, true, {115, 146, 167, 177, 181, 183}, all_met},
      // misses: 512: 132 -> 101 (-23.2%); 1k: 167 -> 135 (-19.1%).
      {128, true, {132, 167, 187, 198, 200, 197}, {false, false, true, true, true, true}},
  }};
  constexpr std::array<flash_series, 4> a100_backward = {{
      {64, false, {120, 141, 152, 163, 169, 170}, all_met},
      {128, false, {136, 159, 175, 187, 193, 196}, all_met},
      // misses: 512: 81 -> 96 (+18.1%); 2k: 131 -> 153 (+16.9%).
      {64, true, {81, 111, 131, 149, 160, 166}, {false, true, false, true, true, true}},
      {128, true, {90, 122, 145, 165, 176, 186}, all_met},
  }};
  // clang-format on
  // The A100's short-sequence misses: its forward barely falls below 2k, where the length law
  // (FlashAttention-3's on H100) halves a 512-key causal call.
  const attention_kernel fa2 = attention_kernel::flash2;
  for (const flash_series& x : h100_fwd_bwd)
    check_bars(x, 0.15, [&](double seq, double head_dim, bool causal) {
      return attention_fwd_bwd_tflops(fa2, seq, head_dim, causal, h100);
    });
  for (const flash_series& x : a100_forward)
    check_bars(x, 0.15, [&](double seq, double head_dim, bool causal) {
      return attention_tflops(fa2, seq, head_dim, causal, false, a100);
    });
  for (const flash_series& x : a100_backward)
    check_bars(x, 0.15, [&](double seq, double head_dim, bool causal) {
      return attention_tflops(fa2, seq, head_dim, causal, true, a100);
    });
}

TEST_CASE("cudnn on h100 sxm: the points of the fa3 paper's cudnn bars within 15%") {
  // Same figures and transcription (Shah et al. 2024, KERNELS.md 2.2), the cuDNN bars. The
  // chip's attention figures are cuDNN's (the usual kernel on Hopper), from the head-dim-128
  // bars at 16k: 539 causal forward, 516 backward without the mask (its causal figure that
  // over the forward's 595 / 539); the other points are not fitted.
  // clang-format off
  constexpr std::array<flash_series, 6> forward = {{
      {64, false, {335, 373, 395, 408, 412, 413}, all_met},
      {64, true, {225, 288, 334, 363, 379, 388}, all_met},
      {128, false, {497, 574, 617, 609, 600, 595}, all_met},
      {128, true, {315, 410, 484, 518, 529, 539}, all_met},
      // misses: 8k: 580 -> 670 (+15.5%); 16k: 581 -> 678 (+16.7%).
      {256, false, {470, 546, 580, 581, 580, 581}, {true, true, true, true, false, false}},
      // misses: 4k: 483 -> 563 (+16.6%); 8k: 497 -> 596 (+19.9%); 16k: 509 -> 614 (+20.6%).
      {256, true, {308, 391, 450, 483, 497, 509}, {true, true, true, false, false, false}},
  }};
  constexpr std::array<flash_series, 2> backward = {{
      {64, false, {266, 348, 395, 417, 432, 433}, all_met},
      // misses: 512: 305 -> 368 (+20.7%).
      {128, false, {305, 408, 465, 499, 518, 516}, {false, true, true, true, true, true}},
  }};
  // clang-format on
  for (const flash_series& s : forward) check_series(attention_kernel::cudnn, s, false, 0.15);
  for (const flash_series& s : backward) check_series(attention_kernel::cudnn, s, true, 0.15);
}

TEST_CASE("one partial extra wave of tiles costs the derived ratio per flop") {
  // The model's GEMM tile is 128 x 128 (kernels.hpp) and the H100 SXM has 132 SMs ([h100-wp]).
  // 1536 x 2816 is 12 x 22 = 264 tiles: two full waves. 1536 x 3072 is 12 x 24 = 288 tiles: two
  // full waves and a third with 24 of 132 SMs busy, so 3 · 132 tile slots do 288 tiles of work.
  // With the same K (8192, so both stay compute-bound: 2mnk at 0.86 of 989 TFLOP/s takes over
  // three times as long as their 85 MB or less at 0.85 of 3.35 TB/s), time per FLOP grows by
  // (396 / 288) / (264 / 264) = 11/8.
  const chip_figures& h100 = hardware::h100_sxm::figures;
  const gemm_shape one_wave{1536, 2816, 8192};
  const gemm_shape extra_wave{1536, 3072, 8192};
  const double per_flop_one = gemm_time(h100, number_format::bf16, one_wave).value() /
                              gemm_flops(one_wave);
  const double per_flop_extra = gemm_time(h100, number_format::bf16, extra_wave).value() /
                                gemm_flops(extra_wave);
  CHECK(per_flop_extra / per_flop_one == doctest::Approx(11.0 / 8.0).epsilon(1e-9).scale(0.0));

  // DeepGEMM's README (@ 37aa127, "Unaligned block sizes", KERNELS.md 1.1): "with M=256,
  // N=7168, a typical block size assignment of BLOCK_M=128, BLOCK_N=128 results in only
  // (256 / 128) * (7168 / 128) = 112 out of 132 SMs being utilized". On an H800 whose tile is
  // 128 x 128, that GEMM against 256 x 8448 (2 x 66 = 132 tiles, one full wave) at the same K
  // costs 132/112 per FLOP.
  const chip_figures h800_128 = [] {
    chip_figures c = hardware::h800::figures;
    c.kernels.tile_rows = 128;
    c.kernels.tile_columns = 128;
    return c;
  }();
  const gemm_shape readme{256, 7168, 7168};
  const gemm_shape full{256, 8448, 7168};
  CHECK(gemm_shape_efficiency(h800_128, full) / gemm_shape_efficiency(h800_128, readme) ==
        doctest::Approx(132.0 / 112.0).epsilon(1e-9).scale(0.0));
}

TEST_CASE("a causal attention kernel skips the masked half, also on a context-parallel share") {
  // One sequence of 8192 keys, 32 heads of 128: the full products are 2·q·k·(128 + 128)·32.
  // Causal over the whole sequence (q = k) does half; a load-balanced context-parallel rank
  // holding 2048 of the queries against all 8192 keys does half of its q x k too (its chunks
  // come from both ends of the sequence).
  const double full = 2.0 * 8192.0 * 8192.0 * 256.0 * 32.0;
  CHECK(attention_kernel_flops({1, 32, 8, 8192, 8192, 128, 128, true}) ==
        doctest::Approx(full / 2).scale(0.0));
  CHECK(attention_kernel_flops({1, 32, 8, 2048, 8192, 128, 128, true}) ==
        doctest::Approx(full / 4 / 2).scale(0.0));
  CHECK(attention_kernel_flops({1, 32, 8, 2048, 8192, 128, 128, false}) ==
        doctest::Approx(full / 4).scale(0.0));
}
