// Tests of collectives.hpp against How to Scale Your Model's worked answers (sharding.md, gpus.md).
#include <doctest/doctest.h>

#include <shardplan/hardware/collectives.hpp>
#include <shardplan/hardware/systems.hpp>

using namespace shardplan;

namespace {

seconds time_on(const system_figures& s, collective_kind k, bytes v, std::int64_t inner,
                std::int64_t size, collective_options o = {}) {
  return collective_time(k, v, network_of(levels_of(s), inner, size), o);
}

constexpr collective_options bandwidth_only{.latency = false};

/// In microseconds: doctest's Approx compares with an absolute floor of its epsilon (scale 1), so
/// times of microseconds are compared in microseconds.
double us(seconds t) { return t.value() * 1e6; }

}  // namespace

TEST_CASE("a bidirectional ring all-gathers V in V/W_ici whatever its size") {
  // sharding.md: T = V / W_ici with W_ici = 2 x 4.5e10 on a v5e axis of 16 (it wraps).
  const auto& s = systems::tpu_v5e_slice<16, 16>::figures;
  const bytes v = 34e6 * byte;
  CHECK(time_on(s, collective_kind::all_gather, v, 1, 16, bandwidth_only).value() ==
        doctest::Approx(34e6 / 9e10).scale(0.0));
}

TEST_CASE("pop quiz 2: all-gather over a 4-chip v5e axis without wraparound takes 560 us") {
  // sharding.md Pop Quiz 2: bf16[2048, 8192] = 33.5 MB over Y = 4 of a {X: 8, Y: 4} v5e mesh;
  // no wraparound (4 < 16): 3 · 8.4e6 / 4.5e10 = 560 us.
  const auto& s = systems::tpu_v5e_slice<4, 8>::figures;
  const bytes v = 2.0 * 2048 * 8192 * byte;
  CHECK(time_on(s, collective_kind::all_gather, v, 1, 4, bandwidth_only).value() ==
        doctest::Approx(3 * (v.value() / 4) / 4.5e10).scale(0.0));
  CHECK(time_on(s, collective_kind::all_gather, v, 1, 4).value() ==
        doctest::Approx(560e-6).epsilon(0.01).scale(0.0));
}

TEST_CASE("a small all-gather is latency-bound: about 3 us for 3 hops") {
  // Pop Quiz 2, E = F = 256: a 32 kB shard, 3 hops of ~1 us.
  const auto& s = systems::tpu_v5e_slice<4, 8>::figures;
  CHECK(us(time_on(s, collective_kind::all_gather, 2.0 * 256 * 256 * byte, 1, 4)) ==
        doctest::Approx(3.0).scale(0.0));
}

TEST_CASE("q2 on a v4p 4x4x4: all-gathers over one and two axes, an all-reduce over a third") {
  // sharding.md Q2, B = 1024, D = 4096 bf16, W_ici = 9e10 bidirectional, mesh {X 4, Y 4, Z 4}.
  // AllGather_X([B_X, D_Y]): 2BD/(W·Y) = 23 us; AllGather_XY([B_X, D_Y]) = 2BD/(2W) = 46 us;
  // AllReduce_Z([B_X, D_Y]{U_Z}) = 4BD/(XYW) = 11.6 us.
  const auto& s = systems::tpu_v4p_slice<4, 4, 4>::figures;
  const double bd2 = 2.0 * 1024 * 4096;
  // Mesh (X, Y, Z) outermost first: Z innermost on ici-x, Y on ici-y, X on ici-z.
  CHECK(time_on(s, collective_kind::all_gather, bd2 / 4 * byte, 16, 4, bandwidth_only).value() ==
        doctest::Approx(23.3e-6).epsilon(0.01).scale(0.0));
  CHECK(time_on(s, collective_kind::all_gather, bd2 * byte, 4, 16, bandwidth_only).value() ==
        doctest::Approx(46.6e-6).epsilon(0.01).scale(0.0));
  CHECK(time_on(s, collective_kind::all_reduce, bd2 / 16 * byte, 1, 4, bandwidth_only).value() ==
        doctest::Approx(11.65e-6).epsilon(0.01).scale(0.0));
}

TEST_CASE("inside an h100 node an all-gather runs at the gpu's 450 GB/s egress") {
  // gpus.md: T = bytes·(N−1)/(N·W_GPU egress).
  const auto& s = systems::dgx_h100_superpod<1>::figures;
  CHECK(time_on(s, collective_kind::all_gather, 1e9 * byte, 1, 8, bandwidth_only).value() ==
        doctest::Approx(1e9 * 7 / (8 * 450e9)).scale(0.0));
}

