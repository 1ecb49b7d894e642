// AMD Instinct accelerators: mi250x (one GCD), mi300x, mi325x and mi355x, as chip_figures.
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
//   [mi250-arch] ROCm documentation, "AMD Instinct MI250 microarchitecture"
//                (ROCm/ROCm docs/conceptual/gpu-arch/mi250.md@e396b48): each GCD "constitutes one
//                GPU device in the system"; HBM2e at 1.6 TB/s per GCD; FLOPS/clock/CU of the CDNA 2
//                CU: matrix FP16, BF16 and INT8 1024, vector FP32 128, packed/matrix FP32 256;
//                Infinity Fabric links "25 GT/sec ... 50 GB/sec per link (or 100 GB/sec
//                bidirectional)"; the two GCDs of an OAM joined by four links (200 GB/s); each
//                GCD has its own PCIe Gen 4 x16 link to the host.
//   [mi250x-ds]  AMD Instinct MI250X specifications (amd.com), as the launch tables quote them
//                (zexron.com, tomshardware.com): 220 CUs (110 per GCD) at 1.7 GHz, FP32 vector
//                47.9, FP32 matrix 95.7, FP16/BF16 383.0 TFLOPS, INT8 383 TOPS, 128 GB HBM2e at
//                3.2 TB/s (3.2768: 8192 bits x 3.2 Gb/s), OAM, 500 W (560 W liquid).
//   [rocm-specs] ROCm "Accelerator and GPU hardware specifications" table
//                (ROCm/ROCm docs/reference/gpu-arch-specs.rst@e396b48; rocm.docs.amd.com
//                reference/gpu-specs for MI355X): MI250X 220 CUs (110 per GCD), LDS 64 KiB, L2 16
//                MiB (8 per GCD), VGPR 512 KiB; MI325X 304 CUs (38 per XCD), LDS 64 KiB, L3 256
//                MiB, L2 32 MiB (4 per XCD), VGPR 512 KiB; MI355X 256 CUs (32 per XCD), LDS 160
//                KiB, L3 256 MiB, L2 32 MiB (4 per XCD), VGPR 512 KiB.
//   [frontier]   OLCF Frontier User Guide (docs.olcf.ornl.gov/systems/frontier_user_guide.html):
//                4 MI250X, "8 GCDs as 8 separate GPUs, each having 64 GB", 512 GB DDR4 per node,
//                CPU-GCD Infinity Fabric "36+36 GB/s", the GCDs of one MI250X joined at 200 GB/s,
//                GCDs of different MI250X at 50-100 GB/s.
//   [mamf]       stas00/ml-engineering, compute/accelerator/README.md: the MAMF tables (maximum
//                achievable matmul FLOPS, bf16; mean of 100 iterations after 50 warm-up) at
//                744d01e: MI325X 784.9 of 1300 TFLOPS at 13312x10240x8192 (torch 2.6.0, ROCm
//                6.2.4, TunableOp, 1000 W); MI355X 1565.0 of 2300 at 12288x8192x8192 (torch 2.8.0,
//                ROCm 7.0.2, TunableOp off); the older v1 table at f0cca2f: MI250X 147.0 of 191.5
//                TFLOPS (one GCD, "the theoretical TFLOPS needs to be halved") at
//                1024x19968x14080 (ROCm 6.2). Its TFLOPS table (744d01e, note 18): "MI325X is the
//                same compute as MI300X"; note 22: MI355X dense FP16/BF16 2500, FP8 5000, INT8
//                5000, FP6/FP4 10100 TFLOPS, FP32 157.3, from AMD's MI355X page.
//   [mi325x-ds]  AMD Instinct MI325X specifications: 256 GB HBM3E at 6 TB/s, the MI300X's compute
//                ([mamf] note 18), 1000 W; the MI325X platform links its 8 GPUs with "seven
//                Infinity Fabric links" each, fully connected, and PCIe Gen 5 x16 to the host.
//   [mi355x-ds]  AMD Instinct MI355X (CDNA 4, OAM, 1400 W liquid-cooled): 8 XCDs of 32 CUs, 2.4
//                GHz peak clock (Hot Chips 2025, as wccftech.com reports it), 288 GB HBM3E at 8
//                TB/s, FP8 8,192 FLOPS per clock per CU (ISSCC 2026, as world-today-news.com
//                reports it); Infinity Fabric about 153 GB/s bidirectional per link
//                (humeconsulting.co).
//   [mlperf-amd] MLCommons inference v5.1, closed/AMD/systems/8xMI325X_2xEPYC_9575F_1.json
//                (mlcommons/inference_results_v5.1@965182b): 8 MI325X, "PCIe Gen5 x16", 2.25 TiB
//                host memory; inference v6.1 closed/Crusoe/systems/512xMI355X_Crusoe_GPT.json
//                (mlcommons/inference_results_v6.1): 8 MI355X per node, "8 x 400Gbit/s" AMD
//                Pollara NICs, 3000 GB host memory, "PCIe Gen5 x16".

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
      // [mi300x-ds] OAM, 750 W peak board power;
      // amd.com/en/products/accelerators/instinct/mi300/mi300x.html
      .power_watts = 750.0,
  };
};

