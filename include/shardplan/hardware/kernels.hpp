// Kernels as the chip runs them: the time of one GEMM, one attention call and one memory-bound
// operation from the chip's peak rates, its inside (compute units) and the achievable fractions
// published for each kind of kernel. Every figure is an estimate; `kernel_figures` says where
// each fraction comes from.
#pragma once

#include <cstdint>
#include <string_view>

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/fitted.hpp>

namespace shardplan {

/// The attention kernel a framework calls.
/// - `automatic`: the chip's usual fused kernel (`default_attention_kernel`).
/// - `eager`: unfused, the s x s scores materialised (Megatron-LM 2021-22).
/// - `flash1`: FlashAttention (Dao et al. 2022), the `flash_attn` 1.x package.
/// - `flash2`: FlashAttention-2 (Dao 2023), also PyTorch SDPA's flash backend.
/// - `flash3`: FlashAttention-3 (Shah et al. 2024), Hopper only.
/// - `cudnn`: cuDNN fused attention (Transformer Engine's default on Hopper and Blackwell).
/// - `splash`: TPU Pallas splash attention (MaxText).
enum class attention_kernel : std::uint8_t {
  automatic,
  eager,
  flash1,
  flash2,
  flash3,
  cudnn,
  splash,
};

/// The name of a kernel as reports and plan files spell it.
constexpr std::string_view kernel_name(attention_kernel k) {
  switch (k) {
    case attention_kernel::automatic: return "automatic";
    case attention_kernel::eager: return "eager";
    case attention_kernel::flash1: return "flash1";
    case attention_kernel::flash2: return "flash2";
    case attention_kernel::flash3: return "flash3";
    case attention_kernel::cudnn: return "cudnn";
    case attention_kernel::splash: return "splash";
  }
  return "?";
}

/// A GEMM: C[m x n] = A[m x k] · B[k x n], `groups` of them side by side (a grouped GEMM of
/// experts, or a batched one), inputs and output in `format` (output in bf16 when `format` is
/// fp8 or fp4).
struct gemm_shape {
  double m = 0.0;
  double n = 0.0;
  double k = 0.0;
  double groups = 1.0;
};

/// FLOPs of a GEMM (an FMA is 2 FLOPs, the convention of every figure here).
constexpr double gemm_flops(const gemm_shape& g) { return 2.0 * g.m * g.n * g.k * g.groups; }

/// Bytes a GEMM moves to and from HBM at least: both inputs once and the output once.
constexpr double gemm_bytes(const gemm_shape& g, number_format f) {
  const double in = bytes_per_element(f);
  const double out = in < 2.0 ? 2.0 : in;
  return g.groups * (in * (g.m * g.k + g.k * g.n) + out * g.m * g.n);
}

namespace detail {
constexpr double ceil_div(double a, double b) {
  const double q = a / b;
  const auto whole = static_cast<double>(static_cast<std::int64_t>(q));
  return whole < q ? whole + 1.0 : whole;
}
}  // namespace detail

/// The GPU generations the family defaults tell apart, by the formats their tensor cores have.
enum class gpu_generation : std::uint8_t { ampere_or_older, hopper, blackwell };

constexpr gpu_generation generation_of(const chip_figures& chip) {
  if (chip.peak_fp4.value() > 0.0) return gpu_generation::blackwell;
  if (chip.peak_fp8.value() > 0.0) return gpu_generation::hopper;
  return gpu_generation::ampere_or_older;
}

/// The family defaults of `kernel_fractions`, each from a published measurement (the
/// measurements and their readings: tests/validation/KERNELS.md).
///
/// GEMMs. The best fraction of the datasheet peak a matmul reaches over a search of shapes is
/// the "Maximum Achievable Matmul FLOPS" (MAMF) of stas00/ml-engineering, compute/accelerator/
/// README.md (mean of 100 iterations after 50 warm-up, torch 2.6-2.7): A100 SXM bf16 271.2 of 312
/// TFLOP/s (0.869) at 1024x10240x5120; H100 SXM bf16 794.5 of 989 (0.803) at 2048x2048x13312
/// ("H200 is the same"), fp8 1402.6 of 1979 (0.709) at 1024x9216x14336; B200 bf16 1745 of 2250
/// (0.776) at 1792x16128x3072, fp8 3432.5 of 4500 (0.763) at 15360x4096x3072. `gemm` is that
/// fraction divided by `gemm_shape_efficiency` at the same shape (so the model reproduces each
/// MAMF figure at its shape; tests/static/kernels.cpp checks it): A100 0.965, H100 bf16 0.859 and
/// fp8 0.841, B200 bf16 0.907 and fp8 0.888.
/// The shape's losses: 128 x 128 output tiles, and a reduction overhead k0 = 496, fitted (least
/// absolute error, 2.7%) to the six M = 4096 shapes of DeepGEMM's fp8 table on H800
/// (deepseek-ai/DeepGEMM README @327ec92: 0.39 of peak at K = 512 up to 0.77 at K = 16384); the
/// same k0 on every GPU, an assumption. TPU: `gemm` 0.90 (the scaling book: TPUs reach "closer
/// to 95%" of peak on large matmuls, less on layer-sized ones, an assumption between), no depth
/// loss (the MXU streams the reduction through a stationary operand, an assumption).
/// Memory-bound kernels 0.85 of HBM: on H100 SXM tuned norm, softmax and activation kernels
/// on large tensors measure 0.84-0.91 (Liger-Kernel's benchmark data @ ead96b6: RMSNorm 0.84,
/// LayerNorm 0.87, SwiGLU 0.91; QuACK's bf16 RMSNorm and softmax at 32K x 32K 0.89, its
/// `torch.clone` 0.90, Dao-AILab/quack @ 9649d34 and e8066f4; KERNELS.md 4). Elsewhere an
/// assumption: A100's few figures (Liger 0.2.1) give 0.72-0.82, B200's one 0.61.
/// Attention at 16k tokens, head dim 128, causal, bf16 (FLOPs as FlashAttention counts them):
/// - Hopper (cuDNN, its usual kernel): forward 0.545, backward 0.522: cuDNN's bars in the
///   FlashAttention-3 paper's H100 SXM5 figures (Shah et al. 2024, arXiv:2407.08608, Fig. 5 and
///   6, KERNELS.md 2.2): 539 TFLOP/s causal forward of 989.4 and 516 backward, published without
///   the mask only and taken for the causal call too: the backward gains nothing from lifting
///   the mask where both were measured (FlashAttention-2 on H100, `unmasked_attention_gain`), an
///   assumption for cuDNN. FlashAttention-3 and -2 have their own figures
///   (`attention_efficiency`).
/// - Ampere (FlashAttention-2): forward 0.631, backward 0.596: the FlashAttention-2 paper's A100
///   80GB bars (Dao 2023, arXiv:2307.08691 v1, Fig. 5d and 6d, KERNELS.md 2.4), 197 and 186
///   TFLOP/s of 312 at 16k, causal.
/// - Blackwell: forward 0.59 (FlashAttention-4 on a B200-class GPU: 1321 TFLOP/s of 2250 at 16k,
///   Dao-AILab/flash-attention PR 2605), backward 0.52 by the same ratio (an assumption).
/// The sustained share of a whole training step (`kernel_fractions::sustained`): what the
/// step's GEMMs and memory-bound kernels keep of the figures above (the best GEMM shape of a
/// search through a generic shape model; tuned norm and activation kernels), the clock under the
/// step's power among it. It does not apply to the fused attention kernels, which are
/// themselves the kernels whose published fractions the attention figures are (`sustained_time`,
/// training/cost.hpp). Fitted on training runs: `fitted::sustained_*` (hardware/fitted.hpp).
/// `step_error`, the step model's measured mean absolute error on the family
/// (`fitted::step_error_*`). The family defaults are NVIDIA's
/// generations by their formats: a GPU of another vendor sets its own `kernels`
/// (hardware/amd.hpp).
namespace detail {
/// FlashAttention-2's causal fractions of the bf16 peak at 16k tokens and head dim 128, forward
/// and backward: on A100 (the FlashAttention-2 paper's bars, Ampere's usual kernel) and on H100
/// and later (`attention_efficiency`). FlashAttention 1.x on Hopper scales by their ratio.
inline constexpr double flash2_ampere_forward = 0.631;
inline constexpr double flash2_ampere_backward = 0.596;
inline constexpr double flash2_hopper_forward = 0.339;
inline constexpr double flash2_hopper_backward = 0.329;
}  // namespace detail

constexpr kernel_fractions default_kernel_fractions(const chip_figures& chip) {
  switch (chip.kind) {
    case chip_kind::tpu:
      return {0.90, 0.90, 0.85, 0.70, 0.60, 128, 128, -1.0, fitted::sustained_tpu,
              fitted::step_error_tpu};
    case chip_kind::cpu:
      return {0.50, 0.50, 0.70, 0.50, 0.50, 0, 0, -1.0, fitted::sustained_cpu,
              fitted::step_error_cpu};
    case chip_kind::gpu: break;
  }
  switch (generation_of(chip)) {
    case gpu_generation::ampere_or_older:
      return {0.965, 0.965, 0.85, detail::flash2_ampere_forward, detail::flash2_ampere_backward,
              128, 128, 496.0, fitted::sustained_ampere, fitted::step_error_ampere};
    case gpu_generation::hopper:
      return {0.859, 0.841, 0.85, 0.545, 0.522, 128, 128, 496.0, fitted::sustained_hopper,
              fitted::step_error_hopper};
    case gpu_generation::blackwell:
      return {0.907, 0.888, 0.85, 0.59, 0.52, 128, 128, 496.0, fitted::sustained_blackwell,
              fitted::step_error_blackwell};
  }
  return {0.75, 0.70, 0.85, 0.60, 0.55, 128, 128, 496.0, 1.0, -1.0};
}

/// The kernel fractions of `chip`: its own where it sets them, else its family's
/// (`default_kernel_fractions`), field by field.
constexpr kernel_fractions family_kernel_fractions(const chip_figures& chip) {
  const kernel_fractions d = default_kernel_fractions(chip);
  const kernel_fractions& c = chip.kernels;
  return {c.gemm > 0.0 ? c.gemm : d.gemm,
          c.gemm_low_precision > 0.0 ? c.gemm_low_precision : d.gemm_low_precision,
          c.memory > 0.0 ? c.memory : d.memory,
          c.attention_forward > 0.0 ? c.attention_forward : d.attention_forward,
          c.attention_backward > 0.0 ? c.attention_backward : d.attention_backward,
          c.tile_rows > 0 ? c.tile_rows : d.tile_rows,
          c.tile_columns > 0 ? c.tile_columns : d.tile_columns,
          c.reduction_overhead != 0.0 ? c.reduction_overhead : d.reduction_overhead,
          c.sustained > 0.0 ? c.sustained : d.sustained,
          c.step_error != 0.0 ? c.step_error : d.step_error};
}

/// Compute units a kernel spreads its tiles or blocks over (1 where the chip does not say).
constexpr double compute_units_of(const chip_figures& chip) {
  return chip.arch.compute_units > 0 ? static_cast<double>(chip.arch.compute_units) : 1.0;
}

namespace detail {

/// `gemm_shape_efficiency` from fractions already looked up (`family_kernel_fractions`).
constexpr double shape_efficiency(const kernel_fractions& f, double units, const gemm_shape& g) {
  if (f.tile_rows <= 0 || f.tile_columns <= 0 || g.m <= 0.0 || g.n <= 0.0 || g.k <= 0.0)
    return 1.0;
  const double tr = static_cast<double>(f.tile_rows);
  const double tc = static_cast<double>(f.tile_columns);
  const double tiles = ceil_div(g.m, tr) * ceil_div(g.n, tc) * g.groups;
  const double waves = ceil_div(tiles, units);
  const double useful = g.m * g.n * g.groups;
  const double occupied = waves * units * tr * tc;
  const double depth = f.reduction_overhead > 0.0 ? g.k / (g.k + f.reduction_overhead) : 1.0;
  return useful / occupied * depth;
}

/// `gemm_efficiency` from fractions already looked up.
constexpr double gemm_efficiency(const kernel_fractions& f, double units, number_format format,
                                 const gemm_shape& g, double override_fraction,
                                 double scaling_share) {
  if (override_fraction > 0.0) return override_fraction;
  const bool low = bytes_per_element(format) < 2.0;
  return (low ? f.gemm_low_precision : f.gemm) * shape_efficiency(f, units, g) * scaling_share;
}

}  // namespace detail

/// The fraction of a GEMM's time the matrix units do useful work, from its shape alone: tile
/// quantisation (the last row and column of tiles are partly empty) times wave quantisation
/// (tiles run in waves of one per compute unit; the last wave is partly idle) times the depth of
/// the reduction, k / (k + k0) with the chip's `reduction_overhead` k0 (each tile's prologue and
/// epilogue). Near 1 for shapes much larger than a tile on every compute unit.
constexpr double gemm_shape_efficiency(const chip_figures& chip, const gemm_shape& g) {
  return detail::shape_efficiency(family_kernel_fractions(chip), compute_units_of(chip), g);
}

/// The fraction of the matrix peak of `format` a GEMM of this shape reaches when compute-bound:
/// the chip's deep-GEMM fraction times `gemm_shape_efficiency`, times `scaling_share` (what a
/// fine-grained scaling recipe keeps of it: `block_scaled_gemm_share`). `override_fraction` > 0
/// replaces all of them (a plan's `efficiency<>`).
constexpr double gemm_efficiency(const chip_figures& chip, number_format format,
                                 const gemm_shape& g, double override_fraction = 0.0,
                                 double scaling_share = 1.0) {
  return detail::gemm_efficiency(family_kernel_fractions(chip), compute_units_of(chip), format, g,
                                 override_fraction, scaling_share);
}

/// What an fp8 GEMM with per-row or per-block scales (applied in the accumulation) keeps of a
/// tensor-scaled one's rate: 0.938, DeepGEMM's block-scaled deep limit on H800 (0.789 of the fp8
/// peak, fitted to its six M = 4096 shapes, deepseek-ai/DeepGEMM README @327ec92) over the
/// tensor-scaled limit the MAMF table gives the same die (0.841, see
/// `default_kernel_fractions`). Row-wise scales are assumed to cost the same.
inline constexpr double block_scaled_gemm_share = 0.789 / 0.841;

/// Time of a memory-bound operation that moves `traffic` to and from HBM at the chip's
/// achievable bandwidth.
constexpr seconds memory_time(const chip_figures& chip, bytes traffic) {
  return traffic / (chip.memory_bandwidth * family_kernel_fractions(chip).memory);
}

/// Time of a GEMM: the slower of its FLOPs at the shape's achievable rate and its bytes at the
/// achievable HBM bandwidth (a roofline). The chip's fractions are looked up once.
constexpr seconds gemm_time(const chip_figures& chip, number_format format, const gemm_shape& g,
                            double override_fraction = 0.0, double scaling_share = 1.0) {
  const kernel_fractions f = family_kernel_fractions(chip);
  const flop_rate rate = peak(chip, format) * detail::gemm_efficiency(f, compute_units_of(chip),
                                                                      format, g, override_fraction,
                                                                      scaling_share);
  const seconds compute = gemm_flops(g) * flop / rate;
  const seconds memory = gemm_bytes(g, format) * byte / (chip.memory_bandwidth * f.memory);
  return compute > memory ? compute : memory;
}

/// One call of a fused attention kernel: `batch` x `heads` query heads over `query` queries and
/// `keys` keys (per query head; grouped-query attention reads each key head `heads/kv_heads`
/// times from on-chip memory), head dims `qk_dim` and `v_dim`, causal or not.
struct attention_shape {
  double batch = 1.0;
  double heads = 1.0;
  double kv_heads = 1.0;
  double query = 0.0;
  double keys = 0.0;
  double qk_dim = 128.0;
  double v_dim = 128.0;
  bool causal = true;
};

/// FLOPs a fused attention kernel's forward pass does: QK^T and PV, 2·q·k·(d_qk + d_v) per head,
/// halved when causal (the masked half is skipped). With fewer queries than keys the queries are
/// one device's share of a causal sequence split over context parallelism, load-balanced (each
/// rank holds chunks from both ends, Megatron's and torchtitan's layout), so half of its q x k
/// products are masked too.
constexpr double attention_kernel_flops(const attention_shape& a) {
  const double full = 2.0 * a.batch * a.heads * a.query * a.keys * (a.qk_dim + a.v_dim);
  return a.causal ? full * 0.5 : full;
}

/// The chip's usual fused attention kernel: TPU splash attention; cuDNN on Hopper and later
/// (Transformer Engine's default there); FlashAttention-2 on Ampere and older.
constexpr attention_kernel default_attention_kernel(const chip_figures& chip) {
  if (chip.kind == chip_kind::tpu) return attention_kernel::splash;
  if (chip.kind == chip_kind::gpu && generation_of(chip) != gpu_generation::ampere_or_older)
    return attention_kernel::cudnn;
  return attention_kernel::flash2;
}

/// What a fused attention kernel gains on a call without the causal mask over its causal figure,
/// at 16k keys and head dim 128 (the diagonal blocks' masking and the uneven work of causal
/// query blocks cost the rest), forward only: on Hopper, from the forward bars of the
/// FlashAttention-3 paper (Shah et al. 2024, Fig. 5, KERNELS.md 2.2), FlashAttention-3 648 / 616,
/// cuDNN 595 / 539, FlashAttention-2 370 / 335 TFLOP/s; FlashAttention-2 on Ampere 223 / 197 (the
/// FlashAttention-2 paper's A100 Fig. 5, KERNELS.md 2.4). The backward gains nothing: the
/// FlashAttention-2 paper's H100 fwd+bwd bars (Fig. 7: 328 causal, 338 without the mask at 16k)
/// with the FlashAttention-3 paper's forwards leave its causal backward at 325 TFLOP/s against
/// 322 without the mask (on A100 186 against 196); `attention_efficiency` applies the gain to
/// forward calls. 1 elsewhere (not read).
constexpr double unmasked_attention_gain(const chip_figures& chip, attention_kernel kernel) {
  if (chip.kind != chip_kind::gpu) return 1.0;
  const gpu_generation g = generation_of(chip);
  if (kernel == attention_kernel::flash2)
    return g == gpu_generation::ampere_or_older ? 223.0 / 197.0 : 370.0 / 335.0;
  if (g != gpu_generation::hopper) return 1.0;
  switch (kernel) {
    case attention_kernel::flash3: return 648.0 / 616.0;
    case attention_kernel::cudnn: return 595.0 / 539.0;
    default: return 1.0;
  }
}

/// The fraction of the bf16 peak a fused attention kernel reaches, forward or backward, at this
/// shape: the chip's causal fraction at 16k keys and head dim 128 (`kernel_fractions::
/// attention_*`, its usual kernel's), times `unmasked_attention_gain` for a forward call without
/// the mask,
/// - for FlashAttention-3 on Hopper, its own figures: 0.623 forward (616 TFLOP/s causal at 16k)
///   and 0.567 backward (561 without the mask), and for FlashAttention-2 on Hopper and later,
///   0.339 forward (335 causal, the FlashAttention-3 paper's Fig. 5) and 0.329 backward (325
///   causal: the FlashAttention-2 paper's H100 fwd+bwd bar, 328, over that forward; KERNELS.md
///   2.2 and 2.4), not the chip's;
/// - for FlashAttention (1.x) on Ampere 0.40 forward, the top of "25-40% of the theoretical
///   maximum FLOPs/s" the FlashAttention-2 paper gives it (Dao 2023, abstract), and
///   `fitted::flash1_backward` backward, within that range; on Hopper and later, which run it
///   with Ampere's instructions, what FlashAttention-2, a kernel of the same instructions, keeps
///   there of its A100 fraction in its published bars: x 0.339 / 0.631 forward and x 0.329 /
///   0.596 backward (0.54 and 0.55; the ratio of SMs x clock, 0.50, which FlashAttention-2's bars
///   beat by 7-10%);
/// - times d / (d + 54) over its value at d = 128, d the mean of the q·k and v head dims:
///   FlashAttention-3's forward at 16k reaches 0.50, 0.65 and 0.76 of peak at head dims 64, 128
///   and 256, which this fits within 1%; not for FlashAttention-2, whose bars move less with
///   the head dim (H100: 324, 370 and 326 TFLOP/s at 16k for 64, 128, 256; A100 causal forward:
///   183 and 197 for 64 and 128);
/// - times k / (k + c) over its value at 16k keys, c = 512 causal and 192 not: FlashAttention-3
///   at 512 keys reaches 0.30 causal and 0.47 not, against 0.62 and 0.65 at 16k;
/// - times the wave fill of its query blocks (128 queries per block, one block per compute
///   unit at a time), which only small batches of few heads leave partly empty.
constexpr double attention_efficiency(const chip_figures& chip, attention_kernel kernel,
                                      const attention_shape& a, bool backward,
                                      double override_fraction = 0.0) {
  if (override_fraction > 0.0) return override_fraction;
  const kernel_fractions f = family_kernel_fractions(chip);
  double best = backward ? f.attention_backward : f.attention_forward;
  const bool gpu = chip.kind == chip_kind::gpu;
  const bool newer = gpu && generation_of(chip) != gpu_generation::ampere_or_older;
  if (kernel == attention_kernel::flash3 && gpu && generation_of(chip) == gpu_generation::hopper)
    best = backward ? 0.567 : 0.623;
  using detail::flash2_ampere_backward, detail::flash2_ampere_forward;
  using detail::flash2_hopper_backward, detail::flash2_hopper_forward;
  if (kernel == attention_kernel::flash2 && newer)
    best = backward ? flash2_hopper_backward : flash2_hopper_forward;
  if (kernel == attention_kernel::flash1)
    best = backward ? fitted::flash1_backward *
                          (newer ? flash2_hopper_backward / flash2_ampere_backward : 1.0)
                    : 0.40 * (newer ? flash2_hopper_forward / flash2_ampere_forward : 1.0);
  if (!a.causal && !backward) best *= unmasked_attention_gain(chip, kernel);
  const double units = compute_units_of(chip);
  const double blocks = detail::ceil_div(a.query, 128.0) * a.batch * a.heads;
  const double waves = detail::ceil_div(blocks, units);
  const double fill = blocks > 0.0 ? blocks / (waves * units) : 1.0;
  const double d = 0.5 * (a.qk_dim + a.v_dim);
  const double dims = kernel == attention_kernel::flash2
                          ? 1.0
                          : (d / (d + 54.0)) / (128.0 / (128.0 + 54.0));
  const double c = a.causal ? 512.0 : 192.0;
  const double keys = (a.keys / (a.keys + c)) / (16384.0 / (16384.0 + c));
  return best * fill * dims * (keys < 1.0 ? keys : 1.0);
}

/// FLOPs one fused attention call does, forward or backward: the backward does 2.5x the
/// forward's (it recomputes QK^T, as FlashAttention counts it).
constexpr double attention_call_flops(const attention_shape& a, bool backward) {
  return attention_kernel_flops(a) * (backward ? 2.5 : 1.0);
}

/// Time of one fused attention call, forward or backward (`attention_call_flops`), in
/// `format`'s rate (bf16 unless a recipe runs attention in fp8).
constexpr seconds attention_time(const chip_figures& chip, attention_kernel kernel,
                                 number_format format, const attention_shape& a, bool backward,
                                 double override_fraction = 0.0) {
  const double work = attention_call_flops(a, backward);
  const double rate = peak(chip, format).value() *
                      attention_efficiency(chip, kernel, a, backward, override_fraction);
  return work / rate * second;
}

}  // namespace shardplan
