// NVIDIA data-centre GPUs (SXM, per GPU): A100 40/80 GB, H100, H800, H200, B200, GB200.
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
  };
};

}  // namespace shardplan::hardware