TEST_CASE("across a superpod the leaf level bounds the all-gather at 413 GB/s") {
  // gpus.md: bytes·max_i (D_i−1)/(D_i·W_i) with node 450e9·8/7, leaf 400e9·32/31 and spine
  // 12.8e12·4/3: the minimum, 413 GB/s, sets the time.
  const auto& s = systems::dgx_h100_superpod<128>::figures;
  CHECK(time_on(s, collective_kind::all_gather, 1e9 * byte, 1, 1024, bandwidth_only).value() ==
        doctest::Approx(1e9 / (400e9 * 32 / 31)).scale(0.0));
}

TEST_CASE("an outer reduction over an array sharded on the node is cheaper by the node's size") {
  // gpus.md: with the array also sharded over an inner axis Y = 8 spanning the node, the
  // cross-node cost is bytes/W_node·D_node/max(D_node, Y): the 8 groups each move bytes/8 and
  // share the node's 400 GB/s.
  const auto& s = systems::dgx_h100_superpod<32>::figures;
  const double bytes_total = 8e9;
  CHECK(time_on(s, collective_kind::reduce_scatter, bytes_total / 8 * byte, 8, 32, bandwidth_only)
            .value() == doctest::Approx(bytes_total * 31 / (32 * 8 * 50e9)).scale(0.0));
}

TEST_CASE("sharp all-reduces at the egress, without the 2x of a ring") {
  // gpus.md: T_SHARP AR = bytes / W_GPU egress.
  const auto& s = systems::dgx_h100_superpod<1>::figures;
  const collective_options sharp{.in_network_reduction = true, .latency = false};
  CHECK(time_on(s, collective_kind::all_reduce, 1e9 * byte, 1, 8, sharp).value() ==
        doctest::Approx(1e9 / 450e9).scale(0.0));
  CHECK(time_on(s, collective_kind::all_reduce, 1e9 * byte, 1, 8, bandwidth_only).value() ==
        doctest::Approx(2 * 1e9 * 7 / (8 * 450e9)).scale(0.0));
}

TEST_CASE("a top-k token reaches z(1 - ((z-1)/z)^k) distinct devices") {
  // gpus.md: the expected fraction of a token's copies that leave is (1−((Z−1)/Z)^K)·(Z−1)/Z;
  // DeepSeek-V3's top-8 of 256 experts over 64 devices: 64·(1 − (63/64)^8).
  double stay = 1.0;
  for (int i = 0; i < 8; ++i) stay *= 63.0 / 64.0;
  CHECK(expected_destinations(8, 64) == doctest::Approx(64 * (1 - stay)).scale(0.0));
  CHECK(expected_destinations(2, 8) == doctest::Approx(8 * (1 - 49.0 / 64)).scale(0.0));
  CHECK(expected_destinations(1, 16) == doctest::Approx(1.0).scale(0.0));
  CHECK(expected_destinations(8, 1) == 1.0);
}

TEST_CASE("all-to-all: a quarter of an all-gather on a wrapping ring, B/(W·N) in a node") {
  // sharding.md: V/(4·W_ici) on a bidirectional ring; gpus.md: B·(N−1)/(W·N²) in a node and
  // B·(M−1)/(M²·W_node) across M nodes.
  const auto& tpu = systems::tpu_v5e_slice<16, 16>::figures;
  CHECK(time_on(tpu, collective_kind::all_to_all, 1e9 * byte, 1, 16, bandwidth_only).value() ==
        doctest::Approx(1e9 / (4 * 9e10)).scale(0.0));
  const auto& gpu = systems::dgx_h100_superpod<2>::figures;
  CHECK(time_on(gpu, collective_kind::all_to_all, 1e9 * byte, 1, 8, bandwidth_only).value() ==
        doctest::Approx(1e9 * 7 / (64 * 450e9)).scale(0.0));
  CHECK(time_on(gpu, collective_kind::all_to_all, 1e9 * byte, 1, 16, bandwidth_only).value() ==
        doctest::Approx(1e9 * 1 / (4 * 400e9)).scale(0.0));
}