/// AMD Instinct MI250X (CDNA 2, OAM): one of its two GCDs, the device a framework sees
/// ([mi250-arch], [frontier]: "8 GCDs as 8 separate GPUs"). Every figure is per GCD: the OAM's
/// datasheet figures halved ([mamf]: "the theoretical TFLOPS needs to be halved, as a single
/// matmul uses only 1 of them"). An OAM is two of these joined at 200 GB/s.
struct mi250x {
  static constexpr chip_figures figures = {
      .name = "mi250x",
      .kind = chip_kind::gpu,
      .peak_fp32 = 47.9 / 2.0 * tera * flop / second,    // [mi250x-ds] FP32 vector 47.9 per OAM
      // No TF32 and no FP8 on CDNA 2 (zero).
      .peak_bf16 = 383.0 / 2.0 * tera * flop / second,   // [mi250x-ds] 383.0 per OAM; [mamf] 191.5
      .peak_fp16 = 383.0 / 2.0 * tera * flop / second,   // [mi250x-ds] FP16 383.0 per OAM
      .peak_int8 = 383.0 / 2.0 * tera * flop / second,   // [mi250x-ds] INT8 383 TOPS per OAM
      .memory = 128.0 / 2.0 * giga * byte,  // [mi250x-ds] 128 GB per OAM; [frontier] 64 GB a GCD
      // [mi250x-ds] 3.2768 TB/s per OAM (8192-bit HBM2e at 3.2 Gb/s); [mi250-arch] "1.6 TB/sec
      // per GCD".
      .memory_bandwidth = 3.2768 / 2.0 * tera * byte / second,
      // [mi250-arch] each GCD drives two Infinity Fabric interfaces of four links (50 GB/s each
      // way per link), one of which can be the host link: 7 links to GPUs, 4 of them to the other
      // GCD of its OAM (200 GB/s), the rest to GCDs of other OAMs ([frontier] 50-100 GB/s). The
      // peers are not reached evenly; the closest kind is a full mesh of 7 links.
      .scale_up = scale_up_kind::full_mesh,
      .scale_up_link_bandwidth = 50.0 * giga * byte / second,
      .scale_up_links = 7,
      // Assumption: one 200 Gb/s NIC per OAM (Frontier's four Slingshot NICs per four OAMs, not
      // read in [frontier]): 100 Gb/s a GCD.
      .scale_out_bandwidth = 100.0 * giga * bits * byte / second,
      // [mi250-arch] "Each GCD maintains its own PCIe x16 link", PCIe Gen 4: 32 GB/s each way
      // ([frontier] has 36 GB/s each way over Infinity Fabric instead).
      .host_link_bandwidth = 32.0 * giga * byte / second,
      .host_memory = 512.0 * giga * byte / 8.0,  // [frontier] 512 GB DDR4 per node of 8 GCDs
      .arch = {
          .compute_units = 110,   // [rocm-specs] 110 CUs per GCD
          .boost_clock = 1.7e9,   // [mi250x-ds] 1.7 GHz; [mi250-arch] "peak clock frequency of 1.7"
          .matrix_units = 4,      // [mamf] 880 matrix cores per OAM = 220 CUs x 4
          // [mi250-arch] matrix FP16, BF16 and INT8 1024 FLOPS/clock/CU: 110 x 1024 x 1.7e9 =
          // 191.5e12.
          .matrix_flop_per_clock = {.bf16 = 1024.0, .fp16 = 1024.0, .int8 = 1024.0},
          .vector_units = 4,            // [mi250-arch] four SIMD units per CU
          .vector_lanes = 64,           // [mi250-arch] vector FP32 128 FLOPS/clock/CU: 64 lanes
          .vector_flop_per_lane = 2.0,  // x 2 FLOP (FMA)
          .registers = 512.0 * kibi * byte,         // [rocm-specs] VGPR file 512 KiB
          .l1_smem = 64.0 * kibi * byte,            // [rocm-specs] LDS 64 KiB
          .max_shared_memory = 64.0 * kibi * byte,  // the whole LDS
          .l2 = 8.0 * mebi * byte,                  // [rocm-specs] 8 MiB per GCD
          // On-chip bandwidths: not in our sources; left at 0. CDNA 2 has no Infinity Cache.
      },
      // Not an NVIDIA generation: its own kernel figures. GEMM: [mamf]'s v1 table (no cache
      // reset between iterations, which "in theory should have given higher scores") measures
      // 147.0 of 191.5 TFLOP/s bf16 (0.768) on one GCD at 1024x19968x14080; over the model's
      // shape efficiency there (128 x 128 tiles on 110 CUs: 1248 tiles in 12 waves, 0.945, depth
      // 14080 / 14576) the deep fraction is 0.8405. int8: no figure; the bf16 one (an
      // assumption). Attention: no published MI250X figure read; the H100's cuDNN fractions
      // scaled by the GEMM ratio 0.8405 / 0.859 (an assumption, as for mi300x). No training run
      // measured.
      .kernels = {.gemm = 0.8405,
                  .gemm_low_precision = 0.8405,
                  .memory = 0.85,
                  .attention_forward = 0.61,
                  .attention_backward = 0.56,
                  .tile_rows = 128,
                  .tile_columns = 128,
                  .reduction_overhead = 496.0,
                  .sustained = 1.0,
                  .step_error = -1.0},
      // [mi250x-ds] 560 W per OAM (liquid-cooled, as in Frontier; 500 W air): half per GCD, the
      // catalogue's unit
      .power_watts = 560.0 / 2.0,
  };
};

