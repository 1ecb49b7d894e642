// Systems built from the catalogue's chips: NVLink nodes in InfiniBand fat trees, GB200 NVL72
// racks, and TPU slices joined by DCN, each as a type with `static constexpr system_figures`.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <shardplan/core/rule.hpp>
#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/hardware/tpu.hpp>

// Sources, cited by their tag:
//   [book]      "How to Scale Your Model", gpus.md (the DGX H100 SuperPod reference design, the
//               Node / Leaf / Spine table, the GB200 NVL72 paragraph) and tpus.md (ICI topology,
//               "about 1 us per hop", pod sizes, wraparound only on whole cubes or 16-chip axes).
//   [ra-h100]   NVIDIA DGX SuperPOD reference architecture, DGX H100 (RA-11333-001): scalable units
//               (SU) of 32 nodes; 4 SUs = 128 nodes; NDR 400 Gb/s InfiniBand, rail-optimised.
//   [ra-b200]   NVIDIA DGX SuperPOD reference architecture, DGX B200: SU of 32 nodes; table of
//               larger pods: 2, 4 and 8 SUs use leaf and spine switches only; 16, 32 and 64 SUs
//               (up to 2048 nodes, 16384 GPUs) add a core tier.
//   [ra-a100]   NVIDIA DGX SuperPOD reference architecture, DGX A100 (RA-09950-001): SUs of 20
//               nodes, up to 140 nodes (7 SUs), HDR 200 Gb/s InfiniBand.
//   [deepseek]  DeepSeek, "Insights into DeepSeek-V3" (ISCA'25, arXiv:2505.09343): 2048 H800
//               GPUs in a multi-plane two-layer fat tree of 64-port 400 Gb/s InfiniBand
//               switches, eight planes (one per GPU-NIC pair), up to 16,384 GPUs.
//   [gc-v4], [gc-v5p], [gc-v5e], [gc-7x]  Google Cloud TPU docs pages for v4, v5p, v5e and
//               TPU7x: pods of 4096, 8960, 256 and 9216 chips.
//
// Hop latencies are the latency of one step of a ring: ICI 1 us ([book]: "about 1 us per hop");
// NVLink 3.4 us and InfiniBand (every fat-tree level) 14.0 us, NCCL's own figures for a ring step
// of its Simple protocol (src/graph/tuning.cc at v2.21.5-1, `hwLat`; the other protocols scale
// from them, `nccl_ring_protocols` in collectives.hpp); DCN 10 us, an assumption of ours.
//
// In-network reduction: NVSwitch gen 3 and later (Hopper, Blackwell) reduce in the switch
// ("NVLink SHARP"); Quantum HDR and NDR InfiniBand switches run SHARP. The generic fat tree
// assumes neither.

