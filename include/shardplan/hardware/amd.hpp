// AMD Instinct accelerators: mi300x, as chip_figures.
#pragma once

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

// Sources, cited per figure by their tag:
//   [mi300x-ds]  AMD Instinct MI300X product page / datasheet specification table and its
//                footnote MI300-17 (dense peak rates: TF32 653.7, FP16 1307.4, BF16 1307.4,
//                FP8 2614.9 TFLOPS, INT8 2614.9 TOPS); "Infinity Fabric Links: 8",
//                "Peak Infinity Fabric Link Bandwidth: 128 GB/s", "PCIe 5.0 x16", 192 GB HBM3,
//                5.3 TB/s.
//   [mlperf]     MLCommons inference v4.1, closed/AMD/systems/8xMI300X_2xEPYC-9374F.json:
//                8 MI300X per node, 1.5 TiB host memory.
//   [cdna3]      AMD CDNA 3 architecture white paper (2023), Table 1: 8 XCDs of 38 active CUs
//                (304), 2100 MHz peak engine clock (the clock of footnote MI300-17), 4 SIMDs and 4
//                matrix cores per CU, 4 MB L2 per XCD, 256 MB AMD Infinity Cache at 17.2 TB/s peak.
//   [rocm-mi300] ROCm documentation, "AMD Instinct MI300 series microarchitecture", table of
//                peak-performance capabilities, FLOPS/clock/CU: vector FP32 256, TF32 1024,
//                matrix FP16 2048, BF16 2048, FP8 4096, INT8 4096 (peaks = 304 x those x 2.1 GHz).
//   [rocm-arch]  ROCm documentation, "GPU architecture information" table (gpu-arch-info),
//                MI300X row: 304 CUs, wavefront 64, LDS 64 KiB, L3 (Infinity Cache) 256 MiB, L2
//                32 MiB, L1 vector cache 32 KiB, VGPR file 512 KiB (per CU).
//   [sth]        ServeTheHome, "AMD Instinct MI300X GPU and MI300A APUs launched" (2023), AMD's
//                launch slide: "256MB of Infinity Cache with 17TB/s of peak bandwidth".

namespace shardplan::hardware {

/// AMD Instinct MI300X (CDNA 3, OAM, 750 W): 304 CUs, 192 GB HBM3, 8 GPUs fully meshed by
/// Infinity Fabric on the UBB platform.
struct mi300x {
  static constexpr chip_figures figures = {
      .name = "mi300x",
      .kind = chip_kind::gpu,
      .peak_fp32 = 163.4 * tera * flop / second,   // [mi300x-ds] peak FP32 vector 163.4 TFLOPS
      .peak_tf32 = 653.7 * tera * flop / second,   // [mi300x-ds] MI300-17
      .peak_bf16 = 1307.4 * tera * flop / second,  // [mi300x-ds] MI300-17 (2614.9 with sparsity)
      .peak_fp16 = 1307.4 * tera * flop / second,  // [mi300x-ds] MI300-17
      .peak_fp8 = 2614.9 * tera * flop / second,   // [mi300x-ds] MI300-17 (5229.8 with sparsity)
      .peak_int8 = 2614.9 * tera * flop / second,  // [mi300x-ds] MI300-17, 2614.9 TOPS
      .memory = 192.0 * giga * byte,               // [mi300x-ds] 192 GB HBM3
      .memory_bandwidth = 5.3 * tera * byte / second,  // [mi300x-ds] 5.3 TB/s
      // Each GPU reaches its 7 peers over one x16 Infinity Fabric link each (the 8th link is left
      // for the host or unused on the 8-GPU platform): a full mesh, no switch.
      .scale_up = scale_up_kind::full_mesh,
      // [mi300x-ds] "Peak Infinity Fabric Link Bandwidth 128 GB/s" is both directions together:
      // 64 GB/s each way per link. AMD's "896 GB/s" aggregate is 7 x 128, also bidirectional;
      // one-way egress to all peers is 7 x 64 = 448 GB/s.
      .scale_up_link_bandwidth = 64.0 * giga * byte / second,
      .scale_up_links = 7,
      // Assumption: one 400 Gb/s NIC per GPU (ConnectX-7 or Pollara 400), as in DGX-like builds.
      .scale_out_bandwidth = 400.0 * giga * bits * byte / second,
      // [mi300x-ds] PCIe 5.0 x16: 64 GB/s each way nominal.
      .host_link_bandwidth = 64.0 * giga * byte / second,
      .host_memory = 1.5 * tebi * byte / 8.0,  // [mlperf] 1.5 TiB per 8-GPU node
      .arch = {
          .compute_units = 304,   // [cdna3] 8 XCDs x 38 CUs; [rocm-arch] 304
          .boost_clock = 2.1e9,   // [cdna3] peak engine clock 2100 MHz
          .matrix_units = 4,      // [cdna3] 4 matrix cores per CU, one per SIMD
          .matrix_flop_per_clock = {.tf32 = 1024.0, .bf16 = 2048.0, .fp16 = 2048.0,
                                    .fp8 = 4096.0, .int8 = 4096.0},  // [rocm-mi300] per CU
          .vector_units = 4,  // [cdna3] 4 SIMDs per CU
          // [rocm-mi300] vector FP32 256 FLOPS/clock/CU: 64 stream processors issuing packed fp32
          // (2 per lane) FMAs, counted here as 128 lanes x 2 FLOP.
          .vector_lanes = 128,
          .vector_flop_per_lane = 2.0,
          .registers = 512.0 * kibi * byte,  // [rocm-arch] VGPR file 512 KiB per CU
          .l1_smem = 64.0 * kibi * byte,     // [rocm-arch] LDS 64 KiB per CU (AMD's "SMEM")
          .max_shared_memory = 64.0 * kibi * byte,  // the whole LDS
          // LDS bandwidth: not in our sources; left at 0.
          .l2 = 32.0 * mebi * byte,  // [rocm-arch] 32 MiB = [cdna3] 8 XCDs x 4 MB
          // L2 bandwidth: not in our sources (AMD quotes the Infinity Cache's); left at 0.
          .last_level_cache = 256.0 * mebi * byte,                 // [cdna3], [rocm-arch]
          .last_level_cache_bandwidth = 17.2 * tera * byte / second,  // [cdna3]; [sth] "17TB/s"
      },
      // Not an NVIDIA generation: its own kernel figures. GEMM: the MAMF table
      // (stas00/ml-engineering, compute/accelerator/README.md) measures 668.4 of 1300 TFLOP/s
      // bf16 (0.514) at 10240x15360x8192 (torch 2.5.1, ROCm 6.3, TunableOp); over the model's
      // shape efficiency there (128 x 128 tiles on 304 CUs: 9600 tiles in 32 waves, 0.987, depth
      // 8192 / 8688) the deep fraction is 0.552. fp8: no MAMF figure; the bf16 one (an
      // assumption). Attention: no published MI300X figure read; the H100's cuDNN fractions
      // scaled by the GEMM ratio 0.552 / 0.859 (0.40 and 0.37, an assumption). No training run
      // measured: sustained 1 and the step error "not measured".
      .kernels = {.gemm = 0.552,
                  .gemm_low_precision = 0.552,
                  .memory = 0.85,
                  .attention_forward = 0.40,
                  .attention_backward = 0.37,
                  .tile_rows = 128,
                  .tile_columns = 128,
                  .reduction_overhead = 496.0,
                  .sustained = 1.0,
                  .step_error = -1.0},
  };
};

}  // namespace shardplan::hardware
