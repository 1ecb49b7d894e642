// Static tests of the chips added to the catalogue after the first fifteen (H100 PCIe, H100 NVL,
// H200 NVL, L40S, B300, GB300, MI250X, MI325X, MI355X, V100, TPU v2, TPU v3, Trainium2, Gaudi 3):
// each figure against the vendor's number, written here with its source, the peaks rebuilt from
// the chips' inside where a clock is given, and the kernel fractions against the measurements
// they come from. Compiling is passing.
#include <cstddef>
#include <shardplan/hardware/catalog.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/hardware/system_presets.hpp>

namespace {

using namespace shardplan;
namespace hw = shardplan::hardware;

/// |x / expected - 1| <= tolerance.
constexpr bool within(double x, double expected, double tolerance) {
  const double r = x / expected - 1.0;
  return (r < 0.0 ? -r : r) <= tolerance;
}
constexpr double exact = 1e-9;
// Rebuilt peaks against datasheets: 3%, as tests/static/microarchitecture.cpp allows (datasheets
// round to two or three digits).
constexpr double datasheet_tolerance = 0.03;
constexpr double tera_ = 1e12;
constexpr double gib = 1024.0 * 1024.0 * 1024.0;

template <ChipSpec Chip>
constexpr double tflops(number_format f) {
  return value_of(peak(Chip::figures, f)) / tera_;
}

// --- Names: every catalogue chip is found by its own name and by no other --------------------
constexpr bool names_distinct() {
  for (std::size_t i = 0; i < catalog_chips.size(); ++i)
    for (std::size_t j = i + 1; j < catalog_chips.size(); ++j)
      if (same_name(catalog_chips[i].name, catalog_chips[j].name)) return false;
  return true;
}
static_assert(names_distinct(), "two catalogue chips answer to one name");
static_assert(find_chip("H100 PCIe") == &catalog_chips[15]);
static_assert(find_chip("gaudi_3") == &catalog_chips[catalog_chips.size() - 1]);
static_assert(find_chip("tpu-v3") != nullptr && find_chip("tpu v3")->peak_bf16.value() == 123e12);
// The first fifteen keep their places (plan files and error messages list them in that order).
static_assert(catalog_chips[0].name == "tpu v4p" && catalog_chips[14].name == "2x epyc 9654");

// --- Every peak is dense: the sparse datasheet figure halved ----------------------------------
// H100 PCIe, NVIDIA H100 datasheet 2022 (hpctech.co.jp copy): TF32 756*, BF16 1,513*, FP8 3,026*,
// "* Shown with sparsity"; FP32 51; 80 GB HBM2e, 2,000 GB/s; 114 SMs; 50 MB L2.
static_assert(tflops<hw::h100_pcie>(number_format::tf32) == 756.0 / 2.0);
static_assert(tflops<hw::h100_pcie>(number_format::bf16) == 1513.0 / 2.0);
static_assert(tflops<hw::h100_pcie>(number_format::fp16) == 1513.0 / 2.0);
static_assert(tflops<hw::h100_pcie>(number_format::fp8) == 3026.0 / 2.0);
static_assert(tflops<hw::h100_pcie>(number_format::int8) == 3026.0 / 2.0);
static_assert(tflops<hw::h100_pcie>(number_format::fp32) == 51.0);
static_assert(value_of(hw::h100_pcie::figures.memory) == 80e9);
static_assert(value_of(hw::h100_pcie::figures.memory_bandwidth) == 2000e9);
static_assert(hw::h100_pcie::figures.arch.compute_units == 114);
// "NVLINK: 600GB/s" (both ways) = 300 GB/s egress; "PCIe Gen5: 128GB/s" = 64 each way.
static_assert(value_of(scale_up_egress(hw::h100_pcie::figures)) == 600e9 / 2.0);
static_assert(value_of(hw::h100_pcie::figures.host_link_bandwidth) == 128e9 / 2.0);

// H100 NVL, NVIDIA H100 datasheet NVL column: FP32 60, TF32 835*, BF16 1,671*, FP8 3,341*, 94 GB,
// 3.9 TB/s, NVLink bridge 600 GB/s.
static_assert(tflops<hw::h100_nvl>(number_format::tf32) == 835.0 / 2.0);
static_assert(tflops<hw::h100_nvl>(number_format::bf16) == 1671.0 / 2.0);
static_assert(tflops<hw::h100_nvl>(number_format::fp8) == 3341.0 / 2.0);
static_assert(tflops<hw::h100_nvl>(number_format::fp32) == 60.0);
static_assert(value_of(hw::h100_nvl::figures.memory) == 94e9);
static_assert(within(value_of(hw::h100_nvl::figures.memory_bandwidth), 3.9e12, exact));
static_assert(value_of(scale_up_egress(hw::h100_nvl::figures)) == 600e9 / 2.0);

// H200 NVL, NVIDIA H200 datasheet NVL column: the H100 NVL's rates, 141 GB, 4.8 TB/s, "2- or
// 4-way NVIDIA NVLink bridge: 900GB/s per GPU".
static_assert(tflops<hw::h200_nvl>(number_format::bf16) == 1671.0 / 2.0);
static_assert(tflops<hw::h200_nvl>(number_format::fp8) == 3341.0 / 2.0);
static_assert(value_of(hw::h200_nvl::figures.memory) == 141e9);
static_assert(within(value_of(hw::h200_nvl::figures.memory_bandwidth), 4.8e12, exact));
static_assert(value_of(scale_up_egress(hw::h200_nvl::figures)) == 900e9 / 2.0);
// The same H100 SXM die and SM: 132 SMs, 50 MB L2.
static_assert(hw::h200_nvl::figures.arch.compute_units == hw::h100_sxm::figures.arch.compute_units);

// L40S, NVIDIA L40S datasheet: FP32 91.6, TF32 183 | 366*, BF16 362.05 | 733*, FP8 733 | 1,466*;
// 48 GB GDDR6, 864 GB/s, PCIe Gen4 x16 64 GB/s bidirectional, no NVLink; 18,176 CUDA cores.
static_assert(tflops<hw::l40s>(number_format::fp32) == 91.6);
static_assert(tflops<hw::l40s>(number_format::tf32) == 183.0);
static_assert(tflops<hw::l40s>(number_format::bf16) == 362.05);
static_assert(tflops<hw::l40s>(number_format::fp8) == 733.0);
static_assert(tflops<hw::l40s>(number_format::fp8) == 1466.0 / 2.0);
static_assert(tflops<hw::l40s>(number_format::fp4) == 0.0);  // Ada has no fp4
static_assert(value_of(hw::l40s::figures.memory) == 48e9);
static_assert(value_of(hw::l40s::figures.memory_bandwidth) == 864e9);
static_assert(vector_lanes_per_chip(hw::l40s::figures.arch) == 18176);
// The only path between L40S cards is PCIe: the scale-up link is the PCIe link.
static_assert(hw::l40s::figures.scale_up_link_bandwidth == hw::l40s::figures.host_link_bandwidth);
static_assert(value_of(hw::l40s::figures.host_link_bandwidth) == 64e9 / 2.0);

// B300 (HGX): FP32 75, TF32 2250* = 1125, BF16 4500* = 2250, FP8 9000* = 4500, FP4 18000* with
// 13125 dense (glennklockwood's copy of the HGX B300 table); INT8 0.15 POPS dense (Verda's
// per-GPU table), not B200's 4500. 270 GB on shipping DGX B300 (MLPerf v6.1 system description).
static_assert(tflops<hw::b300>(number_format::fp32) == 75.0);
static_assert(tflops<hw::b300>(number_format::tf32) == 2250.0 / 2.0);
static_assert(tflops<hw::b300>(number_format::bf16) == 4500.0 / 2.0);
static_assert(tflops<hw::b300>(number_format::fp8) == 9000.0 / 2.0);
static_assert(tflops<hw::b300>(number_format::fp4) == 13125.0);
static_assert(within(tflops<hw::b300>(number_format::int8), 150.0, exact));
static_assert(tflops<hw::b300>(number_format::int8) < tflops<hw::b200>(number_format::int8) / 20.0);
static_assert(value_of(hw::b300::figures.memory) == 270e9);
static_assert(value_of(hw::b300::figures.scale_out_bandwidth) == 800e9 / 8.0);  // ConnectX-8
// NVLink 5 "1.8 TB/s bidirectional" = 900 GB/s egress, as B200.
static_assert(value_of(scale_up_egress(hw::b300::figures)) == 1.8e12 / 2.0);
static_assert(scale_up_intensity(hw::b300::figures) == scale_up_intensity(hw::b200::figures));

// GB300: the NVL72 rack's dense FP4 1,080 PFLOPS over 72 GPUs; FP8/FP6 720 PFLOPS sparse over
// 72 GPUs, halved; 576 TB/s of HBM bandwidth over 72; 130 TB/s of NVLink over 72 both ways.
static_assert(within(tflops<hw::gb300>(number_format::fp4), 1080e3 / 72.0, exact));
static_assert(within(tflops<hw::gb300>(number_format::fp8), 720e3 / 72.0 / 2.0, exact));
static_assert(within(tflops<hw::gb300>(number_format::bf16), 720e3 / 72.0 / 4.0, exact));
static_assert(within(value_of(hw::gb300::figures.memory_bandwidth), 576e12 / 72.0, exact));
static_assert(within(2.0 * value_of(scale_up_egress(hw::gb300::figures)), 130e12 / 72.0, 0.01));
// INT8 "24 POPS" per 72 GPUs, sparse: 0.167 dense, against 0.165 (Verda), within 2%.
static_assert(within(tflops<hw::gb300>(number_format::int8), 24e3 / 72.0 / 2.0, 0.02));
static_assert(value_of(hw::gb300::figures.memory) == 288e9);
static_assert(within(value_of(hw::gb300::figures.host_memory), 960e9 / 4.0, exact));  // MLPerf
// GB300 over B300: the same GPU at the rack's higher clocks and power.
static_assert(hw::gb300::figures.peak_bf16 > hw::b300::figures.peak_bf16);
static_assert(hw::gb300::figures.arch.compute_units == hw::b300::figures.arch.compute_units);

// V100 SXM2 32 GB, NVIDIA V100 datasheet: single precision 15.7, "Tensor Performance" 125
// (fp16 with fp32 accumulate), 32 GB HBM2 at 900 GB/s, NVLink 300 GB/s, PCIe 32 GB/s. Volta has
// no bf16, tf32, fp8 or int8 tensor cores.
static_assert(tflops<hw::v100>(number_format::fp16) == 125.0);
static_assert(tflops<hw::v100>(number_format::fp32) == 15.7);
static_assert(tflops<hw::v100>(number_format::bf16) == 0.0);
static_assert(tflops<hw::v100>(number_format::tf32) == 0.0);
static_assert(tflops<hw::v100>(number_format::fp8) == 0.0);
static_assert(tflops<hw::v100>(number_format::int8) == 0.0);
static_assert(value_of(hw::v100::figures.memory) == 32e9);
static_assert(value_of(hw::v100::figures.memory_bandwidth) == 900e9);
static_assert(value_of(scale_up_egress(hw::v100::figures)) == 300e9 / 2.0);
static_assert(value_of(hw::v100::figures.host_link_bandwidth) == 32e9 / 2.0);
// DGX-1: four 100 Gb/s InfiniBand NICs for 8 GPUs; 512 GB of system memory.
static_assert(value_of(hw::v100::figures.scale_out_bandwidth) == 4.0 * 100e9 / 8.0 / 8.0);
static_assert(value_of(hw::v100::figures.host_memory) == 512e9 / 8.0);

// MI250X, one GCD: AMD's OAM figures halved (FP16/BF16 383.0, INT8 383, FP32 vector 47.9 TFLOPS,
// 128 GB, 3.2768 TB/s); Frontier: "8 separate GPUs, each having 64 GB"; MAMF's 191.5 per GCD.
static_assert(2.0 * tflops<hw::mi250x>(number_format::bf16) == 383.0);
static_assert(tflops<hw::mi250x>(number_format::bf16) == 191.5);
static_assert(2.0 * tflops<hw::mi250x>(number_format::int8) == 383.0);
static_assert(within(2.0 * tflops<hw::mi250x>(number_format::fp32), 47.9, exact));
static_assert(tflops<hw::mi250x>(number_format::fp8) == 0.0);   // CDNA 2: no fp8
static_assert(tflops<hw::mi250x>(number_format::tf32) == 0.0);  // nor tf32
static_assert(value_of(hw::mi250x::figures.memory) == 64e9);
static_assert(within(2.0 * value_of(hw::mi250x::figures.memory_bandwidth), 3.2768e12, exact));
// ROCm: 3.2768 TB/s is 8192 bits of HBM2e at 3.2 Gb/s, "1.6 TB/sec per GCD".
static_assert(within(8192.0 * 3.2e9 / 8.0, 3.2768e12, exact));
// ROCm: 50 GB/s per link each way; the 4 links to the other GCD of the OAM make its 200 GB/s.
static_assert(value_of(hw::mi250x::figures.scale_up_link_bandwidth) * 4.0 == 200e9);

// MI325X: AMD, 256 GB HBM3E at 6 TB/s, the MI300X's compute (1307.4 TFLOPS BF16, 2614.9 FP8).
static_assert(tflops<hw::mi325x>(number_format::bf16) == 1307.4);
static_assert(tflops<hw::mi325x>(number_format::fp8) == 2614.9);
static_assert(value_of(hw::mi325x::figures.memory) == 256e9);
static_assert(value_of(hw::mi325x::figures.memory_bandwidth) == 6e12);
static_assert(within(value_of(hw::mi325x::figures.host_memory), 2.25 * 1024.0 * gib / 8.0, exact));

// MI355X: AMD's dense FP16/BF16 2.5, FP8 5.0, INT8 5.0, FP4 10.1 PFLOPS, FP32 157.3 TFLOPS; 288 GB
// HBM3E at 8 TB/s; Infinity Fabric 153.6 GB/s both ways per link over 7 links.
static_assert(tflops<hw::mi355x>(number_format::bf16) == 2500.0);
static_assert(tflops<hw::mi355x>(number_format::fp8) == 5000.0);
static_assert(tflops<hw::mi355x>(number_format::int8) == 5000.0);
static_assert(within(tflops<hw::mi355x>(number_format::fp4), 10100.0, exact));
static_assert(within(tflops<hw::mi355x>(number_format::fp32), 157.3, exact));
static_assert(value_of(hw::mi355x::figures.memory) == 288e9);
static_assert(within(2.0 * value_of(scale_up_egress(hw::mi355x::figures)), 7.0 * 153.6e9, exact));

// TPU v2: Hot Chips 2017 "up to 45 TFLOPS", two cores of one 128x128 MXU; 16 GiB, 700 GB/s.
// TPU v3: Google, 123 TFLOPS bf16, two TensorCores of two MXUs, 32 GiB HBM2 at 900 GBps. Both
// bf16 only.
static_assert(tflops<hw::tpu_v2>(number_format::bf16) == 45.0);
static_assert(tflops<hw::tpu_v3>(number_format::bf16) == 123.0);
static_assert(tflops<hw::tpu_v2>(number_format::int8) == 0.0);
static_assert(tflops<hw::tpu_v3>(number_format::int8) == 0.0);
static_assert(value_of(hw::tpu_v2::figures.memory) == 16.0 * gib);
static_assert(value_of(hw::tpu_v3::figures.memory) == 32.0 * gib);
static_assert(value_of(hw::tpu_v3::figures.memory_bandwidth) == 900e9);
static_assert(value_of(hw::tpu_v2::figures.memory_bandwidth) == 700e9);
// Hot Chips 2020: "650 GB/s interconnect" per v3 chip, both directions of its 4 torus links.
static_assert(within(double(hw::tpu_v3::figures.scale_up_links) * 2.0 *
                         value_of(hw::tpu_v3::figures.scale_up_link_bandwidth),
                     650e9, exact));

// Trainium2, AWS Neuron docs: 667 BF16/FP16/TF32 and 1,299 FP8 TFLOPS, 96 GiB at 2.9 TB/s;
// trn2.48xlarge: 16 chips, 2,048 GiB host memory, EFAv3 3,200 Gb/s; 1,024 GB/s/chip of NeuronLink
// inside the instance.
static_assert(tflops<hw::trainium2>(number_format::bf16) == 667.0);
static_assert(tflops<hw::trainium2>(number_format::tf32) == 667.0);
static_assert(tflops<hw::trainium2>(number_format::fp8) == 1299.0);
static_assert(value_of(hw::trainium2::figures.memory) == 96.0 * gib);
static_assert(within(value_of(hw::trainium2::figures.memory_bandwidth), 2.9e12, exact));
static_assert(value_of(hw::trainium2::figures.host_memory) == 2048.0 * gib / 16.0);
static_assert(value_of(hw::trainium2::figures.scale_out_bandwidth) * 16.0 == 3200e9 / 8.0);
static_assert(double(hw::trainium2::figures.scale_up_links) * 2.0 *
                  value_of(hw::trainium2::figures.scale_up_link_bandwidth) ==
              1024e9);
// Neuron's per-core figure from its own clock: a 128 x 128 array at 2.4 GHz is the "79
// BF16/FP16/TF32 TFLOPS" of one NeuronCore-v3 within 1% ...
static_assert(within(128.0 * 128.0 * 2.0 * 2.4e9, 79e12, 0.01));
// ... but eight of them fall 5.7% short of the chip's 667, which is why no clock is recorded
// and no chip peak is rebuilt from it.
static_assert(!within(8.0 * 128.0 * 128.0 * 2.0 * 2.4e9, 667e12, datasheet_tolerance));
static_assert(value_of(matrix_peak(hw::trainium2::figures.arch, number_format::bf16)) == 0.0);

// Gaudi 3, Intel at Hot Chips 2024: BF16 and FP8 matrix 1835 TFLOPs, 8 MMEs, 64 TPCs, 128 GB
// HBM2e at 3.67 TB/s, 96 MB SRAM at 12.8 TB/s, "Networking 1200 GB/s bidirectional", PCIe Gen5
// x16 "128 GB/s bidirectional"; Intel's network guide: 21 scale-up ports "= 525 GB/s
// unidirectional", scale-out "75 GB/s in each direction".
static_assert(tflops<hw::gaudi3>(number_format::bf16) == 1835.0);
static_assert(tflops<hw::gaudi3>(number_format::fp8) == 1835.0);
static_assert(value_of(hw::gaudi3::figures.memory) == 128e9);
static_assert(within(value_of(hw::gaudi3::figures.memory_bandwidth), 3.67e12, exact));
static_assert(within(value_of(scale_up_egress(hw::gaudi3::figures)), 525e9, exact));
static_assert(within(value_of(hw::gaudi3::figures.scale_out_bandwidth), 75e9, exact));
static_assert(within(2.0 * (value_of(scale_up_egress(hw::gaudi3::figures)) +
                            value_of(hw::gaudi3::figures.scale_out_bandwidth)),
                     1200e9, exact));  // 24 ports x 200 Gb/s x 2 directions
static_assert(value_of(hw::gaudi3::figures.host_link_bandwidth) == 128e9 / 2.0);
static_assert(value_of(hw::gaudi3::figures.arch.l2) == 96.0 * 1024.0 * 1024.0);

// --- Peaks rebuilt from the inside: units x FLOP per clock x clock, within 3% ----------------
template <ChipSpec Chip>
constexpr bool matrix_peaks_match() {
  const chip_figures& c = Chip::figures;
  for (number_format f : all_number_formats) {
    if (f == number_format::fp32) continue;  // fp32 peaks are the vector units'
    const double datasheet = value_of(peak(c, f));
    const double rebuilt = value_of(matrix_peak(c.arch, f));
    if (datasheet == 0.0 && rebuilt == 0.0) continue;
    if (!within(rebuilt, datasheet, datasheet_tolerance)) return false;
  }
  return true;
}
static_assert(matrix_peaks_match<hw::h100_pcie>());
static_assert(matrix_peaks_match<hw::h100_nvl>());
static_assert(matrix_peaks_match<hw::h200_nvl>());
static_assert(matrix_peaks_match<hw::l40s>());
static_assert(matrix_peaks_match<hw::v100>());
static_assert(matrix_peaks_match<hw::mi250x>());
static_assert(matrix_peaks_match<hw::mi325x>());
static_assert(matrix_peaks_match<hw::mi355x>());
static_assert(matrix_peaks_match<hw::tpu_v2>());
static_assert(matrix_peaks_match<hw::tpu_v3>());
static_assert(matrix_peaks_match<hw::gaudi3>());
// Written out against the datasheet numbers:
// V100: 80 SMs x 8 Tensor Cores x 64 FMA x 2 x 1.53 GHz = 125.3e12 against 125.
static_assert(within(80.0 * 8.0 * 64.0 * 2.0 * 1.53e9, 125e12, 0.003));
// MI250X GCD: 110 CUs x 1024 x 1.7 GHz = 191.5e12 against 383.0 / 2.
static_assert(within(110.0 * 1024.0 * 1.7e9, 191.5e12, 0.001));
// MI355X: 256 CUs x 4096 x 2.4 GHz = 2516.6e12 against AMD's "2.5 PFLOPS" (0.7% over).
static_assert(within(256.0 * 4096.0 * 2.4e9, 2.5e15, 0.007));
// TPU v3: 2 cores x 2 MXUs x 128 x 128 x 2 x 0.94 GHz = 123.2e12 against 123; TPU v2 at 0.7 GHz
// with one MXU per core: 45.9e12 against the rounded 45 (2% over).
static_assert(within(value_of(mxu_peak(hw::tpu_v3::figures.arch)), 123e12, 0.002));
static_assert(within(value_of(mxu_peak(hw::tpu_v2::figures.arch)), 45e12, 0.021));
// Gaudi 3: 8 MMEs x 256 x 256 x 2 x 1.75 GHz = 1835e12; at the 1.6 GHz shipping MMEs run at,
// the MAMF table's 1677.
static_assert(within(8.0 * 256.0 * 256.0 * 2.0 * 1.75e9, 1835e12, 0.0005));
static_assert(within(8.0 * 256.0 * 256.0 * 2.0 * 1.6e9, 1677e12, 0.0005));
// L40S: the tensor peaks hold at 2.49 GHz, the FP32 one at the 2.52 GHz boost.
static_assert(within(142.0 * 1024.0 * 2.49e9, 362.05e12, 0.0005));
static_assert(within(142.0 * 128.0 * 2.0 * 2.52e9, 91.6e12, 0.001));

// Vector peaks: lanes x FLOP per lane x clock, within 3%.
template <ChipSpec Chip>
constexpr bool vector_peak_matches() {
  return within(value_of(vector_fp32_peak(Chip::figures.arch)), value_of(Chip::figures.peak_fp32),
                datasheet_tolerance);
}
static_assert(vector_peak_matches<hw::v100>());    // 80 x 64 x 2 x 1.53e9 = 15.67e12
static_assert(vector_peak_matches<hw::l40s>());    // 142 x 128 x 2 x 2.52e9 = 91.6e12
static_assert(vector_peak_matches<hw::h100_nvl>());  // 132 x 128 x 2 x 1.785e9 = 60.3e12
static_assert(vector_peak_matches<hw::mi250x>());  // 110 x 64 x 2 x 1.7e9 = 23.9e12
static_assert(vector_peak_matches<hw::mi325x>());
static_assert(vector_peak_matches<hw::mi355x>());  // 256 x 128 x 2 x 2.4e9 = 157.3e12
// No clock published: no peak rebuilt (zero, not a guess).
static_assert(value_of(matrix_peak(hw::b300::figures.arch, number_format::bf16)) == 0.0);
static_assert(value_of(matrix_peak(hw::gb300::figures.arch, number_format::fp4)) == 0.0);

// --- Kernel fractions: what the model makes of the measurements they come from --------------
// Every non-NVIDIA chip sets its own fractions (otherwise it would fall into an NVIDIA
// generation by its formats), and none claims a measured step error.
template <ChipSpec Chip>
constexpr bool own_fractions() {
  const kernel_fractions& k = Chip::figures.kernels;
  return k.gemm > 0.0 && k.gemm_low_precision > 0.0 && k.memory > 0.0 &&
         k.attention_forward > 0.0 && k.attention_backward > 0.0 && k.tile_rows > 0 &&
         k.tile_columns > 0 && k.reduction_overhead != 0.0 && k.sustained > 0.0 &&
         k.step_error < 0.0;
}
static_assert(own_fractions<hw::mi250x>());
static_assert(own_fractions<hw::mi325x>());
static_assert(own_fractions<hw::mi355x>());
static_assert(own_fractions<hw::trainium2>());
static_assert(own_fractions<hw::gaudi3>());
// The chips never measured on a training run say so; the TPUs keep the TPU family's fractions.
static_assert(family_kernel_fractions(hw::tpu_v3::figures).step_error < 0.0);
static_assert(family_kernel_fractions(hw::tpu_v2::figures).step_error < 0.0);
static_assert(family_kernel_fractions(hw::tpu_v3::figures).gemm ==
              family_kernel_fractions(hw::tpu_v5p::figures).gemm);
static_assert(family_kernel_fractions(hw::v100::figures).step_error < 0.0);
static_assert(family_kernel_fractions(hw::l40s::figures).step_error < 0.0);
// The Hopper and Blackwell variants keep their generation's measured error.
static_assert(family_kernel_fractions(hw::h100_pcie::figures).step_error ==
              family_kernel_fractions(hw::h100_sxm::figures).step_error);
static_assert(family_kernel_fractions(hw::gb300::figures).step_error ==
              family_kernel_fractions(hw::gb200::figures).step_error);

/// The model's rate for a GEMM of this shape, in TFLOP/s.
template <ChipSpec Chip>
constexpr double model_tflops(number_format f, gemm_shape g) {
  return value_of(peak(Chip::figures, f)) * gemm_efficiency(Chip::figures, f, g) / tera_;
}
// stas00/ml-engineering MAMF tables (bf16 unless said; 744d01e, MI250X from the v1 table at
// f0cca2f): the model gives back each measurement at its best shape within 1%.
// MI250X one GCD: 147.0 TFLOPS at 1024x19968x14080.
static_assert(within(model_tflops<hw::mi250x>(number_format::bf16, {1024, 19968, 14080}), 147.0,
                     0.01));
// MI325X: 784.9 at 13312x10240x8192.
static_assert(within(model_tflops<hw::mi325x>(number_format::bf16, {13312, 10240, 8192}), 784.9,
                     0.01));
// MI355X: 1565.0 at 12288x8192x8192.
static_assert(within(model_tflops<hw::mi355x>(number_format::bf16, {12288, 8192, 8192}), 1565.0,
                     0.01));
// Gaudi 3: bf16 1243.0 at 16384x4096x768, fp8 1289.5 at 16640x1536x3072.
static_assert(within(model_tflops<hw::gaudi3>(number_format::bf16, {16384, 4096, 768}), 1243.0,
                     0.01));
static_assert(within(model_tflops<hw::gaudi3>(number_format::fp8, {16640, 1536, 3072}), 1289.5,
                     0.01));
// The mi300x rule for attention (H100's cuDNN fractions 0.62 / 0.57 times the GEMM ratio to the
// H100's 0.859), to two digits.
constexpr bool attention_scaled(const kernel_fractions& k) {
  return within(k.attention_forward, 0.62 * k.gemm / 0.859, 0.015) &&
         within(k.attention_backward, 0.57 * k.gemm / 0.859, 0.015);
}
static_assert(attention_scaled(hw::mi250x::figures.kernels));
static_assert(attention_scaled(hw::mi325x::figures.kernels));
static_assert(attention_scaled(hw::mi355x::figures.kernels));
static_assert(attention_scaled(hw::gaudi3::figures.kernels));
// Trainium2's GEMM fraction stays under what the Neuron clock allows (629 of 667 TFLOPS).
static_assert(hw::trainium2::figures.kernels.gemm < 8.0 * 128.0 * 128.0 * 2.0 * 2.4e9 / 667e12);

// --- Intensities the new figures imply --------------------------------------------------------
// H200 NVL has the H200's memory intensity scaled by its lower clock: 835.5e12 / 4.8e12 = 174.
static_assert(within(value_of(memory_intensity(hw::h200_nvl::figures)), 835.5e12 / 4.8e12, exact));
// Gaudi 3's scale-up axis: 1835e12 / 525e9 = 3495 FLOP per byte.
static_assert(within(value_of(scale_up_intensity(hw::gaudi3::figures)), 1835e12 / 525e9, exact));
// The V100 computes in fp16: its fp16 intensity is 125e12 / 900e9 = 139; bf16 has none.
static_assert(within(value_of(memory_intensity(hw::v100::figures, number_format::fp16)),
                     125e12 / 900e9, exact));
static_assert(value_of(memory_intensity(hw::v100::figures)) == 0.0);

// The catalogue's size: fifteen chips and the fourteen added here.
static_assert(catalog_chips.size() == 29);

}  // namespace
