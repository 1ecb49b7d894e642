// Energy: a training step's joules from its step-time breakdown, a run's kWh and energy cost, a
// serving plan's tokens per joule; host and network power per chip; a facility PUE as an input.
#pragma once

#include <array>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/training/cost.hpp>
#include <string_view>

namespace shardplan {

/// A system whose vendor publishes its maximum power beside its chips': the host (CPUs, DRAM,
/// NICs, switches inside the node, fans, power-supply losses) is the difference.
struct published_system_power {
  std::string_view chip;  ///< the catalogue chip's name
  double system_watts = 0.0;
  double chips = 0.0;
};

/// Maximum system power of the DGX nodes, from their datasheets:
/// - DGX A100: 6.5 kW max for 8 x 400 W A100 (nvidia.com/content/dam/en-zz/Solutions/
///   Data-Center/nvidia-dgx-a100-datasheet.pdf; the figure as we know the sheet, not reopened
///   in the session that added it);
/// - DGX H100 (and DGX H200, the same chassis): 10.2 kW max for 8 x 700 W, "the
///   manufacturer-rated 10.2 kW" of Latif et al. (arXiv:2412.08602), who measured at most
///   8.4 kW on one node training Llama2-13b;
/// - DGX B200: 14.3 kW max for 8 x 1000 W (NVIDIA's DGX B200 deployment guide at
///   docs.nvidia.com, "estimated system power at 14.3 kW max" as thedailyscout.com quotes it);
/// - H800: the HGX H800 board in a DGX-H100-like server, an assumption;
/// - TPU v2 and v3: their power (hardware/tpu.hpp, [ten-lessons]) is already a "system TDP"
///   with the chip's share of the host, so nothing is added.
inline constexpr std::array<published_system_power, 8> published_system_powers = {{
    {"a100 sxm4 40gb", 6500.0, 8.0},
    {"a100 sxm4 80gb", 6500.0, 8.0},
    {"h100 sxm", 10200.0, 8.0},
    {"h800 sxm", 10200.0, 8.0},
    {"h200 sxm", 10200.0, 8.0},
    {"b200", 14300.0, 8.0},
    {"tpu v2", 280.0, 1.0},
    {"tpu v3", 450.0, 1.0},
}};

/// The host's power as a share of the chips' where no system figure is published: DGX H100's,
/// (10.2 kW - 8 x 700 W) / (8 x 700 W) = 0.82. A rule, not a measurement, for every other chip
/// (TPU hosts, CPU servers' DRAM and board, rack switches).
inline constexpr double default_host_share = (10200.0 - 8.0 * 700.0) / (8.0 * 700.0);

/// Host and network power per chip, in watts: the published system's power beyond its chips,
/// else `default_host_share` of the chip's power.
constexpr double host_watts_per_chip(const chip_figures& chip) {
  for (const published_system_power& s : published_system_powers)
    if (s.chip == chip.name) return s.system_watts / s.chips - chip.power_watts;
  return chip.power_watts * default_host_share;
}

/// What an energy estimate needs beyond the plan. Prices and facility figures are inputs, never
/// built in.
struct energy_inputs {
  /// Facility power usage effectiveness: total facility power over IT power. 1.0 (the default)
  /// means IT power only: chips and hosts, no cooling or power distribution.
  double pue = 1.0;
  /// Price of one kWh at the facility meter, any currency; 0: no energy cost.
  double price_per_kwh = 0.0;
  /// A chip's power while it computes, as a share of its rated power. 1.0 (the default) is an
  /// upper bound: Newkirk et al. (arXiv:2506.14551) measured compute-intensive training on
  /// 8-GPU H100 nodes at 76% of the 10.2 kW rating.
  double busy_share = 1.0;
  /// A chip's power during exposed communication, the pipeline bubble and restarts, as a share
  /// of its rated power. 0.5 is an assumption: Patel et al. (ASPLOS'24, "Characterizing Power
  /// Management Opportunities for LLMs in the Cloud", doi 10.1145/3620666.3651329) observe large
  /// swings between compute and communication phases but we give no measured share.
  double idle_share = 0.5;
  /// Host and network watts per chip, at every phase; negative: `host_watts_per_chip(chip)`.
  double host_watts_per_chip = -1.0;
};

/// The host watts per chip `in` asks for.
constexpr double host_watts(const chip_figures& chip, const energy_inputs& in) {
  return in.host_watts_per_chip >= 0.0 ? in.host_watts_per_chip : host_watts_per_chip(chip);
}

/// One training step's energy, all chips, in joules.
struct step_energy {
  double busy_joules = 0.0;             ///< chips while computing (compute and optimizer)
  double idle_joules = 0.0;             ///< chips during exposed communication and the bubble
  double host_joules = 0.0;             ///< hosts and network over the whole step
  double it_joules = 0.0;               ///< busy + idle + host
  double joules = 0.0;                  ///< at the facility: `it_joules` x PUE
  double average_watts_per_chip = 0.0;  ///< at the facility, over the step
  bool known = false;  ///< the chip has a power figure; otherwise every figure is 0
};

/// The energy of one step of the breakdown `c` on `chips` chips of `chip`: compute and the
/// optimizer at `busy_share` of the rated power, exposed communication and the bubble at
/// `idle_share`, the host's watts all along, all times PUE.
constexpr step_energy energy_of_step(const step_cost& c, const chip_figures& chip, double chips,
                                     const energy_inputs& in = {}) {
  step_energy e;
  if (chip.power_watts <= 0.0 || c.step.value() <= 0.0) return e;
  e.known = true;
  const double busy_s = (c.compute + c.optimizer).value();
  const double idle_s = (c.communication_exposed + c.bubble).value();
  e.busy_joules = chips * chip.power_watts * in.busy_share * busy_s;
  e.idle_joules = chips * chip.power_watts * in.idle_share * idle_s;
  e.host_joules = chips * host_watts(chip, in) * c.step.value();
  e.it_joules = e.busy_joules + e.idle_joules + e.host_joules;
  e.joules = e.it_joules * in.pue;
  e.average_watts_per_chip = e.joules / c.step.value() / chips;
  return e;
}

/// Joules in one kWh.
inline constexpr double joules_per_kwh = 3.6e6;

/// A run's energy.
struct run_energy {
  double step_kwh = 0.0;   ///< one step at the facility
  double ideal_kwh = 0.0;  ///< every step, no failures
  double kwh = 0.0;        ///< with checkpoint stalls, rework and restarts
  double cost = 0.0;       ///< `kwh` x price per kWh (0 without a price)
  double megawatts = 0.0;  ///< the job's average facility power while it steps
  bool known = false;
};

/// The energy of a run `r` (run/reliability.hpp) whose steps cost `s`: its steps at the step's
/// energy, the rework after failures at the step's average power, checkpoint stalls, restarts
/// and planned saves at idle power.
constexpr run_energy energy_of_run(const run_totals& r, const step_energy& s,
                                   const chip_figures& chip, const energy_inputs& in = {}) {
  run_energy e;
  if (!s.known || !r.finishes) return e;
  e.known = true;
  e.step_kwh = s.joules / joules_per_kwh;
  e.ideal_kwh = e.step_kwh * r.steps;
  const double idle_watts =
      r.chips * (chip.power_watts * in.idle_share + host_watts(chip, in)) * in.pue;
  const double busy_watts = s.average_watts_per_chip * r.chips;
  const double waits_s = (r.checkpoint_stalls + r.restarts + r.planned_saves).value();
  e.kwh = e.ideal_kwh + (busy_watts * r.rework.value() + idle_watts * waits_s) / joules_per_kwh;
  e.cost = e.kwh * in.price_per_kwh;
  e.megawatts = busy_watts / 1e6;
  return e;
}

/// Tokens per joule at the facility for a device producing `tokens_per_second_per_device`
/// (serving: output tokens a second per chip) at `busy_share` of its rated power plus its
/// host's, times PUE. 0 where the chip has no power figure.
constexpr double tokens_per_joule(double tokens_per_second_per_device, const chip_figures& chip,
                                  const energy_inputs& in = {}) {
  if (chip.power_watts <= 0.0) return 0.0;
  const double watts = (chip.power_watts * in.busy_share + host_watts(chip, in)) * in.pue;
  return tokens_per_second_per_device / watts;
}

}  // namespace shardplan
