// NVIDIA data-centre GPUs, per GPU: A100 40/80 GB, H100 (SXM, PCIe, NVL), H800, H200 (SXM, NVL),
// B200, GB200, B300, GB300, L40S and V100.
#pragma once

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

/// \file
/// Every figure is per GPU, dense (no 2:4 sparsity: datasheets print sparse rates with an
/// asterisk; we halve them), bandwidths one-way.
///
/// Overriding a figure without touching these headers: a chip is any type with
/// `static constexpr chip_figures figures`, so copy ours and change what differs, e.g. an H100
/// whose HBM bandwidth you take as the book's table value (3.4 TB/s) instead of our 3.35 TB/s:
///
/// \code
///   struct my_h100 {
///     static constexpr shardplan::chip_figures figures = [] {
///       auto f = shardplan::hardware::h100_sxm::figures;
///       f.name = "h100 sxm (3.4 TB/s)";
///       f.memory_bandwidth = 3.4 * shardplan::tera * shardplan::byte / shardplan::second;
///       return f;
///     }();
///   };
///   static_assert(shardplan::ChipSpec<my_h100>);
/// \endcode
///
/// Sources, cited per figure by their tag:
///   [a100-ds]  NVIDIA A100 Tensor Core GPU datasheet (rev. 4, 2021), SXM column (sparse
///              figures halved), as quoted by glennklockwood.com/garden/processors/A100.
///   [dgx-a100] NVIDIA DGX A100 datasheet: 8x A100, 8x 200 Gb/s HDR ConnectX-6 compute NICs,
///              1 TB (320 GB model) or 2 TB (640 GB model) system memory.
///   [h100-ds]  NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column (sparse figures halved);
///              exact dense rates per glennklockwood.com/garden/processors/h100.
///   [dgx-h100] NVIDIA DGX H100 datasheet and DGX SuperPOD H100 reference architecture
///              (RA-11333-001): 8x 400 Gb/s ConnectX-7 compute NICs, 2 TB system memory.
///   [h200-ds]  NVIDIA H200 Tensor Core GPU product page / datasheet, H200 SXM column.
///   [h800]     H800 SXM: the H100 SXM die and rates with NVLink cut to 400 GB/s (bidirectional);
///              DeepSeek, "Insights into DeepSeek-V3" (ISCA'25, arXiv:2505.09343), section 4,
///              and deepseek-ai/DeepEP's README ("CX7 InfiniBand 400 Gb/s").
///   [bw-ds]    NVIDIA Blackwell datasheet table "GB200 NVL72 / HGX B200", per-GPU rows
///              (sparse; halved here): HGX B200 and GB200 columns.
///   [dgx-b200] NVIDIA DGX B200 datasheet: 8 GPUs, 1,440 GB HBM3e, 64 TB/s, 8x 400 Gb/s ConnectX-7,
///              2 TB system memory (4 TB optional).
///   [nvl72]    NVIDIA GB200 NVL72 datasheet: 72 GPUs, 13.4 TB HBM3e, 576 TB/s, FP32 5,760 TFLOPS.
///   [book]     "How to Scale Your Model", gpus.md: GPU tables, NVLink table and node table;
///              for the inside: "Summary of GPU specs" (clocks base/boost, SMs, SMEM/SM, L2), the
///              Tensor Core paragraph and its footnote (FLOPs/TC/cycle), "Memory" (registers, L2
///              bandwidth) and Quiz 1.
///   [a100-wp]  NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020): A100 has 108 SMs,
///              1410 MHz boost; 4 Tensor Cores per SM delivering "1024 dense FP16/FP32 FMA
///              operations per clock" per SM; 64 FP32 CUDA cores per SM; 192 KB combined L1 data
///              cache / shared memory per SM (up to 164 KB shared); 40 MB L2 with 5120 B/clk L2
///              read bandwidth (2048 on V100: the "2.3x" of the text with the clocks); 256 KB
///              register file per SM.
///   [h100-wp]  NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): 132 SMs on H100 SXM5,
///              4 Tensor Cores and 128 FP32 cores per SM, "2x the MMA rates of the A100 SM
///              clock-for-clock" (4x with FP8), 256 KB combined L1 / shared memory per SM
///              (configurable up to 228 KB shared), 50 MB L2, 256 KB register file per SM.
///   [cuda-pg]  CUDA C++ Programming Guide, "Shared Memory" (compute capability 5.x and later):
///              32 banks, each 32 bits wide per clock cycle, i.e. 128 B per clock per SM; and the
///              per-capability table: up to 228 KB shared memory per SM on 9.0 and 10.0.
///   [cnc-h100] Chips and Cheese, "Nvidia's H100: Funny L2, and Tons of Bandwidth" (2023): the
///              measured L2 bandwidth the book quotes (about 5.5 TB/s, on the 114-SM H100 PCIe).
///
/// Sources of the chips added after the first eight (H100 PCIe, H100 NVL, H200 NVL, L40S, B300,
/// GB300, V100). The nvidia.com pages themselves could not be opened from the session that wrote
/// these figures; each tag says through which copy the vendor's numbers were read.
///   [h100-pcie] NVIDIA H100 datasheet (2022 edition), "H100 SXM / H100 PCIe" table, as reproduced
///              by archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html: PCIe column 114 SMs,
///              FP32 51, TF32 756*, BF16/FP16 1,513*, FP8/INT8 3,026* TFLOPS ("* Shown with
///              sparsity"), 80 GB HBM2e, 2,000 GB/s, 50 MB L2, 256 KB registers and up to 228 KB
///              shared memory per SM, "NVLINK: 600GB/s, PCIe Gen5: 128GB/s", 300-350 W. NVIDIA's
///              product brief PB-11133-001 (manuals.plus copy): "greater than 2,000 gigabytes per
///              second", passive dual-slot card, 350 W.
///   [h100-nvl] NVIDIA H100 datasheet (current edition), H100 NVL column: FP32 60, TF32 835*,
///              BF16/FP16 1,671*, FP8/INT8 3,341* TFLOPS, 94 GB HBM3, 3.9 TB/s, NVLink bridge
///              600 GB/s, PCIe Gen5 128 GB/s, 350-400 W. Read through secondary tables that quote
///              it (dense "~835" BF16, "~1670" FP8, 94 GB, 3.9 TB/s, "NVLink bridge (600 GB/s)",
///              350-400 W). The 2023 sheet of the dual-card H100 NVL gave the SXM rates per GPU
///              (FP32 67, BF16 1,979*); the current sheet's lower rates are the ones we use.
///   [h200-nvl] NVIDIA H200 datasheet, H200 NVL column: FP32 60, TF32 835*, BF16/FP16 1,671*,
///              FP8/INT8 3,341* TFLOPS, 141 GB HBM3e, 4.8 TB/s, "2- or 4-way NVIDIA NVLink bridge:
///              900GB/s per GPU", PCIe Gen5 128 GB/s, up to 600 W (the same H200 datasheet as
///              [h200-ds]). A lab's README of a 4 x H200 NVL server (nvidia-smi): "600 W power
///              cap, max SM clock ~1785 MHz", 143771 MiB visible.
///   [l40s-ds]  NVIDIA L40S datasheet (the L40 / L40S table as resellers reproduce it, e.g.
///              mullet.se product 355414): 18,176 CUDA cores, 568 Tensor Cores, 142 RT cores,
///              FP32 91.6, TF32 183 | 366*, BF16/FP16 362.05 | 733*, FP8 733 | 1,466* TFLOPS,
///              48 GB GDDR6 with ECC, 864 GB/s, "PCIe Gen4 x16: 64GB/s bidirectional", 350 W; the
///              L40 column beside it: FP32 90.5, BF16 181.05. No NVLink. Boost clock 2520 MHz
///              (reseller and database listings, itcreations.com; not on NVIDIA's sheet).
///   [bw-ultra] NVIDIA technical blog, "Inside NVIDIA Blackwell Ultra: The Chip Powering the AI
///              Factory Era" (developer.nvidia.com, 2025): 160 SMs "in the full GPU
///              implementation", 4 fifth-generation Tensor Cores, 128 CUDA cores and 256 KB of
///              TMEM per SM, 15 PFLOPS dense NVFP4, 288 GB HBM3E at 8 TB/s, NVLink 5 at 1.8 TB/s
///              bidirectional, PCIe Gen6, 1,400 W.
///   [glk-b300] glennklockwood.com/garden/processors/B300, "The HGX variant of B300" table from
///              NVIDIA's HGX B300 datasheet (dense | sparse, TFLOPS): FP32 75, TF32 1125 | 2250,
///              FP16/BF16 2250 | 4500, FP8 4500 | 9000, FP4 13125 | 18000, INT8 4500 | 9000; GB300
///              NVL72: "72 ConnectX-8 NICs", 20 TB HBM at 576 TB/s.
///   [verda]    Verda (DataCrunch) blog, "NVIDIA GB300 NVL72: GPU Architecture & Performance",
///              per-GPU table "without sparsity": GB300 FP4 15, FP8 5, INT8 0.165 POPS, BF16 2.5,
///              TF32 1.25, FP32 0.080 PFLOPS, 279 GB, 8 TB/s, 1.4 kW; B300 FP4 14, FP8 4.5,
///              INT8 0.15 POPS, BF16 2.25, TF32 1.1, FP32 0.075 PFLOPS, 270 GB, 7.7 TB/s, 1.1 kW.
///   [gb300]    NVIDIA GB300 NVL72 specification as quoted by vendordeep.com ("NVIDIA Blackwell
///              Ultra GB300 NVL72"): FP4 1,440 | 1,080 PFLOPS (sparse | dense), FP8/FP6 720 PFLOPS,
///              INT8 24 POPS, 20 TB HBM3e at 576 TB/s, 130 TB/s NVLink, "each GPU has ConnectX-8
///              SuperNIC at 800 Gb/s".
///   [mlperf-b300] MLCommons inference v6.1, closed/NVIDIA/systems/B300-SXM-270GBx8_TRT.json
///              (intel-ai-tce/inference_results_v6.1@5174fca): "NVIDIA DGX B300 (8x
///              B300-SXM-270GB)", "270 GB" per GPU, "PCIe Gen5 x16" host link, 2 TB host memory.
///   [mlperf-gb300] MLCommons inference v5.1 (mlcommons/inference_results_v5.1@965182b),
///              closed/NVIDIA/systems/GB300-NVL72_GB300-288GB_aarch64x72_TRT.json: 4 GPUs per
///              node, "288 GB", NVLink-C2C to the host, 960 GB host memory per 4-GPU node,
///              ConnectX-8, "GB300 TGP 1400W".
///   [mlperf-nvl] MLCommons inference v5.1 (@965182b): closed/Dell/systems/
///              XE7745_H200_NVL_141GBx8_TRT.json (8 x H200 NVL, "PCIe Gen5 x16", NVLink, 2 TB host
///              memory, 8 NICs) and closed/NVIDIA/systems/backup_systems/L40Sx8_TRT.json (8 x L40S,
///              "PCIe Gen4 x16", no GPU interconnect, 1 TB host memory).
///   [v100-ds]  NVIDIA V100 Tensor Core GPU datasheet, V100 SXM2 column: double precision 7.8,
///              single precision 15.7, "Tensor Performance" 125 TFLOPS, 32 GB (or 16 GB) HBM2 at
///              900 GB/s, NVLink 300 GB/s, PCIe 32 GB/s, 300 W.
///   [volta-wp] NVIDIA Tesla V100 GPU Architecture whitepaper (2017): 80 SMs, 64 FP32 cores and 8
///              Tensor Cores per SM, each Tensor Core one 4x4x4 matrix FMA (64 FMA) per clock,
///              128 KB combined L1 / shared memory per SM (shared configurable up to 96 KB), 6 MB
///              L2, 256 KB register file per SM, six NVLink 2.0 links of 25 GB/s per direction.
///              The GPU Boost clock of the SXM2 part is 1530 MHz (the 1455 MHz of the launch table
///              is the PCIe card's): 80 x 1024 FLOP x 1.53e9 = 125.3e12, 80 x 64 x 2 x 1.53e9 =
///              15.67e12, the datasheet's two peaks.
///   [dgx-1]    NVIDIA DGX-1 with Tesla V100 System Architecture whitepaper: 8 V100 SXM2 in a
///              "hybrid cube-mesh" NVLink network, "four 100 Gb InfiniBand network interface
///              cards", 512 GB DDR4 system memory.
///
/// Microarchitecture clocks: NVIDIA publishes the H100's 1.98 GHz maximum boost ([book] table)
/// and its datasheet rates, but not the clock behind the tensor peaks. The CUDA-core peak fits the
/// boost clock (132 x 128 x 2 x 1.98e9 = 66.9e12), the tensor peaks fit 1.83 GHz
/// (989.4e12 / (132 x 4096)); the book's own derivation uses 1.76 GHz, which gives 951e12 (4%
/// under the datasheet). We record 1.83 GHz as `matrix_clock`, derived, and say so.
/// NVIDIA's KB and MB of on-chip memory (SMEM, registers, L2) are binary: KiB and MiB.

