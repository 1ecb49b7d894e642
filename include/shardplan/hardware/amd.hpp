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
  };
};

}  // namespace shardplan::hardware