/// AMD Instinct MI325X (CDNA 3, OAM, 1000 W): the MI300X's compute with 256 GB HBM3E.
struct mi325x {
  static constexpr chip_figures figures = [] {
    chip_figures f = mi300x::figures;  // [mamf] note 18 "the same compute as MI300X": its rates,
                                       // links and inside ([rocm-specs] the same 304 CUs, caches)
    f.name = "mi325x";
    f.memory = 256.0 * giga * byte;                   // [mi325x-ds] 256 GB HBM3E
    f.memory_bandwidth = 6.0 * tera * byte / second;  // [mi325x-ds] 6 TB/s
    // [mi325x-ds] seven Infinity Fabric links to the 7 peers of the platform, 64 GB/s each way
    // (inherited from the MI300X's 128 GB/s both ways); PCIe Gen 5 x16 ([mlperf-amd]).
    // Scale-out: one 400 Gb/s NIC per GPU, an assumption (inherited).
    f.host_memory = 2.25 * tebi * byte / 8.0;  // [mlperf-amd] 2.25 TiB per 8-GPU node
    // GEMM: [mamf] measures 784.9 TFLOP/s bf16 at 13312x10240x8192 (1000 W, TunableOp):
    // 784.9 / 1307.4 = 0.600 of our peak (the table's 60.4% is against 1300). Over the model's
    // shape efficiency there (8320 tiles in 28 waves on 304 CUs, 0.977, depth 8192 / 8688) the
    // deep fraction is 0.651. fp8: no MAMF figure; the bf16 one (an assumption). Attention: the
    // H100's cuDNN fractions scaled by 0.651 / 0.859 (an assumption). No training run measured.
    f.kernels = {.gemm = 0.651,
                 .gemm_low_precision = 0.651,
                 .memory = 0.85,
                 .attention_forward = 0.47,
                 .attention_backward = 0.43,
                 .tile_rows = 128,
                 .tile_columns = 128,
                 .reduction_overhead = 496.0,
                 .sustained = 1.0,
                 .step_error = -1.0};
    // [mi325x-ds] OAM, 1000 W; amd.com/en/products/accelerators/instinct/mi300/mi325x.html
    f.power_watts = 1000.0;
    return f;
  }();
};

