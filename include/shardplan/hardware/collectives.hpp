// Collectives on the links a mesh axis crosses: all-gather, reduce-scatter, all-reduce,
// all-to-all and point-to-point sends, timed with How to Scale Your Model's cost models.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include <shardplan/hardware/placement.hpp>
#include <shardplan/core/units.hpp>

namespace shardplan {

enum class collective_kind : std::uint8_t {
  all_gather,
  reduce_scatter,
  all_reduce,
  all_to_all,
  send_recv,
};

/// The lower-case name of a collective ("all-gather").
constexpr std::string_view name_of(collective_kind k) {
  switch (k) {
    case collective_kind::all_gather: return "all-gather";
    case collective_kind::reduce_scatter: return "reduce-scatter";
    case collective_kind::all_reduce: return "all-reduce";
    case collective_kind::all_to_all: return "all-to-all";
    case collective_kind::send_recv: return "send-recv";
  }
  return "?";
}

/// One level a mesh axis's groups cross, and how much of it they use.
struct level_use {
  placement_level level{};
  std::int64_t degree = 1;        ///< D_i: units of the level below one group spans here
  std::int64_t unit_chips = 1;    ///< S_{i−1}: chips in one unit of the level below
  std::int64_t group_in_unit = 1; ///< members of one group inside one such unit
  /// Only the worst groups straddle two units here (the size does not divide the level
  /// below): such a group crosses through one chip's share of the unit's egress (one NIC).
  bool straddles = false;
};

/// The network one mesh axis's groups use: its size, the chips of the axes inside it (the
/// number of groups that run side by side) and every level it crosses.
struct axis_network {
  std::int64_t size = 1;
  std::int64_t inner = 1;
  std::array<level_use, max_placement_levels> uses{};
  std::size_t count = 0;
};

/// The levels an axis of `size` devices, inside axes of `inner` devices, crosses. At level i a
/// group spans D_i = ⌈min(inner·size, S_i) / max(inner, S_{i−1})⌉ units of the level below
/// (rounded up: a group strided by 280 chips over units of 160 still crosses the level above).
/// The worst group decides: when inner·size does not divide S_{i−1}, some group straddles two
/// units of the level below (`groups_within`), so D_i is at least 2 there: tensor 3 on 8-GPU
/// nodes has the group {6, 7, 8} on two nodes, and its collectives cross the leaf switches
/// through the one NIC of GPU 7 (`level_use::straddles`).
constexpr axis_network network_of(const placement_levels& levels, std::int64_t inner,
                                  std::int64_t size) {
  axis_network n{size, inner};
  const std::int64_t outer = inner * size;
  const std::int64_t devices = capacity(levels, static_cast<std::int64_t>(levels.count) - 1);
  for (std::size_t i = 0; i < levels.count; ++i) {
    const auto k = static_cast<std::int64_t>(i);
    const std::int64_t below = capacity(levels, k - 1);
    const std::int64_t here = capacity(levels, k);
    const std::int64_t span = std::min(outer, here);
    const std::int64_t unit = std::max(inner, below);
    std::int64_t degree = (span + unit - 1) / unit;
    const bool straddles =
        degree < 2 && inner < here && !groups_within(below, inner, size, devices);
    if (straddles) degree = 2;
    if (degree > 1)
      n.uses[n.count++] = {levels.level[i], degree, below, std::max<std::int64_t>(1, below / inner),
                           straddles};
  }
  return n;
}

/// Expected number of distinct devices a token's top-k routed experts live on, with experts
/// spread evenly over z devices and routing at random: z·(1 − ((z−1)/z)^k). A ragged (top-k)
/// all-to-all sends each token once to each of these devices, not k times (gpus.md: the
/// expected fraction (1 − ((Z−1)/Z)^K)·(Z−1)/Z of a token's copies leave its device).
constexpr double expected_destinations(std::int64_t top_k, std::int64_t devices) {
  if (devices <= 1) return 1.0;
  const double stay = static_cast<double>(devices - 1) / static_cast<double>(devices);
  double p = 1.0;
  for (std::int64_t i = 0; i < top_k; ++i) p *= stay;
  return static_cast<double>(devices) * (1.0 - p);
}

/// Per-peer cost of one round of sends to every peer over a switched network, on top of one
/// hop: an all-to-all posts D−1 sends and D−1 receives that progress side by side (NCCL's
/// all-to-all is a group of ncclSend/ncclRecv to every peer, "calls within a group can be seen
/// as progressing independently": NCCL user guide, "Point-to-point communication"). DeepEP's
/// low-latency dispatch (deepseek-ai/DeepEP docs/legacy.md: H800 with CX7 400 Gb/s, 128 tokens
/// of 7168 a rank, top-8) takes 192 us over 128 ranks and 194 us over 256 at the same bytes a
/// rank: 128 more peers add 2 us, about 16 ns a peer.
inline constexpr seconds all_to_all_peer_overhead = 2e-6 / 128.0 * second;

/// Options of the cost model.
struct collective_options {
  /// Reduce in the network (NVIDIA SHARP) where every switched level the axis crosses can.
  bool in_network_reduction = false;
  /// Charge the per-hop latency floor (small messages are latency-bound).
  bool latency = true;
  /// Charge what NCCL measures instead of the links' rates (`measured_link_share`,
  /// `measured_half_bandwidth_bytes`): off in the book's model, which the step estimate uses.
  bool measured = false;
};

/// The share of a link's one-way rate NCCL's ring collectives reach on large messages
/// (nccl-tests' bus bandwidth over the rate), by link:
/// - NVLink, 0.81: 8 H200 (NVLink 4, 450 GB/s a GPU) at 16 GiB, all-gather 361.4, reduce-scatter
///   362.9 and ring all-reduce 367.2 GB/s (stas00/ml-engineering network/README.md @744d01e1,
///   NCCL 2.27.7); 361.4/450 = 0.803, 367.2/450 = 0.816.
/// - NVLink with in-switch reduction (NVLS, all-reduce), 0.61 of the rate as algorithm
///   bandwidth: 478.87 GB/s bus bandwidth at 8 GB on 8 H100 (Azure/AI-benchmarking-guide
///   Azure Results/ND_H100_v5_results.md @f350e7e6, NCCL 2.18.5), 478.87 / (2·7/8) = 273.6 of 450.
/// - InfiniBand and RoCE, 0.94: "For NDR @ 400Gbps you should see 46-48GB/s per NIC"
///   (NVIDIA/nccl-tests issue 290, a maintainer); RoCE has no published figure here and takes
///   InfiniBand's.
/// - Every other link (ICI, Infinity Fabric, PCIe, DCN): 1, no NCCL measurement used.
constexpr double measured_link_share(link_kind k, bool in_switch_reduction = false) {
  switch (k) {
    case link_kind::nvlink: return in_switch_reduction ? 0.61 : 0.81;
    case link_kind::infiniband:
    case link_kind::roce: return 0.94;
    default: return 1.0;
  }
}

/// The message at which NCCL's collectives reach half their large-message bandwidth: it moves
/// V at the large-message rate times V/(V + 20 MiB). Fitted to the ratios of an 8-A100 all-reduce
/// to its 16 GiB plateau of 234.89 GB/s (stas00/ml-engineering network/README.md @744d01e1):
/// 171.54 at 64 MiB (0.730: 23.7 MiB), 222.72 at 512 MiB (0.948: 28 MiB), 18.00 at 1 MiB
/// (0.077: 12 MiB); 20 MiB is their middle. Below a few MiB NCCL's protocols and the launch
/// dominate and the published figures disagree by 2x (Azure's 8 A100 reach 36.22 GB/s at 1 MiB).
inline constexpr double measured_half_bandwidth_bytes = 20.0 * 1048576.0;

/// NCCL's ring protocols and its own model of their cost (src/graph/tuning.cc at v2.21.5-1,
/// `baseLat` and `hwLat`, ring column; NVIDIA/nccl): a collective over a ring of n ranks costs
/// a base latency, plus a latency per step of the ring (n − 1 steps for an all-gather or a
/// reduce-scatter, 2(n − 1) for an all-reduce) that depends on the link the step crosses, plus
/// its bytes at the protocol's share of the bus bandwidth; NCCL runs each call with the protocol
/// its model calls fastest.
/// - Simple: base 8.4 us, a step 3.4 us over NVLink and 14.0 us over the network (v2.8 to v2.10
///   had 9.6); the full bandwidth. The levels' `hop_latency` defaults are these two figures.
/// - LL128: base 14.0 us, a step 1.9 us over NVLink, 4.0 us over the network, 0.92 of the
///   bandwidth ("120.0/128.0" in the code; its per-channel cap is left out: the channel count is
///   not modelled, an assumption).
/// - LL: base 6.6 us, a step 0.6 us over NVLink (1.8 times that when the ring also crosses the
///   network) and 2.7 us over the network, a quarter of the bandwidth (a third for a gather or
///   scatter inside one node).
/// A level's steps are charged its `hop_latency` scaled by the protocol's ratio to Simple on that
/// kind of link (NVLink, Infinity Fabric and PCIe take NVLink's ratios, the rest the network's),
/// so a level the user gives a latency keeps it for Simple.
struct ring_protocol {
  double base_us;
  double scale_up_step_ratio;   ///< step latency over Simple's on NVLink-class links
  double scale_out_step_ratio;  ///< over Simple's on network links
  double bandwidth_share;
  double off_node_scale_up_factor;  ///< on the NVLink-class steps of a ring that leaves the node
  double in_node_gather_share;      ///< the share for a gather or scatter inside one node
};
inline constexpr std::array<ring_protocol, 3> nccl_ring_protocols = {{
    {8.4, 1.0, 1.0, 1.0, 1.0, 1.0},                                    // Simple
    {14.0, 1.9 / 3.4, 4.0 / 14.0, 120.0 / 128.0, 1.0, 120.0 / 128.0},  // LL128
    {6.6, 0.6 / 3.4, 2.7 / 14.0, 0.25, 1.8, 1.0 / 3.0},                // LL
}};

namespace detail {

/// One-way bandwidth one chip has along a torus level: both links of the axis when it wraps
/// (the book's bidirectional W_ici), one link otherwise.
constexpr byte_rate torus_bandwidth(const level_use& u, bool wraps) {
  return wraps ? u.level.unit_egress : u.level.unit_egress / 2.0;
}

/// Whether the group uses a whole torus axis with its wraparound.
constexpr bool uses_wraparound(const level_use& u) {
  return u.level.wraps && u.degree == u.level.degree;
}

}  // namespace detail

/// Time of one collective over an axis. `array` is the array as the book sizes it: the gathered
/// array of an all-gather, the input of a reduce-scatter, the operand of an all-reduce, the
/// whole array of an all-to-all (all shards together), the message of a send.
///
/// - Torus levels (TPU ICI), the book's ring costs: on one wrapping axis of X chips a
///   bidirectional ring, ⌈(X−1)/2⌉ steps of V/X each way, i.e. V/W_ici for even X; without
///   wraparound (X−1)·(V/X)/W_one-way; over several physical axes V/(W_ici·N_axes).
/// - Switched levels (NVLink, InfiniBand, DCN): the book's hierarchical form,
///   T = max_i V·(D_i−1)/D_i · min(inner, S_{i−1}) / W_i, where W_i is the egress of one unit of
///   the level below and min(inner, S_{i−1}) is how many groups share it (an array already
///   sharded over an inner axis moves less, the book's 1/max(Y, S_{i−1})).
/// - All-reduce is a reduce-scatter plus an all-gather, except with in-network reduction:
///   V/W on levels that reduce in the switch.
/// - All-to-all: V·max_axis/(4·N·W) on a wrapping torus (twice that without wraparound); on
///   switched levels each chip sends V/N·(1 − g/N) out of a unit of S chips holding g members.
/// - Send: V over the innermost level the axis crosses, at one chip's share of its egress.
/// - Latency on a torus: the ring's hops times the hop latency (half the ring when it wraps);
///   the result is the larger of that floor and the bandwidth time, as in the book.
/// - Latency on switched levels (NCCL): an all-gather, reduce-scatter or (without in-network
///   reduction) all-reduce runs as one flat ring over the group's ranks, n − 1 steps (twice for
///   an all-reduce), each crossing the level its two ranks are joined at: over 384 GPUs in 48
///   nodes, 336 NVLink steps and 47 InfiniBand steps. Time is the latency plus the bandwidth
///   time, by the fastest of NCCL's protocols (`nccl_ring_protocols`), as NCCL's tuner picks.
/// - An all-to-all is one round of direct sends instead, so its floor is one hop (the torus's
///   diameter in hops; the outermost switched level crossed, once) plus, where it crosses a
///   switched level (NCCL, DeepEP), `all_to_all_peer_overhead` per peer; a send is one hop. Both
///   take the larger of floor and bandwidth time.
constexpr seconds collective_time(collective_kind kind, bytes array, const axis_network& net,
                                  collective_options options = {}) {
  if (net.size <= 1 || net.count == 0) return 0.0 * second;
  const double v = array.value();
  const double n = static_cast<double>(net.size);
  double torus_bandwidth = 0.0;
  double torus_devices = 1.0;
  double max_torus_extent = 1.0;
  double torus_axis_bandwidth = 0.0;
  int torus_levels = 0;  // the narrowest spanned axis, for the bisection bound
  bool torus_wraps = true;
  double switched = 0.0;
  double switched_all_to_all = 0.0;
  double hops_latency = 0.0;
  double torus_diameter_latency = 0.0;
  double farthest_switched_hop = 0.0;
  double ring_scale_up = 0.0;   // a flat ring's step latencies on NVLink-class levels (Simple)
  double ring_scale_out = 0.0;  // and on network levels
  bool ring_crosses_network = false;
  bool reduce_in_network = options.in_network_reduction;
  bool any_switched = false;
  for (std::size_t i = 0; i < net.count; ++i) {
    const level_use& u = net.uses[i];
    const double d = static_cast<double>(u.degree);
    if (u.level.torus) {
      const bool wraps = detail::uses_wraparound(u);
      const double w = detail::torus_bandwidth(u, true).value();
      ++torus_levels;
      torus_bandwidth += detail::torus_bandwidth(u, wraps).value();
      torus_axis_bandwidth = torus_axis_bandwidth == 0.0 ? w : std::min(torus_axis_bandwidth, w);
      torus_devices *= d;
      max_torus_extent = std::max(max_torus_extent, d);
      torus_wraps = torus_wraps && wraps;
      hops_latency += (wraps ? d / 2.0 : d - 1.0) * u.level.hop_latency.value();
      torus_diameter_latency += (wraps ? d / 2.0 : d - 1.0) * u.level.hop_latency.value();
    } else {
      any_switched = true;
      const double share =
          static_cast<double>(u.straddles ? u.unit_chips : std::min(net.inner, u.unit_chips));
      const double w = u.level.unit_egress.value() *
                       (options.measured ? measured_link_share(u.level.link) : 1.0);
      switched = std::max(switched, v * (d - 1.0) / d * share / w);
      const double g = static_cast<double>(u.group_in_unit);
      switched_all_to_all = std::max(
          switched_all_to_all,
          static_cast<double>(u.unit_chips) * (v / n) * (1.0 - g / n) / w);
      hops_latency += (d - 1.0) * u.level.hop_latency.value();
      {
        // A flat ring's steps that cross this level and none above it: the units of the level
        // below the group spans, less those of the next switched level up.
        const auto units = [&net](std::int64_t members) {
          return (net.size + members - 1) / members;
        };
        std::int64_t above_units = 1;
        for (std::size_t j = i + 1; j < net.count; ++j)
          if (!net.uses[j].level.torus) {
            above_units = units(net.uses[j].group_in_unit);
            break;
          }
        const auto steps = static_cast<double>(units(u.group_in_unit) - above_units);
        const bool scale_up = u.level.link == link_kind::nvlink ||
                              u.level.link == link_kind::infinity_fabric ||
                              u.level.link == link_kind::pcie;
        (scale_up ? ring_scale_up : ring_scale_out) += steps * u.level.hop_latency.value();
        ring_crosses_network = ring_crosses_network || (!scale_up && steps > 0.0);
      }
      farthest_switched_hop = std::max(farthest_switched_hop, u.level.hop_latency.value());
      reduce_in_network = reduce_in_network && u.level.in_network_reduction;
    }
  }
  double torus_time = 0.0;
  if (torus_bandwidth > 0.0) {
    if (torus_levels > 1) {
      torus_time = v / torus_bandwidth;  // the book: V / (W_ici · N_axes)
    } else if (torus_wraps) {
      // A bidirectional ring receives two shards a step: ceil((X−1)/2) steps of V/X each way.
      const double x = torus_devices;
      const double steps = static_cast<double>((static_cast<std::int64_t>(x) - 1 + 1) / 2);
      torus_time = steps * 2.0 * v / (x * torus_bandwidth);
    } else {
      torus_time = v * (torus_devices - 1.0) / torus_devices / torus_bandwidth;
    }
  }
  const double gather = std::max(torus_time, switched);
  double bandwidth_time = 0.0;
  double latency = options.latency ? hops_latency : 0.0;
  switch (kind) {
    case collective_kind::all_gather:
    case collective_kind::reduce_scatter: bandwidth_time = gather; break;
    case collective_kind::all_reduce:
      if (reduce_in_network && any_switched && torus_bandwidth == 0.0) {
        // SHARP: each byte goes up to the switch once and comes back reduced.
        double t = 0.0;
        for (std::size_t i = 0; i < net.count; ++i) {
          const level_use& u = net.uses[i];
          const double share =
          static_cast<double>(u.straddles ? u.unit_chips : std::min(net.inner, u.unit_chips));
          const double rate = u.level.unit_egress.value() *
                              (options.measured ? measured_link_share(u.level.link, true) : 1.0);
          t = std::max(t, v * share / rate);
        }
        bandwidth_time = t;
      } else {
        bandwidth_time = 2.0 * gather;
        latency *= 2.0;
      }
      break;
    case collective_kind::all_to_all: {
      // The book's bisection bound: V·max(A, B, ...)/(4·N·W_ici), doubled without wraparound.
      const double torus_a2a =
          torus_axis_bandwidth > 0.0
              ? v * max_torus_extent / (4.0 * torus_devices * torus_axis_bandwidth) *
                    (torus_wraps ? 1.0 : 2.0)
              : 0.0;
      bandwidth_time = std::max(torus_a2a, switched_all_to_all);
      const double peers = any_switched ? (n - 1.0) * all_to_all_peer_overhead.value() : 0.0;
      latency = options.latency ? torus_diameter_latency + farthest_switched_hop + peers : 0.0;
      break;
    }
    case collective_kind::send_recv: {
      const level_use& u = net.uses[0];
      const double share = u.level.torus ? 1.0 : static_cast<double>(std::min(net.inner, u.unit_chips));
      const double w = u.level.torus ? u.level.unit_egress.value() / 2.0 : u.level.unit_egress.value();
      bandwidth_time = v * share / w;
      latency = options.latency ? u.level.hop_latency.value() : 0.0;
      break;
    }
  }
  // NCCL's ring and tree collectives reach their large-message rate only on large messages.
  if (options.measured && any_switched && torus_bandwidth == 0.0 && v > 0.0 &&
      (kind == collective_kind::all_reduce || kind == collective_kind::all_gather ||
       kind == collective_kind::reduce_scatter))
    bandwidth_time *= 1.0 + measured_half_bandwidth_bytes / v;
  // NCCL's rings on switched networks: latency plus bandwidth, by the fastest protocol.
  const bool ring =
      kind == collective_kind::all_gather || kind == collective_kind::reduce_scatter ||
      (kind == collective_kind::all_reduce && !(reduce_in_network && any_switched));
  if (options.latency && ring && any_switched && torus_bandwidth == 0.0) {
    const double passes = kind == collective_kind::all_reduce ? 2.0 : 1.0;
    const bool in_node_gather = kind != collective_kind::all_reduce && !ring_crosses_network;
    double best = 0.0;
    for (const ring_protocol& q : nccl_ring_protocols) {
      const double up =
          q.scale_up_step_ratio * (ring_crosses_network ? q.off_node_scale_up_factor : 1.0);
      const double share = in_node_gather ? q.in_node_gather_share : q.bandwidth_share;
      const double t = q.base_us * 1e-6 +
                       passes * (up * ring_scale_up + q.scale_out_step_ratio * ring_scale_out) +
                       bandwidth_time / share;
      if (best == 0.0 || t < best) best = t;
    }
    return best * second;
  }
  return std::max(bandwidth_time, latency) * second;
}

}  // namespace shardplan