TEST_CASE(
    "an all-to-all is one round of direct sends: over 256 gpus 18 us where a ring takes 332") {
  // Issue 15 finding 6. A flat ring of 256 ranks on 32 DGX H100 nodes takes 224 NVLink steps
  // and 31 InfiniBand steps; for 256 bytes NCCL's fastest protocol is LL (nccl_ring_protocols,
  // from NCCL's tuning.cc): 6.6 us + 224 · 0.6 · 1.8 us (LL's NVLink step, 1.8 times over a
  // ring that leaves the node) + 31 · 2.7 us = 332.2 us (LL128: 14 + 224 · 1.9 + 31 · 4 = 564;
  // Simple: 8.4 + 224 · 3.4 + 31 · 14 = 1204). An all-to-all posts every send at once (NCCL: a
  // group of ncclSend/ncclRecv to every peer, "progressing independently"), so its floor is one
  // InfiniBand hop, 14 us, plus 16 ns per peer (DeepEP: 192 -> 194 us from 128 to 256 ranks),
  // 255 · 2 us/128.
  const auto& s = systems::dgx_h100_superpod<32>::figures;
  const bytes tiny = 256.0 * byte;
  CHECK(us(time_on(s, collective_kind::all_gather, tiny, 1, 256)) ==
        doctest::Approx(6.6 + 224 * 0.6 * 1.8 + 31 * 2.7).epsilon(1e-4).scale(0.0));
  CHECK(us(time_on(s, collective_kind::all_to_all, tiny, 1, 256)) ==
        doctest::Approx(14.0 + 255 * 2.0 / 128).scale(0.0));
  // Inside one node: one NVLink hop plus 7 peers.
  CHECK(us(time_on(s, collective_kind::all_to_all, tiny, 1, 8)) ==
        doctest::Approx(3.4 + 7 * 2.0 / 128).scale(0.0));
}

TEST_CASE("an nccl ring pays its latency on top of its bytes, by the fastest protocol") {
  // 16 H100 in two DGX nodes: a flat ring of 14 NVLink steps and 1 InfiniBand step. The bytes
  // (the book's hierarchical form): the NVLink level's V·7/8 / 450 GB/s (the node's 8 x 400 Gb/s
  // NICs carry half of V in V/2 / 400 GB/s, faster).
  const auto& s = systems::dgx_h100_superpod<2>::figures;
  const double big = 1073741824.0;  // 1 GiB: Simple, 8.4 + 14 · 3.4 + 14 = 70 us on top
  CHECK(us(time_on(s, collective_kind::all_gather, big * byte, 1, 16)) ==
        doctest::Approx(big * 7 / 8 / 450e3 + 70.0).scale(0.0));
  // (LL128 would take 14 + 14 · 1.9 + 4 = 44.6 us plus the bytes at 120/128 of the rate.)
  CHECK(us(time_on(s, collective_kind::all_gather, big * byte, 1, 16)) <
        44.6 + big * 7 / 8 / 450e3 / (120.0 / 128.0));
  // An all-reduce is a reduce-scatter and an all-gather: twice the steps and the bytes.
  CHECK(us(time_on(s, collective_kind::all_reduce, big * byte, 1, 16)) ==
        doctest::Approx(2 * big * 7 / 8 / 450e3 + 8.4 + 2 * (14 * 3.4 + 14.0)).scale(0.0));
  // 64 KiB: LL, 6.6 + 14 · 0.6 · 1.8 + 2.7 = 24.42 us plus the bytes at a quarter of the rate.
  const double small = 65536.0;
  CHECK(us(time_on(s, collective_kind::all_gather, small * byte, 1, 16)) ==
        doctest::Approx(24.42 + 4 * small * 7 / 8 / 450e3).scale(0.0));
  // The book's model: the larger of the bytes and the hops (7 · 3.4 + 1 · 14 us), not the sum.
  CHECK(us(time_on(s, collective_kind::all_gather, big * byte, 1, 16, bandwidth_only)) ==
        doctest::Approx(big * 7 / 8 / 450e3).scale(0.0));
}