/// AMD Instinct MI355X (CDNA 4, OAM, 1400 W liquid-cooled): 256 CUs at 2.4 GHz, 288 GB HBM3E,
/// FP4/FP6 matrix cores, 8 GPUs fully meshed by Infinity Fabric.
struct mi355x {
  static constexpr chip_figures figures = {
      .name = "mi355x",
      .kind = chip_kind::gpu,
      .peak_fp32 = 157.3 * tera * flop / second,  // [mamf] note 22 (AMD's page): FP32 157.3
      // TF32: AMD lists none for MI355X ([mamf] "?"); left at 0.
      .peak_bf16 = 2.5 * peta * flop / second,   // [mamf] note 22: BF16 2500 (5 PFLOPS sparse)
      .peak_fp16 = 2.5 * peta * flop / second,   // [mamf] note 22: FP16 2500
      .peak_fp8 = 5.0 * peta * flop / second,    // [mamf] note 22: FP8 5000 (10.1 sparse)
      .peak_int8 = 5.0 * peta * flop / second,   // [mamf] note 22: INT8 5000
      .peak_fp4 = 10.1 * peta * flop / second,   // [mamf] note 22: FP4 (MXFP4) 10100, dense
      .memory = 288.0 * giga * byte,             // [mi355x-ds] 288 GB HBM3E
      .memory_bandwidth = 8.0 * tera * byte / second,  // [mi355x-ds] 8 TB/s
      // As the MI300X platform: each GPU reaches its 7 peers over one Infinity Fabric link each.
      // [mi355x-ds] about 153 GB/s both ways per link (AMD's 153.6): 76.8 GB/s each way.
      .scale_up = scale_up_kind::full_mesh,
      .scale_up_link_bandwidth = 76.8 * giga * byte / second,
      .scale_up_links = 7,
      // [mlperf-amd] Crusoe: 8 x 400 Gb/s Pollara NICs per 8 MI355X, one per GPU.
      .scale_out_bandwidth = 400.0 * giga * bits * byte / second,
      .host_link_bandwidth = 64.0 * giga * byte / second,  // [mlperf-amd] PCIe Gen5 x16
      .host_memory = 3000.0 * giga * byte / 8.0,           // [mlperf-amd] Crusoe: 3000 GB per node
      .arch = {
          .compute_units = 256,  // [rocm-specs] 256 (32 per XCD); [mi355x-ds] 8 XCDs of 32
          .boost_clock = 2.4e9,  // [mi355x-ds] 2.4 GHz; [mamf] "Peak Engine Clock 2400MHz"
          .matrix_units = 4,     // [mamf] 1024 matrix cores = 256 CUs x 4
          // [mamf] 512 FMA per matrix core per clock at bf16 => 4096 FLOP per CU (256 x 4096 x
          // 2.4e9 = 2516.6e12, AMD's "2.5 PFLOPS"); [mi355x-ds] FP8 8192 per CU; INT8 at the FP8
          // rate, FP4 at twice it ([mamf] note 22 peaks).
          .matrix_flop_per_clock = {.bf16 = 4096.0, .fp16 = 4096.0, .fp8 = 8192.0,
                                    .int8 = 8192.0, .fp4 = 16384.0},
          .vector_units = 4,
          // FP32 157.3e12 / (256 x 2.4e9) = 256 FLOP per clock per CU, counted as for mi300x:
          // 128 lanes x 2 FLOP.
          .vector_lanes = 128,
          .vector_flop_per_lane = 2.0,
          .registers = 512.0 * kibi * byte,          // [rocm-specs] VGPR 512 KiB
          .l1_smem = 160.0 * kibi * byte,            // [rocm-specs] LDS 160 KiB
          .max_shared_memory = 160.0 * kibi * byte,  // the whole LDS
          .l2 = 32.0 * mebi * byte,                  // [rocm-specs] 32 MiB (4 per XCD)
          .last_level_cache = 256.0 * mebi * byte,   // [rocm-specs] L3 (Infinity Cache) 256 MiB
          // On-chip bandwidths: not in our sources; left at 0.
      },
      // GEMM: [mamf] measures 1565.0 TFLOP/s bf16 at 12288x8192x8192 (ROCm 7.0.2): 0.626 of our
      // 2500 peak (the table's 68.0% is against 2300). Over the model's shape efficiency there
      // (6144 tiles in exactly 24 waves on 256 CUs, depth 8192 / 8688 = 0.943) the deep fraction
      // is 0.664. fp8/fp4: no MAMF figure; the bf16 one (an assumption). Attention: the H100's
      // cuDNN fractions scaled by 0.664 / 0.859 (an assumption). No training run measured.
      .kernels = {.gemm = 0.664,
                  .gemm_low_precision = 0.664,
                  .memory = 0.85,
                  .attention_forward = 0.48,
                  .attention_backward = 0.44,
                  .tile_rows = 128,
                  .tile_columns = 128,
                  .reduction_overhead = 496.0,
                  .sustained = 1.0,
                  .step_error = -1.0},
      // [mi355x-ds] OAM, 1400 W liquid-cooled;
      // amd.com/en/products/accelerators/instinct/mi350/mi355x.html
      .power_watts = 1400.0,
  };
};

}  // namespace shardplan::hardware
