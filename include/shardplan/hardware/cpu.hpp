// Dual-socket x86 servers treated as one chip: xeon_8480_2s and epyc_9654_2s, as chip_figures.
#pragma once

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

// A server's two sockets count as one chip: planning treats the server, not the socket, as the
// unit that holds model state, and the sockets share one memory space over UPI / Infinity Fabric.
// Peak rates are derived (cores x FLOP per cycle x clock), at the all-core base clock: sustained
// AMX / AVX-512 clocks are often at or below base under full load, so the turbo clock would
// overstate them. A CPU is its own host, so host link and host memory stay zero.
//
// Sources, cited per figure by their tag:
//   [ark-8480]  Intel ARK, Xeon Platinum 8480+: 56 cores, base 2.0 GHz, 8 channels DDR5-4800,
//               two AVX-512 FMA units per core.
//   [amx]       Intel, "Accelerate AI Workloads with Intel AMX" / Intel Architecture Instruction
//               Set Extensions reference: 4th Gen Xeon AMX performs "2048 INT8 or 1024 BF16
//               operations per cycle" per core (TDPBF16PS: 16x16x32 MACs every 16 cycles).
//   [amd-9654]  AMD EPYC 9654 product page: 96 cores (Zen 4), base 2.4 GHz, 12 channels DDR5-4800,
//               AVX-512 incl. AVX512_BF16.
//   [zen4]      Zen 4 core: AVX-512 executed on two 256-bit FMA pipes (one 512-bit FMA per cycle).
//   [spr]       Intel 4th Gen Xeon Scalable (Sapphire Rapids) product brief and Intel 64 and IA-32
//               Optimization Reference Manual: per core 48 KB L1 data cache, 2 MB L2, one AMX unit
//               with eight 1 KB tile registers (16 rows x 64 bytes); 105 MB shared L3 per 8480+
//               socket ([ark-8480] "105 MB Intel Smart Cache"); max turbo 3.8 GHz [ark-8480].
//   [amd-9654c] AMD EPYC 9654 product page, cache rows: L1 6 MB, L2 96 MB, L3 384 MB per socket
//               (32 KB L1D + 32 KB L1I and 1 MB L2 per core); max boost 3.7 GHz.
//
// Inside (`arch`): compute units are the cores of both sockets; matrix and vector clocks are the
// all-core base clock, as for the peaks above. Register files: AVX-512's 32 zmm registers of
// 64 B per core; cache bandwidths are not published as peaks and stay 0.

namespace shardplan::hardware {

/// A dual-socket Intel Xeon Platinum 8480+ server (2 x 56 Sapphire Rapids cores, AMX), with a
/// typical 1 TiB of DDR5-4800 (16 x 64 GiB RDIMMs, one per channel).
struct xeon_8480_2s {
  static constexpr double sockets = 2.0;
  static constexpr double cores_per_socket = 56.0;  // [ark-8480]
  static constexpr double base_clock = 2.0e9;       // [ark-8480] base frequency, Hz

  static constexpr chip_figures figures = {
      .name = "2x xeon platinum 8480+",
      .kind = chip_kind::cpu,
      // AVX-512: 2 FMA units x 16 fp32 lanes x 2 FLOP = 64 FLOP/cycle/core [ark-8480]
      // => 2 x 56 x 64 x 2.0e9 = 14.3e12 FLOP/s.
      .peak_fp32 = sockets * cores_per_socket * 64.0 * base_clock * flop / second,
      // AMX-BF16: 1024 FLOP/cycle/core [amx] => 2 x 56 x 1024 x 2.0e9 = 229.4e12 FLOP/s.
      .peak_bf16 = sockets * cores_per_socket * 1024.0 * base_clock * flop / second,
      // AMX-INT8: 2048 OP/cycle/core [amx] => 2 x 56 x 2048 x 2.0e9 = 458.8e12 OP/s.
      .peak_int8 = sockets * cores_per_socket * 2048.0 * base_clock * flop / second,
      // (AVX512-FP16 accumulates in fp16, not fp32, so it is not our fp16 format; left at zero.)
      // Assumption: a typical configuration, 16 x 64 GiB RDIMMs (one DIMM per channel).
      .memory = 16.0 * 64.0 * gibi * byte,
      // DDR5-4800: 4800 MT/s x 8 bytes = 38.4 GB/s per channel; 8 channels per socket
      // [ark-8480] => 2 x 8 x 38.4 = 614.4 GB/s.
      .memory_bandwidth = sockets * 8.0 * 4800.0 * mega * 8.0 * byte / second,
      .scale_up = scale_up_kind::none,
      // Assumption: one 200 Gb/s NIC per server.
      .scale_out_bandwidth = 200.0 * giga * bits * byte / second,
      .arch = {
          .compute_units = static_cast<std::int64_t>(sockets * cores_per_socket),  // 112
          .base_clock = base_clock,
          .boost_clock = 3.8e9,    // [spr], [ark-8480] max turbo (one core)
          .matrix_clock = base_clock,
          .vector_clock = base_clock,
          .matrix_units = 1,       // [spr] one AMX tile unit (TMUL) per core
          // [amx] 1024 BF16 and 2048 INT8 operations per cycle per core.
          .matrix_flop_per_clock = {.bf16 = 1024.0, .int8 = 2048.0},
          .vector_units = 2,           // [ark-8480] two AVX-512 FMA units per core
          .vector_lanes = 2 * 16,      // 2 units x 16 fp32 lanes
          .vector_flop_per_lane = 2.0,  // FMA
          .registers = 32.0 * 64.0 * byte,           // 32 zmm x 64 B
          .matrix_memory = 8.0 * kibi * byte,        // [spr] 8 tiles x 1 KB
          .l1_smem = 48.0 * kibi * byte,             // [spr] L1D per core
          .l2 = 112.0 * 2.0 * mebi * byte,           // [spr] 2 MB per core x 112
          .last_level_cache = 2.0 * 105.0 * mebi * byte,  // [ark-8480] 105 MB per socket
      },
      // two sockets of 350 W TDP (ark.intel.com/content/www/us/en/ark/products/231746, the figure
      // as we know it, not reopened in the session that added it); DRAM is host power
      .power_watts = 2.0 * 350.0,
  };
};

/// A dual-socket AMD EPYC 9654 server (2 x 96 Zen 4 cores, AVX-512 with bf16 dot products), with
/// a typical 1.5 TiB of DDR5-4800 (24 x 64 GiB RDIMMs, one per channel).
struct epyc_9654_2s {
  static constexpr double sockets = 2.0;
  static constexpr double cores_per_socket = 96.0;  // [amd-9654]
  static constexpr double base_clock = 2.4e9;       // [amd-9654] base frequency, Hz