TEST_CASE("a ring's latency grows with its ranks: zero-3 gathers over 384 and 1536 a100s") {
  // DeepSpeed's ZeRO-3 of 2021 gathers each of GPT-3 175B's tensors alone (302 MB on average)
  // over every rank (Narayanan et al. 2021, Table 2). 384 A100 = 48 DGX nodes: 336 NVLink
  // steps and 47 InfiniBand steps. LL128 is fastest: 14 + 336 · 1.9 + 47 · 4.0 = 840.4 us,
  // plus the bytes at 120/128 of the hierarchical rate: the leaf level joins 32 nodes of
  // 8 x 25 GB/s, 302 MB · 31/32 / 200 GB/s = 1462.8 us. 1536 A100 (192 nodes): 14 + 1344 · 1.9 +
  // 191 · 4.0 = 3331.6 us, the bytes the same: the latency grows four-fold and dominates.
  using a100_384 = systems::nvlink_fat_tree<hardware::a100_80gb, 48>;
  using a100_1536 = systems::nvlink_fat_tree<hardware::a100_80gb, 192>;
  const bytes v = 302e6 * byte;
  const double bytes_time = 302e6 * 31.0 / 32.0 / 200e3 / (120.0 / 128.0);  // us
  CHECK(us(time_on(a100_384::figures, collective_kind::all_gather, v, 1, 384)) ==
        doctest::Approx(840.4 + bytes_time).scale(0.0));
  CHECK(us(time_on(a100_1536::figures, collective_kind::all_gather, v, 1, 1536)) ==
        doctest::Approx(3331.6 + bytes_time).epsilon(0.01).scale(0.0));
}

TEST_CASE("deepep's 256-rank dispatch is not faster than the model says, nor 40% slower") {
  // DeepEP (docs/legacy.md, low-latency kernels, H800 + CX7 400 Gb/s): 128 tokens of 7168 a
  // rank in fp8, top-8 of 256 experts over 256 ranks: dispatch 194 us at 39 GB/s. Each token
  // goes to the distinct ranks of its 8 experts, 256·(1 − (255/256)^8) = 7.89 of them; the
  // array is every rank's sends. Our 32 DGX H100 nodes have the same 400 Gb/s a GPU and NVLink
  // inside, which a node's 8/256 of the traffic uses: the bound is 7.24 MB·(1 − 8/256)/50 GB/s.
  const auto& s = systems::dgx_h100_superpod<32>::figures;
  const double per_rank = 128.0 * 7168 * expected_destinations(8, 256);
  const double t =
      time_on(s, collective_kind::all_to_all, per_rank * 256 * byte, 1, 256).value();
  CHECK(t == doctest::Approx(per_rank * (1 - 8.0 / 256) / 50e9).scale(0.0));
  CHECK(t <= 194e-6);
  CHECK(t >= 0.6 * 194e-6);
}

TEST_CASE("a torus all-to-all's floor is the torus diameter in hops") {
  // A wrapping 16-chip v5e axis: the farthest chip is 8 hops of 1 us away (no per-peer figure
  // is published for ICI, so none is charged); over 16 x 16 it is 8 + 8.
  const auto& s = systems::tpu_v5e_slice<16, 16>::figures;
  CHECK(us(time_on(s, collective_kind::all_to_all, 256.0 * byte, 1, 16)) ==
        doctest::Approx(8.0).scale(0.0));
  CHECK(us(time_on(s, collective_kind::all_to_all, 256.0 * byte, 1, 256)) ==
        doctest::Approx(16.0).scale(0.0));
}

// --- NCCL as measured: nccl-tests' bus bandwidth (doc/PERFORMANCE.md of NVIDIA/nccl-tests:
// all-reduce B = S/t·2(n−1)/n, all-gather and reduce-scatter S/t·(n−1)/n, S the whole buffer).

namespace {

constexpr collective_options measured{.measured = true};

double bus_bandwidth(const system_figures& s, collective_kind k, double size, std::int64_t n,
                     collective_options o = measured) {
  const double t = time_on(s, k, size * byte, 1, n, o).value();
  const double ranks = static_cast<double>(n);
  const double factor =
      k == collective_kind::all_reduce ? 2.0 * (ranks - 1.0) / ranks : (ranks - 1.0) / ranks;
  return size / t * factor / 1e9;
}

constexpr double mib = 1048576.0;

}  // namespace

TEST_CASE("an 8-gpu nvlink 4 node's ring collectives reach what nccl-tests measures") {
  const auto& s = systems::dgx_h100_superpod<1>::figures;
  // Calibration (measured_link_share): 8 H200, 16 GiB, stas00/ml-engineering @744d01e1:
  // all-gather 361.4, reduce-scatter 362.9, ring all-reduce 367.2 GB/s.
  CHECK(bus_bandwidth(s, collective_kind::all_gather, 16384 * mib, 8) ==
        doctest::Approx(361.4).epsilon(0.03).scale(0.0));
  CHECK(bus_bandwidth(s, collective_kind::reduce_scatter, 16384 * mib, 8) ==
        doctest::Approx(362.9).epsilon(0.03).scale(0.0));
  CHECK(bus_bandwidth(s, collective_kind::all_reduce, 16384 * mib, 8) ==
        doctest::Approx(367.2).epsilon(0.03).scale(0.0));
  // Not fitted: NVIDIA/nccl-tests issue 212 (a maintainer): "~370" GB/s with NCCL_ALGO=RING on
  // 8 H100; issue 1455 of NVIDIA/nccl: RING 365-370 at 2-4 GB.
  CHECK(bus_bandwidth(s, collective_kind::all_reduce, 4096 * mib, 8) ==
        doctest::Approx(367.5).epsilon(0.05).scale(0.0));
  // The book's model charges the links' 450 GB/s.
  CHECK(bus_bandwidth(s, collective_kind::all_gather, 16384 * mib, 8, bandwidth_only) ==
        doctest::Approx(450.0).scale(0.0));
}

