// Static tests of the hardware catalogue: the figures are constant expressions, so compiling this
// file is passing.
#include <boost/hana/length.hpp>
#include <shardplan/hardware/catalog.hpp>

namespace {

using namespace shardplan;
namespace hw = shardplan::hardware;
namespace sys = shardplan::systems;

// Chips are types with constexpr figures; anything else is not a chip.
static_assert(ChipSpec<hw::h100_sxm>);
static_assert(ChipSpec<hw::tpu_v5p>);
static_assert(ChipSpec<hw::mi300x>);
static_assert(ChipSpec<hw::xeon_8480_2s>);
static_assert(!ChipSpec<int>);
static_assert(!ChipSpec<sys::dgx_h100_superpod<128>>);
static_assert(SystemSpec<sys::dgx_h100_superpod<128>>);
static_assert(SystemSpec<sys::tpu_v5e_slice<16, 16>>);
static_assert(!SystemSpec<hw::h100_sxm>);

// The book's arithmetic intensities, computed at compile time from the figures.
static_assert(memory_intensity(hw::tpu_v5e::figures).value() > 239);  // 1.97e14 / 8.19e11
static_assert(memory_intensity(hw::tpu_v5e::figures).value() < 245);
static_assert(memory_intensity(hw::h100_sxm::figures).value() > 290);       // 9.894e14 / 3.35e12
static_assert(scale_up_intensity(hw::tpu_v5p::figures).value() == 2550.0);  // 4.59e14 / 1.8e11
static_assert(scale_up_intensity(hw::b200::figures).value() == 2500.0);     // 2.25e15 / 9e11

// Units: a bandwidth in Gb/s is an eighth of the same number in GB/s.
static_assert(hw::h100_sxm::figures.scale_out_bandwidth == 50.0 * giga * byte / second);
static_assert(hw::tpu_v5e::figures.scale_out_bandwidth.value() == 3.125e9);

// Host memory: Google's "RAM (GB) (4-chip VM)" is Compute Engine machine-type memory, which gcloud
// prints as memoryMb / 1024, so GiB: v5p 448 and TPU7x 960 per 4-chip VM (TPU7x's 1-chip VM 240).
constexpr double gib = 1024.0 * 1024.0 * 1024.0;
static_assert(hw::tpu_v5p::figures.host_memory.value() == 448.0 * gib / 4.0);
static_assert(hw::tpu7x::figures.host_memory.value() == 960.0 * gib / 4.0);
static_assert(hw::tpu7x::figures.host_memory.value() == 240.0 * gib);

// ICI: Google gives TPU7x and v5p the same 1200 GB/s bidirectional per chip. Links x 2
// directions x the book's one-way link rate (90% of Google's, see tpu.hpp) must land within
// [90%, 100%] of it: 6 x 2 x 9e10 = 1.08e12; the 4 links of press reports give 7.2e11.
constexpr double tpu_ici_per_chip(const chip_figures& f) {
  return double(f.scale_up_links) * 2.0 * f.scale_up_link_bandwidth.value();
}
static_assert(tpu_ici_per_chip(hw::tpu7x::figures) >= 0.9 * 1200e9);
static_assert(tpu_ici_per_chip(hw::tpu7x::figures) <= 1200e9);
static_assert(tpu_ici_per_chip(hw::tpu_v5p::figures) >= 0.9 * 1200e9);
static_assert(tpu_ici_per_chip(hw::tpu_v5p::figures) <= 1200e9);

// Systems: chip counts and degrees.
static_assert(sys::dgx_h100_superpod<128>::figures.chips == 1024);
static_assert(chips_per_unit(sys::dgx_h100_superpod<128>::figures, 1) == 256);
static_assert(sys::tpu_v5p_slice<16, 20, 28>::figures.chips == 8960);
static_assert(sys::tpu_v5p_slice<4, 4, 4, 2>::figures.levels[1].degree == 2);
static_assert(sys::gb200_nvl72<8>::figures.chips == 576);

// Wraparound: whole 4x4x4 cubes wrap on every axis; a v5e axis wraps only at 16.
static_assert(sys::tpu_v5p_slice<4, 4, 8>::figures.torus.wraps[2]);
static_assert(!sys::tpu_v5p_slice<2, 2, 4>::figures.torus.wraps[2]);
static_assert(!sys::tpu_v5e_slice<8, 16>::figures.torus.wraps[0]);
static_assert(sys::tpu_v5e_slice<8, 16>::figures.torus.wraps[1]);

// The catalogue lists every chip once.
static_assert(decltype(boost::hana::length(hw::chips))::value == 29);

}  // namespace