  static constexpr chip_figures figures = {
      .name = "2x epyc 9654",
      .kind = chip_kind::cpu,
      // Two 256-bit FMA pipes x 8 fp32 lanes x 2 FLOP = 32 FLOP/cycle/core [zen4]
      // => 2 x 96 x 32 x 2.4e9 = 14.7e12 FLOP/s.
      .peak_fp32 = sockets * cores_per_socket * 32.0 * base_clock * flop / second,
      // VDPBF16PS: per 256-bit half, 16 bf16 products summed pairwise into 8 fp32 lanes = 32 FLOP;
      // assumption (not verified against a published throughput table): it issues on both FMA
      // pipes like an FMA => 64 FLOP/cycle/core => 2 x 96 x 64 x 2.4e9 = 29.5e12 FLOP/s.
      .peak_bf16 = sockets * cores_per_socket * 64.0 * base_clock * flop / second,
      // int8 (AVX512-VNNI) left at zero: no throughput figure checked.
      // Assumption: a typical configuration, 24 x 64 GiB RDIMMs (one DIMM per channel).
      .memory = 24.0 * 64.0 * gibi * byte,
      // DDR5-4800: 38.4 GB/s per channel; 12 channels per socket [amd-9654] => 921.6 GB/s.
      .memory_bandwidth = sockets * 12.0 * 4800.0 * mega * 8.0 * byte / second,
      .scale_up = scale_up_kind::none,
      // Assumption: one 200 Gb/s NIC per server.
      .scale_out_bandwidth = 200.0 * giga * bits * byte / second,
      .arch = {
          .compute_units = static_cast<std::int64_t>(sockets * cores_per_socket),  // 192
          .base_clock = base_clock,
          .boost_clock = 3.7e9,    // [amd-9654c] max boost (one core)
          .matrix_clock = base_clock,
          .vector_clock = base_clock,
          // No matrix unit (matrix_units 0); bf16 dot products run on the FMA pipes (the
          // assumption above): 64 FLOP per clock per core.
          .matrix_flop_per_clock = {.bf16 = 64.0},
          .vector_units = 2,           // [zen4] two 256-bit FMA pipes
          .vector_lanes = 2 * 8,       // 2 pipes x 8 fp32 lanes
          .vector_flop_per_lane = 2.0,  // FMA
          .registers = 32.0 * 64.0 * byte,                // 32 zmm x 64 B
          .l1_smem = 32.0 * kibi * byte,                  // [amd-9654c] 32 KB L1D per core
          .l2 = 192.0 * 1.0 * mebi * byte,                // [amd-9654c] 1 MB per core
          .last_level_cache = 2.0 * 384.0 * mebi * byte,  // [amd-9654c] 384 MB per socket
      },
      // two sockets of 360 W default TDP (amd.com/en/products/processors/server/epyc/4th-
      // generation-9004-and-8004-series/amd-epyc-9654.html, the figure as we know it, not
      // reopened in the session that added it); DRAM is host power
      .power_watts = 2.0 * 360.0,
  };
};

}  // namespace shardplan::hardware
