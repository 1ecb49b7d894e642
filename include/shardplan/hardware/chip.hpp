// What a chip is to shardplan: its peak rates per number format, memories and links, and the units
// inside it (SMs, tensor cores, MXUs, caches), as plain values.
//
// FLOP convention, here and in every figure and function of shardplan: a fused multiply-add (FMA,
// or a multiply-accumulate in a matrix unit) counts as 2 FLOP, as every datasheet counts it.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <string_view>

#include <shardplan/core/units.hpp>

namespace shardplan {

/// A number format of the matrix (or vector) units. Matrix formats multiply in the named format and
/// accumulate in fp32 (bf16, fp16, tf32, fp8) or int32 (int8, int4): "bf16" means bf16 inputs with
/// fp32 accumulation, the mixed precision that training uses.
enum class number_format : std::uint8_t { fp32, tf32, bf16, fp16, fp8, int8, int4, fp4 };

inline constexpr std::array<number_format, 8> all_number_formats = {
    number_format::fp32, number_format::tf32, number_format::bf16, number_format::fp16,
    number_format::fp8,  number_format::int8, number_format::int4, number_format::fp4};

/// The lower-case name of a number format ("bf16").
constexpr std::string_view name_of(number_format f) {
  switch (f) {
    case number_format::fp32: return "fp32";
    case number_format::tf32: return "tf32";
    case number_format::bf16: return "bf16";
    case number_format::fp16: return "fp16";
    case number_format::fp8: return "fp8";
    case number_format::int8: return "int8";
    case number_format::int4: return "int4";
    case number_format::fp4: return "fp4";
  }
  return "?";
}

/// Bytes one element of a number format occupies in memory (int4 and fp4 pack two per byte).
constexpr double bytes_per_element(number_format f) {
  switch (f) {
    case number_format::fp32: return 4.0;
    case number_format::tf32: return 4.0;  // stored as fp32, rounded to 19 bits in the matrix unit
    case number_format::bf16: return 2.0;
    case number_format::fp16: return 2.0;
    case number_format::fp8: return 1.0;
    case number_format::int8: return 1.0;
    case number_format::int4: return 0.5;
    case number_format::fp4: return 0.5;
  }
  return 0.0;
}

/// The kind of processor: what its memory and links are called in reports.
enum class chip_kind : std::uint8_t { tpu, gpu, cpu };

/// How a chip's scale-up links join its neighbours: the links of a torus go to fixed neighbours
/// (two per torus axis); the links of a switched fabric (NVLink with NVSwitch, Infinity Fabric)
/// all reach every peer.
enum class scale_up_kind : std::uint8_t { none, torus_2d, torus_3d, switched, full_mesh };

/// Dense matrix FLOP per clock of one compute unit (a GPU SM or AMD CU, a TPU TensorCore, a CPU
/// core) per input format; 0 where the unit lacks the format or no source gives it.
struct flop_per_clock_by_format {
  double fp32 = 0.0;
  double tf32 = 0.0;
  double bf16 = 0.0;
  double fp16 = 0.0;
  double fp8 = 0.0;
  double int8 = 0.0;
  double int4 = 0.0;
  double fp4 = 0.0;
};

/// The rate of one format in a `flop_per_clock_by_format`.
constexpr double flop_per_clock(const flop_per_clock_by_format& r, number_format f) {
  switch (f) {
    case number_format::fp32: return r.fp32;
    case number_format::tf32: return r.tf32;
    case number_format::bf16: return r.bf16;
    case number_format::fp16: return r.fp16;
    case number_format::fp8: return r.fp8;
    case number_format::int8: return r.int8;
    case number_format::int4: return r.int4;
    case number_format::fp4: return r.fp4;
  }
  return 0.0;
}

/// The inside of a chip: its compute units (GPU SMs or AMD CUs, TPU TensorCores, CPU cores), the
/// matrix and vector units in each, its clocks and its on-chip memories. Every field left at 0
/// means "not given": no source we checked publishes it (each chip header says which).
/// Per-unit fields are per compute unit; sizes and bandwidths marked "chip" are whole-chip totals.
struct chip_microarchitecture {
  /// Compute units per chip: SMs (NVIDIA), CUs (AMD), TensorCores (TPU), cores (CPU).
  std::int64_t compute_units = 0;
  /// Base (guaranteed) and maximum boost clock, in Hz.
  double base_clock = 0.0;
  double boost_clock = 0.0;
  /// Clock, in Hz, at which the datasheet's matrix peaks are stated, where it differs from
  /// `boost_clock` (0: the boost clock).
  double matrix_clock = 0.0;
  /// Clock, in Hz, at which the datasheet's vector peak is stated, where it differs from
  /// `boost_clock` (0: the boost clock). CPUs: the all-core base clock our catalogue uses.
  double vector_clock = 0.0;

