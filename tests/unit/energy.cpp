// Tests of run/energy.hpp: every catalogue chip's rated power against its datasheet, the host
// power per chip against the DGX datasheets, a step's and a run's energy against derivations
// written out here, Meta's own energy accounting of LLaMA 3.1 405B, and tokens per joule.
#include <doctest/doctest.h>

#include <shardplan/hardware/catalog.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/run/energy.hpp>
#include <shardplan/training/training_plan.hpp>
#include <string>

using namespace shardplan;
namespace hw = shardplan::hardware;

TEST_CASE("every catalogue chip has a rated power") {
  for (const chip_figures& c : catalog_chips) {
    CAPTURE(std::string(c.name));
    CHECK(c.power_watts > 0.0);
    CHECK(c.power_watts < 3000.0);
  }
}

TEST_CASE("rated powers are the datasheets'") {
  // NVIDIA's datasheets: A100 SXM 400 W, H100 SXM and H200 SXM up to 700 W, HGX B200 up to
  // 1,000 W, H100 PCIe 350 W, L40S 350 W, V100 SXM2 300 W; GB300 TGP 1400 W (MLPerf system file).
  CHECK(hw::a100_80gb::figures.power_watts == 400.0);
  CHECK(hw::h100_sxm::figures.power_watts == 700.0);
  CHECK(hw::h200::figures.power_watts == 700.0);
  CHECK(hw::b200::figures.power_watts == 1000.0);
  CHECK(hw::h100_pcie::figures.power_watts == 350.0);
  CHECK(hw::l40s::figures.power_watts == 350.0);
  CHECK(hw::v100::figures.power_watts == 300.0);
  CHECK(hw::gb300::figures.power_watts == 1400.0);
  // AMD: MI300X 750 W, MI325X 1000 W, MI355X 1400 W; the MI250X's 560 W OAM is two GCDs.
  CHECK(hw::mi300x::figures.power_watts == 750.0);
  CHECK(hw::mi325x::figures.power_watts == 1000.0);
  CHECK(hw::mi250x::figures.power_watts == 280.0);
  // Intel Gaudi 3 OAM 900 W (air); TPU v4 192 W; Xeon 8480+ 350 W and EPYC 9654 360 W a socket.
  CHECK(hw::gaudi3::figures.power_watts == 900.0);
  CHECK(hw::tpu_v4p::figures.power_watts == 192.0);
  CHECK(hw::xeon_8480_2s::figures.power_watts == 700.0);
  CHECK(hw::epyc_9654_2s::figures.power_watts == 720.0);
}

TEST_CASE("unpublished tpu powers follow google's efficiency ratios from tpu v4") {
  const auto flop_per_watt = [](const chip_figures& c) {
    return c.peak_bf16.value() / c.power_watts;
  };
  const double v4 = flop_per_watt(hw::tpu_v4p::figures);
  CHECK(flop_per_watt(hw::tpu_v5e::figures) == doctest::Approx(v4).scale(0.0));
  CHECK(flop_per_watt(hw::tpu_v5p::figures) == doctest::Approx(v4).scale(0.0));
  // Trillium: "67% more energy-efficient than TPU v5e"; Ironwood: twice Trillium's perf/watt.
  CHECK(flop_per_watt(hw::tpu_v6e::figures) == doctest::Approx(1.67 * v4).scale(0.0));
  CHECK(flop_per_watt(hw::tpu7x::figures) == doctest::Approx(2.0 * 1.67 * v4).scale(0.0));
  // v5p: 459 / 275 x 192 W = 320.5 W.
  CHECK(hw::tpu_v5p::figures.power_watts == doctest::Approx(320.46).epsilon(1e-4).scale(0.0));
}

TEST_CASE("host power is the dgx's maximum beyond its gpus, else dgx h100's share") {
  // DGX H100: ~10.2 kW max for 8 x 700 W: 1275 - 700 = 575 W a GPU.
  CHECK(host_watts_per_chip(hw::h100_sxm::figures) == doctest::Approx(575.0).scale(0.0));
  // DGX B200: ~14.3 kW for 8 x 1000 W: 787.5 W; DGX A100: 6.5 kW for 8 x 400 W: 412.5 W.
  CHECK(host_watts_per_chip(hw::b200::figures) == doctest::Approx(787.5).scale(0.0));
  CHECK(host_watts_per_chip(hw::a100_80gb::figures) == doctest::Approx(412.5).scale(0.0));
  // TPU v2 and v3: Google's "system TDP" already holds the host's share.
  CHECK(host_watts_per_chip(hw::tpu_v3::figures) == 0.0);
  // Elsewhere 4.6 / 5.6 of the chip's power: a TPU v4 host share 192 x 0.8214 = 157.7 W.
  CHECK(host_watts_per_chip(hw::tpu_v4p::figures) == doctest::Approx(192.0 * 4.6 / 5.6).scale(0.0));
}

