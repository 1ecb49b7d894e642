// What a chip is to shardplan: its peak rates per number format, memories and links, as plain values.
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

/// The figures of a chip type.
template <ChipSpec Chip>
constexpr const chip_figures& figures_of() {
  return Chip::figures;
}

}  // namespace shardplan