  /// Matrix units per compute unit: tensor cores per SM, matrix cores per CU, MXUs per
  /// TensorCore, AMX tile units per core.
  std::int64_t matrix_units = 0;
  /// Shape of one matrix unit's systolic array (a TPU MXU: 128 x 128 multiply-accumulate cells);
  /// 0 where it is not published (GPU tensor cores, AMX).
  std::int64_t matrix_unit_rows = 0;
  std::int64_t matrix_unit_columns = 0;
  /// Dense matrix FLOP per clock of one compute unit, per input format.
  flop_per_clock_by_format matrix_flop_per_clock{};

  /// Vector units per compute unit (SM sub-partitions, TPU VPUs, AVX-512 FMA ports) and fp32
  /// lanes (ALUs) per compute unit over all of them: CUDA cores per SM, 8 x 128 x 4 ALUs per VPU.
  std::int64_t vector_units = 0;
  std::int64_t vector_lanes = 0;
  /// FLOP one lane retires per clock at peak: 2 where the datasheet counts an FMA (GPU, CPU), 1 for
  /// the TPU VPU (the scaling book's convention: one fp32 op per ALU per cycle).
  double vector_flop_per_lane = 0.0;
  /// TPU VPU shape: sublanes x lanes of one vector register (8 x 128).
  std::int64_t vector_sublanes = 0;
  std::int64_t vector_lane_width = 0;

  /// Register file per compute unit.
  bytes registers{};
  /// Memory that feeds the matrix unit beside the registers, per compute unit: Blackwell's tensor
  /// memory (TMEM), a CPU core's AMX tile registers.
  bytes matrix_memory{};
  /// The near memory of a compute unit: GPU combined L1 data cache and shared memory (SMEM), AMD
  /// LDS, TPU VMEM, CPU L1 data cache.
  bytes l1_smem{};
  /// The largest share of `l1_smem` a kernel can use as shared memory (GPU).
  bytes max_shared_memory{};
  /// Chip: bandwidth of all compute units' `l1_smem` together.
  byte_rate l1_smem_bandwidth{};
  /// Chip: L2 capacity and bandwidth (a CPU: all cores' private L2 together).
  bytes l2{};
  byte_rate l2_bandwidth{};
  /// Chip: a last-level cache beyond L2 (AMD Infinity Cache, CPU L3) and its bandwidth.
  bytes last_level_cache{};
  byte_rate last_level_cache_bandwidth{};
};

/// What a chip's kernels reach of its peaks, measured (each chip cites its figures where it sets
/// them; zero: the family default of `hardware/kernels.hpp`). These are achievable fractions of
/// the datasheet peak, the only calibrated figures of a chip.
struct kernel_fractions {
  /// The fraction of the bf16/fp16 matrix peak GEMMs approach as their shape grows (before the
  /// tile, wave and reduction-depth losses of `gemm_shape_efficiency`).
  double gemm = 0.0;
  /// The same for fp8/fp4 GEMMs, against the fp8/fp4 peak.
  double gemm_low_precision = 0.0;
  /// Fraction of HBM bandwidth that memory-bound kernels (copies, norms, elementwise) reach.
  double memory = 0.0;
  /// Fused attention (the chip's usual kernel) at long sequences and head dim 128, forward and
  /// backward, as fractions of the bf16 peak, counting FLOPs as the kernels' authors do
  /// (4·s²·d·heads forward, 2.5x that backward, halved when causal).
  double attention_forward = 0.0;
  double attention_backward = 0.0;
  /// The output tile (rows x columns) of the GEMM kernels used on large shapes: the unit of
  /// the tile and wave quantisation.
  std::int64_t tile_rows = 0;
  std::int64_t tile_columns = 0;
  /// The reduction depth k0 at which a GEMM's tiles spend as long in their prologue and epilogue
  /// as in their main loop: a GEMM of depth k runs at k / (k + k0) of its rate. Negative: none.
  double reduction_overhead = 0.0;
  /// The share of the isolated kernels' rate a whole training step sustains in its GEMMs and
  /// memory-bound kernels (clocks under the step's power, communication kernels sharing the
  /// compute units, gaps between kernels; the fused attention kernels run at their published
  /// fractions): the one end-to-end figure, calibrated on published training runs.
  double sustained = 0.0;
  /// How far the step model has measured off published training runs of the family (a mean
  /// absolute error, a fraction); negative: never measured (0: the family default).
  double step_error = 0.0;
};

/// A chip's figures. Every rate is dense (no 2:4 sparsity) and a peak from a datasheet, never an
/// achieved rate. A zero peak means the chip has no matrix support for that format.
/// Bandwidths are one-way (per direction) unless the member says otherwise.
struct chip_figures {
  std::string_view name;
  chip_kind kind = chip_kind::gpu;

