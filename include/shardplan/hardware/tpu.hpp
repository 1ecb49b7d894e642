// Google Cloud TPU chips: tpu_v4p, tpu_v5e, tpu_v5p, tpu_v6e, tpu7x, tpu_v2 and tpu_v3, as
// chip_figures.
#pragma once

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

// Sources, cited per figure by their tag:
//   [gc-v4]    Google Cloud TPU docs, "TPU v4" page, system architecture table
//              (docs.cloud.google.com/tpu/docs/v4).
//   [gc-v5e]   Google Cloud TPU docs, "TPU v5e" page, chip and pod specification tables
//              (docs.cloud.google.com/tpu/docs/v5e).
//   [gc-v5p]   Google Cloud TPU docs, "TPU v5p" page, specification table
//              (docs.cloud.google.com/tpu/docs/v5p).
//   [gc-v6e]   Google Cloud TPU docs, "TPU v6e" page, specification table
//              (docs.cloud.google.com/tpu/docs/v6e).
//   [gc-7x]    Google Cloud TPU docs, "TPU7x (Ironwood)" page, the v5p / v6e / TPU7x comparison
//              table (docs.cloud.google.com/tpu/docs/tpu7x).
//   [book]     J. Austin et al., "How to Scale Your Model" (jax-ml/scaling-book), chapter
//              tpus.md, section "TPU specs": the chip table, the ICI table and the PCIe / DCN
//              sentence under it; roofline.md and tpus.md for the VPU description.
//   [gcloud]   The Google Cloud CLI's table of machine types (`gcloud compute machine-types
//              list`): its MEMORY_GB column is `memoryMb.size(units_in=MiB, units_out=GiB)`, so
//              Compute Engine's "GB" of VM memory is GiB; ct5p-hightpu-4t (v5p) lists 448,
//              tpu7x-standard-4t 960, tpu7x-standard-1t 240, ct6e-standard-4t 720.
//   [v4-paper] N. Jouppi et al., "TPU v4: An Optically Reconfigurable Supercomputer for Machine
//              Learning with Hardware Support for Embeddings" (ISCA 2023), the paper [gc-v4]
//              points to: 1050 MHz clock, 4 MXUs of 128x128 per TensorCore, 2 TensorCores.
//   [ironwood] Google Cloud blog, "From silicon to softmax: Inside the Ironwood AI stack"
//              (November 2025): Ironwood chips form 64-chip cubes over a 3D torus ICI, joined
//              into pods and superpods by optical circuit switches.
//   [gc-v3]    Google Cloud TPU docs, "TPU v3" page (docs.cloud.google.com/tpu/docs/v3): "Each v3
//              TPU chip contains two TensorCores. Each TensorCore has two matrix-multiply units
//              (MXUs)"; peak 123 teraflops (bf16) per chip; HBM2 32 GiB, 900 GBps; pod 1024
//              chips; 2D torus.
//   [gc-v2]    Google Cloud TPU docs, "TPU v2" page (docs.cloud.google.com/tpu/docs/v2): a v2 pod
//              "is composed of up to 256 chips (512 TensorCores)"; the architecture in Jouppi et
//              al., "A Domain Specific Supercomputer for Training Deep Neural Networks" (CACM
//              2020).
//   [hc17]     Hot Chips 2017 keynote on TPU v2, as Tom's Hardware reports it ("A Closer Look At
//              Google's TPU v2"): "dual cores with one 128x128x32b MXU apiece ... each chip
//              provides up to 45 TFLOPS"; Golem's report of the same slides: one 8 GB HBM stack
//              per core.
//   [hc20]     Hot Chips 2020, "Google TPUv2 and TPUv3" (AnandTech live blog): TPUv2 128x128
//              systolic array, bf16 multiply, "700 GB/s per chip due to HBM", 2D torus; TPUv3
//              "Clock 700 to 940 MHz", "2x mat mul units", "HBM +30%", "2x HBM", "650 GB/s
//              interconnect", 1024-chip systems.
//   Power (`power_watts`):
//   [glk-v4]   glennklockwood.com/garden/tpuv4, "192 W maximum" per TPU v4 chip (citing [gc-v4]).
//   [ten-lessons] N. Jouppi et al., "Ten Lessons From Three Generations Shaped Google's TPUv4i"
//              (ISCA 2021), Table 1 "system TDP", which "includes power for the DSA memory system
//              plus its share of the server host power" (the definition as gwern.net's
//              annotation of the paper quotes it): TPUv2 280 W, TPUv3 450 W (the figures as we
//              read the table; not reopened in the session that added them).
//   [heise]    heise online on TPU v5p (Dec 2023, English copy at sipoch.com/en/article/
//              300330021536785): "Google deliberately conceals the power consumption of the
//              individual chips". No TPU from v5e on has a published power figure, so ours are
//              estimates by one rule: TPU v4's bf16 FLOP/s per watt (275 TFLOP/s at 192 W) for
//              v5e and v5p, then Google's own efficiency ratios between generations:
//   [trillium] Google Cloud blog, "Introducing Trillium, sixth-generation TPUs" (May 2024,
//              cloud.google.com/blog/products/compute/introducing-trillium-6th-gen-tpus):
//              "over 67% more energy-efficient than TPU v5e".
//   [ironwood-pw] Google blog, "Ironwood: The first Google TPU for the age of inference" (Apr
//              2025, blog.google/products/google-cloud/ironwood-tpu-age-of-inference/): "2x"
//              the performance per watt of Trillium. Taken on the bf16 peaks.
//
// Host memory: the "RAM (GB) (4-chip VM)" rows of [gc-v5p] and [gc-7x] are Compute Engine
// machine-type memory, which is GiB ([gcloud]); we read them as GiB, as the v5e and v6e pages
// write them.
//
// Inside (`arch`): [gc-*] give TensorCores per chip and MXUs per TensorCore; the book gives the
// MXU shape (128x128, 256x256 on v6e), the v5e and v5p clocks, the VPU shape and VMEM size.
// The MXU peak is TensorCores x MXUs x rows x columns x 2 FLOP x clock. Google publishes no clock
// for v6e or TPU7x and no MXU count or shape for TPU7x; those stay 0. (With [gc-v6e]'s two 256x256
// MXUs, 918e12 would need a 3.5 GHz clock: the count or the peak is not what it seems, so we
// record Google's count and no clock.)
//
// ICI links: the book's one-way per-link figures are about 90% of what Google's per-chip
// totals give (v5p: 1200 GB/s bidirectional per chip over 6 links = 100 GB/s one-way per link;
// book 9.0e10). We use the book's figures throughout because the book's collective-cost
// thresholds (C / W_ici = 2550 on v5p, "2200" on v5e) are built on them; override
// `scale_up_link_bandwidth` to use Google's nominal link rate.