TEST_CASE("an 8-gpu nvlink 3 node's all-reduce by message size, as nccl-tests measures it") {
  const auto& s = systems::dgx_a100_superpod<1>::figures;
  // stas00/ml-engineering @744d01e1 (8 A100, all_reduce_perf -g 8): 234.89 GB/s at 16 GiB,
  // 222.72 at 512 MiB, 171.54 at 64 MiB (their ratios set the 20 MiB half point; the plateau
  // share is the H200 node's, so the 16 GiB figure is a check).
  CHECK(bus_bandwidth(s, collective_kind::all_reduce, 16384 * mib, 8) ==
        doctest::Approx(234.89).epsilon(0.05).scale(0.0));
  CHECK(bus_bandwidth(s, collective_kind::all_reduce, 512 * mib, 8) ==
        doctest::Approx(222.72).epsilon(0.05).scale(0.0));
  CHECK(bus_bandwidth(s, collective_kind::all_reduce, 64 * mib, 8) ==
        doctest::Approx(171.54).epsilon(0.08).scale(0.0));
  // Not fitted: Azure ND A100 v4 (8 A100 SXM4 80GB, NCCL 2.18.5;
  // Azure/AI-benchmarking-guide Azure_Results/ND_A100_v4_results.md @3bb66cac): 231.58 at 8 GB,
  // 166.63 at 64 MB (nccl-tests' sizes are powers of two bytes: 2^33 and 2^26).
  CHECK(bus_bandwidth(s, collective_kind::all_reduce, 8192 * mib, 8) ==
        doctest::Approx(231.58).epsilon(0.05).scale(0.0));
  CHECK(bus_bandwidth(s, collective_kind::all_reduce, 64 * mib, 8) ==
        doctest::Approx(166.63).epsilon(0.10).scale(0.0));
}

TEST_CASE("nvls all-reduces in the nvswitch at what nccl-tests measures on 8 h100") {
  // Azure ND H100 v5, NCCL 2.18.5 with NVLS (Azure/AI-benchmarking-guide
  // Azure Results/ND_H100_v5_results.md @f350e7e6): 478.87 GB/s at 8 GB (the share's source),
  // 466.35 at 1 GB and 400.61 at 128 MB (checks of the half point).
  const auto& s = systems::dgx_h100_superpod<1>::figures;
  collective_options nvls = measured;
  nvls.in_network_reduction = true;
  system_figures switched = s;
  switched.levels[0].in_network_reduction = true;
  CHECK(bus_bandwidth(switched, collective_kind::all_reduce, 8192 * mib, 8, nvls) ==
        doctest::Approx(478.87).epsilon(0.03).scale(0.0));
  CHECK(bus_bandwidth(switched, collective_kind::all_reduce, 1024 * mib, 8, nvls) ==
        doctest::Approx(466.35).epsilon(0.05).scale(0.0));
  CHECK(bus_bandwidth(switched, collective_kind::all_reduce, 128 * mib, 8, nvls) ==
        doctest::Approx(400.61).epsilon(0.10).scale(0.0));
}

TEST_CASE("across dgx a100 nodes the all-reduce runs at the eight 200 Gb/s nics' measured rate") {
  // NVIDIA/nccl issue 812 (a maintainer): DGX A100 nodes with "8x200Gbit/s IB cards and we
  // measure 192GB/s AllReduce BusBW". Not fitted (the InfiniBand share is NDR's 46-48 of 50).
  const auto& s = systems::dgx_a100_superpod<16>::figures;
  CHECK(bus_bandwidth(s, collective_kind::all_reduce, 16384 * mib, 128) ==
        doctest::Approx(192.0).epsilon(0.05).scale(0.0));
}