  /// Peak rate of the vector units in fp32 (CUDA cores, TPU VPU, CPU FMA units).
  flop_rate peak_fp32{};
  /// Peak dense matrix rates per input format.
  flop_rate peak_tf32{};
  flop_rate peak_bf16{};
  flop_rate peak_fp16{};
  flop_rate peak_fp8{};
  flop_rate peak_int8{};
  flop_rate peak_int4{};
  flop_rate peak_fp4{};

  /// High-bandwidth memory (DRAM on a CPU): capacity and bandwidth.
  bytes memory{};
  byte_rate memory_bandwidth{};

  /// Scale-up fabric: one-way bandwidth of one link, and links per chip.
  scale_up_kind scale_up = scale_up_kind::none;
  byte_rate scale_up_link_bandwidth{};
  std::int64_t scale_up_links = 0;

  /// Scale-out (InfiniBand, RoCE, DCN) one-way bandwidth available to one chip.
  byte_rate scale_out_bandwidth{};
  /// Host link (PCIe or chip-to-chip to the CPU), one-way.
  byte_rate host_link_bandwidth{};
  /// Host memory attached per chip (the host's DRAM divided by its chips).
  bytes host_memory{};

  /// The chip's inside (compute units, clocks, on-chip memories); zeros where not given.
  chip_microarchitecture arch{};
  /// What its kernels reach (zeros: the family defaults of `hardware/kernels.hpp`).
  kernel_fractions kernels{};
  /// The chip's rated power in watts: its TDP, TGP or board power at full load (the module's
  /// for an OAM or SXM part, both sockets' TDP for a CPU server), from its datasheet; each chip
  /// header cites it. Where no vendor publishes it (Google's TPUs from v5e on, Trainium2) the
  /// figure is an estimate by the rule its header states. 0: not given (a custom chip without
  /// `power_w`): energy is then not estimated. Idle power is not a chip figure: no vendor
  /// publishes it; `run/energy.hpp` charges idle phases a stated share of this figure.
  double power_watts = 0.0;
};

/// A type that describes a chip: it carries `static constexpr chip_figures figures`.
template <class T>
concept ChipSpec = requires {
  { T::figures } -> std::convertible_to<const chip_figures&>;
};

/// The peak rate of `chip` for a number format (zero where the chip lacks it).
constexpr flop_rate peak(const chip_figures& chip, number_format f) {
  switch (f) {
    case number_format::fp32: return chip.peak_fp32;
    case number_format::tf32: return chip.peak_tf32;
    case number_format::bf16: return chip.peak_bf16;
    case number_format::fp16: return chip.peak_fp16;
    case number_format::fp8: return chip.peak_fp8;
    case number_format::int8: return chip.peak_int8;
    case number_format::int4: return chip.peak_int4;
    case number_format::fp4: return chip.peak_fp4;
  }
  return {};
}

/// Total one-way scale-up bandwidth leaving one chip over all its links.
constexpr byte_rate scale_up_egress(const chip_figures& chip) {
  return chip.scale_up_link_bandwidth * static_cast<double>(chip.scale_up_links);
}

/// One-way bandwidth one chip can send into a collective along one mesh axis of its scale-up
/// fabric: on a torus the two links of one torus axis (a ring with wraparound sends both ways,
/// so this is the book's "bidirectional" W_ici); on a switched fabric every link.
constexpr byte_rate scale_up_axis_bandwidth(const chip_figures& chip) {
  switch (chip.scale_up) {
    case scale_up_kind::torus_2d:
    case scale_up_kind::torus_3d: return chip.scale_up_link_bandwidth * 2.0;
    case scale_up_kind::switched:
    case scale_up_kind::full_mesh: return scale_up_egress(chip);
    case scale_up_kind::none: return {};
  }
  return {};
}

/// FLOP per byte of memory traffic at which a kernel in format `f` turns compute-bound: C / W_hbm.
constexpr intensity memory_intensity(const chip_figures& chip,
                                     number_format f = number_format::bf16) {
  return peak(chip, f) / chip.memory_bandwidth;
}

/// FLOP per byte sent along one scale-up axis at which a collective hides under compute:
/// C / W_ici (TPU, bidirectional link) or C / W_GPU-egress (NVLink). This is the book's headline
/// figure (2550 for v5p, 2200 for H100), the limit of an infinite ring; a plan's bounds
/// (training/bounds.hpp) keep its ring's (n−1)/n: 2199·7/8 = 1924 for an 8-GPU H100 axis.
constexpr intensity scale_up_intensity(const chip_figures& chip,
                                       number_format f = number_format::bf16) {
  return peak(chip, f) / scale_up_axis_bandwidth(chip);
}

/// FLOP per byte of scale-out traffic: C / W_scale-out per chip.
constexpr intensity scale_out_intensity(const chip_figures& chip,
                                        number_format f = number_format::bf16) {
  return peak(chip, f) / chip.scale_out_bandwidth;
}

/// FLOP per clock of one systolic matrix unit of `rows` x `columns` multiply-accumulate cells: each
/// cell does one multiply-accumulate (2 FLOP) per clock.
constexpr double systolic_flop_per_clock(std::int64_t rows, std::int64_t columns) {
  return 2.0 * static_cast<double>(rows) * static_cast<double>(columns);
}

/// The clock at which a chip's matrix peaks hold: `matrix_clock`, else `boost_clock`, in Hz.
constexpr double matrix_clock_of(const chip_microarchitecture& m) {
  return m.matrix_clock > 0.0 ? m.matrix_clock : m.boost_clock;
}

/// Peak dense matrix rate from the inside: compute units x FLOP per clock per unit x clock.
constexpr flop_rate matrix_peak(const chip_microarchitecture& m, number_format f) {
  return static_cast<double>(m.compute_units) * flop_per_clock(m.matrix_flop_per_clock, f) *
         matrix_clock_of(m) * flop / second;
}

/// Peak of a TPU's MXUs: TensorCores x MXUs per core x rows x columns x 2 FLOP x clock (the
/// bf16 rate; int8 runs at twice it on v5e and v5p).
constexpr flop_rate mxu_peak(const chip_microarchitecture& m) {
  return static_cast<double>(m.compute_units * m.matrix_units) *
         systolic_flop_per_clock(m.matrix_unit_rows, m.matrix_unit_columns) * matrix_clock_of(m) *
         flop / second;
}

/// Vector lanes (fp32 ALUs: CUDA cores, VPU ALUs) on the whole chip.
constexpr std::int64_t vector_lanes_per_chip(const chip_microarchitecture& m) {
  return m.compute_units * m.vector_lanes;
}

/// Vector fp32 rate at `clock` (Hz) counting `flop_per_lane` FLOP per lane per clock: 2 counts an
/// FMA as the datasheets do, 1 counts one op per lane per cycle, as the scaling book's GPU quiz does.
constexpr flop_rate vector_rate(const chip_microarchitecture& m, double clock,
                                double flop_per_lane) {
  return static_cast<double>(vector_lanes_per_chip(m)) * flop_per_lane * clock * flop / second;
}

/// The clock at which a chip's vector peak holds: `vector_clock`, else `boost_clock`, in Hz.
constexpr double vector_clock_of(const chip_microarchitecture& m) {
  return m.vector_clock > 0.0 ? m.vector_clock : m.boost_clock;
}

/// Peak vector fp32 rate: lanes x FLOP per lane x clock.
constexpr flop_rate vector_fp32_peak(const chip_microarchitecture& m) {
  return vector_rate(m, vector_clock_of(m), m.vector_flop_per_lane);
}

/// A per-compute-unit size summed over the chip (SMEM, registers, TMEM of all SMs).
constexpr bytes chip_total(const chip_microarchitecture& m, bytes per_unit) {
  return per_unit * static_cast<double>(m.compute_units);
}

/// C / W at one on-chip memory level; zero (not given) where that level's bandwidth is not given.
constexpr intensity on_chip_intensity(flop_rate c, byte_rate w) {
  return w.value() > 0.0 ? c / w : intensity{};
}

/// FLOP per byte of L2 traffic at which a matmul in format `f` turns compute-bound: C / W_L2
/// (zero where the L2 bandwidth is not given).
constexpr intensity l2_intensity(const chip_figures& chip, number_format f = number_format::bf16) {
  return on_chip_intensity(peak(chip, f), chip.arch.l2_bandwidth);
}

/// FLOP per byte of SMEM (TPU: VMEM) traffic at which a matmul turns compute-bound: C / W_SMEM
/// (zero where the SMEM bandwidth is not given).
constexpr intensity smem_intensity(const chip_figures& chip,
                                   number_format f = number_format::bf16) {
  return on_chip_intensity(peak(chip, f), chip.arch.l1_smem_bandwidth);
}

/// The figures of a chip type.
template <ChipSpec Chip>
constexpr const chip_figures& figures_of() {
  return Chip::figures;
}

}  // namespace shardplan
