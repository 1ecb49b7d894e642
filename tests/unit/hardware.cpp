// Unit tests of the hardware catalogue (tpu.hpp, nvidia.hpp, amd.hpp, cpu.hpp, systems.hpp,
// catalog.hpp): every figure against its source, the book's intensities, and the systems.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/hana/for_each.hpp>
#include <cstdint>
#include <shardplan/hardware/catalog.hpp>
#include <string>
#include <string_view>

namespace {

using namespace shardplan;
namespace hw = shardplan::hardware;
namespace sys = shardplan::systems;

/// One figure of one chip: what our type says, what the source says (in base units: FLOP/s, B,
/// B/s, counts), and where the expected number comes from.
struct figure_row {
  std::string_view figure;
  double actual;
  double expected;
  std::string_view source;
};

constexpr double gib = 1024.0 * 1024.0 * 1024.0;

// Abbreviations in the source column: GC = Google Cloud TPU docs page; book = "How to Scale Your
// Model" (tpus.md / gpus.md tables); DS = vendor datasheet (sparse rates halved); "assumption" =
// our own choice, documented in the header.
const figure_row chip_rows[] = {
    // ---- TPU v4 ----------------------------------------------------------------------------
    {"v4p bf16", hw::tpu_v4p::figures.peak_bf16.value(), 275e12,
     "GC v4: 275 teraflops (bf16 or int8)"},
    {"v4p int8", hw::tpu_v4p::figures.peak_int8.value(), 275e12,
     "GC v4: 275 teraflops (bf16 or int8)"},
    {"v4p hbm", hw::tpu_v4p::figures.memory.value(), 32.0 * gib, "GC v4: 32 GiB"},
    {"v4p hbm bw", hw::tpu_v4p::figures.memory_bandwidth.value(), 1200e9, "GC v4: 1200 GBps"},
    {"v4p ici link", hw::tpu_v4p::figures.scale_up_link_bandwidth.value(), 4.5e10,
     "book ICI table, one-way"},
    {"v4p ici links", double(hw::tpu_v4p::figures.scale_up_links), 6.0,
     "book: 3D torus, 6 neighbours"},
    {"v4p dcn", hw::tpu_v4p::figures.scale_out_bandwidth.value(), 6.25e9,
     "book: DCN typically 6.25e9 per TPU"},
    {"v4p pcie", hw::tpu_v4p::figures.host_link_bandwidth.value(), 16e9,
     "book: v4 PCIe 16GB/s each way"},
    // ---- TPU v5e ---------------------------------------------------------------------------
    {"v5e fp32 vpu", hw::tpu_v5e::figures.peak_fp32.value(), 4096.0 * 1.5e9,
     "book: 4096 VPU ALUs x 1.5 GHz (derived)"},
    {"v5e bf16", hw::tpu_v5e::figures.peak_bf16.value(), 197e12,
     "GC v5e: 197 TFLOPs; book 1.97e14"},
    {"v5e int8", hw::tpu_v5e::figures.peak_int8.value(), 393e12, "GC v5e: 393 TOPs"},
    {"v5e hbm", hw::tpu_v5e::figures.memory.value(), 16e9, "GC v5e: 16 GB"},
    {"v5e hbm bw", hw::tpu_v5e::figures.memory_bandwidth.value(), 819e9, "GC v5e: 819 GBps"},
    {"v5e ici link", hw::tpu_v5e::figures.scale_up_link_bandwidth.value(), 4.5e10,
     "book ICI table, one-way"},
    {"v5e ici links", double(hw::tpu_v5e::figures.scale_up_links), 4.0,
     "GC v5e: ICI ports per chip 4"},
    {"v5e dcn", hw::tpu_v5e::figures.scale_out_bandwidth.value(), 3.125e9,
     "GC v5e: 2x100 Gbps per 8 chips; book 3.125e9"},
    {"v5e pcie", hw::tpu_v5e::figures.host_link_bandwidth.value(), 1.6e10,
     "book: PCIe about 1.6e10 per TPU"},
    {"v5e host dram", hw::tpu_v5e::figures.host_memory.value(), 64.0 * gib,
     "GC v5e: 512 GiB per 8-chip host"},
    // ---- TPU v5p ---------------------------------------------------------------------------
    {"v5p fp32 vpu", hw::tpu_v5p::figures.peak_fp32.value(), 2.0 * 4096.0 * 1.75e9,
     "book: 2 cores x 4096 ALUs x 1.75 GHz (derived)"},
    {"v5p bf16", hw::tpu_v5p::figures.peak_bf16.value(), 459e12,
     "GC v5p: 459 TFLOPs; book 4.59e14"},
    {"v5p fp8", hw::tpu_v5p::figures.peak_fp8.value(), 459e12, "GC v5p: FP8 459 TFLOPs"},
    {"v5p int8", hw::tpu_v5p::figures.peak_int8.value(), 918e12, "book: 9.18e14"},
    {"v5p hbm", hw::tpu_v5p::figures.memory.value(), 95.0 * gib, "GC v5p / tpu7x tables: 95 GiB"},
    {"v5p hbm bw", hw::tpu_v5p::figures.memory_bandwidth.value(), 2765e9, "GC v5p: 2765 GBps"},
    {"v5p ici link", hw::tpu_v5p::figures.scale_up_link_bandwidth.value(), 9e10,
     "book ICI table, one-way"},
    {"v5p ici links", double(hw::tpu_v5p::figures.scale_up_links), 6.0,
     "book: 3D torus, 6 neighbours"},
    {"v5p dcn", hw::tpu_v5p::figures.scale_out_bandwidth.value(), 6.25e9,
     "GC v5p: 50 Gbps per chip; book 6.25e9"},
    {"v5p pcie", hw::tpu_v5p::figures.host_link_bandwidth.value(), 1.6e10,
     "book: PCIe about 1.6e10 per TPU"},
    {"v5p host ram", hw::tpu_v5p::figures.host_memory.value(), 448.0 * 1073741824 / 4,
     "GC v5p: 448 GB per 4-chip VM, Compute Engine GB = GiB (gcloud machine-types)"},
    // ---- TPU v6e ---------------------------------------------------------------------------
    {"v6e bf16", hw::tpu_v6e::figures.peak_bf16.value(), 918e12, "GC v6e: 918 TFLOPs"},
    {"v6e fp8", hw::tpu_v6e::figures.peak_fp8.value(), 918e12, "GC tpu7x table: v6e FP8 918"},
    {"v6e int8", hw::tpu_v6e::figures.peak_int8.value(), 1836e12, "GC v6e: 1836 TOPs"},
    {"v6e hbm", hw::tpu_v6e::figures.memory.value(), 32e9, "GC v6e: 32 GB"},
    {"v6e hbm bw", hw::tpu_v6e::figures.memory_bandwidth.value(), 1638e9, "GC v6e: 1638 GBps"},
    {"v6e ici link", hw::tpu_v6e::figures.scale_up_link_bandwidth.value(), 9e10,
     "book ICI table, one-way"},
    {"v6e ici links", double(hw::tpu_v6e::figures.scale_up_links), 4.0,
     "GC v6e: ICI ports per chip 4"},
    {"v6e dcn", hw::tpu_v6e::figures.scale_out_bandwidth.value(), 12.5e9,
     "GC tpu7x table: 100 Gbps; book 12.5e9"},
    {"v6e pcie", hw::tpu_v6e::figures.host_link_bandwidth.value(), 3.2e10, "book: 3.2e10 on v6e"},
    {"v6e host dram", hw::tpu_v6e::figures.host_memory.value(), 192.0 * gib,
     "GC v6e: 1536 GiB per 8-chip host"},
    // ---- TPU7x -----------------------------------------------------------------------------
    {"7x bf16", hw::tpu7x::figures.peak_bf16.value(), 2307e12, "GC tpu7x: 2307 TFLOPs"},
    {"7x fp8", hw::tpu7x::figures.peak_fp8.value(), 4614e12, "GC tpu7x: 4614 TFLOPs"},
    {"7x int8", hw::tpu7x::figures.peak_int8.value(), 4.61e15, "book: 4.61e15"},
    {"7x hbm", hw::tpu7x::figures.memory.value(), 192.0 * gib, "GC tpu7x: 192 GiB"},
    {"7x hbm bw", hw::tpu7x::figures.memory_bandwidth.value(), 7380e9, "GC tpu7x: 7380 GB/s"},
    {"7x ici link", hw::tpu7x::figures.scale_up_link_bandwidth.value(), 9e10,
     "book ICI table, one-way"},
    {"7x ici links", double(hw::tpu7x::figures.scale_up_links), 6.0, "3D torus, 6 neighbours"},
    {"7x dcn", hw::tpu7x::figures.scale_out_bandwidth.value(), 12.5e9,
     "GC tpu7x: 100 Gbps; book 12.5e9"},
    {"7x host link", hw::tpu7x::figures.host_link_bandwidth.value(), 3.2e10,
     "assumption: v6e's 3.2e10"},
    {"7x host ram", hw::tpu7x::figures.host_memory.value(), 960.0 * 1073741824 / 4,
     "GC tpu7x: 960 GB per 4-chip VM, Compute Engine GB = GiB (gcloud machine-types)"},
    // ---- A100 40 GB / 80 GB ------------------------------------------------------------------
    {"a100 fp32", hw::a100_40gb::figures.peak_fp32.value(), 19.5e12, "A100 DS: 19.5 TFLOPS"},
    {"a100 tf32", hw::a100_40gb::figures.peak_tf32.value(), 156e12, "A100 DS: 156 (312 sparse)"},
    {"a100 bf16", hw::a100_40gb::figures.peak_bf16.value(), 312e12, "A100 DS: 312 (624 sparse)"},
    {"a100 fp16", hw::a100_40gb::figures.peak_fp16.value(), 312e12, "A100 DS: 312 (624 sparse)"},
    {"a100 int8", hw::a100_40gb::figures.peak_int8.value(), 624e12, "A100 DS: 624 TOPS"},
    {"a100 int4", hw::a100_40gb::figures.peak_int4.value(), 1248e12, "A100 DS: 1248 TOPS"},
    {"a100 40gb hbm", hw::a100_40gb::figures.memory.value(), 40e9, "A100 DS: 40 GB HBM2"},
    {"a100 40gb hbm bw", hw::a100_40gb::figures.memory_bandwidth.value(), 1555e9,
     "A100 DS: 1,555 GB/s"},
    {"a100 80gb hbm", hw::a100_80gb::figures.memory.value(), 80e9, "A100 DS: 80 GB HBM2e"},
    {"a100 80gb hbm bw", hw::a100_80gb::figures.memory_bandwidth.value(), 2039e9,
     "A100 DS: 2,039 GB/s"},
    {"a100 80gb bf16", hw::a100_80gb::figures.peak_bf16.value(), 312e12, "A100 DS: same die"},
    {"a100 nvlink link", hw::a100_40gb::figures.scale_up_link_bandwidth.value(), 25e9,
     "book NVLink table: 25 GB/s each way"},
    {"a100 nvlink links", double(hw::a100_40gb::figures.scale_up_links), 12.0,
     "book NVLink table: 12 ports"},
    {"a100 nic", hw::a100_40gb::figures.scale_out_bandwidth.value(), 25e9,
     "DGX A100: 200 Gb/s HDR per GPU"},
    {"a100 pcie", hw::a100_40gb::figures.host_link_bandwidth.value(), 32e9,
     "PCIe Gen4 x16 nominal, one way"},
    {"a100 40gb host", hw::a100_40gb::figures.host_memory.value(), 128e9,
     "DGX A100 320GB: 1 TB / 8"},
    {"a100 80gb host", hw::a100_80gb::figures.host_memory.value(), 256e9,
     "DGX A100 640GB: 2 TB / 8"},
    // ---- H100 SXM ----------------------------------------------------------------------------
    {"h100 fp32", hw::h100_sxm::figures.peak_fp32.value(), 66.9e12, "H100 DS: 67 TFLOPS (66.9)"},
    {"h100 tf32", hw::h100_sxm::figures.peak_tf32.value(), 494.7e12, "H100 DS: 989 sparse"},
    {"h100 bf16", hw::h100_sxm::figures.peak_bf16.value(), 989.4e12,
     "H100 DS: 1,979 sparse; 132x4096x1.83e9"},
    {"h100 fp16", hw::h100_sxm::figures.peak_fp16.value(), 989.4e12, "H100 DS: 1,979 sparse"},
    {"h100 fp8", hw::h100_sxm::figures.peak_fp8.value(), 1978.9e12, "H100 DS: 3,958 sparse"},
    {"h100 int8", hw::h100_sxm::figures.peak_int8.value(), 1978.9e12, "H100 DS: 3,958 TOPS sparse"},
    {"h100 hbm", hw::h100_sxm::figures.memory.value(), 80e9, "H100 DS: 80 GB"},
    {"h100 hbm bw", hw::h100_sxm::figures.memory_bandwidth.value(), 3.35e12, "H100 DS: 3.35 TB/s"},
    {"h100 nvlink link", hw::h100_sxm::figures.scale_up_link_bandwidth.value(), 25e9,
     "book NVLink table: 25 GB/s each way"},
    {"h100 nvlink links", double(hw::h100_sxm::figures.scale_up_links), 18.0,
     "book NVLink table: 18 ports"},
    {"h100 nic", hw::h100_sxm::figures.scale_out_bandwidth.value(), 50e9,
     "DGX H100: 400 Gb/s CX7 per GPU"},
    {"h100 pcie", hw::h100_sxm::figures.host_link_bandwidth.value(), 64e9,
     "PCIe Gen5 x16 nominal, one way"},
    {"h100 host", hw::h100_sxm::figures.host_memory.value(), 256e9, "DGX H100: 2 TB / 8"},
    // ---- H800 SXM ----------------------------------------------------------------------------
    {"h800 bf16", hw::h800::figures.peak_bf16.value(), 989.4e12, "H800: H100 SXM rates"},
    {"h800 fp8", hw::h800::figures.peak_fp8.value(), 1978.9e12, "H800: H100 SXM rates"},
    {"h800 hbm bw", hw::h800::figures.memory_bandwidth.value(), 3.35e12, "H800: 3.35 TB/s"},
    {"h800 nvlink links", double(hw::h800::figures.scale_up_links), 8.0,
     "DeepSeek ISCA'25: NVLink 400 GB/s both ways"},
    {"h800 nic", hw::h800::figures.scale_out_bandwidth.value(), 50e9, "DeepEP: CX7 400 Gb/s"},
    // ---- H200 SXM ----------------------------------------------------------------------------
    {"h200 bf16", hw::h200::figures.peak_bf16.value(), 989.4e12, "H200 DS: same rates as H100 SXM"},
    {"h200 hbm", hw::h200::figures.memory.value(), 141e9, "H200 DS: 141 GB"},
    {"h200 hbm bw", hw::h200::figures.memory_bandwidth.value(), 4.8e12, "H200 DS: 4.8 TB/s"},
    {"h200 nvlink links", double(hw::h200::figures.scale_up_links), 18.0,
     "H200 DS: 900 GB/s both ways"},
    // ---- B200 ----------------------------------------------------------------------------------
    {"b200 fp32", hw::b200::figures.peak_fp32.value(), 75e12, "Blackwell DS (HGX B200): 75 TFLOPS"},
    {"b200 tf32", hw::b200::figures.peak_tf32.value(), 1.1e15, "Blackwell DS: 2.2 PF sparse"},
    {"b200 bf16", hw::b200::figures.peak_bf16.value(), 2.25e15, "Blackwell DS: 4.5 PF sparse"},
    {"b200 fp16", hw::b200::figures.peak_fp16.value(), 2.25e15, "Blackwell DS: 4.5 PF sparse"},
    {"b200 fp8", hw::b200::figures.peak_fp8.value(), 4.5e15, "Blackwell DS: 9 PF sparse"},
    {"b200 int8", hw::b200::figures.peak_int8.value(), 4.5e15, "Blackwell DS: 9 POPS sparse"},
    {"b200 fp4", hw::b200::figures.peak_fp4.value(), 9e15, "Blackwell DS: 18 PF sparse"},
    {"b200 hbm", hw::b200::figures.memory.value(), 180e9, "Blackwell DS / DGX B200: 180 GB"},
    {"b200 hbm bw", hw::b200::figures.memory_bandwidth.value(), 8e12, "DGX B200: 64 TB/s / 8"},
    {"b200 nvlink link", hw::b200::figures.scale_up_link_bandwidth.value(), 50e9,
     "book NVLink table: 50 GB/s each way"},
    {"b200 nvlink links", double(hw::b200::figures.scale_up_links), 18.0,
     "book NVLink table: 18 ports"},
    {"b200 nic", hw::b200::figures.scale_out_bandwidth.value(), 50e9,
     "DGX B200: 400 Gb/s CX7 per GPU"},
    {"b200 pcie", hw::b200::figures.host_link_bandwidth.value(), 64e9,
     "PCIe Gen5 x16 nominal, one way"},
    {"b200 host", hw::b200::figures.host_memory.value(), 256e9, "DGX B200: 2 TB / 8"},
    // ---- GB200 ---------------------------------------------------------------------------------
    {"gb200 fp32", hw::gb200::figures.peak_fp32.value(), 80e12, "NVL72 DS: 5,760 TFLOPS / 72"},
    {"gb200 tf32", hw::gb200::figures.peak_tf32.value(), 1.25e15,
     "Blackwell DS (GB200): 2.5 PF sparse"},
    {"gb200 bf16", hw::gb200::figures.peak_bf16.value(), 2.5e15, "Blackwell DS: 5 PF sparse"},
    {"gb200 fp16", hw::gb200::figures.peak_fp16.value(), 2.5e15, "Blackwell DS: 5 PF sparse"},
    {"gb200 fp8", hw::gb200::figures.peak_fp8.value(), 5e15, "Blackwell DS: 10 PF sparse"},
    {"gb200 int8", hw::gb200::figures.peak_int8.value(), 5e15, "Blackwell DS: 10 POPS sparse"},
    {"gb200 fp4", hw::gb200::figures.peak_fp4.value(), 10e15, "Blackwell DS: 20 PF sparse"},
    {"gb200 hbm", hw::gb200::figures.memory.value(), 186e9,
     "Blackwell DS: 186 GB; NVL72 13.4 TB / 72"},
    {"gb200 hbm bw", hw::gb200::figures.memory_bandwidth.value(), 8e12, "Blackwell DS: 8 TB/s"},
    {"gb200 nvlink links", double(hw::gb200::figures.scale_up_links), 18.0,
     "book NVLink table: 18 ports"},
    {"gb200 nic", hw::gb200::figures.scale_out_bandwidth.value(), 50e9,
     "book: NVL72 egress 72 x 400 Gb/s"},
    {"gb200 c2c", hw::gb200::figures.host_link_bandwidth.value(), 225e9,
     "assumption: NVLink-C2C 900 GB/s / 4"},
    {"gb200 host", hw::gb200::figures.host_memory.value(), 240e9,
     "GB200: 480 GB LPDDR5X per 2 GPUs"},
    // ---- MI300X --------------------------------------------------------------------------------
    {"mi300x fp32", hw::mi300x::figures.peak_fp32.value(), 163.4e12,
     "MI300X DS: FP32 vector 163.4"},
    {"mi300x tf32", hw::mi300x::figures.peak_tf32.value(), 653.7e12, "MI300X DS MI300-17: 653.7"},
    {"mi300x bf16", hw::mi300x::figures.peak_bf16.value(), 1307.4e12, "MI300X DS MI300-17: 1307.4"},
    {"mi300x fp16", hw::mi300x::figures.peak_fp16.value(), 1307.4e12, "MI300X DS MI300-17: 1307.4"},
    {"mi300x fp8", hw::mi300x::figures.peak_fp8.value(), 2614.9e12, "MI300X DS MI300-17: 2614.9"},
    {"mi300x int8", hw::mi300x::figures.peak_int8.value(), 2614.9e12,
     "MI300X DS MI300-17: 2614.9 TOPS"},
    {"mi300x hbm", hw::mi300x::figures.memory.value(), 192e9, "MI300X DS: 192 GB HBM3"},
    {"mi300x hbm bw", hw::mi300x::figures.memory_bandwidth.value(), 5.3e12, "MI300X DS: 5.3 TB/s"},
    {"mi300x if link", hw::mi300x::figures.scale_up_link_bandwidth.value(), 64e9,
     "MI300X DS: 128 GB/s per link, both ways"},
    {"mi300x if links", double(hw::mi300x::figures.scale_up_links), 7.0,
     "MI300X platform: 7 peers, full mesh"},
    {"mi300x nic", hw::mi300x::figures.scale_out_bandwidth.value(), 50e9,
     "assumption: 400 Gb/s per GPU"},
    {"mi300x pcie", hw::mi300x::figures.host_link_bandwidth.value(), 64e9,
     "MI300X DS: PCIe 5.0 x16"},
    {"mi300x host", hw::mi300x::figures.host_memory.value(), 1.5 * 1024.0 * gib / 8.0,
     "MLPerf v4.1 AMD 8xMI300X: 1.5 TiB"},
    // ---- CPUs ----------------------------------------------------------------------------------
    {"8480+ fp32", hw::xeon_8480_2s::figures.peak_fp32.value(), 2 * 56 * 64 * 2.0e9,
     "ARK: 2x56 cores, 2 FMA x 16 lanes x 2, 2.0 GHz"},
    {"8480+ bf16", hw::xeon_8480_2s::figures.peak_bf16.value(), 229.376e12,
     "Intel AMX: 1024 BF16 ops/cycle/core x 112 x 2.0 GHz"},
    {"8480+ int8", hw::xeon_8480_2s::figures.peak_int8.value(), 458.752e12,
     "Intel AMX: 2048 INT8 ops/cycle/core x 112 x 2.0 GHz"},
    {"8480+ dram", hw::xeon_8480_2s::figures.memory.value(), 1024.0 * gib,
     "assumption: 16 x 64 GiB RDIMMs"},
    {"8480+ dram bw", hw::xeon_8480_2s::figures.memory_bandwidth.value(), 614.4e9,
     "ARK: 2 x 8 channels DDR5-4800 x 38.4 GB/s"},
    {"9654 fp32", hw::epyc_9654_2s::figures.peak_fp32.value(), 2 * 96 * 32 * 2.4e9,
     "AMD: 2x96 Zen 4 cores, 2.4 GHz, 32 FLOP/cycle"},
    {"9654 bf16", hw::epyc_9654_2s::figures.peak_bf16.value(), 2 * 96 * 64 * 2.4e9,
     "assumption: VDPBF16PS 64 FLOP/cycle/core"},
    {"9654 dram", hw::epyc_9654_2s::figures.memory.value(), 1536.0 * gib,
     "assumption: 24 x 64 GiB RDIMMs"},
    {"9654 dram bw", hw::epyc_9654_2s::figures.memory_bandwidth.value(), 921.6e9,
     "AMD: 2 x 12 channels DDR5-4800"},
};

TEST_CASE("every chip figure matches its source") {
  for (const figure_row& row : chip_rows) {
    INFO(row.figure, " (", row.source, ")");
    CHECK(row.actual == doctest::Approx(row.expected).scale(0.0));
  }
}

TEST_CASE("a chip reports zero for the formats it lacks") {
  CHECK(hw::h100_sxm::figures.peak_fp4.value() == 0.0);   // Hopper has no fp4
  CHECK(hw::h100_sxm::figures.peak_int4.value() == 0.0);  // Hopper dropped int4 tensor cores
  CHECK(hw::a100_80gb::figures.peak_fp8.value() == 0.0);  // Ampere has no fp8
  CHECK(hw::tpu_v5e::figures.peak_fp8.value() == 0.0);
  CHECK(hw::mi300x::figures.peak_fp4.value() == 0.0);
  CHECK(peak(hw::b200::figures, number_format::fp4).value() == doctest::Approx(9e15).scale(0.0));
}

TEST_CASE("every catalogued chip has a name, a 16-bit rate, a memory and a memory bandwidth") {
  int count = 0;
  boost::hana::for_each(hw::chips, [&](auto t) {
    using chip = typename decltype(t)::type;
    static_assert(ChipSpec<chip>);
    const chip_figures& f = chip::figures;
    INFO(f.name);
    CHECK(!f.name.empty());
    // bf16, or fp16 on a chip without bf16 (V100).
    CHECK((f.peak_bf16.value() > 0.0 || f.peak_fp16.value() > 0.0));
    CHECK(f.memory.value() > 0.0);
    CHECK(f.memory_bandwidth.value() > 0.0);
    CHECK(f.scale_out_bandwidth.value() > 0.0);
    CHECK((f.kind == chip_kind::cpu) == (f.scale_up == scale_up_kind::none));
    ++count;
  });
  CHECK(count == 29);
}

TEST_CASE("the book's memory intensities follow from the figures") {
  // v5e: the book's 240 uses 8.2e11; our 819 GB/s gives 240.5, inside the book's rounding.
  CHECK(memory_intensity(hw::tpu_v5e::figures).value() ==
        doctest::Approx(240.0).epsilon(0.02).scale(0.0));
  CHECK(memory_intensity(hw::tpu_v5e::figures).value() ==
        doctest::Approx(1.97e14 / 8.19e11).scale(0.0));
  // H100: 9.89e14 / 3.35e12 = 295 ("closer to 300").
  CHECK(memory_intensity(hw::h100_sxm::figures).value() ==
        doctest::Approx(295.0).epsilon(0.01).scale(0.0));
  // B200: 2250e12 / 8e12 = 281.
  CHECK(memory_intensity(hw::b200::figures).value() == doctest::Approx(281.25).scale(0.0));
  // fp8: H100 590 (book), 1978.9e12 / 3.35e12 = 590.7.
  CHECK(memory_intensity(hw::h100_sxm::figures, number_format::fp8).value() ==
        doctest::Approx(590.0).epsilon(0.01).scale(0.0));
}

TEST_CASE("the book's scale-up and scale-out intensities follow from the figures") {
  // v5p ICI: C / W_ici (bidirectional) = 4.59e14 / 1.8e11 = 2550.
  CHECK(scale_up_axis_bandwidth(hw::tpu_v5p::figures).value() ==
        doctest::Approx(1.8e11).scale(0.0));
  CHECK(scale_up_intensity(hw::tpu_v5p::figures).value() == doctest::Approx(2550.0).scale(0.0));
  // v5p int8: 5100.
  CHECK(scale_up_intensity(hw::tpu_v5p::figures, number_format::int8).value() ==
        doctest::Approx(5100.0).scale(0.0));
  // v5e ICI: 1.97e14 / 9e10 = 2189, the book's "2200" TP limit.
  CHECK(scale_up_intensity(hw::tpu_v5e::figures).value() ==
        doctest::Approx(2200.0).epsilon(0.01).scale(0.0));
  // H100 NVLink: 990e12 / 450e9 = 2200.
  CHECK(scale_up_axis_bandwidth(hw::h100_sxm::figures).value() ==
        doctest::Approx(450e9).scale(0.0));
  CHECK(scale_up_intensity(hw::h100_sxm::figures).value() ==
        doctest::Approx(2200.0).epsilon(0.01).scale(0.0));
  // B200 NVLink: 2250e12 / 900e9 = 2500.
  CHECK(scale_up_intensity(hw::b200::figures).value() == doctest::Approx(2500.0).scale(0.0));
  // v5p DCN: 4.59e14 / 6.25e9 = 73,440.
  CHECK(scale_out_intensity(hw::tpu_v5p::figures).value() == doctest::Approx(73440.0).scale(0.0));
  // MI300X: seven 64 GB/s links, 448 GB/s egress.
  CHECK(scale_up_egress(hw::mi300x::figures).value() == doctest::Approx(448e9).scale(0.0));
}

// The book's fat-tree cost: T = bytes * max_i (D_i - 1) / (D_i * W_i); returns the effective
// bandwidth 1 / max_i (...), in B/s, over the levels from `first`.
double fat_tree_bandwidth(const system_figures& s, std::int64_t first = 0) {
  double worst = 0.0;
  for (std::int64_t i = first; i < s.level_count; ++i) {
    const network_level& l = s.levels[static_cast<std::size_t>(i)];
    const double d = static_cast<double>(l.degree);
    worst = std::max(worst, (d - 1.0) / (d * l.unit_egress.value()));
  }
  return 1.0 / worst;
}

TEST_CASE("a 128-node dgx h100 superpod is 1024 gpus in levels of 8, 32 and 4") {
  constexpr const system_figures& s = sys::dgx_h100_superpod<128>::figures;
  CHECK(s.chips == 1024);
  REQUIRE(s.level_count == 3);
  CHECK(s.levels[0].name == "node");
  CHECK(s.levels[0].link == link_kind::nvlink);
  CHECK(s.levels[0].degree == 8);
  CHECK(s.levels[0].unit_egress.value() == doctest::Approx(450e9).scale(0.0));
  CHECK(s.levels[1].name == "leaf");
  CHECK(s.levels[1].link == link_kind::infiniband);
  CHECK(s.levels[1].degree == 32);
  CHECK(s.levels[1].unit_egress.value() == doctest::Approx(400e9).scale(0.0));
  CHECK(s.levels[2].name == "spine");
  CHECK(s.levels[2].degree == 4);
  CHECK(s.levels[2].unit_egress.value() == doctest::Approx(12.8e12).scale(0.0));
  CHECK(chips_per_unit(s, 1) == 256);
  CHECK(chips_per_unit(s, 2) == 1024);
  for (std::int64_t i = 0; i < s.level_count; ++i) {
    CHECK(s.levels[static_cast<std::size_t>(i)].in_network_reduction);
  }
}

TEST_CASE("the h100 superpod's fat-tree bandwidth is the book's 413 GB/s") {
  constexpr const system_figures& s = sys::dgx_h100_superpod<128>::figures;
  // Node 450e9 * 8/7 = 514 GB/s; leaf 400e9 * 32/31 = 413 GB/s; spine 12.8e12 * 4/3 = 17.1 TB/s.
  CHECK(fat_tree_bandwidth(s) == doctest::Approx(400e9 * 32.0 / 31.0).scale(0.0));
  CHECK(fat_tree_bandwidth(s) == doctest::Approx(413e9).epsilon(0.001).scale(0.0));
  CHECK(fat_tree_bandwidth(s, 2) == doctest::Approx(12.8e12 * 4.0 / 3.0).scale(0.0));
}

TEST_CASE("a dgx superpod's degrees are the units in use") {
  CHECK(sys::dgx_h100_superpod<1>::figures.level_count == 1);
  CHECK(sys::dgx_h100_superpod<1>::figures.chips == 8);

  constexpr const system_figures& s16 = sys::dgx_h100_superpod<16>::figures;
  REQUIRE(s16.level_count == 2);
  CHECK(s16.levels[1].degree == 16);

  constexpr const system_figures& s64 = sys::dgx_h100_superpod<64>::figures;
  REQUIRE(s64.level_count == 3);
  CHECK(s64.levels[1].degree == 32);
  CHECK(s64.levels[2].degree == 2);

  // A partly filled last SU: 40 nodes are 320 GPUs in 2 SUs.
  constexpr const system_figures& s40 = sys::dgx_h100_superpod<40>::figures;
  CHECK(s40.chips == 320);
  CHECK(s40.levels[2].degree == 2);

  // Up to 8 SUs a spine tier joins them all ([ra-b200] table: 256 nodes, no core switches).
  constexpr const system_figures& s256 = sys::dgx_h100_superpod<256>::figures;
  REQUIRE(s256.level_count == 3);
  CHECK(s256.levels[2].degree == 8);

  // Beyond 8 SUs: pods of 4 SUs under a core tier (512 nodes = 4 pods).
  constexpr const system_figures& s512 = sys::dgx_h100_superpod<512>::figures;
  REQUIRE(s512.level_count == 4);
  CHECK(s512.levels[2].name == "spine");
  CHECK(s512.levels[2].degree == 4);
  CHECK(s512.levels[3].name == "core");
  CHECK(s512.levels[3].degree == 4);
  CHECK(s512.levels[3].unit_egress.value() == doctest::Approx(51.2e12).scale(0.0));
  CHECK(s512.chips == 4096);
}

TEST_CASE("the other gpu systems have their node and scale-out figures") {
  constexpr const system_figures& a100 = sys::dgx_a100_superpod<140>::figures;
  CHECK(a100.chips == 1120);
  REQUIRE(a100.level_count == 3);
  CHECK(a100.levels[0].unit_egress.value() == doctest::Approx(300e9).scale(0.0));
  CHECK(!a100.levels[0].in_network_reduction);
  CHECK(a100.levels[1].degree == 20);
  CHECK(a100.levels[1].unit_egress.value() == doctest::Approx(200e9).scale(0.0));
  CHECK(a100.levels[2].degree == 7);

  constexpr const system_figures& b200 = sys::dgx_b200_superpod<128>::figures;
  CHECK(b200.levels[0].unit_egress.value() == doctest::Approx(900e9).scale(0.0));
  CHECK(b200.levels[1].unit_egress.value() == doctest::Approx(400e9).scale(0.0));

  constexpr const system_figures& h800 = sys::h800_cluster<256>::figures;
  CHECK(h800.chips == 2048);
  REQUIRE(h800.level_count == 3);
  CHECK(h800.levels[0].unit_egress.value() == doctest::Approx(200e9).scale(0.0));
  CHECK(h800.levels[2].degree == 8);
  CHECK(sys::h800_cluster<2048>::figures.levels[2].degree == 64);

  constexpr const system_figures& nvl = sys::gb200_nvl72<8>::figures;
  CHECK(nvl.chips == 576);
  REQUIRE(nvl.level_count == 2);
  CHECK(nvl.levels[0].degree == 72);
  CHECK(nvl.levels[0].unit_egress.value() == doctest::Approx(900e9).scale(0.0));
  CHECK(nvl.levels[0].in_network_reduction);
  CHECK(nvl.levels[1].degree == 8);
  CHECK(nvl.levels[1].unit_egress.value() == doctest::Approx(3.6e12).scale(0.0));
  CHECK(sys::gb200_nvl72<1>::figures.level_count == 1);

  constexpr const system_figures& generic = sys::nvlink_fat_tree<hw::h100_sxm, 4, 4>::figures;
  CHECK(generic.chips == 16);
  CHECK(generic.levels[0].degree == 4);
  CHECK(generic.levels[1].unit_egress.value() == doctest::Approx(200e9).scale(0.0));
  CHECK(!generic.levels[1].in_network_reduction);

  constexpr const system_figures& amd = sys::nvlink_fat_tree<hw::mi300x, 2>::figures;
  CHECK(amd.levels[0].link == link_kind::infinity_fabric);
  CHECK(amd.levels[0].unit_egress.value() == doctest::Approx(448e9).scale(0.0));
}

TEST_CASE("a v5p slice wraps around only when it is whole 4x4x4 cubes") {
  constexpr const system_figures& cube = sys::tpu_v5p_slice<4, 4, 4>::figures;
  CHECK(cube.chips == 64);
  CHECK(cube.torus.rank == 3);
  CHECK(cube.torus.extent == std::array<std::int64_t, 3>{4, 4, 4});
  CHECK(cube.torus.wraps == std::array<bool, 3>{true, true, true});
  REQUIRE(cube.level_count == 1);
  CHECK(cube.levels[0].link == link_kind::ici);
  CHECK(cube.levels[0].degree == 64);
  CHECK(cube.levels[0].unit_egress.value() == doctest::Approx(6 * 9e10).scale(0.0));
  CHECK(cube.levels[0].hop_latency.value() * 1e6 == doctest::Approx(1.0).scale(0.0));

  constexpr const system_figures& small = sys::tpu_v5p_slice<2, 2, 4>::figures;
  CHECK(small.chips == 16);
  CHECK(small.torus.wraps == std::array<bool, 3>{false, false, false});

  CHECK(sys::tpu_v5p_slice<4, 8, 12>::figures.torus.wraps[1]);
  CHECK(sys::tpu_v5p_slice<16, 20, 28>::figures.chips == 8960);
  CHECK(sys::tpu_v4p_slice<4, 4, 8>::figures.torus.wraps[0]);
  CHECK(sys::tpu_v4p_slice<16, 16, 16>::figures.chips == 4096);
  CHECK(sys::tpu7x_slice<8, 8, 8>::figures.torus.wraps[2]);
  CHECK(!sys::tpu7x_slice<2, 2, 1>::figures.torus.wraps[0]);
}

TEST_CASE("a v5e or v6e axis wraps around only at 16 chips") {
  constexpr const system_figures& s = sys::tpu_v5e_slice<8, 16>::figures;
  CHECK(s.chips == 128);
  CHECK(s.torus.rank == 2);
  CHECK(s.torus.extent == std::array<std::int64_t, 3>{8, 16, 1});
  CHECK(s.torus.wraps == std::array<bool, 3>{false, true, false});
  CHECK(s.levels[0].unit_egress.value() == doctest::Approx(4 * 4.5e10).scale(0.0));
  CHECK(sys::tpu_v5e_slice<16, 16>::figures.torus.wraps == std::array<bool, 3>{true, true, false});
  CHECK(sys::tpu_v5e_slice<4, 4>::figures.torus.wraps == std::array<bool, 3>{false, false, false});
  CHECK(sys::tpu_v6e_slice<16, 8>::figures.torus.wraps == std::array<bool, 3>{true, false, false});
}

TEST_CASE("slices are joined over dcn at the slice's total dcn bandwidth") {
  constexpr const system_figures& s = sys::tpu_v5p_slice<4, 4, 4, 4>::figures;
  CHECK(s.chips == 256);
  REQUIRE(s.level_count == 2);
  CHECK(s.levels[1].link == link_kind::dcn);
  CHECK(s.levels[1].degree == 4);
  CHECK(s.levels[1].unit_egress.value() == doctest::Approx(64 * 6.25e9).scale(0.0));
  constexpr const system_figures& e = sys::tpu_v5e_slice<16, 16, 2>::figures;
  CHECK(e.levels[1].unit_egress.value() ==
        doctest::Approx(256 * 3.125e9).scale(0.0));  // 6.4 Tbps per pod
}

// The override example from nvidia.hpp's header comment, verbatim.
struct my_h100 {
  static constexpr shardplan::chip_figures figures = [] {
    auto f = shardplan::hardware::h100_sxm::figures;
    f.name = "h100 sxm (3.4 TB/s)";
    f.memory_bandwidth = 3.4 * shardplan::tera * shardplan::byte / shardplan::second;
    return f;
  }();
};
static_assert(shardplan::ChipSpec<my_h100>);

TEST_CASE("a user overrides one figure of a catalogued chip without touching the catalogue") {
  CHECK(my_h100::figures.memory_bandwidth.value() == doctest::Approx(3.4e12).scale(0.0));
  CHECK(my_h100::figures.peak_bf16 == hw::h100_sxm::figures.peak_bf16);
  CHECK(hw::h100_sxm::figures.memory_bandwidth.value() == doctest::Approx(3.35e12).scale(0.0));
  // The book's [inferred] "H100 (3.4e12) 291".
  CHECK(memory_intensity(my_h100::figures).value() ==
        doctest::Approx(291.0).epsilon(0.001).scale(0.0));
  // And the overridden chip builds a system like any other.
  CHECK(sys::nvlink_fat_tree<my_h100, 2>::figures.chip.memory_bandwidth.value() ==
        doctest::Approx(3.4e12).scale(0.0));
}

}  // namespace
