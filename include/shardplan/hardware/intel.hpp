// Intel Gaudi accelerators: gaudi3, as chip_figures.
#pragma once

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

// Sources, cited per figure by their tag:
//   [hc24]      R. Kaplan (Intel), "Intel Gaudi 3 AI Accelerator: Architected for Gen AI Training
//               and Inference", Hot Chips 2024 slides (as sgpjbg.com hosts them): BF16 matrix 1835
//               and FP8 matrix 1835 TFLOPs, BF16 vector 28.7 TFLOPs, 8 MME units, 64 TPC units,
//               128 GB HBM2e at 3.67 TB/s, 96 MB on-die SRAM (L2) at 12.8 TB/s, networking 1200
//               GB/s bidirectional (24 x 200 GbE RoCE), "PCIe Gen5 x16", 128 GB/s bidirectional to
//               the host; 4 DCOREs of 2 MME, 16 TPC and 24 MB cache each; 900 W air, 1200 W
//               liquid.
//   [hl-net]    Intel Gaudi documentation, "Intel Gaudi Network Configuration"
//               (docs.habana.ai/en/latest/Management_and_Monitoring/Network_Configuration): "21
//               scale-up ports and three scale-out ports running at 200Gbps"; the scale-up ports
//               join the 8 accelerators of an HLS-3 box all-to-all, "21/7=3 scale-up ports for
//               each connection"; "21*25 GB/s = 525 GB/s unidirectional"; scale-out "3*200Gbps =
//               75 GB/s in each direction".
//   [mamf]      stas00/ml-engineering, compute/accelerator/README.md@744d01e: the MME arithmetic,
//               "Gaudi 3 ... 1600MHz ... 256*256 [FMA per MME per clock] ... 8 [MMEs] ... 1677"
//               and "in order to have 1835TFLOPS the clock has to be 1750MHz. i.e. the current
//               incarnation of Gaudi3 is running at 1600MHz"; its TFLOPS table (from Intel's
//               Gaudi 3 white paper, note 8: MME figures) FP32 229, TF32 459, FP16 459; and the
//               MAMF tables: bf16 1243.0 TFLOPS at 16384x4096x768 and fp8 1289.5 at
//               16640x1536x3072 (torch 2.6.0+hpu 1.21.4, PT_HPU_LAZY_MODE=1).
//
// Inside (`arch`): the compute units here are the 8 MMEs (the matrix engines GEMMs spread over),
// each one 256 x 256 array of multiply-accumulators; the 64 TPCs (vector cores) are not modelled.
// Clock: Intel publishes none; 1.75 GHz is the clock at which the 1835 TFLOPS datasheet peak
// holds ([mamf]: 8 x 256 x 256 x 2 x 1.75e9 = 1835e12), derived. Shipping parts run the MME at
// 1.6 GHz ([mamf]), which the measured GEMM fractions below already include.

namespace shardplan::hardware {

/// Intel Gaudi 3 (OAM, 900 W): two dies, 8 MMEs and 64 TPCs, 128 GB HBM2e, 24 x 200 GbE RoCE on
/// the chip; 8 per HLS-3 box, all-to-all.
struct gaudi3 {
  static constexpr chip_figures figures = {
      .name = "gaudi 3",
      .kind = chip_kind::gpu,  // a device with its own HBM on a PCIe host: the GPU reports' words
      // FP32 vector rate (TPC): not published in our sources ([hc24] gives BF16 vector 28.7); 0.
      .peak_fp32 = 0.0 * flop / second,
      .peak_tf32 = 459.0 * tera * flop / second,   // [mamf] white paper: TF32 459 (MME)
      .peak_bf16 = 1835.0 * tera * flop / second,  // [hc24] BF16 matrix 1835 TFLOPs
      .peak_fp16 = 459.0 * tera * flop / second,   // [mamf] white paper: FP16 459 (MME)
      .peak_fp8 = 1835.0 * tera * flop / second,   // [hc24] FP8 matrix 1835 TFLOPs
      // INT8: supported ([mamf] note 8) but no rate published; left at 0.
      .memory = 128.0 * giga * byte,                      // [hc24] 128 GB HBM2e
      .memory_bandwidth = 3.67 * tera * byte / second,    // [hc24] 3.67 TB/s
      // [hl-net] 21 scale-up ports, 3 to each of the 7 peers of an HLS-3 box: a full mesh of 21
      // links of 200 Gb/s = 25 GB/s one-way each (525 GB/s egress).
      .scale_up = scale_up_kind::full_mesh,
      .scale_up_link_bandwidth = 200.0 * giga * bits * byte / second,
      .scale_up_links = 21,
      // [hl-net] three scale-out ports: 3 x 200 Gb/s = 75 GB/s each way.
      .scale_out_bandwidth = 3.0 * 200.0 * giga * bits * byte / second,
      // [hc24] PCIe Gen5 x16, 128 GB/s both ways = 64 GB/s each way.
      .host_link_bandwidth = 64.0 * giga * byte / second,
      // Host memory per chip: not in the sources we checked; left at zero.
      .arch = {
          .compute_units = 8,        // [hc24] 8 MME units
          .matrix_clock = 1.75e9,    // derived (see the note above)
          .matrix_units = 1,
          .matrix_unit_rows = 256,   // [mamf] 256*256 FMA per MME per clock
          .matrix_unit_columns = 256,
          // 256 x 256 x 2 = 131072 FLOP per MME per clock in BF16 and FP8; FP16 and TF32 at a
          // quarter ([mamf] 459 = 1835 / 4), FP32 (MME) at an eighth (229).
          .matrix_flop_per_clock = {.fp32 = 16384.0, .tf32 = 32768.0, .bf16 = 131072.0,
                                    .fp16 = 32768.0, .fp8 = 131072.0},
          // [hc24] 96 MB of on-die SRAM, the L2 (4 DCOREs x 24 MB), at 12.8 TB/s.
          .l2 = 96.0 * mebi * byte,
          .l2_bandwidth = 12.8 * tera * byte / second,
          // Registers, TPC local memories: not modelled; 0.
      },
      // Not an NVIDIA generation: its own kernel figures. GEMM: [mamf] measures 1243.0 TFLOP/s
      // bf16 at 16384x4096x768, 0.677 of the 1835 peak (the table's 74.1% is against 1677, the
      // peak at the 1.6 GHz the MMEs run at). With 256 x 256 tiles on the 8 MMEs that shape fills
      // every wave (1024 tiles, 128 waves), so the deep fraction is 0.677 itself. No reduction
      // depth loss: MAMF's best bf16 shape has K = 768, where the GPUs' k0 = 496 would cost 39%
      // and need a deep fraction above 1 (an inference from the measurement). fp8: 1289.5 at
      // 16640x1536x3072 is 0.703 of 1835; over 390 tiles in 49 waves (0.995), 0.706. Attention:
      // no published Gaudi 3 figure read; the H100's cuDNN fractions scaled by the GEMM ratio
      // 0.677 / 0.859 (an assumption, as for mi300x). No training run measured.
      .kernels = {.gemm = 0.677,
                  .gemm_low_precision = 0.706,
                  .memory = 0.85,
                  .attention_forward = 0.49,
                  .attention_backward = 0.45,
                  .tile_rows = 256,
                  .tile_columns = 256,
                  .reduction_overhead = -1.0,
                  .sustained = 1.0,
                  .step_error = -1.0},
      .power_watts = 900.0,  // [hc24] HL-325L OAM, 900 W air-cooled (1200 W liquid)
  };
};

}  // namespace shardplan::hardware