namespace shardplan::hardware {

/// Cloud TPU v4 ("v4p" in the book): two TensorCores, 32 GiB HBM2, 3D torus, pods of 4096 chips.
struct tpu_v4p {
  static constexpr chip_figures figures = {
      .name = "tpu v4p",
      .kind = chip_kind::tpu,
      // No published VPU rate for v4; fp32 matmuls run as multi-pass bf16 on the MXU.
      .peak_fp32 = 0.0 * flop / second,
      // [gc-v4] "275 teraflops (bf16 or int8)"; [book] 2.75e14 for both.
      .peak_bf16 = 275.0 * tera * flop / second,
      .peak_int8 = 275.0 * tera * flop / second,
      .memory = 32.0 * gibi * byte,                       // [gc-v4] "32 GiB"; [book] 32GB
      .memory_bandwidth = 1200.0 * giga * byte / second,  // [gc-v4] 1200 GBps; [book] 1.2e12
      .scale_up = scale_up_kind::torus_3d,  // [gc-v4] 3D mesh, torus on whole-cube slices
      .scale_up_link_bandwidth = 4.5e10 * byte / second,  // [book] ICI table, one-way per link
      .scale_up_links = 6,                                // [book] 3D torus: 6 nearest neighbours
      // [book] "DCN bandwidth is typically about 6.25e9 bytes/s per TPU" (no v4-specific figure).
      .scale_out_bandwidth = 6.25e9 * byte / second,
      // [book] "The v4 PCIe link is 16GB/s each way".
      .host_link_bandwidth = 16.0 * giga * byte / second,
      // Host memory per chip: not in the sources we checked; left at zero.
      .arch = {
          .compute_units = 2,       // [gc-v4] two TensorCores per chip
          .boost_clock = 1.05e9,    // [v4-paper] 1050 MHz
          .matrix_units = 4,        // [gc-v4] four MXUs per TensorCore
          .matrix_unit_rows = 128,  // [book] 128x128 systolic array ("v4/v5: 4" MXUs)
          .matrix_unit_columns = 128,
          // 4 x 128 x 128 x 2 = 131072 FLOP/clock per core; [gc-v4] int8 at the bf16 rate.
          .matrix_flop_per_clock = {.bf16 = 4.0 * 128.0 * 128.0 * 2.0,
                                    .int8 = 4.0 * 128.0 * 128.0 * 2.0},
          .vector_units = 1,         // [gc-v4] one vector unit per TensorCore
          .vector_sublanes = 8,      // [book] VPU shape (8, 128)
          .vector_lane_width = 128,
          // VPU ALUs per lane on v4, VMEM size and on-chip bandwidths: not in our sources; 0.
      },
      // [glk-v4] "192 W maximum" (glennklockwood.com/garden/tpuv4, from [gc-v4])
      .power_watts = 192.0,
  };
};

/// Cloud TPU v5e: one TensorCore, 16 GB HBM2, 2D torus, 16x16 pods, 8 chips per host.
struct tpu_v5e {
  static constexpr chip_figures figures = {
      .name = "tpu v5e",
      .kind = chip_kind::tpu,
      // [book] VPU: 8 sublanes x 128 lanes x 4 ALUs = 4096 fp32 ALUs per core; one core at
      // about 1.5 GHz (MXU paragraph) => 4096 x 1.5e9 = 6.1e12 FLOP/s (derived, not published).
      .peak_fp32 = 4096.0 * 1.5e9 * flop / second,
      .peak_bf16 = 197.0 * tera * flop / second,  // [gc-v5e] 197 TFLOPs; [book] 1.97e14
      // [gc-v5e] 393 TOPs. The book writes 3.94e14 (2 x 1.97e14); Google's 393 is 2 x 196.6
      // (4 MXUs x 128 x 128 MACs x 2 x 1.5 GHz), so we keep Google's figure.
      .peak_int8 = 393.0 * tera * flop / second,
      .memory = 16.0 * giga * byte,  // [gc-v5e] "16 GB"; [book] 16GB
      // Sources disagree: [gc-v5e] chip table "819 GBps", another revision of the same page
      // "800 GiBps" (= 859 GB/s), [book] 8.2e11 (8.1e11 in older revisions). We choose Google's
      // 819 GB/s; the book's C/W = 240 becomes 1.97e14 / 8.19e11 = 240.5.
      .memory_bandwidth = 819.0 * giga * byte / second,
      .scale_up = scale_up_kind::torus_2d,                // [gc-v5e] 2D torus
      .scale_up_link_bandwidth = 4.5e10 * byte / second,  // [book] ICI table, one-way per link
      .scale_up_links = 4,                                // [gc-v5e] "ICI ports per chip: 4"
      // [gc-v5e] "2 x 100 Gbps NIC" per 8-chip host = 25 Gb/s = 3.125e9 B/s per chip;
      // [book] 3.125e9.
      .scale_out_bandwidth = 2.0 * 100.0 * giga * bits * byte / second / 8.0,
      .host_link_bandwidth = 1.6e10 * byte / second,  // [book] PCIe "about 1.6e10 bytes/s per TPU"
      .host_memory = 512.0 * gibi * byte / 8.0,       // [gc-v5e] "DRAM per host 512 GiB", 8 chips
      .arch = {
          .compute_units = 1,       // [gc-v5e] one TensorCore per chip; [book]
          .boost_clock = 1.5e9,     // [book] "5e13 bf16 FLOPs/s per MXU at 1.5GHz"
          .matrix_units = 4,        // [gc-v5e] four MXUs per TensorCore; [book]
          .matrix_unit_rows = 128,  // [book] 128x128 systolic array
          .matrix_unit_columns = 128,
          // 4 x 128 x 128 x 2 per clock; int8 at twice bf16 ([gc-v5e] 393 TOPs; [book] "2x").
          .matrix_flop_per_clock = {.bf16 = 4.0 * 128.0 * 128.0 * 2.0,
                                    .int8 = 2.0 * 4.0 * 128.0 * 128.0 * 2.0},
          .vector_units = 1,
          .vector_lanes = 8 * 128 * 4,  // [book] (8 sublanes, 128 lanes) x 4 ALUs = 4096
          .vector_flop_per_lane = 1.0,  // [book] one fp32 op per ALU per cycle
          .vector_sublanes = 8,
          .vector_lane_width = 128,
          .l1_smem = 128.0 * mebi * byte,  // [book] VMEM "128 MiB on v5e"
          // [book] tpus.md Q4: VMEM bandwidth "22x" HBM = 22 x 8.2e11 = 1.8e13 bytes/s.
          .l1_smem_bandwidth = 1.8e13 * byte / second,
          // VREGs ([book] about 256kB per core) are v5p's figure; v5e's is not given: 0.
      },
      // estimated (Google publishes no v5e power, [heise]): v4's 275 TFLOP/s per 192 W
      .power_watts = 192.0 * 197.0 / 275.0,
  };
};

/// Cloud TPU v5p: two TensorCores, 95 GiB HBM2e, 3D torus, pods of 8960 chips (16x20x28).
struct tpu_v5p {
  static constexpr chip_figures figures = {
      .name = "tpu v5p",
      .kind = chip_kind::tpu,
      // [book] VPU: 4096 ALUs per core at about 1.75 GHz = 7e12 per core ("about 7e12 FLOPs/s
      // per core"), two cores per chip => 2 x 4096 x 1.75e9 = 1.43e13 (derived).
      .peak_fp32 = 2.0 * 4096.0 * 1.75e9 * flop / second,
      .peak_bf16 = 459.0 * tera * flop / second,  // [gc-v5p] 459 TFLOPs; [book] 4.59e14
      .peak_fp8 = 459.0 * tera * flop / second,   // [gc-v5p] "Peak compute per chip (FP8) 459"
      .peak_int8 = 918.0 * tera * flop / second,  // [book] 9.18e14 (Google's table lists no int8)
      // Sources disagree: [gc-v5p] and [gc-7x] tables "HBM capacity per chip (GiB) 95", an older
      // revision of [gc-v5p] "95 GB", [book] 96GB. We choose the current Google table, which
      // states its unit: 95 GiB (= 102.0e9 B).
      .memory = 95.0 * gibi * byte,
      // [gc-v5p] 2765 GBps (one revision says "2575 GiBps", the same rate); [book] rounds it
      // to 2.8e12.
      .memory_bandwidth = 2765.0 * giga * byte / second,
      .scale_up = scale_up_kind::torus_3d,                // [gc-v5p] 3D torus
      .scale_up_link_bandwidth = 9.0e10 * byte / second,  // [book] ICI table, one-way per link
      .scale_up_links = 6,                                // [book] 3D torus: 6 nearest neighbours
      // [gc-v5p] "DCN bandwidth per chip (Gbps) 50" = 6.25e9 B/s; [book] 6.25e9.
      .scale_out_bandwidth = 50.0 * giga * bits * byte / second,
      .host_link_bandwidth = 1.6e10 * byte / second,  // [book] PCIe "about 1.6e10 bytes/s per TPU"
      // [gc-v5p] "RAM (GB) (4-chip VM) 448", GiB ([gcloud]: ct5p-hightpu-4t 448): 112 GiB a chip.
      .host_memory = 448.0 * gibi * byte / 4.0,
      .arch = {
          .compute_units = 2,        // [gc-7x] "Number of TensorCores per chip" v5p: 2; [book]
          .boost_clock = 1.75e9,     // [book] "v5p clock about 1.75GHz"
          .matrix_units = 4,         // [book] "v4/v5: 4" MXUs per TensorCore
          .matrix_unit_rows = 128,   // [book] 128x128
          .matrix_unit_columns = 128,
          // 4 x 128 x 128 x 2 per clock; int8 at twice bf16 ([book] 9.18e14); fp8 at the bf16
          // rate ([gc-v5p]).
          .matrix_flop_per_clock = {.bf16 = 4.0 * 128.0 * 128.0 * 2.0,
                                    .fp8 = 4.0 * 128.0 * 128.0 * 2.0,
                                    .int8 = 2.0 * 4.0 * 128.0 * 128.0 * 2.0},
          .vector_units = 1,
          .vector_lanes = 8 * 128 * 4,  // [book] 4096 ALUs per core
          .vector_flop_per_lane = 1.0,  // [book] "8 * 128 * 4 * 1.75e9 = 7e12 FLOPs/s per core"
          .vector_sublanes = 8,
          .vector_lane_width = 128,
          // [book] "64 32-bit VREGs per v5p core": 64 x 8 x 128 x 4 B = 256 KiB ("about 256kB").
          .registers = 64.0 * 8.0 * 128.0 * 4.0 * byte,
          // VMEM per core: sources disagree ([book] "128MB" in its H100-vs-v5p table, per chip or
          // per core unclear, and "120MB of a modern TPU's VMEM"); left at 0.
      },
      // estimated (Google publishes no v5p power, [heise]): v4's 275 TFLOP/s per 192 W
      .power_watts = 192.0 * 459.0 / 275.0,
  };
};

/// Cloud TPU v6e (Trillium): one TensorCore with 256x256 MXUs, 32 GB HBM, 2D torus, 16x16 pods.
struct tpu_v6e {
  static constexpr chip_figures figures = {
      .name = "tpu v6e",
      .kind = chip_kind::tpu,
      .peak_fp32 = 0.0 * flop / second,  // no published VPU rate
      // Sources disagree: [gc-v6e] 918 TFLOPs, [book] table 9.20e14, [book] roofline.md 9.1e14.
      // We choose Google's 918.
      .peak_bf16 = 918.0 * tera * flop / second,
      .peak_fp8 = 918.0 * tera * flop / second,    // [gc-7x] "Peak compute per chip (FP8)" v6e: 918
      .peak_int8 = 1836.0 * tera * flop / second,  // [gc-v6e] 1836 TOPs; [book] 1.84e15
      .memory = 32.0 * giga * byte,                // [gc-v6e] "32 GB"; [book] 32GB
      .memory_bandwidth = 1638.0 * giga * byte / second,  // [gc-v6e] 1638 GBps; [book] 1.6e12
      .scale_up = scale_up_kind::torus_2d,                // [gc-v6e] 2D torus
      .scale_up_link_bandwidth = 9.0e10 * byte / second,  // [book] ICI table, one-way per link
      .scale_up_links = 4,                                // [gc-v6e] "ICI ports per chip: 4"
      // [gc-7x] "DCN bandwidth per chip (Gbps)" v6e: 100 = 12.5e9 B/s; [book] 12.5e9.
      .scale_out_bandwidth = 100.0 * giga * bits * byte / second,
      // [book] PCIe "3.2e10 on v6e" (a PCIe Gen5 interface, [gc-v6e]).
      .host_link_bandwidth = 3.2e10 * byte / second,
      // Sources disagree: [gc-v6e] "DRAM per host 1536 GiB" for 8 chips (192 GiB per chip),
      // [gc-7x] "RAM (GB) (4-chip VM) 720" (GiB, [gcloud]: 180 GiB per chip of a 4-chip VM). We
      // choose the full host: 192 GiB.
      .host_memory = 1536.0 * gibi * byte / 8.0,
      .arch = {
          .compute_units = 1,       // [gc-v6e] "one TensorCore"
          // Clock: not published; left at 0 (see the note at the top).
          .matrix_units = 2,        // [gc-v6e] "two 256x256 matrix-multiply units (MXU)"
          .matrix_unit_rows = 256,  // [gc-v6e]; [book] "256x256 on v6e"
          .matrix_unit_columns = 256,
          .matrix_flop_per_clock = {.bf16 = 2.0 * 256.0 * 256.0 * 2.0},
          .vector_units = 1,
          .vector_sublanes = 8,  // [gc-v6e] VPU "128 lanes x 8 sublanes"
          .vector_lane_width = 128,
          // ALUs per lane, VMEM and on-chip bandwidths: not published; 0.
      },
      // estimated: the v5e estimate at [trillium]'s "67% more energy-efficient than TPU v5e"
      // (FLOP/s per watt)
      .power_watts = 192.0 * 197.0 / 275.0 * (918.0 / 197.0) / 1.67,
  };
};

/// TPU7x (Ironwood): two TensorCores, 192 GiB HBM3e, 3D torus, pods of 9216 chips.
struct tpu7x {
  static constexpr chip_figures figures = {
      .name = "tpu7x",
      .kind = chip_kind::tpu,
      .peak_fp32 = 0.0 * flop / second,  // no published VPU rate
      // Sources disagree: [gc-7x] 2307 TFLOPs, [book] 2.30e15. We choose Google's 2307.
      .peak_bf16 = 2307.0 * tera * flop / second,
      .peak_fp8 = 4614.0 * tera * flop / second,  // [gc-7x] 4614 TFLOPs
      .peak_int8 = 4.61e15 * flop / second,       // [book] int8 4.61e15 (Google lists FP8 only)
      .memory = 192.0 * gibi * byte,              // [gc-7x] "HBM capacity (GiB) 192"; [book] 192GB
      // Sources disagree: [gc-7x] 7380 GB/s, [book] 7.4e12. We choose Google's 7380.
      .memory_bandwidth = 7380.0 * giga * byte / second,
      // [gc-7x] "shares many similarities with TPU v5p": a 3D torus of 4x4x4 cubes.
      .scale_up = scale_up_kind::torus_3d,
      // [book] ICI table 9.0e10 one-way per link; [gc-7x] 1200 GB/s bidirectional per chip.
      .scale_up_link_bandwidth = 9.0e10 * byte / second,
      // [ironwood] "3D torus" ICI in 4x4x4 cubes ([book] pod 4x4x576): a chip's 6 nearest
      // neighbours (+-x, +-y, +-z). [gc-7x] gives TPU7x the same 1200 GB/s bidirectional ICI per
      // chip as v5p, which is 6 links x 2 directions x 100 GB/s, v5p's link rate. The 4 links of
      // some press reports would need 150 GB/s a link, and at [book]'s 9.0e10 give 720 GB/s.
      .scale_up_links = 6,
      // [gc-7x] "DCN bandwidth per chip (Gbps) 100" = 12.5e9 B/s; [book] 12.5e9.
      .scale_out_bandwidth = 100.0 * giga * bits * byte / second,
      // Assumption: no source gives TPU7x's host link; we take the v6e figure (3.2e10, [book]).
      .host_link_bandwidth = 3.2e10 * byte / second,
      // [gc-7x] "RAM (GB) (4-chip VM) 960", GiB ([gcloud]: tpu7x-standard-4t 960, -1t 240).
      .host_memory = 960.0 * gibi * byte / 4.0,
      .arch = {
          .compute_units = 2,  // [gc-7x] "two TensorCores and four SparseCores"
          // MXU count and shape, clock, VPU and VMEM: not published; 0.
      },
      // estimated: the v6e estimate at [ironwood-pw]'s "2x perf/watt" of Trillium (bf16 peaks)
      .power_watts = 192.0 * 197.0 / 275.0 * (918.0 / 197.0) / 1.67 * (2307.0 / 918.0) / 2.0,
  };
};

/// Cloud TPU v2: two TensorCores of one 128x128 MXU each, 16 GiB HBM, 2D torus, pods of 256.
/// Its MXUs take bf16 only (no int8: that came with v4).
struct tpu_v2 {
  static constexpr chip_figures figures = {
      .name = "tpu v2",
      .kind = chip_kind::tpu,
      .peak_fp32 = 0.0 * flop / second,          // no published VPU rate
      .peak_bf16 = 45.0 * tera * flop / second,  // [hc17] "up to 45 TFLOPS" per chip
      .memory = 16.0 * gibi * byte,              // [hc17] one 8 GB stack per core, two cores
      .memory_bandwidth = 700.0 * giga * byte / second,  // [hc20] "700 GB/s per chip"
      .scale_up = scale_up_kind::torus_2d,               // [hc20] 2D torus
      // The v2 link rate is in [gc-v2]'s CACM paper (not read here). Assumption: v3's per-link
      // rate (below) scaled by the clock, 81.25 x 700 / 940 = 60.5 GB/s one-way.
      .scale_up_link_bandwidth = 81.25 * 700.0 / 940.0 * giga * byte / second,
      .scale_up_links = 4,  // 2D torus: 4 nearest neighbours
      // Assumption: [book]'s typical DCN share, "about 6.25e9 bytes/s per TPU".
      .scale_out_bandwidth = 6.25e9 * byte / second,
      // Assumption: v4's PCIe link ([book] "16GB/s each way"); no v2 figure read.
      .host_link_bandwidth = 16.0 * giga * byte / second,
      // Host memory per chip: not in the sources we checked; left at zero.
      .arch = {
          .compute_units = 2,       // [hc17] dual cores; [gc-v2] 512 TensorCores per 256 chips
          .boost_clock = 0.7e9,     // [hc20] "Clock 700" MHz (v2) "to 940" (v3)
          .matrix_units = 1,        // [hc17] one MXU per core
          .matrix_unit_rows = 128,  // [hc17], [hc20] 128x128 systolic array
          .matrix_unit_columns = 128,
          // 128 x 128 x 2 = 32768 FLOP per clock per core: 2 x 32768 x 0.7e9 = 45.9e12, 2% over
          // the rounded "45 TFLOPS".
          .matrix_flop_per_clock = {.bf16 = 128.0 * 128.0 * 2.0},
          .vector_units = 1,
          .vector_sublanes = 8,      // [hc20] "8 sets of 128-wide vectors per cycle"
          .vector_lane_width = 128,  // [hc20] "128 instances of these lanes"
          // VMEM size and on-chip bandwidths: not in our sources; 0.
      },
      // The TPU family defaults (tpu_v4p's and later's fractions, fitted on v4 and v5e runs)
      // apply as assumptions: the same MXU design and XLA compiler. The step model was never
      // measured on a v2 run.
      .kernels = {.step_error = -1.0},
      // [ten-lessons] Table 1 "system TDP" (chip, memory and its share of the host)
      .power_watts = 280.0,
  };
};

/// Cloud TPU v3: two TensorCores of two 128x128 MXUs each, 32 GiB HBM, 2D torus, pods of 1024.
/// Its MXUs take bf16 only.
struct tpu_v3 {
  static constexpr chip_figures figures = {
      .name = "tpu v3",
      .kind = chip_kind::tpu,
      .peak_fp32 = 0.0 * flop / second,           // no published VPU rate
      .peak_bf16 = 123.0 * tera * flop / second,  // [gc-v3] 123 teraflops (bf16) per chip
      .memory = 32.0 * gibi * byte,               // [gc-v3] 32 GiB HBM2
      .memory_bandwidth = 900.0 * giga * byte / second,  // [gc-v3] 900 GBps
      .scale_up = scale_up_kind::torus_2d,               // [gc-v3] 2D torus
      // [hc20] "650 GB/s interconnect" per chip, read as both directions of its 4 torus links:
      // 650 / 8 = 81.25 GB/s one-way per link (an assumption about what the 650 counts).
      .scale_up_link_bandwidth = 650.0 / 8.0 * giga * byte / second,
      .scale_up_links = 4,
      .scale_out_bandwidth = 6.25e9 * byte / second,      // assumption, as tpu_v2
      .host_link_bandwidth = 16.0 * giga * byte / second,  // assumption, as tpu_v2
      // Host memory per chip: not in the sources we checked; left at zero.
      .arch = {
          .compute_units = 2,       // [gc-v3] two TensorCores per chip
          .boost_clock = 0.94e9,    // [hc20] 940 MHz
          .matrix_units = 2,        // [gc-v3] two MXUs per TensorCore
          .matrix_unit_rows = 128,  // [hc20] 128x128, as v2
          .matrix_unit_columns = 128,
          // 2 x 128 x 128 x 2 FLOP per clock per core: 2 x 65536 x 0.94e9 = 123.2e12.
          .matrix_flop_per_clock = {.bf16 = 2.0 * 128.0 * 128.0 * 2.0},
          .vector_units = 1,
          .vector_sublanes = 8,
          .vector_lane_width = 128,
      },
      // As tpu_v2: the TPU family defaults, never measured on a v3 run.
      .kernels = {.step_error = -1.0},
      // [ten-lessons] Table 1 "system TDP" (chip, memory and its share of the host)
      .power_watts = 450.0,
  };
};

}  // namespace shardplan::hardware
