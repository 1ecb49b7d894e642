// Static tests of run/energy.hpp and search/compare.hpp's constexpr parts: compiling is passing.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/tpu.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/run/energy.hpp>
#include <shardplan/search/compare.hpp>

namespace {
using namespace shardplan;
namespace hw = shardplan::hardware;

constexpr bool near(double a, double b, double tolerance) {
  return a > b * (1.0 - tolerance) && a < b * (1.0 + tolerance);
}

// DGX H100: ~10.2 kW for 8 x 700 W GPUs leaves 575 W of host and network a GPU.
static_assert(hw::h100_sxm::figures.power_watts == 700.0);
static_assert(host_watts_per_chip(hw::h100_sxm::figures) == 10200.0 / 8.0 - 700.0);
// Without a published system, the host is DGX H100's share of the chips' power.
static_assert(near(host_watts_per_chip(hw::tpu_v4p::figures), 192.0 * 4600.0 / 5600.0, 1e-12));

// One second of compute on one H100 with no host, at PUE 1.5: 700 x 1.5 = 1050 J.
constexpr step_cost one_second = [] {
  step_cost c;
  c.compute = 1.0 * second;
  c.step = 1.0 * second;
  return c;
}();
static_assert(energy_of_step(one_second, hw::h100_sxm::figures, 1.0,
                             {.pue = 1.5, .host_watts_per_chip = 0.0})
                  .joules == 1050.0);
// A second of exposed communication is charged at the idle share: 700 x 0.5 + 575 = 925 J.
constexpr step_cost waiting = [] {
  step_cost c;
  c.communication_exposed = 1.0 * second;
  c.step = 1.0 * second;
  return c;
}();
static_assert(energy_of_step(waiting, hw::h100_sxm::figures, 1.0).joules == 925.0);

// The scaling book's LLaMA-3 70B on 8960 v5p at 40% MFU: "44 days" (applied-training.md).
static_assert(near(days_at_mfu(models::llama3_70b::shape, 15e12, 8960.0,
                               hw::tpu_v5p::figures.peak_bf16, 0.4),
                   44.0, 0.02));

// 16,384 chips: 2048 DGX nodes, 228 NVL72 racks, four 16x16x16 v5p slices.
static_assert(sized_request("dgx_h100_superpod", 16384).nodes == 2048);
static_assert(sized_request("gb200_nvl72", 16384).racks == 228);
static_assert(sized_request("tpu_v5p_slice", 16384).slices == 4);
static_assert(sized_request("tpu_v5p_slice", 16384).shape[2] == 16);
}  // namespace
