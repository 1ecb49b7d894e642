// AWS Trainium accelerators: trainium2, as chip_figures.
#pragma once

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

// Sources, cited per figure by their tag (all in aws-neuron/aws-neuron-sdk@81ce03a, the source of
// awsdocs-neuron.readthedocs-hosted.com):
//   [trn2-arch] about-neuron/arch/neuron-hardware/trainium2.rst, "Trainium2 chip components":
//               eight NeuronCore-v3 delivering "1,299 FP8 TFLOPS", "667 BF16/FP16/TF32 TFLOPS",
//               "2,563 FP8/FP16/BF16/TF32 sparse TFLOPS", "181 FP32 TFLOPS"; "96 GiB of device
//               memory with 2.9 TB/sec of bandwidth"; NeuronLink-v3 "1.28 TB/sec bandwidth per
//               chip"; SBUF 224 MiB per chip.
//   [nc-v3]     about-neuron/arch/neuron-hardware/neuron-core-v3.rst: per NeuronCore-v3, 28 MB of
//               on-chip SRAM; a Tensor Engine (systolic array) of "158 cFP8 TFLOPS, and 79
//               BF16/FP16/TF32 TFLOPS"; Vector Engines "a total of 1 TFLOPS of FP32"; Scalar
//               Engines 1.2 TFLOPS of FP32.
//   [nki-trn2]  nki/guides/architecture/trainium2_arch.rst: "4 HBM stacks with a total device
//               memory capacity of 96GiB"; "4 NeuronLink-v3 for device-to-device collective
//               communication"; the Tensor Engine "organized as a grid of 128x128 processing
//               elements" at 2.4 GHz (dense BF16/FP16 input 2x128 elements per cycle, FP8 4x128);
//               "20 FP32 dense TFLOPS" per Tensor Engine; SBUF 28 MiB per NeuronCore (128
//               partitions of 224 KiB).
//   [trn2-inst] about-neuron/arch/neuron-hardware/trn2-arch.rst, trn2.48xlarge: 16 Trainium2 in a
//               "4x4, 2D Torus", intra-instance NeuronLink-v3 1,024 GB/sec/chip, host memory
//               2,048 GiB, "EFAv3 bandwidth (Gbps) 3,200"; a Trn2 UltraServer joins four instances
//               (64 chips) with rings of 256 GB/sec/chip between them.
//
// Inside (`arch`): a NeuronCore is the compute unit; its Tensor Engine is one 128 x 128 systolic
// array. [nki-trn2]'s 2.4 GHz gives 128 x 128 x 2 x 2.4e9 = 78.6e12 per core, [nc-v3]'s 79
// TFLOPS, but 8 x 78.6e12 = 629e12 is 5.7% under [trn2-arch]'s 667 chip figure: the published
// clock and the chip peak do not agree, so no clock is recorded (the peaks stay the chip's) and
// the per-core derivation is checked on its own (tests/static/catalog_chips.cpp).