namespace shardplan::systems {

/// The largest systems each template accepts (its static_assert and the run-time presets of
/// `system_presets.hpp` share them).
namespace limits {
inline constexpr std::int64_t fat_tree_gpus = 65536;  // 64^3 / 4 NIC ports, three tiers
inline constexpr std::int64_t dgx_h100_superpod_nodes = 2048;
inline constexpr std::int64_t dgx_b200_superpod_nodes = 2048;
inline constexpr std::int64_t dgx_a100_superpod_nodes = 140;
inline constexpr std::int64_t h800_cluster_nodes = 2048;
inline constexpr std::int64_t gb200_nvl72_racks = 910;
inline constexpr std::int64_t tpu7x_slice_chips = 9216;
}  // namespace limits

namespace detail {

/// Hop latencies: [book] for ICI, NCCL's ring steps for NVLink and InfiniBand, an assumption for
/// DCN (see the header comment).
inline constexpr seconds ici_hop_latency = 1.0 * micro * second;
inline constexpr seconds nvlink_hop_latency = 3.4 * micro * second;
inline constexpr seconds infiniband_hop_latency = 14.0 * micro * second;
inline constexpr seconds dcn_hop_latency = 10.0 * micro * second;

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

constexpr void add_level(system_figures& s, const network_level& level) {
  if (s.level_count < max_network_levels) {
    s.levels[static_cast<std::size_t>(s.level_count)] = level;
    ++s.level_count;
  }
}

/// How a rail-optimised fat tree groups nodes: `nodes_per_su` nodes share one rail of leaf
/// switches (a scalable unit); a spine tier joins up to `max_sus_two_tier` SUs; beyond that a
/// core tier joins pods of `sus_per_pod` SUs.
struct fat_tree_shape {
  std::int64_t nodes_per_su = 32;
  std::int64_t max_sus_two_tier = 8;
  std::int64_t sus_per_pod = 4;
};

/// The rail-optimised fat tree of 64-port switches with `gpus_per_node` rails: a leaf has 32
/// ports down (one SU = 32 nodes); two tiers reach 64 leaves (64 / gpus_per_node SUs); with a
/// core tier a pod has 32 leaves (32 / gpus_per_node SUs). [ra-b200]'s table for 8-GPU nodes:
/// two tiers up to 8 SUs, then pods of 4 SUs (the book's 1024-GPU SuperPod).
constexpr fat_tree_shape radix64_shape(std::int64_t gpus_per_node) {
  const std::int64_t rails = gpus_per_node > 0 ? gpus_per_node : 1;
  return {.nodes_per_su = 32, .max_sus_two_tier = 64 / rails, .sus_per_pod = 32 / rails};
}

/// A fat tree's switches, described as plain values.
struct fat_tree_spec {
  std::string_view name;
  chip_figures chip;
  std::int64_t nodes = 1;
  std::int64_t gpus_per_node = 8;
  fat_tree_shape shape{};
  link_kind scale_out_link = link_kind::infiniband;
  bool node_reduction = false;       // NVLink SHARP in the node's NVSwitches
  bool scale_out_reduction = false;  // SHARP in the InfiniBand switches
};

/// Levels of NVLink nodes in a fat tree, innermost first: node (NVLink), leaf (the nodes of one
/// SU), spine (SUs, or the SUs of one pod), core (pods). A level is present only when it joins
/// more than one unit; its degree counts the units in use (rounded up), so when `nodes` is not a
/// whole number of SUs or pods the last one is partly filled and the product of the degrees
/// exceeds `chips`. Every level is non-blocking (full bisection, as in [ra-h100]): a unit's
/// egress is the sum of its nodes' NICs.
constexpr system_figures make_fat_tree(const fat_tree_spec& t) {
  system_figures s{};
  s.name = t.name;
  s.chip = t.chip;
  s.chips = t.nodes * t.gpus_per_node;
  // A fully meshed chip (MI300X) joins its node over Infinity Fabric, a switched one over NVLink.
  add_level(s, {.name = "node",
                .link = t.chip.scale_up == scale_up_kind::full_mesh ? link_kind::infinity_fabric
                                                                    : link_kind::nvlink,
                .degree = t.gpus_per_node,
                .unit_egress = scale_up_egress(t.chip),
                .hop_latency = nvlink_hop_latency,
                .in_network_reduction = t.node_reduction});
  const byte_rate node_egress = t.chip.scale_out_bandwidth * static_cast<double>(t.gpus_per_node);
  const std::int64_t su = t.shape.nodes_per_su;
  if (t.nodes > 1) {
    add_level(s, {.name = "leaf",
                  .link = t.scale_out_link,
                  .degree = std::min(t.nodes, su),
                  .unit_egress = node_egress,
                  .hop_latency = infiniband_hop_latency,
                  .in_network_reduction = t.scale_out_reduction});
  }
  const std::int64_t sus = ceil_div(t.nodes, su);
  const byte_rate su_egress = node_egress * static_cast<double>(su);
  if (sus > 1 && sus <= t.shape.max_sus_two_tier) {
    add_level(s, {.name = "spine",
                  .link = t.scale_out_link,
                  .degree = sus,
                  .unit_egress = su_egress,
                  .hop_latency = infiniband_hop_latency,
                  .in_network_reduction = t.scale_out_reduction});
  } else if (sus > t.shape.max_sus_two_tier) {
    const std::int64_t pod = t.shape.sus_per_pod;
    add_level(s, {.name = "spine",
                  .link = t.scale_out_link,
                  .degree = pod,
                  .unit_egress = su_egress,
                  .hop_latency = infiniband_hop_latency,
                  .in_network_reduction = t.scale_out_reduction});
    add_level(s, {.name = "core",
                  .link = t.scale_out_link,
                  .degree = ceil_div(sus, pod),
                  .unit_egress = su_egress * static_cast<double>(pod),
                  .hop_latency = infiniband_hop_latency,
                  .in_network_reduction = t.scale_out_reduction});
  }
  return s;
}

/// A TPU system: `slices` identical ICI slices of `extent` chips (level 0, a torus with the
/// given wraparound) joined over DCN (level 1, only when there is more than one slice).
constexpr system_figures make_tpu_system(std::string_view name, const chip_figures& chip,
                                         std::array<std::int64_t, 3> extent,
                                         std::array<bool, 3> wraps, std::int64_t rank,
                                         std::int64_t slices) {
  system_figures s{};
  s.name = name;
  s.chip = chip;
  const std::int64_t slice_chips = extent[0] * extent[1] * extent[2];
  s.chips = slice_chips * slices;
  s.torus = {.extent = extent, .wraps = wraps, .rank = rank};
  add_level(s, {.name = "ici",
                .link = link_kind::ici,
                .degree = slice_chips,
                .unit_egress = scale_up_egress(chip),
                .hop_latency = ici_hop_latency,
                .in_network_reduction = false});
  if (slices > 1) {
    add_level(s, {.name = "dcn",
                  .link = link_kind::dcn,
                  .degree = slices,
                  .unit_egress = chip.scale_out_bandwidth * static_cast<double>(slice_chips),
                  .hop_latency = dcn_hop_latency,
                  .in_network_reduction = false});
  }
  return s;
}

/// True when a, b, c fit, in some order, within a pod of at most x <= y <= z chips per axis.
/// A DGX SuperPOD of `nodes` 8-GPU nodes on InfiniBand with SHARP (in the NVSwitches too when
/// `node_sharp`); the templates below and `make_system` (system_presets.hpp) build it here.
constexpr system_figures make_dgx_superpod(std::string_view name, const chip_figures& chip,
                                           std::int64_t nodes, fat_tree_shape shape,
                                           bool node_sharp) {
  return make_fat_tree({.name = name,
                        .chip = chip,
                        .nodes = nodes,
                        .gpus_per_node = 8,
                        .shape = shape,
                        .scale_out_link = link_kind::infiniband,
                        .node_reduction = node_sharp,
                        .scale_out_reduction = true});
}

/// `racks` GB200 NVL72 racks: 72 GPUs an NVLink domain, racks on InfiniBand at the NIC rate.
constexpr system_figures make_gb200_nvl72(const chip_figures& chip, std::int64_t racks) {
  system_figures s{};
  s.name = "gb200 nvl72";
  s.chip = chip;
  s.chips = 72 * racks;
  add_level(s, {.name = "rack",
                .link = link_kind::nvlink,
                .degree = 72,
                .unit_egress = scale_up_egress(chip),
                .hop_latency = nvlink_hop_latency,
                .in_network_reduction = true});
  if (racks > 1) {
    add_level(s, {.name = "fabric",
                  .link = link_kind::infiniband,
                  .degree = racks,
                  .unit_egress = chip.scale_out_bandwidth * 72.0,
                  .hop_latency = infiniband_hop_latency,
                  .in_network_reduction = true});
  }
  return s;
}

constexpr bool fits_pod(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t x,
                        std::int64_t y, std::int64_t z) {
  std::array<std::int64_t, 3> e = {a, b, c};
  std::sort(e.begin(), e.end());
  return e[0] <= x && e[1] <= y && e[2] <= z;
}

/// v4 / v5p / TPU7x slices are built from 4x4x4 cubes: a slice is either within one cube or
/// whole cubes ([book] tpus.md; [gc-v5p] lists 2x2x1, 2x2x2, 2x4x4 and then multiples of 4).
constexpr bool within_one_cube(std::int64_t x, std::int64_t y, std::int64_t z) {
  return x <= 4 && y <= 4 && z <= 4;
}
constexpr bool whole_cubes(std::int64_t x, std::int64_t y, std::int64_t z) {
  return x % 4 == 0 && y % 4 == 0 && z % 4 == 0;
}

/// Wraparound of a cube-built 3D slice: on every axis when it is whole cubes, else on none
/// ([book]: "wraparound exists only for multiples of a full cube").
constexpr std::array<bool, 3> cube_wraps(std::int64_t x, std::int64_t y, std::int64_t z) {
  const bool w = whole_cubes(x, y, z);
  return {w, w, w};
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// GPU systems

/// `Nodes` nodes of `GpusPerNode` GPUs of type `Chip` joined by NVLink (Infinity Fabric for a
/// fully meshed chip such as `hardware::mi300x`) inside a node and by a
/// rail-optimised, non-blocking InfiniBand fat tree of 64-port switches between nodes (one NIC
/// per GPU at the chip's `scale_out_bandwidth`), laid out like a DGX SuperPOD: leaf switches
/// join 32 nodes, spines join SUs, a core tier joins pods when two tiers do not reach. No
/// in-network reduction is assumed; the DGX SuperPOD types below turn it on.
template <ChipSpec Chip, std::int64_t Nodes, std::int64_t GpusPerNode = 8>
struct nvlink_fat_tree {
  SHARDPLAN_RULE(Nodes >= 1, "shardplan: an nvlink fat tree has at least one node", given<Nodes>);
  // One leaf switch per GPU rail; a 64-port leaf has 32 ports down, so the rails of a pod must
  // divide its 32 leaves.
  SHARDPLAN_RULE(GpusPerNode == 1 || GpusPerNode == 2 || GpusPerNode == 4 || GpusPerNode == 8,
                 "shardplan: an nvlink fat tree node has 1, 2, 4 or 8 gpus", given<GpusPerNode>);
  // A three-tier fat tree of 64-port switches has 64^3 / 4 = 65536 ports for NICs.
  SHARDPLAN_RULE(Nodes* GpusPerNode <= limits::fat_tree_gpus,
                 "shardplan: an nvlink fat tree of 64-port switches has at most 65536 gpus",
                 given<Nodes * GpusPerNode>);

  static constexpr system_figures figures =
      detail::make_fat_tree({.name = "nvlink fat tree",
                             .chip = Chip::figures,
                             .nodes = Nodes,
                             .gpus_per_node = GpusPerNode,
                             .shape = detail::radix64_shape(GpusPerNode)});
};

/// NVIDIA DGX SuperPOD with DGX H100 ([ra-h100], [book]): 8 H100 per node (450 GB/s NVLink egress
/// per GPU); SUs of 32 nodes under NDR leaf switches (node egress 8 x 400 Gb/s = 400 GB/s);
/// spines join up to 8 SUs (SU egress 12.8 TB/s); beyond 8 SUs pods of 4 SUs (1024 GPUs, the
/// book's SuperPod) under a core tier (pod egress 51.2 TB/s). NVLink SHARP and InfiniBand SHARP.
/// 128 nodes give degrees 8 / 32 / 4.
template <std::int64_t Nodes>
struct dgx_h100_superpod {
  SHARDPLAN_RULE(Nodes >= 1, "shardplan: a dgx superpod has at least one node", given<Nodes>);
  SHARDPLAN_RULE(Nodes <= limits::dgx_h100_superpod_nodes,
                 "shardplan: a dgx h100 superpod has at most 2048 nodes (64 scalable units)",
                 given<Nodes>);

  static constexpr system_figures figures = detail::make_dgx_superpod(
      "dgx h100 superpod", hardware::h100_sxm::figures, Nodes, detail::radix64_shape(8), true);
};

/// NVIDIA DGX SuperPOD with DGX B200 ([ra-b200]): as the H100 SuperPOD, with 8 B200 per node
/// (900 GB/s NVLink egress per GPU) and the same 400 GB/s of NDR per node.
template <std::int64_t Nodes>
struct dgx_b200_superpod {
  SHARDPLAN_RULE(Nodes >= 1, "shardplan: a dgx superpod has at least one node", given<Nodes>);
  SHARDPLAN_RULE(Nodes <= limits::dgx_b200_superpod_nodes,
                 "shardplan: a dgx b200 superpod has at most 2048 nodes (64 scalable units)",
                 given<Nodes>);

  static constexpr system_figures figures = detail::make_dgx_superpod(
      "dgx b200 superpod", hardware::b200::figures, Nodes, detail::radix64_shape(8), true);
};

/// NVIDIA DGX SuperPOD with DGX A100 ([ra-a100]): 8 A100 80 GB per node (300 GB/s NVLink egress
/// per GPU), SUs of 20 nodes on HDR InfiniBand (8 x 200 Gb/s = 200 GB/s per node), up to 7 SUs.
/// The reference design's upper switch tiers are non-blocking and modelled as one level joining
/// the SUs. NVSwitch gen 2 has no in-switch reduction; HDR switches run SHARP.
template <std::int64_t Nodes>
struct dgx_a100_superpod {
  SHARDPLAN_RULE(Nodes >= 1, "shardplan: a dgx superpod has at least one node", given<Nodes>);
  SHARDPLAN_RULE(Nodes <= limits::dgx_a100_superpod_nodes,
                 "shardplan: a dgx a100 superpod has at most 140 nodes (7 scalable units of 20)",
                 given<Nodes>);

  static constexpr system_figures figures = detail::make_dgx_superpod(
      "dgx a100 superpod", hardware::a100_80gb::figures, Nodes,
      {.nodes_per_su = 20, .max_sus_two_tier = 7, .sus_per_pod = 7}, false);
};

/// An H800 cluster as DeepSeek built it ([deepseek]): 8 H800 per node (200 GB/s NVLink egress per
/// GPU), one 400 Gb/s NIC per GPU, each NIC rail in its own plane, a two-layer fat tree of
/// 64-port switches per plane: leaves join 32 nodes, spines up to 64 leaves (2048 nodes). Traffic
/// between planes is forwarded inside a node over NVLink, which this model does not charge.
template <std::int64_t Nodes>
struct h800_cluster {
  SHARDPLAN_RULE(Nodes >= 1, "shardplan: an h800 cluster has at least one node", given<Nodes>);
  SHARDPLAN_RULE(Nodes <= limits::h800_cluster_nodes,
                 "shardplan: an h800 multi-plane fat tree has at most 2048 nodes (16384 gpus)",
                 given<Nodes>);

  static constexpr system_figures figures = detail::make_fat_tree(
      {.name = "h800 cluster",
       .chip = hardware::h800::figures,
       .nodes = Nodes,
       .gpus_per_node = 8,
       .shape = {.nodes_per_su = 32, .max_sus_two_tier = 64, .sus_per_pod = 64},
       .scale_out_link = link_kind::infiniband,
       .node_reduction = true,
       .scale_out_reduction = true});
};

/// GB200 NVL72 racks ([book]): 72 GPUs in one NVLink domain (900 GB/s egress per GPU, NVLink
/// SHARP in the NVSwitch trays), racks joined by a non-blocking InfiniBand fabric at the per-GPU
/// NIC rate (72 x 400 Gb/s = 3.6 TB/s per rack), SHARP-capable.
template <std::int64_t Racks>
struct gb200_nvl72 {
  SHARDPLAN_RULE(Racks >= 1, "shardplan: a gb200 nvl72 system has at least one rack", given<Racks>);
  // 65536 NIC ports in a three-tier fat tree of 64-port switches / 72 GPUs per rack.
  SHARDPLAN_RULE(Racks <= limits::gb200_nvl72_racks,
                 "shardplan: a gb200 nvl72 cluster has at most 910 racks (65536 gpus)",
                 given<Racks>);

  static constexpr system_figures figures =
      detail::make_gb200_nvl72(hardware::gb200::figures, Racks);
};

// ---------------------------------------------------------------------------------------------
// TPU systems

/// `Slices` TPU v5p slices of X x Y x Z chips: an ICI 3D torus per slice, wraparound on every
/// axis when the slice is whole 4x4x4 cubes and on none otherwise ([book]); slices joined over
/// DCN at 6.25e9 B/s per chip. A pod is 16x20x28 = 8960 chips ([book], [gc-v5p]; Google's docs
/// also cap one job at 16x16x24 = 6144 chips, which we do not enforce).
template <std::int64_t X, std::int64_t Y, std::int64_t Z, std::int64_t Slices = 1>
struct tpu_v5p_slice {
  SHARDPLAN_RULE(X >= 1 && Y >= 1 && Z >= 1,
                 "shardplan: a tpu slice has at least one chip along every axis", given<X, Y, Z>);
  SHARDPLAN_RULE(Slices >= 1, "shardplan: a tpu system has at least one slice", given<Slices>);
  SHARDPLAN_RULE(detail::fits_pod(X, Y, Z, 16, 20, 28),
                 "shardplan: a tpu v5p slice is at most 16x20x28 chips", given<X, Y, Z>);
  SHARDPLAN_RULE(detail::within_one_cube(X, Y, Z) || detail::whole_cubes(X, Y, Z),
                 "shardplan: a tpu v5p slice larger than one 4x4x4 cube is made of whole cubes",
                 given<X, Y, Z>);

  static constexpr system_figures figures =
      detail::make_tpu_system("tpu v5p slice", hardware::tpu_v5p::figures, {X, Y, Z},
                              detail::cube_wraps(X, Y, Z), 3, Slices);
};

/// `Slices` TPU v4 slices of X x Y x Z chips: as v5p, within a 16x16x16 pod ([book], [gc-v4]).
template <std::int64_t X, std::int64_t Y, std::int64_t Z, std::int64_t Slices = 1>
struct tpu_v4p_slice {
  SHARDPLAN_RULE(X >= 1 && Y >= 1 && Z >= 1,
                 "shardplan: a tpu slice has at least one chip along every axis", given<X, Y, Z>);
  SHARDPLAN_RULE(Slices >= 1, "shardplan: a tpu system has at least one slice", given<Slices>);
  SHARDPLAN_RULE(detail::fits_pod(X, Y, Z, 16, 16, 16),
                 "shardplan: a tpu v4p slice is at most 16x16x16 chips", given<X, Y, Z>);
  SHARDPLAN_RULE(detail::within_one_cube(X, Y, Z) || detail::whole_cubes(X, Y, Z),
                 "shardplan: a tpu v4p slice larger than one 4x4x4 cube is made of whole cubes",
                 given<X, Y, Z>);

  static constexpr system_figures figures =
      detail::make_tpu_system("tpu v4p slice", hardware::tpu_v4p::figures, {X, Y, Z},
                              detail::cube_wraps(X, Y, Z), 3, Slices);
};

/// `Slices` TPU7x slices of X x Y x Z chips: 4x4x4 cubes as on v5p, at most 9216 chips per pod
/// ([gc-7x]).
template <std::int64_t X, std::int64_t Y, std::int64_t Z, std::int64_t Slices = 1>
struct tpu7x_slice {
  SHARDPLAN_RULE(X >= 1 && Y >= 1 && Z >= 1,
                 "shardplan: a tpu slice has at least one chip along every axis", given<X, Y, Z>);
  SHARDPLAN_RULE(Slices >= 1, "shardplan: a tpu system has at least one slice", given<Slices>);
  SHARDPLAN_RULE(X* Y* Z <= limits::tpu7x_slice_chips,
                 "shardplan: a tpu7x slice is at most 9216 chips", given<X, Y, Z>);
  SHARDPLAN_RULE(detail::within_one_cube(X, Y, Z) || detail::whole_cubes(X, Y, Z),
                 "shardplan: a tpu7x slice larger than one 4x4x4 cube is made of whole cubes",
                 given<X, Y, Z>);

  static constexpr system_figures figures = detail::make_tpu_system(
      "tpu7x slice", hardware::tpu7x::figures, {X, Y, Z}, detail::cube_wraps(X, Y, Z), 3, Slices);
};

/// `Slices` TPU v5e slices of X x Y chips: an ICI 2D torus with wraparound only on an axis of
/// exactly 16 ([book]: "an 8x16 wraps on its long axis"); a pod is one 16x16 torus ([gc-v5e]),
/// slices and pods talk over DCN at 3.125e9 B/s per chip.
template <std::int64_t X, std::int64_t Y, std::int64_t Slices = 1>
struct tpu_v5e_slice {
  SHARDPLAN_RULE(X >= 1 && Y >= 1, "shardplan: a tpu slice has at least one chip along every axis",
                 given<X, Y>);
  SHARDPLAN_RULE(Slices >= 1, "shardplan: a tpu system has at least one slice", given<Slices>);
  SHARDPLAN_RULE(X <= 16 && Y <= 16, "shardplan: a tpu v5e slice is at most 16x16 chips",
                 given<X, Y>);

  static constexpr system_figures figures = detail::make_tpu_system(
      "tpu v5e slice", hardware::tpu_v5e::figures, {X, Y, 1}, {X == 16, Y == 16, false}, 2, Slices);
};

/// `Slices` TPU v6e slices of X x Y chips: as v5e (16x16 pods, wraparound only on an axis of 16),
/// DCN at 12.5e9 B/s per chip.
template <std::int64_t X, std::int64_t Y, std::int64_t Slices = 1>
struct tpu_v6e_slice {
  SHARDPLAN_RULE(X >= 1 && Y >= 1, "shardplan: a tpu slice has at least one chip along every axis",
                 given<X, Y>);
  SHARDPLAN_RULE(Slices >= 1, "shardplan: a tpu system has at least one slice", given<Slices>);
  SHARDPLAN_RULE(X <= 16 && Y <= 16, "shardplan: a tpu v6e slice is at most 16x16 chips",
                 given<X, Y>);

  static constexpr system_figures figures = detail::make_tpu_system(
      "tpu v6e slice", hardware::tpu_v6e::figures, {X, Y, 1}, {X == 16, Y == 16, false}, 2, Slices);
};

}  // namespace shardplan::systems
