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
///   [book]     "How to Scale Your Model", gpus.md: GPU tables, NVLink table and node table.

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
  };
};

}  // namespace shardplan::hardware