namespace shardplan::hardware {

/// NVIDIA A100 SXM4 40 GB (Ampere): 108 SMs, HBM2, NVLink 3 through NVSwitch.
struct a100_40gb {
  static constexpr chip_figures figures = {
      .name = "a100 sxm4 40gb",
      .kind = chip_kind::gpu,
      .peak_fp32 = 19.5 * tera * flop / second,    // [a100-ds] FP32 19.5 TFLOPS
      .peak_tf32 = 156.0 * tera * flop / second,   // [a100-ds] TF32 156 (312 sparse)
      .peak_bf16 = 312.0 * tera * flop / second,   // [a100-ds] BF16 312 (624 sparse); [book] 3.1e14
      .peak_fp16 = 312.0 * tera * flop / second,   // [a100-ds] FP16 312 (624 sparse)
      .peak_int8 = 624.0 * tera * flop / second,   // [a100-ds] INT8 624 TOPS (1248 sparse)
      .peak_int4 = 1248.0 * tera * flop / second,  // [a100-ds] INT4 1248 TOPS (2496 sparse)
      .memory = 40.0 * giga * byte,                // [a100-ds] 40 GB HBM2
      .memory_bandwidth = 1555.0 * giga * byte / second,  // [a100-ds] 1,555 GB/s
      .scale_up = scale_up_kind::switched,  // NVSwitch gen 2, 6 per node ([book] NVLink table)
      .scale_up_link_bandwidth = 25.0 * giga * byte / second,  // [book] NVLink 3: 25 GB/s each way
      .scale_up_links = 12,  // [book] 12 ports; [a100-ds] "600 GB/s" = 12 x 25 x 2 directions
      // [dgx-a100] one 200 Gb/s HDR NIC per GPU.
      .scale_out_bandwidth = 200.0 * giga * bits * byte / second,
      // PCIe Gen4 x16: 32 GB/s each way nominal ([a100-ds] "64 GB/s", both directions together).
      .host_link_bandwidth = 32.0 * giga * byte / second,
      .host_memory = 1024.0 * giga * byte / 8.0,  // [dgx-a100] 1 TB in the 320 GB DGX A100, 8 GPUs
      .arch = {
          .compute_units = 108,   // [a100-wp] 108 SMs; [book] 108
          .base_clock = 1.10e9,   // [book] table "1.10GHz/1.41GHz"
          .boost_clock = 1.41e9,  // [a100-wp] 1410 MHz; [book] 1.41GHz
          .matrix_units = 4,      // [a100-wp] 4 third-generation Tensor Cores per SM
          // [a100-wp] 1024 dense FP16 FMA/clk/SM = 2048 FLOP ([book] "A100 can do 512" per TC);
          // TF32 at half, INT8 at twice, INT4 at four times the FP16 rate ([a100-ds] peaks).
          .matrix_flop_per_clock = {.tf32 = 1024.0, .bf16 = 2048.0, .fp16 = 2048.0,
                                    .int8 = 4096.0, .int4 = 8192.0},
          .vector_units = 4,          // [a100-wp] 4 SM partitions, one warp scheduler each
          .vector_lanes = 64,         // [a100-wp] 64 FP32 CUDA cores per SM
          .vector_flop_per_lane = 2.0,  // an FMA per lane per clock ([a100-ds] FP32 19.5 TFLOPS)
          .registers = 256.0 * kibi * byte,  // [a100-wp] 256 KB register file per SM; [book]
          .l1_smem = 192.0 * kibi * byte,    // [a100-wp] 192 KB L1/shared per SM; [book] 192kB
          .max_shared_memory = 164.0 * kibi * byte,  // [a100-wp] up to 164 KB shared
          // [cuda-pg] 128 B/clk per SM => 108 x 128 x 1.41e9 = 19.5 TB/s.
          .l1_smem_bandwidth = 108.0 * 128.0 * 1.41e9 * byte / second,
          .l2 = 40.0 * mebi * byte,  // [a100-wp] 40 MB L2; [book] 40MB
          // [a100-wp] 5120 B/clk L2 read bandwidth => 5120 x 1.41e9 = 7.2 TB/s.
          .l2_bandwidth = 5120.0 * 1.41e9 * byte / second,
          // No cache beyond L2: last_level_cache stays 0.
      },
      // [a100-ds] 400 W maximum TDP, SXM4 (nvidia.com/content/dam/en-zz/Solutions/Data-Center/
      // a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf; the figure as we know the
      // sheet, not reopened in the session that added it)
      .power_watts = 400.0,
  };
};

/// NVIDIA A100 SXM4 80 GB (Ampere): the 40 GB part with HBM2e.
struct a100_80gb {
  static constexpr chip_figures figures = [] {
    chip_figures f = a100_40gb::figures;
    f.name = "a100 sxm4 80gb";
    f.memory = 80.0 * giga * byte;                       // [a100-ds] 80 GB HBM2e; [book] 80GB
    f.memory_bandwidth = 2039.0 * giga * byte / second;  // [a100-ds] 2,039 GB/s; [book] 2.0e12
    f.host_memory = 2048.0 * giga * byte / 8.0;          // [dgx-a100] 2 TB in the 640 GB DGX A100
    f.power_watts = 400.0;  // [a100-ds] 400 W, the SXM column of both memory sizes
    return f;
  }();
};

/// NVIDIA H100 SXM5 80 GB (Hopper): 132 SMs, HBM3, NVLink 4 through NVSwitch gen 3.
struct h100_sxm {
  static constexpr chip_figures figures = {
      .name = "h100 sxm",
      .kind = chip_kind::gpu,
      // [h100-ds] "67 TFLOPS"; exact: 132 SMs x 128 FP32 lanes x 2 x 1.98 GHz = 66.9e12.
      .peak_fp32 = 66.9 * tera * flop / second,
      .peak_tf32 = 494.7 * tera * flop / second,  // [h100-ds] TF32 989 sparse => 494.7 dense
      // [h100-ds] BF16 1,979 sparse => 989.4 dense (132 SMs x 4096 FLOP/clk x 1.83 GHz);
      // the book uses 9.89e14 (roofline.md) and 9.9e14 (gpus.md table).
      .peak_bf16 = 989.4 * tera * flop / second,
      .peak_fp16 = 989.4 * tera * flop / second,   // [h100-ds] FP16 = BF16
      .peak_fp8 = 1978.9 * tera * flop / second,   // [h100-ds] FP8 3,958 sparse => 1,978.9 dense
      .peak_int8 = 1978.9 * tera * flop / second,  // [h100-ds] INT8 3,958 TOPS sparse
      .memory = 80.0 * giga * byte,                // [h100-ds] 80 GB HBM3
      // Sources disagree: [h100-ds] 3.35 TB/s and the book's text 3.35TB/s; the book's table
      // 3.4e12. We choose the datasheet's 3.35 TB/s (the book's C/W = 295 uses it).
      .memory_bandwidth = 3.35 * tera * byte / second,
      .scale_up = scale_up_kind::switched,                     // 4 NVSwitch gen 3 per node ([book])
      .scale_up_link_bandwidth = 25.0 * giga * byte / second,  // [book] NVLink 4: 25 GB/s each way
      .scale_up_links = 18,  // [book] 18 ports = 450 GB/s egress; [h100-ds] "900 GB/s" both ways
      // [dgx-h100] one 400 Gb/s ConnectX-7 NIC per GPU; [book] 400 GB/s per node.
      .scale_out_bandwidth = 400.0 * giga * bits * byte / second,
      // PCIe Gen5 x16: 64 GB/s each way nominal ([h100-ds] "128 GB/s", both directions together).
      .host_link_bandwidth = 64.0 * giga * byte / second,
      .host_memory = 2048.0 * giga * byte / 8.0,  // [dgx-h100] 2 TB system memory, 8 GPUs
      .arch = {
          .compute_units = 132,   // [h100-wp] 132 SMs on H100 SXM5; [book] 132
          .base_clock = 1.59e9,   // [book] table "1.59GHz/1.98GHz"
          .boost_clock = 1.98e9,  // [book] 1.98GHz maximum boost
          .matrix_clock = 1.83e9,  // derived (see the header): 989.4e12 / (132 x 4096)
          .matrix_units = 4,       // [h100-wp] 4 fourth-generation Tensor Cores per SM
          // [h100-wp] 2x the A100 SM's 1024 dense FP16 FMA/clk = 4096 FLOP/clk ([book] 1024 per
          // TC, "roughly an 8x8x8 matmul"); TF32 at half; FP8 and INT8 at twice ([h100-ds]).
          .matrix_flop_per_clock = {.tf32 = 2048.0, .bf16 = 4096.0, .fp16 = 4096.0,
                                    .fp8 = 8192.0, .int8 = 8192.0},
          .vector_units = 4,             // [book] 4 subpartitions per SM
          .vector_lanes = 128,           // [book] 4 x 32 fp32 CUDA cores; [h100-wp] 128 per SM
          .vector_flop_per_lane = 2.0,   // FMA ([h100-ds] FP32 "67 TFLOPS"; [book] Quiz 1 Q2)
          .registers = 256.0 * kibi * byte,  // [h100-wp] 256 KB per SM; [book] 4 x 16384 x 4 B
          .l1_smem = 256.0 * kibi * byte,    // [h100-wp] 256 KB L1/shared per SM; [book] 256kB
          .max_shared_memory = 228.0 * kibi * byte,  // [h100-wp], [cuda-pg] up to 228 KB
          // [cuda-pg] 128 B/clk per SM at boost => 132 x 128 x 1.98e9 = 33.5 TB/s.
          .l1_smem_bandwidth = 132.0 * 128.0 * 1.98e9 * byte / second,
          .l2 = 50.0 * mebi * byte,  // [h100-wp] 50 MB (two 25 MB halves, [book]); [book] 50MB
          // Not published by NVIDIA. [book] "measured to be about 5.5TB/s" ([cnc-h100], measured on
          // the H100 PCIe); we take it for the SXM part too.
          .l2_bandwidth = 5.5 * tera * byte / second,
      },
      // [h100-ds] TDP "Up to 700W (configurable)", as gpu.blog/gpus/nvidia-h100-sxm reproduces
      // the datasheet (nvidia.com/en-us/data-center/h100/)
      .power_watts = 700.0,
  };
};

/// NVIDIA H800 SXM5 80 GB: the H100 SXM with NVLink limited to 400 GB/s (both directions).
struct h800 {
  static constexpr chip_figures figures = [] {
    chip_figures f = h100_sxm::figures;
    f.name = "h800 sxm";
    // [h800] NVLink 400 GB/s bidirectional = 200 GB/s egress = 8 links x 25 GB/s one-way.
    // The book's "H800 (300GB/s): 3300" uses a different figure; we follow DeepSeek's 400 GB/s.
    f.scale_up_links = 8;
    // [h800] DeepEP: "CX7 InfiniBand 400 Gb/s" per GPU (inherited: 50 GB/s).
    // Host memory: assumption, a DGX-H100-like 2 TB per 8 GPUs (inherited).
    // Inside: the H100 SXM's (inherited), [h800].
    // assumption: the H100 SXM board (nvidia.com lists no H800 sheet we could read), [h100-ds] 700
    // W
    f.power_watts = 700.0;
    return f;
  }();
};

/// NVIDIA H200 SXM 141 GB (Hopper): the H100 die with 141 GB HBM3e.
struct h200 {
  static constexpr chip_figures figures = [] {
    chip_figures f = h100_sxm::figures;  // [h200-ds] same FP32/TF32/BF16/FP8/INT8 rates as H100 SXM
    f.name = "h200 sxm";
    f.memory = 141.0 * giga * byte;                   // [h200-ds] 141 GB HBM3e; [book] 141GB
    f.memory_bandwidth = 4.8 * tera * byte / second;  // [h200-ds] 4.8 TB/s; [book] 4.8e12
    // NVLink 900 GB/s both ways [h200-ds] = 18 x 25 one-way (inherited); NIC and 2 TB host memory
    // per DGX H200 (inherited from the DGX H100 figures).
    // Inside: the H100's (inherited): same GH100 die, 132 SMs, 50 MB L2 ([book] table row H200).
    // [h200-ds] up to 700 W (configurable), the H100 SXM's (nvidia.com/en-us/data-center/h200/;
    // the figure as we know the sheet, not reopened in the session that added it)
    f.power_watts = 700.0;
    return f;
  }();
};

/// NVIDIA B200 (Blackwell, HGX/DGX B200, 1000 W): two dies, HBM3e, NVLink 5.
struct b200 {
  static constexpr chip_figures figures = {
      .name = "b200",
      .kind = chip_kind::gpu,
      // [bw-ds] HGX B200 FP32 75 TFLOPS; the book quotes 80 TFLOPs/s for "B200 vector fp32".
      .peak_fp32 = 75.0 * tera * flop / second,
      .peak_tf32 = 1.1 * peta * flop / second,   // [bw-ds] TF32 2.2 PFLOPS sparse
      .peak_bf16 = 2.25 * peta * flop / second,  // [bw-ds] 4.5 sparse; [book] 2.3e15, 2250e12
      .peak_fp16 = 2.25 * peta * flop / second,  // [bw-ds] FP16/BF16 4.5 PFLOPS sparse
      .peak_fp8 = 4.5 * peta * flop / second,    // [bw-ds] FP8/FP6 9 PFLOPS sparse; [book] 4.5e15
      .peak_int8 = 4.5 * peta * flop / second,   // [bw-ds] INT8 9 POPS sparse
      .peak_fp4 = 9.0 * peta * flop / second,    // [bw-ds] FP4 18 PFLOPS sparse; [book] 9.0e15
      // Sources disagree: [bw-ds] and [dgx-b200] (1,440 GB / 8) give 180 GB; the launch spec and
      // [book] 192 GB. We choose 180 GB, what shipping HGX/DGX B200 boards carry.
      .memory = 180.0 * giga * byte,
      // Sources disagree: [bw-ds] HGX B200 7.7 TB/s; [dgx-b200] 64 TB/s / 8 = 8 TB/s; [book]
      // 8.0e12. We choose 8 TB/s (DGX datasheet; the book's C/W = 281 uses it).
      .memory_bandwidth = 8.0 * tera * byte / second,
      .scale_up = scale_up_kind::switched,                     // 2 NVSwitch gen 4 per node ([book])
      .scale_up_link_bandwidth = 50.0 * giga * byte / second,  // [book] NVLink 5: 50 GB/s each way
      .scale_up_links = 18,  // [book] 18 ports = 900 GB/s egress; [bw-ds] "1.8 TB/s" both ways
      // [dgx-b200] one 400 Gb/s ConnectX-7 NIC per GPU; [book] 400 GB/s per node.
      .scale_out_bandwidth = 400.0 * giga * bits * byte / second,
      // PCIe Gen5 x16: 64 GB/s each way nominal ([bw-ds] HGX B200 "PCIe Gen5: 128GB/s" both ways).
      .host_link_bandwidth = 64.0 * giga * byte / second,
      .host_memory = 2048.0 * giga * byte / 8.0,  // [dgx-b200] 2 TB system memory, 8 GPUs
      .arch = {
          .compute_units = 148,  // [book] "a B200 has 148" SMs
          // Base and boost clocks: not published by NVIDIA; [book] table "?". Left at 0.
          // [book] footnote: "2250e12 / (148 * 4 * 1.86e9) is about 2048" FLOP/TC/cycle; the
          // 1.86 GHz is the book's, and no NVIDIA figure.
          .matrix_clock = 1.86e9,
          .matrix_units = 4,  // [book] 4 subpartitions, one Tensor Core each
          // [book] "likely about 2048 FLOPs/TC/cycle" (a guess: NVIDIA does not publish it) =
          // 8192 per SM; TF32 at half, FP8/INT8 at twice, FP4 at four times ([bw-ds] peaks).
          .matrix_flop_per_clock = {.tf32 = 4096.0, .bf16 = 8192.0, .fp16 = 8192.0,
                                    .fp8 = 16384.0, .int8 = 16384.0, .fp4 = 32768.0},
          .vector_units = 4,
          .vector_lanes = 128,          // [book] Quiz 1 Q1: 148 x 4 x 32 = 18944 CUDA cores
          .vector_flop_per_lane = 2.0,  // FMA ([book] Quiz 1 Q6)
          .registers = 256.0 * kibi * byte,      // [book] "All generations have 256kB" per SM
          .matrix_memory = 256.0 * kibi * byte,  // [book] "Blackwell adds 256kB of TMEM per SM"
          .l1_smem = 256.0 * kibi * byte,        // [book] 256kB SMEM per SM
          .max_shared_memory = 228.0 * kibi * byte,  // [cuda-pg] compute capability 10.0
          // SMEM bandwidth: 128 B/clk per SM [cuda-pg], but no published clock: left at 0.
          .l2 = 126.0 * mebi * byte,  // [book] 126MB
          // L2 bandwidth: not published, no measurement in our sources: left at 0.
      },
      // [bw-ds] HGX B200 at 1,000 W a GPU (glennklockwood.com/garden/processors/B200: "1000 W
      // maximum", the HGX variant's rates "when configured at 1,000 W"); [dgx-b200] ~14.3 kW
      .power_watts = 1000.0,
  };
};

/// NVIDIA GB200 (one Blackwell GPU of a Grace Blackwell superchip, 1200 W, as in the NVL72).
struct gb200 {
  static constexpr chip_figures figures = {
      .name = "gb200",
      .kind = chip_kind::gpu,
      .peak_fp32 = 80.0 * tera * flop / second,  // [nvl72] 5,760 TFLOPS / 72; [bw-ds] 80 TFLOPS
      .peak_tf32 = 1.25 * peta * flop / second,  // [bw-ds] TF32 2.5 PFLOPS sparse
      .peak_bf16 = 2.5 * peta * flop / second,   // [bw-ds] FP16/BF16 5 PFLOPS sparse
      .peak_fp16 = 2.5 * peta * flop / second,   // [bw-ds] FP16/BF16 5 PFLOPS sparse
      .peak_fp8 = 5.0 * peta * flop / second,    // [bw-ds] FP8/FP6 10 PFLOPS sparse
      .peak_int8 = 5.0 * peta * flop / second,   // [bw-ds] INT8 10 POPS sparse
      .peak_fp4 = 10.0 * peta * flop / second,   // [bw-ds] FP4 20 PFLOPS sparse
      // Sources disagree: [bw-ds] 186 GB; [nvl72] 13.4 TB / 72 = 186 GB (13.5 TB / 72 = 187.5 in
      // some copies); GB200 superchip launch spec 384 GB / 2 = 192 GB. We choose 186 GB.
      .memory = 186.0 * giga * byte,
      .memory_bandwidth = 8.0 * tera * byte / second,  // [bw-ds] 8 TB/s; [nvl72] 576 TB/s / 72
      .scale_up = scale_up_kind::switched,             // 18 NVSwitch chips per NVL72 rack ([book])
      .scale_up_link_bandwidth = 50.0 * giga * byte / second,  // [book] NVLink 5: 50 GB/s each way
      .scale_up_links = 18,                                    // [book] 18 ports = 900 GB/s egress
      // [book] NVL72 node egress 4*18*400/8 = 3.6 TB/s = 72 x 400 Gb/s: 400 Gb/s per GPU.
      .scale_out_bandwidth = 400.0 * giga * bits * byte / second,
      // Assumption: NVLink-C2C gives 900 GB/s both ways between Grace and its two GPUs; we take a
      // quarter of it, 225 GB/s one-way, per GPU.
      .host_link_bandwidth = 225.0 * giga * byte / second,
      // GB200 superchip datasheet: up to 480 GB LPDDR5X per Grace CPU, shared by its 2 GPUs.
      .host_memory = 480.0 * giga * byte / 2.0,
      // The B200's inside ([book]: a GB200 is "2 B200s" and a Grace CPU), at a higher clock.
      .arch = [] {
        chip_microarchitecture a = b200::figures.arch;
        // [book] Quiz 1 Q6 estimates the peak clock from NVIDIA's "80TFLOPs/s of vector fp32"
        // (the GB200 figure, [nvl72]): 80e12 / (18944 x 2) = 2.1GHz. Not published by NVIDIA.
        a.boost_clock = 2.1e9;
        a.matrix_clock = 0.0;  // the tensor peaks fit the same clock: 148 x 8192 x 2.1e9 = 2.55e15
        a.l1_smem_bandwidth = 148.0 * 128.0 * 2.1e9 * byte / second;  // [cuda-pg] 128 B/clk/SM
        return a;
      }(),
      // [bw-ds] the GB200 variant of B200 "configured to 1,200 W" (glennklockwood.com/garden/
      // processors/B200); Grace and its memory are not counted
      .power_watts = 1200.0,
  };
};

/// NVIDIA H100 PCIe 80 GB (Hopper, 350 W card): 114 SMs of the H100 SM, HBM2e, NVLink bridges
/// between pairs of cards.
struct h100_pcie {
  static constexpr chip_figures figures = {
      .name = "h100 pcie",
      .kind = chip_kind::gpu,
      .peak_fp32 = 51.0 * tera * flop / second,    // [h100-pcie] FP32 51 TFLOPS
      .peak_tf32 = 378.0 * tera * flop / second,   // [h100-pcie] TF32 756 sparse => 378 dense
      .peak_bf16 = 756.5 * tera * flop / second,   // [h100-pcie] BF16 1,513 sparse => 756.5 dense
      .peak_fp16 = 756.5 * tera * flop / second,   // [h100-pcie] FP16 1,513 sparse
      .peak_fp8 = 1513.0 * tera * flop / second,   // [h100-pcie] FP8 3,026 sparse
      .peak_int8 = 1513.0 * tera * flop / second,  // [h100-pcie] INT8 3,026 TOPS sparse
      .memory = 80.0 * giga * byte,                // [h100-pcie] 80 GB HBM2e
      .memory_bandwidth = 2.0 * tera * byte / second,  // [h100-pcie] 2,000 GB/s
      // [h100-pcie] "NVLINK: 600GB/s" through NVLink bridges that join two cards: 600 GB/s both
      // ways = 12 NVLink 4 links x 25 GB/s one-way ([book] NVLink 4 link rate). Each pair is a
      // two-GPU full mesh; GPUs of different pairs talk over PCIe (not modelled here).
      .scale_up = scale_up_kind::full_mesh,
      .scale_up_link_bandwidth = 25.0 * giga * byte / second,
      .scale_up_links = 12,
      // Assumption: one 400 Gb/s NIC per GPU (a PCIe Gen5 x16 slot carries 64 GB/s each way).
      .scale_out_bandwidth = 400.0 * giga * bits * byte / second,
      // [h100-pcie] PCIe Gen5 128 GB/s both ways = 64 GB/s each way.
      .host_link_bandwidth = 64.0 * giga * byte / second,
      .host_memory = 2048.0 * giga * byte / 8.0,  // assumption: 2 TB per 8 GPUs, as a DGX H100
      .arch = {
          .compute_units = 114,  // [h100-pcie] 114 SMs
          // NVIDIA publishes no clock for the PCIe part in the sources read. Derived, as for the
          // SXM part: the tensor peaks fit 756.5e12 / (114 x 4096) = 1.62 GHz.
          .matrix_clock = 1.62e9,
          .matrix_units = 4,  // [h100-wp] 4 Tensor Cores per H100 SM
          // The H100 SM's rates ([h100-wp], see h100_sxm): the PCIe peaks are 114/132 of the SXM
          // SM count at 1.62/1.83 of its clock.
          .matrix_flop_per_clock = {.tf32 = 2048.0, .bf16 = 4096.0, .fp16 = 4096.0,
                                    .fp8 = 8192.0, .int8 = 8192.0},
          .vector_units = 4,
          .vector_lanes = 128,          // [h100-wp] 128 FP32 cores per SM
          .vector_flop_per_lane = 2.0,  // FMA
          .registers = 256.0 * kibi * byte,          // [h100-pcie] 256 KB per SM
          .l1_smem = 256.0 * kibi * byte,            // [h100-wp] 256 KB L1/shared per SM
          .max_shared_memory = 228.0 * kibi * byte,  // [h100-pcie] up to 228 KB
          .l2 = 50.0 * mebi * byte,                  // [h100-pcie] 50 MB L2
          // [cnc-h100] measured about 5.5 TB/s of L2 bandwidth on this very part (the book's
          // figure, see h100_sxm).
          .l2_bandwidth = 5.5 * tera * byte / second,
      },
      // [h100-pcie] 300-350 W (configurable); product brief PB-11133-001: 350 W
      .power_watts = 350.0,
  };
};

/// NVIDIA H100 NVL 94 GB (Hopper, 350-400 W PCIe card): the full 132-SM H100 with six HBM3
/// stacks, NVLink bridges between pairs of cards.
struct h100_nvl {
  static constexpr chip_figures figures = {
      .name = "h100 nvl",
      .kind = chip_kind::gpu,
      .peak_fp32 = 60.0 * tera * flop / second,    // [h100-nvl] FP32 60 TFLOPS
      .peak_tf32 = 417.5 * tera * flop / second,   // [h100-nvl] TF32 835 sparse => 417.5 dense
      .peak_bf16 = 835.5 * tera * flop / second,   // [h100-nvl] BF16 1,671 sparse => 835.5 dense
      .peak_fp16 = 835.5 * tera * flop / second,   // [h100-nvl] FP16 1,671 sparse
      .peak_fp8 = 1670.5 * tera * flop / second,   // [h100-nvl] FP8 3,341 sparse
      .peak_int8 = 1670.5 * tera * flop / second,  // [h100-nvl] INT8 3,341 TOPS sparse
      .memory = 94.0 * giga * byte,                // [h100-nvl] 94 GB HBM3
      .memory_bandwidth = 3.9 * tera * byte / second,  // [h100-nvl] 3.9 TB/s
      // [h100-nvl] NVLink bridge 600 GB/s both ways = 12 links x 25 GB/s one-way, between the two
      // cards of a pair (a two-GPU full mesh), as on the PCIe card.
      .scale_up = scale_up_kind::full_mesh,
      .scale_up_link_bandwidth = 25.0 * giga * byte / second,
      .scale_up_links = 12,
      // Assumption: one 400 Gb/s NIC per GPU.
      .scale_out_bandwidth = 400.0 * giga * bits * byte / second,
      // [h100-nvl] PCIe Gen5 128 GB/s both ways = 64 GB/s each way.
      .host_link_bandwidth = 64.0 * giga * byte / second,
      .host_memory = 2048.0 * giga * byte / 8.0,  // assumption: 2 TB per 8 GPUs, as a DGX H100
      .arch = {
          // NVIDIA's sheet gives no SM count; the card is the 132-SM configuration of the SXM part
          // (a 16,896-core listing in secondary tables; FP32 60e12 / (132 x 128 x 2) = 1.78 GHz,
          // the 1785 MHz maximum SM clock nvidia-smi reports on the same board as H200 NVL,
          // [h200-nvl]).
          .compute_units = 132,
          .boost_clock = 1.785e9,  // [h200-nvl] nvidia-smi max SM clock of the NVL board
          .matrix_clock = 1.545e9,  // derived: 835.5e12 / (132 x 4096)
          .matrix_units = 4,
          .matrix_flop_per_clock = {.tf32 = 2048.0, .bf16 = 4096.0, .fp16 = 4096.0,
                                    .fp8 = 8192.0, .int8 = 8192.0},
          .vector_units = 4,
          .vector_lanes = 128,
          .vector_flop_per_lane = 2.0,
          .registers = 256.0 * kibi * byte,          // [h100-wp]
          .l1_smem = 256.0 * kibi * byte,            // [h100-wp]
          .max_shared_memory = 228.0 * kibi * byte,  // [cuda-pg] compute capability 9.0
          .l2 = 50.0 * mebi * byte,                  // [h100-wp] 50 MB
          // L2 bandwidth: no measurement of this part in our sources; left at 0.
      },
      .power_watts = 400.0,  // [h100-nvl] 350-400 W (configurable): the maximum
  };
};

/// NVIDIA H200 NVL 141 GB (Hopper, up to 600 W PCIe card): the H200's memory on the H100 NVL's
/// clocks, NVLink bridges across 2 or 4 cards.
struct h200_nvl {
  static constexpr chip_figures figures = [] {
    chip_figures f = h100_nvl::figures;  // [h200-nvl] the H100 NVL's rates (FP32 60, BF16 1,671*)
    f.name = "h200 nvl";
    f.memory = 141.0 * giga * byte;                   // [h200-nvl] 141 GB HBM3e
    f.memory_bandwidth = 4.8 * tera * byte / second;  // [h200-nvl] 4.8 TB/s
    // [h200-nvl] "2- or 4-way NVLink bridge: 900GB/s per GPU" both ways = 18 links x 25 GB/s
    // one-way; with the 4-way bridge every card reaches its 3 peers directly (6 links each): a
    // full mesh of 4.
    f.scale_up_links = 18;
    // [mlperf-nvl] Dell XE7745: 8 x H200 NVL with 8 NICs (speed not stated; 400 Gb/s each
    // assumed, inherited) and 2 TB host memory: 256 GB a GPU (inherited, as the assumption).
    // Inside: the H100 NVL's (inherited); [h200-nvl] max SM clock ~1785 MHz.
    f.power_watts = 600.0;  // [h200-nvl] "up to 600W"; the 4 x H200 NVL server's "600 W power cap"
    return f;
  }();
};

/// NVIDIA L40S (Ada Lovelace, 350 W PCIe card): 142 SMs, 48 GB GDDR6, no NVLink.
struct l40s {
  static constexpr chip_figures figures = {
      .name = "l40s",
      .kind = chip_kind::gpu,
      .peak_fp32 = 91.6 * tera * flop / second,    // [l40s-ds] FP32 91.6 TFLOPS
      .peak_tf32 = 183.0 * tera * flop / second,   // [l40s-ds] TF32 183 | 366 sparse
      .peak_bf16 = 362.05 * tera * flop / second,  // [l40s-ds] BF16 362.05 | 733 sparse
      .peak_fp16 = 362.05 * tera * flop / second,  // [l40s-ds] FP16 362.05 | 733 sparse
      .peak_fp8 = 733.0 * tera * flop / second,    // [l40s-ds] FP8 733 | 1,466 sparse
      // INT8: the copies of the L40S sheet we read leave the L40S INT8 and INT4 cells empty (the
      // L40's are 362 and 724); stas00/ml-engineering's table (commit 744d01e, from NVIDIA's
      // L40S page) gives 733 TOPS, the FP8 rate. INT4: not read; left at 0.
      .peak_int8 = 733.0 * tera * flop / second,
      .memory = 48.0 * giga * byte,                       // [l40s-ds] 48 GB GDDR6 with ECC
      .memory_bandwidth = 864.0 * giga * byte / second,   // [l40s-ds] 864 GB/s
      // No NVLink ([l40s-ds]; [mlperf-nvl] "accelerator_interconnect": "N/A"): GPU-to-GPU traffic
      // crosses the PCIe switches. We model that path as the scale-up fabric: one switched PCIe
      // Gen4 x16 link of 32 GB/s one-way ([l40s-ds] "64GB/s bidirectional"), shared with the
      // host traffic in practice.
      .scale_up = scale_up_kind::switched,
      .scale_up_link_bandwidth = 32.0 * giga * byte / second,
      .scale_up_links = 1,
      // Assumption: one 200 Gb/s NIC per GPU (a PCIe Gen4 x16 slot carries 256 Gb/s each way).
      .scale_out_bandwidth = 200.0 * giga * bits * byte / second,
      .host_link_bandwidth = 32.0 * giga * byte / second,  // [l40s-ds] PCIe Gen4 x16
      .host_memory = 1024.0 * giga * byte / 8.0,  // [mlperf-nvl] NVIDIA's 8 x L40S node: 1 TB
      .arch = {
          // [l40s-ds] 568 Tensor Cores and 142 RT cores: 142 SMs of 4 Tensor Cores, one RT core
          // and 128 CUDA cores (18,176 / 128).
          .compute_units = 142,
          .boost_clock = 2.52e9,  // [l40s-ds] 2520 MHz (reseller listing, not NVIDIA's sheet)
          // Derived: the tensor peaks fit 362.05e12 / (142 x 1024) = 2.49 GHz, the clock at which
          // the L40 column's 90.5 TFLOPS FP32 is stated (142 x 256 x 2.49e9 = 90.5e12); the L40S
          // FP32 91.6 is at 2.52 GHz (142 x 256 x 2.52e9 = 91.6e12).
          .matrix_clock = 2.49e9,
          .matrix_units = 4,
          // Per SM: BF16/FP16 with FP32 accumulation 1024 FLOP/clk (362.05e12 / 142 / 2.49e9),
          // TF32 half of it, FP8 and INT8 twice ([l40s-ds] ratios).
          .matrix_flop_per_clock = {.tf32 = 512.0, .bf16 = 1024.0, .fp16 = 1024.0,
                                    .fp8 = 2048.0, .int8 = 2048.0},
          .vector_units = 4,
          .vector_lanes = 128,          // [l40s-ds] 18,176 CUDA cores / 142 SMs
          .vector_flop_per_lane = 2.0,  // FMA
          // Registers, L1/SMEM and L2 of the L40S: not on NVIDIA's sheet; left at 0.
      },
      // NVIDIA, so the family defaults by formats apply (fp8 and no fp4: the Hopper ones, fitted
      // and measured on H100-class runs, an assumption for Ada); the step model was never measured
      // on an L40S run.
      .kernels = {.step_error = -1.0},
      .power_watts = 350.0,  // [l40s-ds] 350 W maximum power consumption
  };
};

/// NVIDIA B300 (Blackwell Ultra, HGX/DGX B300): two dies, 288 GB HBM3e (270 GB usable), NVLink 5.
struct b300 {
  static constexpr chip_figures figures = {
      .name = "b300",
      .kind = chip_kind::gpu,
      .peak_fp32 = 75.0 * tera * flop / second,     // [glk-b300] FP32 75; [verda] 0.075 PFLOPS
      // Sources disagree: [glk-b300] TF32 1125 dense (HGX sheet's 2250 sparse halved), [verda]
      // 1.1 PFLOPS. We choose 1125, the halved datasheet figure.
      .peak_tf32 = 1125.0 * tera * flop / second,
      .peak_bf16 = 2.25 * peta * flop / second,     // [glk-b300] 2250 | 4500; [verda] 2.25
      .peak_fp16 = 2.25 * peta * flop / second,     // [glk-b300] FP16 2250 | 4500
      .peak_fp8 = 4.5 * peta * flop / second,       // [glk-b300] 4500 | 9000; [verda] 4.5
      // Sources disagree: [glk-b300] INT8 4500 | 9000 (B200's figure), [verda] 0.15 POPS dense,
      // the HGX B300 sheet as a reseller copies it "INT8 2 POPS" (sparse, 8 GPUs: 0.125 dense).
      // Blackwell Ultra cut its INT8 tensor rate; we choose [verda]'s 0.15 POPS.
      .peak_int8 = 0.15 * peta * flop / second,
      // Sources disagree: [glk-b300] FP4 13125 dense (the HGX sheet's 105 PFLOPS / 8), [verda]
      // 14 PFLOPS, [bw-ultra] "15 PetaFLOPS dense NVFP4" (the GB300's clocks). We choose the
      // HGX datasheet's 13.125 PFLOPS.
      .peak_fp4 = 13.125 * peta * flop / second,
      // Sources disagree: [bw-ultra] 288 GB; [mlperf-b300] and [verda] 270 GB on shipping HGX /
      // DGX B300. We choose 270 GB, what the boards expose (as for the B200's 180 GB).
      .memory = 270.0 * giga * byte,
      // Sources disagree: [bw-ultra] 8 TB/s, [verda] 7.7 TB/s (HGX). We choose 8 TB/s, as for B200.
      .memory_bandwidth = 8.0 * tera * byte / second,
      .scale_up = scale_up_kind::switched,                     // NVLink 5 through NVSwitch
      .scale_up_link_bandwidth = 50.0 * giga * byte / second,  // [book] NVLink 5: 50 GB/s each way
      .scale_up_links = 18,  // [bw-ultra] 1.8 TB/s both ways = 18 x 50 GB/s one-way
      // [gb300] and the HGX B300 platform: one 800 Gb/s ConnectX-8 SuperNIC per GPU.
      .scale_out_bandwidth = 800.0 * giga * bits * byte / second,
      // [mlperf-b300] DGX B300: "PCIe Gen5 x16" to its Xeon hosts (64 GB/s each way; the GPU's
      // PCIe Gen6 port, [bw-ultra], would carry twice that).
      .host_link_bandwidth = 64.0 * giga * byte / second,
      .host_memory = 2048.0 * giga * byte / 8.0,  // [mlperf-b300] 2 TB host memory, 8 GPUs
      .arch = {
          // [bw-ultra] 160 SMs "in the full GPU implementation"; NVIDIA gives no count of the SMs
          // enabled on shipping parts, nor any clock, so no peak can be rebuilt (clocks and FLOP
          // per clock left at 0).
          .compute_units = 160,
          .matrix_units = 4,            // [bw-ultra] 4 Tensor Cores per SM
          .vector_units = 4,
          .vector_lanes = 128,          // [bw-ultra] 128 CUDA cores per SM
          .vector_flop_per_lane = 2.0,  // FMA
          .registers = 256.0 * kibi * byte,      // [book] 256 kB per SM on every generation
          .matrix_memory = 256.0 * kibi * byte,  // [bw-ultra] 256 KB TMEM per SM
          .l1_smem = 256.0 * kibi * byte,        // [book] 256 kB SMEM per SM (Blackwell)
          .max_shared_memory = 228.0 * kibi * byte,  // [cuda-pg] compute capability 10.x
          // L2 size and bandwidths: not in our sources; left at 0.
      },
      .power_watts = 1100.0,  // [verda] B300 1.1 kW (HGX B300)
  };
};

/// NVIDIA GB300 (one Blackwell Ultra GPU of a Grace Blackwell Ultra board, 1400 W, as in the
/// GB300 NVL72).
struct gb300 {
  static constexpr chip_figures figures = {
      .name = "gb300",
      .kind = chip_kind::gpu,
      .peak_fp32 = 80.0 * tera * flop / second,   // [verda] 0.080 PFLOPS
      .peak_tf32 = 1.25 * peta * flop / second,   // [verda] 1.25 PFLOPS
      .peak_bf16 = 2.5 * peta * flop / second,    // [verda] 2.5; [gb300] FP8 720 sparse / 72 / 4
      .peak_fp16 = 2.5 * peta * flop / second,    // [verda] FP16/BF16 2.5 PFLOPS
      .peak_fp8 = 5.0 * peta * flop / second,     // [verda] 5; [gb300] 720 sparse / 72 / 2
      // [verda] 0.165 POPS; [gb300] 24 POPS per 72 GPUs (sparse) = 0.167 dense.
      .peak_int8 = 0.165 * peta * flop / second,
      .peak_fp4 = 15.0 * peta * flop / second,  // [gb300] 1,080 dense / 72; [verda], [bw-ultra] 15
      // Sources disagree: [mlperf-gb300] and [bw-ultra] 288 GB ([glk-b300] 20 TB / 72 rounds the
      // same way), [verda] 279 GB. We choose 288 GB, what NVIDIA's MLPerf system lists.
      .memory = 288.0 * giga * byte,
      .memory_bandwidth = 8.0 * tera * byte / second,  // [bw-ultra] 8 TB/s; [gb300] 576 TB/s / 72
      .scale_up = scale_up_kind::switched,             // 18 NVLink switches per NVL72 rack
      .scale_up_link_bandwidth = 50.0 * giga * byte / second,  // [book] NVLink 5: 50 GB/s each way
      .scale_up_links = 18,  // [gb300] 130 TB/s / 72 = 1.8 TB/s both ways = 18 x 50 one-way
      // [gb300] "each GPU has ConnectX-8 SuperNIC at 800 Gb/s"; [glk-b300] 72 ConnectX-8 NICs.
      .scale_out_bandwidth = 800.0 * giga * bits * byte / second,
      // Assumption, as for GB200: NVLink-C2C gives 900 GB/s both ways between a Grace and its two
      // GPUs ([mlperf-gb300] host link "NVLink-C2C"); a quarter of it, 225 GB/s one-way, per GPU.
      .host_link_bandwidth = 225.0 * giga * byte / second,
      .host_memory = 960.0 * giga * byte / 4.0,  // [mlperf-gb300] 960 GB per 4-GPU node
      .arch = b300::figures.arch,  // [bw-ultra]: the same Blackwell Ultra GPU (no clock published)
      .power_watts = 1400.0,  // [mlperf-gb300] "GB300 TGP 1400W"; [bw-ultra] 1,400 W
  };
};

/// NVIDIA Tesla V100 SXM2 32 GB (Volta): 80 SMs, HBM2, six NVLink 2 links (DGX-1 hybrid
/// cube-mesh). Its tensor cores multiply fp16 only: no bf16, tf32, fp8 or int8 peak.
struct v100 {
  static constexpr chip_figures figures = {
      .name = "v100",
      .kind = chip_kind::gpu,
      .peak_fp32 = 15.7 * tera * flop / second,    // [v100-ds] single precision 15.7 TFLOPS
      // No bf16 (zero): a bf16 plan on a V100 is refused (plan_rule::compute_format_supported);
      // plan it in fp16.
      .peak_fp16 = 125.0 * tera * flop / second,   // [v100-ds] Tensor Performance 125 TFLOPS
      .memory = 32.0 * giga * byte,                // [v100-ds] 32 GB HBM2 (a 16 GB part exists)
      .memory_bandwidth = 900.0 * giga * byte / second,  // [v100-ds] 900 GB/s
      // [dgx-1] hybrid cube-mesh: each GPU's 6 links reach only some of its 7 peers directly (no
      // switch); the closest kind here is a full mesh, which overstates an 8-GPU all-to-all.
      .scale_up = scale_up_kind::full_mesh,
      .scale_up_link_bandwidth = 25.0 * giga * byte / second,  // [volta-wp] 25 GB/s per direction
      .scale_up_links = 6,  // [volta-wp] six links; [v100-ds] "300 GB/s" = 6 x 25 x 2 directions
      // [dgx-1] four 100 Gb/s InfiniBand NICs per 8 GPUs: 50 Gb/s a GPU.
      .scale_out_bandwidth = 4.0 * 100.0 * giga * bits * byte / second / 8.0,
      // PCIe Gen3 x16: 16 GB/s each way nominal ([v100-ds] "32 GB/s", both directions together).
      .host_link_bandwidth = 16.0 * giga * byte / second,
      .host_memory = 512.0 * giga * byte / 8.0,  // [dgx-1] 512 GB system memory, 8 GPUs
      .arch = {
          .compute_units = 80,    // [volta-wp] 80 SMs
          .boost_clock = 1.53e9,  // [volta-wp] 1530 MHz GPU Boost (SXM2)
          .matrix_units = 8,      // [volta-wp] 8 Tensor Cores per SM
          // [volta-wp] 64 FP16 FMA per Tensor Core per clock = 8 x 64 x 2 = 1024 FLOP per SM.
          .matrix_flop_per_clock = {.fp16 = 1024.0},
          .vector_units = 4,            // [volta-wp] 4 processing blocks per SM
          .vector_lanes = 64,           // [volta-wp] 64 FP32 cores per SM
          .vector_flop_per_lane = 2.0,  // FMA ([v100-ds] 15.7 TFLOPS)
          .registers = 256.0 * kibi * byte,         // [volta-wp] 256 KB per SM
          .l1_smem = 128.0 * kibi * byte,           // [volta-wp] 128 KB L1/shared per SM
          .max_shared_memory = 96.0 * kibi * byte,  // [volta-wp] up to 96 KB shared
          // [cuda-pg] 128 B/clk per SM => 80 x 128 x 1.53e9 = 15.7 TB/s.
          .l1_smem_bandwidth = 80.0 * 128.0 * 1.53e9 * byte / second,
          .l2 = 6.0 * mebi * byte,  // [volta-wp] 6 MB L2 (6144 KB)
          // [a100-wp] V100's L2 reads 2048 B/clk => 2048 x 1.53e9 = 3.1 TB/s.
          .l2_bandwidth = 2048.0 * 1.53e9 * byte / second,
      },
      // NVIDIA, so the family defaults by formats apply (no fp8: Ampere's, fitted on A100 runs,
      // an assumption for Volta; note FlashAttention-2, the Ampere default attention kernel, does
      // not run on Volta); the step model was never measured on a V100 run.
      .kernels = {.step_error = -1.0},
      .power_watts = 300.0,  // [v100-ds] V100 SXM2 300 W
  };
};

}  // namespace shardplan::hardware