namespace shardplan::hardware {

/// AWS Trainium2: eight NeuronCore-v3, 96 GiB HBM, 16 chips per trn2.48xlarge in a 4x4 2D torus
/// (64 per Trn2 UltraServer).
struct trainium2 {
  static constexpr chip_figures figures = {
      .name = "trainium2",
      .kind = chip_kind::gpu,  // a device with its own HBM on a PCIe host: the GPU reports' words
      // Vector engines only, as for every chip here: [nc-v3] 1 TFLOPS of FP32 per core x 8. (The
      // [trn2-arch] "181 FP32 TFLOPS" is the Tensor Engines' FP32 matrix rate.)
      .peak_fp32 = 8.0 * 1.0 * tera * flop / second,
      .peak_tf32 = 667.0 * tera * flop / second,   // [trn2-arch] 667 BF16/FP16/TF32 TFLOPS
      .peak_bf16 = 667.0 * tera * flop / second,   // [trn2-arch]
      .peak_fp16 = 667.0 * tera * flop / second,   // [trn2-arch]
      .peak_fp8 = 1299.0 * tera * flop / second,   // [trn2-arch] 1,299 FP8 TFLOPS
      // No INT8 or FP4 matrix format listed ([trn2-arch]): zero.
      .memory = 96.0 * gibi * byte,                       // [trn2-arch] 96 GiB
      .memory_bandwidth = 2.9 * tera * byte / second,     // [trn2-arch] 2.9 TB/sec
      .scale_up = scale_up_kind::torus_2d,                // [trn2-inst] 4x4 2D torus
      // [trn2-inst] 1,024 GB/sec/chip inside an instance over the 4 torus links ([nki-trn2] "4
      // NeuronLink-v3"), read as both directions together (an assumption about what AWS counts):
      // 1024 / (4 x 2) = 128 GB/s one-way per link. The UltraServer's extra 256 GB/s/chip ring
      // between instances ([trn2-inst]; 1024 + 256 = [trn2-arch]'s 1.28 TB/s) is not modelled.
      .scale_up_link_bandwidth = 1024.0 / 8.0 * giga * byte / second,
      .scale_up_links = 4,
      // [trn2-inst] EFAv3 3,200 Gb/s per 16-chip instance: 200 Gb/s a chip.
      .scale_out_bandwidth = 3200.0 * giga * bits * byte / second / 16.0,
      // Host link: not in our sources; left at 0.
      .host_memory = 2048.0 * gibi * byte / 16.0,  // [trn2-inst] 2,048 GiB per 16 chips
      .arch = {
          .compute_units = 8,       // [trn2-arch] eight NeuronCore-v3
          // Clock: see the note above ([nki-trn2] 2.4 GHz does not rebuild the chip peak); 0.
          .matrix_units = 1,        // [nc-v3] one Tensor Engine per NeuronCore
          .matrix_unit_rows = 128,  // [nki-trn2] 128x128 processing elements
          .matrix_unit_columns = 128,
          // Per core and clock: 128 x 128 x 2 = 32768 FLOP in BF16/FP16/TF32, twice in FP8
          // ([nki-trn2] 4x128 FP8 against 2x128 BF16 elements per cycle), FP32 a quarter
          // ([nki-trn2] 20 of 79 TFLOPS).
          .matrix_flop_per_clock = {.fp32 = 8192.0, .tf32 = 32768.0, .bf16 = 32768.0,
                                    .fp16 = 32768.0, .fp8 = 65536.0},
          .l1_smem = 28.0 * mebi * byte,  // [nki-trn2] SBUF 28 MiB per NeuronCore
          // Registers, caches and on-chip bandwidths: not in our sources; 0.
      },
      // Not an NVIDIA generation: without its own figures it would take the Hopper defaults (it
      // has fp8 and no fp4). No published Trainium2 matmul or attention efficiency was found (no
      // MAMF entry), so every figure is an assumption: the TPU family's, the other systolic-array
      // design compiled by graph (XLA / the Neuron compiler): GEMM 0.90 (at most 629 / 667 =
      // 0.94 if the 2.4 GHz clock is the real one), attention 0.70 forward and 0.60 backward,
      // 128 x 128 tiles (the array), no reduction-depth loss (the array streams the reduction).
      // No training run measured.
      .kernels = {.gemm = 0.90,
                  .gemm_low_precision = 0.90,
                  .memory = 0.85,
                  .attention_forward = 0.70,
                  .attention_backward = 0.60,
                  .tile_rows = 128,
                  .tile_columns = 128,
                  .reduction_overhead = -1.0,
                  .sustained = 1.0,
                  .step_error = -1.0},
      // estimated (AWS publishes no chip power): at the H100 SXM's bf16 FLOP/s per watt (989.4
      // TFLOP/s per 700 W, [h100-ds])
      .power_watts = 700.0 * 667.0 / 989.4,
  };
};

}  // namespace shardplan::hardware