TEST_CASE("a step's energy charges compute at busy power and waits at idle power") {
  step_cost c;
  c.compute = 1.0 * second;
  c.optimizer = 0.25 * second;
  c.communication_exposed = 0.5 * second;
  c.bubble = 0.25 * second;
  c.step = 2.0 * second;
  const energy_inputs in{.pue = 1.2, .busy_share = 0.9, .idle_share = 0.4};
  const step_energy e = energy_of_step(c, hw::h100_sxm::figures, 8.0, in);
  REQUIRE(e.known);
  // Per GPU: 700 W x 0.9 x 1.25 s = 787.5 J busy, 700 x 0.4 x 0.75 = 210 J idle, 575 x 2 = 1150 J
  // host: 2147.5 J, x 8 GPUs = 17,180 J of IT energy, x 1.2 = 20,616 J at the facility.
  CHECK(e.busy_joules == doctest::Approx(8.0 * 787.5).scale(0.0));
  CHECK(e.idle_joules == doctest::Approx(8.0 * 210.0).scale(0.0));
  CHECK(e.host_joules == doctest::Approx(8.0 * 1150.0).scale(0.0));
  CHECK(e.it_joules == doctest::Approx(17180.0).scale(0.0));
  CHECK(e.joules == doctest::Approx(20616.0).scale(0.0));
  CHECK(e.average_watts_per_chip == doctest::Approx(20616.0 / 2.0 / 8.0).scale(0.0));
}

TEST_CASE("a chip without a power figure has no energy estimate") {
  step_cost c;
  c.compute = c.step = 1.0 * second;
  chip_figures own = hw::h100_sxm::figures;
  own.name = "my gpu";
  own.power_watts = 0.0;
  CHECK_FALSE(energy_of_step(c, own, 8.0).known);
  CHECK(tokens_per_joule(1000.0, own) == 0.0);
}

TEST_CASE("meta's energy accounting of llama 3.1 405b: gpu-hours at 700 w") {
  // Llama 3.1 model card (github.com/meta-llama/llama-models/blob/main/models/llama3_1/
  // MODEL_CARD.md, "Training Energy Use"): 405B took 30.84M GPU hours on H100-80GB at a TDP of
  // 700 W. Counting the GPUs only, at their TDP, as the card does: 30.84e6 h x 0.7 kW = 21.59 GWh.
  step_cost c;
  c.compute = c.step = 3600.0 * second;  // one GPU-hour of steps, all compute
  const energy_inputs card{
      .pue = 1.0, .busy_share = 1.0, .idle_share = 1.0, .host_watts_per_chip = 0.0};
  const step_energy hour = energy_of_step(c, hw::h100_sxm::figures, 1.0, card);
  CHECK(hour.joules / joules_per_kwh == doctest::Approx(0.7).scale(0.0));
  CHECK(30.84e6 * hour.joules / joules_per_kwh == doctest::Approx(21.588e6).scale(0.0));
  // With DGX H100's host share the same GPU-hours come to 30.84e6 x 1.275 kW = 39.3 GWh.
  const step_energy with_host = energy_of_step(c, hw::h100_sxm::figures, 1.0);
  CHECK(30.84e6 * with_host.joules / joules_per_kwh ==
        doctest::Approx(39.32e6).epsilon(1e-3).scale(0.0));
}

namespace {
using llama3_8b_plan =
    training_plan<models::llama3_8b, systems::dgx_h100_superpod<1>, mesh<axis<"dp", 8>>,
                  zero<1, "dp">, batch<global_sequences<64>, seq_len<8192>, micro_batch<1>>,
                  recompute::selective, precision::bf16_mixed_adam>;
}  // namespace

TEST_CASE("a run's energy is its steps plus its waits, and its cost the price per kwh") {
  const run_inputs inputs{.tokens = 1e11, .price_per_chip_hour = 2.0};
  const run_totals r = run_estimate(llama3_8b_plan::values, inputs);
  REQUIRE(r.finishes);
  const step_cost c = estimate_step(llama3_8b_plan::values);
  const energy_inputs in{.price_per_kwh = 0.1};
  const step_energy s = energy_of_step(c, hw::h100_sxm::figures, 8.0, in);
  const run_energy e = energy_of_run(r, s, hw::h100_sxm::figures, in);
  REQUIRE(e.known);
  CHECK(e.ideal_kwh == doctest::Approx(s.joules * r.steps / 3.6e6).scale(0.0));
  // Waits (stalls, restarts, saves) at 8 x (350 + 575) W; rework at the step's average power.
  const double waits = (r.checkpoint_stalls + r.restarts + r.planned_saves).value();
  const double extra = (8.0 * 925.0 * waits + s.average_watts_per_chip * 8.0 * r.rework.value());
  CHECK(e.kwh == doctest::Approx(e.ideal_kwh + extra / 3.6e6).scale(0.0));
  CHECK(e.kwh >= e.ideal_kwh);
  CHECK(e.cost == doctest::Approx(e.kwh * 0.1).scale(0.0));
  // The facility's PUE scales everything.
  const energy_inputs cooled{.pue = 1.5, .price_per_kwh = 0.1};
  const run_energy f = energy_of_run(r, energy_of_step(c, hw::h100_sxm::figures, 8.0, cooled),
                                     hw::h100_sxm::figures, cooled);
  CHECK(f.kwh == doctest::Approx(1.5 * e.kwh).scale(0.0));
}

TEST_CASE("tokens per joule divide the tokens by the chip's and its host's watts") {
  // 1000 tokens/s on one H100 at 700 W + 575 W of host: 0.784 tokens/J; at PUE 1.25, 0.627.
  CHECK(tokens_per_joule(1000.0, hw::h100_sxm::figures) ==
        doctest::Approx(1000.0 / 1275.0).scale(0.0));
  CHECK(tokens_per_joule(1000.0, hw::h100_sxm::figures, {.pue = 1.25}) ==
        doctest::Approx(1000.0 / 1275.0 / 1.25).scale(0.0));
}
