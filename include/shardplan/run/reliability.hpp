// Failures, checkpoints and what they cost a training run: failure rates per component (LLaMA 3's
// published interruptions by default), checkpoint size and timing, the Young/Daly interval, the
// expected loss per interruption, and days, chip-hours, cost and goodput for a token budget.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

#include <shardplan/training/bounds.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/training/plan.hpp>
#include <shardplan/core/units.hpp>

// Sources, cited by their tag:
//   [llama3]  Llama Team, "The Llama 3 Herd of Models" (arXiv:2407.21783). Sec. 3.3.1: "Each
//             server is equipped with eight GPUs and two CPUs"; Tectonic "supports a sustainable
//             throughput of 2 TB/s and a peak throughput of 7 TB/s", and "highly bursty
//             checkpoint writes ... saturate the storage fabric". Sec. 3.3.4: "During a 54-day
//             snapshot period of pre-training, we experienced a total of 466 job interruptions.
//             Of these, 47 were planned ... The remaining 419 were unexpected", classified in
//             Table 5 (counts below); "higher than 90% effective training time".
//   [young]   J. W. Young, "A first order approximation to the optimum checkpoint interval",
//             CACM 17(9), 1974: tau = sqrt(2 delta M).
//   [daly]    J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart
//             dumps", FGCS 22(3), 2006: tau = sqrt(2 delta M)[1 + (1/3)sqrt(delta/(2M)) +
//             (1/9)(delta/(2M))] - delta for delta < 2M, else M; its figures predict 117, 57 and
//             9.1 min for M = 24 h, 6 h and 15 min with delta = 5 min.

namespace shardplan {

// --- failure rates ---------------------------------------------------------------------------

/// What a component's failure rate grows with: the chips of the job, its hosts, or neither.
enum class failure_scale : std::uint8_t { per_chip, per_host, per_job };

/// "chip", "host" or "job".
constexpr std::string_view name_of(failure_scale s) {
  switch (s) {
    case failure_scale::per_chip: return "chip";
    case failure_scale::per_host: return "host";
    case failure_scale::per_job: return "job";
  }
  return "?";
}

/// Job interruptions one unit (a chip, a host or the job) causes per hour of the run.
struct component_rate {
  double per_unit_hour = 0.0;
  failure_scale scale = failure_scale::per_chip;
};

/// The rates of every cause of interruption. All but `planned` stop the job unexpectedly and
/// lose the work since the last durable checkpoint; a planned interruption (maintenance, an
/// operator's change) first saves a checkpoint and loses no work.
struct failure_rates {
  component_rate gpu{};       ///< the accelerator itself: its logic, SRAM, system processor,
                              ///< silent data corruption, thermal interface and sensors
  component_rate hbm{};       ///< the accelerator's HBM
  component_rate host{};      ///< the server: unplanned maintenance, NIC, SSD, power supply,
                              ///< chassis, IO expansion board, CPU, system memory
  component_rate network{};   ///< switches and cables of the scale-out fabric
  component_rate software{};  ///< software bugs, dependencies, collective (NCCL) timeouts
  component_rate planned{};   ///< planned interruptions
};

namespace failure_data {

/// LLaMA 3 405B pre-training on 16,384 H100 in servers of 8 ([llama3] Sec. 3.3.1): the
/// interruptions of a 54-day window, by root cause ([llama3] Table 5, interruption counts) and
/// the planned ones (Sec. 3.3.4). The table's printed percentages are not all the counts' shares
/// (it prints 30.1% beside 148 of 419, which is 35.3%); we use the counts.
struct llama3_405b {
  static constexpr double days = 54.0;
  static constexpr double gpus = 16384.0;
  static constexpr double gpus_per_host = 8.0;
  static constexpr double hosts = gpus / gpus_per_host;

  // Category "GPU".
  static constexpr double faulty_gpu = 148;
  static constexpr double gpu_hbm3_memory = 72;
  static constexpr double gpu_sram_memory = 19;
  static constexpr double gpu_system_processor = 17;
  static constexpr double silent_data_corruption = 6;
  static constexpr double gpu_thermal_interface_and_sensor = 6;
  // Category "Host", and "Unplanned Maintenance".
  static constexpr double host_maintenance = 32;
  static constexpr double nic = 7;
  static constexpr double ssd = 3;
  static constexpr double power_supply = 3;
  static constexpr double server_chassis = 2;
  static constexpr double io_expansion_board = 2;
  static constexpr double cpu = 2;
  static constexpr double system_memory = 2;
  // Category "Network".
  static constexpr double network_switch_and_cable = 35;
  // Categories "Dependency" and "Unknown".
  static constexpr double software_bug = 54;
  static constexpr double dependency = 2;
  static constexpr double nccl_watchdog_timeouts = 7;

  static constexpr double unexpected = 419;
  static constexpr double planned = 47;

  // Our components.
  static constexpr double gpu = faulty_gpu + gpu_sram_memory + gpu_system_processor +
                                silent_data_corruption + gpu_thermal_interface_and_sensor;
  static constexpr double hbm = gpu_hbm3_memory;
  static constexpr double host = host_maintenance + nic + ssd + power_supply + server_chassis +
                                 io_expansion_board + cpu + system_memory;
  static constexpr double network = network_switch_and_cable;
  static constexpr double software = software_bug + dependency + nccl_watchdog_timeouts;
};

}  // namespace failure_data

/// Failure rates from LLaMA 3's 54 days ([llama3] Table 5): count / (units x hours). How each
/// scales is our assumption:
/// - gpu and hbm: per chip;
/// - host: per host (NIC failures too: [llama3] files them under "Host");
/// - network: per chip. In the rail-optimised fat trees modelled here every GPU has its own NIC,
///   cable and leaf-switch port, and the spine and core grow about as fast;
/// - software: per host. A bug, a dependency or a collective timeout stops one process of the job,
///   so more hosts mean more chances; per job would make an 8-GPU job fail as often as a 16K one;
/// - planned: per host. [llama3] names firmware and kernel upgrades of hosts.
/// The figures are H100 figures; other chips get them unchanged unless the caller supplies its
/// own.
inline constexpr failure_rates llama3_failure_rates = [] {
  using d = failure_data::llama3_405b;
  const double hours = d::days * 24.0;
  const auto chip = [hours](double n) {
    return component_rate{n / (d::gpus * hours), failure_scale::per_chip};
  };
  const auto host = [hours](double n) {
    return component_rate{n / (d::hosts * hours), failure_scale::per_host};
  };
  return failure_rates{.gpu = chip(d::gpu),
                       .hbm = chip(d::hbm),
                       .host = host(d::host),
                       .network = chip(d::network),
                       .software = host(d::software),
                       .planned = host(d::planned)};
}();

/// The size of a job in the units failure rates scale with.
struct job_size {
  double chips = 1.0;
  double hosts = 1.0;
};

/// Units of `scale` in `job`.
constexpr double units_of(const job_size& job, failure_scale scale) {
  switch (scale) {
    case failure_scale::per_chip: return job.chips;
    case failure_scale::per_host: return job.hosts;
    case failure_scale::per_job: return 1.0;
  }
  return 0.0;
}

/// Interruptions per day that a component causes in `job`.
constexpr double interruptions_per_day(const component_rate& r, const job_size& job) {
  return r.per_unit_hour * units_of(job, r.scale) * 24.0;
}

/// Interruptions per day of a job, by cause, and the job's mean time between failures.
struct interruption_forecast {
  double gpu = 0.0;
  double hbm = 0.0;
  double host = 0.0;
  double network = 0.0;
  double software = 0.0;
  double unexpected = 0.0;  ///< the sum of the above, per day
  double planned = 0.0;     ///< per day
  seconds mtbf{};           ///< 86400 s / unexpected; zero when nothing fails
};

/// Scales `rates` to `job`.
constexpr interruption_forecast forecast_interruptions(const failure_rates& rates,
                                                       const job_size& job) {
  interruption_forecast f;
  f.gpu = interruptions_per_day(rates.gpu, job);
  f.hbm = interruptions_per_day(rates.hbm, job);
  f.host = interruptions_per_day(rates.host, job);
  f.network = interruptions_per_day(rates.network, job);
  f.software = interruptions_per_day(rates.software, job);
  f.unexpected = f.gpu + f.hbm + f.host + f.network + f.software;
  f.planned = interruptions_per_day(rates.planned, job);
  f.mtbf = f.unexpected > 0.0 ? 86400.0 / f.unexpected * second : 0.0 * second;
  return f;
}

/// Chips per host of a system: the node of an NVLink or Infinity Fabric fat tree; otherwise 4,
/// an assumption that matches a GB200 NVL72 compute tray (two GB200, four GPUs) and a TPU v4 or
/// v5p host (four chips); 2 sockets for a CPU system.
constexpr std::int64_t chips_per_host(const system_figures& s) {
  if (s.chip.kind == chip_kind::cpu) return 2;
  if (s.level_count > 0 && s.levels[0].name == "node") return s.levels[0].degree;
  return 4;
}

// --- checkpoints -------------------------------------------------------------------------------

/// What a checkpoint holds and how it is written.
struct checkpoint_policy {
  /// Also save the 16-bit working copy of the weights. Off by default: with fp32 master weights
  /// the working copy is their rounding and is rebuilt on restore. Without master weights the
  /// working copy is the weights and is always saved.
  bool working_weights = false;
  /// Save the optimizer states (needed to resume; off for weights-only checkpoints).
  bool optimizer_states = true;
  /// Snapshot to host memory and write to storage in the background (PyTorch DCP's async_save,
  /// Megatron's asynchronous checkpointing): the job stalls only for the copy, and the snapshot
  /// is durable once written. Otherwise the job stalls until the write is done.
  bool asynchronous = true;
};

/// Bytes a checkpoint saves per parameter: the weights (fp32 master weights when the precision
/// keeps them, else the working copy), plus the working copy if asked, plus the optimizer states.
/// Mixed-precision Adam: 4 + 2·4 = 12.
constexpr double checkpoint_bytes_per_parameter(const precision_policy& p,
                                                const checkpoint_policy& c) {
  const bool master = p.master_bytes > 0.0;
  double b = master ? p.master_bytes : p.parameter_bytes;
  if (master && c.working_weights) b += p.parameter_bytes;
  if (c.optimizer_states)
    b += p.optimizer_state_bytes * static_cast<double>(p.optimizer_states);
  return b;
}

/// Bytes of a checkpoint that one device holds, from its memory breakdown: the same states as
/// `checkpoint_bytes_per_parameter`, sharded as the device holds them.
constexpr bytes device_checkpoint_bytes(const memory_breakdown& m, const precision_policy& p,
                                        const checkpoint_policy& c) {
  const bool master = p.master_bytes > 0.0;
  bytes b = master ? m.master_weights : m.parameters;
  if (master && c.working_weights) b += m.parameters;
  if (c.optimizer_states) b += m.optimizer;
  return b;
}

/// Young's first-order optimum interval between checkpoints ([young]): sqrt(2·delta·M), for a
/// checkpoint that stalls the job for `delta` and a job MTBF `M`.
constexpr seconds young_interval(seconds delta, seconds mtbf) {
  return detail::sqrt_newton(2.0 * delta.value() * mtbf.value()) * second;
}

/// Daly's higher-order optimum interval ([daly]): sqrt(2δM)·[1 + (1/3)·sqrt(δ/2M) + (1/9)·δ/2M] − δ
/// for δ < 2M, and M otherwise.
constexpr seconds daly_interval(seconds delta, seconds mtbf) {
  const double d = delta.value();
  const double m = mtbf.value();
  if (d >= 2.0 * m) return mtbf;
  const double x = d / (2.0 * m);
  return (detail::sqrt_newton(2.0 * d * m) * (1.0 + detail::sqrt_newton(x) / 3.0 + x / 9.0) - d) *
         second;
}

/// Expected time an unexpected interruption costs: the work since the last durable checkpoint,
/// (τ + δ)/2 + W, and the restart R. A failure lands uniformly in a cycle of τ of training and a
/// stall of δ; the snapshot taken at the cycle's start is durable W after its stall ends (W = 0
/// when the write is the stall), so the job falls back W + (τ + δ)/2 on average ([daly]'s
/// first-order cost function with W = 0).
constexpr seconds expected_loss(seconds interval, seconds stall, seconds durable_after,
                                seconds restart) {
  return (interval + stall) / 2.0 + durable_after + restart;
}

/// Wall-clock seconds per second of failure-free training, to first order: checkpoint stalls
/// add δ/τ, and a fraction λ·L + λp·P of the wall-clock time goes to unexpected interruptions
/// (λ per second, each costing L = `expected_loss`) and planned ones (λp per second, each costing
/// P = δ + W + R: save, wait until durable, restart). wall = (1 + δ/τ)/(1 − λ·L − λp·P).
/// Returns 0 when the interruptions take all the time (λ·L + λp·P ≥ 1): the run never finishes;
/// and 0 for an interval that is not positive.
constexpr double wall_time_factor(seconds interval, seconds stall, seconds durable_after,
                                  seconds restart, double failures_per_second,
                                  double planned_per_second) {
  const double lost =
      failures_per_second * expected_loss(interval, stall, durable_after, restart).value() +
      planned_per_second * (stall + durable_after + restart).value();
  if (lost >= 1.0 || interval.value() <= 0.0) return 0.0;
  return (1.0 + stall.value() / interval.value()) / (1.0 - lost);
}

// --- a run ---------------------------------------------------------------------------------------

/// LLaMA 3's checkpoint store ([llama3] Sec. 3.3.1): Tectonic, 2 TB/s sustained, 7 TB/s peak.
inline constexpr byte_rate llama3_storage_sustained = 2.0 * tera * byte / second;
inline constexpr byte_rate llama3_storage_peak = 7.0 * tera * byte / second;

/// What a run's estimate needs beyond the plan.
struct run_inputs {
  double tokens = 0.0;               ///< the token budget (double: 1.56e13 and more)
  double price_per_chip_hour = 0.0;  ///< in any currency; 0: no cost
  /// Aggregate bandwidth of the checkpoint store. Default: [llama3]'s 7 TB/s peak, as checkpoint
  /// writes and restores are the bursts that saturate it. Without a store (zero) nothing can be
  /// checkpointed and the run is reported as never finishing.
  byte_rate storage_write = llama3_storage_peak;
  byte_rate storage_read = llama3_storage_peak;
  failure_rates failures = llama3_failure_rates;
  /// Restart besides reading the checkpoint: detection, rescheduling onto spare hosts, process
  /// start and communicator setup. 10 minutes is an assumption (Daly's worked examples use it).
  seconds restart_overhead = 600.0 * second;
  checkpoint_policy checkpoint{};
  /// A fixed stall per checkpoint besides the copy or the write (barriers, metadata, file
  /// creation); 0 by default: not modelled unless given.
  seconds checkpoint_overhead{};
  seconds checkpoint_interval{};  ///< 0: the optimum (Daly), at least one step
  std::int64_t chips_per_host = 0;  ///< 0: `chips_per_host(system)`
};

/// Whether `in` gives a run to estimate: a positive token budget. Without one there are no steps,
/// and days, chip-hours, cost and goodput would all come out as zeros; reports leave them out.
constexpr bool has_run(const run_inputs& in) { return in.tokens > 0.0; }

/// What set the checkpoint interval.
enum class interval_source : std::uint8_t {
  daly,     ///< Daly's optimum, rounded to whole steps
  storage,  ///< an asynchronous write must finish before the next snapshot
  given,    ///< `run_inputs::checkpoint_interval`
  run,      ///< nothing fails: one checkpoint at the end
};

/// A run's checkpoint figures.
struct checkpoint_figures {
  bytes size{};          ///< the job's checkpoint: every state once, replicas deduplicated
  bytes per_device{};    ///< the part the fullest device holds
  seconds write{};       ///< size / storage write bandwidth
  seconds restore{};     ///< size / storage read bandwidth
  seconds stall{};       ///< δ: the job waits for this (the copy to host memory over the chip's
                         ///< host link, or the write), plus `run_inputs::checkpoint_overhead`
  seconds durable_after{};  ///< W: from the stall's end until the snapshot is durable
  /// The stall is a copy to host memory and the write runs in the background (an asynchronous
  /// checkpoint on a chip with a host link); otherwise the job waits for the write.
  bool asynchronous = false;
  seconds young{};       ///< Young's interval for δ and the job MTBF
  seconds daly{};        ///< Daly's interval
  seconds interval{};    ///< τ: the interval used, a whole number of steps
  double steps_between = 0.0;  ///< steps per checkpoint interval
  interval_source source = interval_source::daly;
  seconds restart{};     ///< R: restart overhead plus the restore
  seconds loss{};        ///< L: expected cost of one unexpected interruption
};

/// A training run: how long, how many chip-hours, what cost, with and without failures.
/// Only meaningful when `finishes`; otherwise days, chip-hours and cost are infinite.
struct run_totals {
  double chips = 0.0;
  double hosts = 0.0;
  double steps = 0.0;  ///< whole steps to consume the token budget
  seconds step{};
  double mfu = 0.0;
  interruption_forecast interruptions{};
  checkpoint_figures checkpoint{};

  seconds ideal{};  ///< steps × step: no failures, no checkpoints
  seconds wall{};   ///< with checkpoints, failures and restarts (first order, see wall_time_factor)
  // The wall-clock time, part by part (they add up to `wall`).
  seconds checkpoint_stalls{};  ///< ideal · δ/τ
  seconds rework{};             ///< unexpected interruptions × ((τ + δ)/2 + W)
  seconds restarts{};           ///< every interruption × R
  seconds planned_saves{};      ///< planned interruptions × (δ + W)
  double unexpected_interruptions = 0.0;  ///< expected over the run
  double planned_interruptions = 0.0;

  bool finishes = true;
  double ideal_days = 0.0;
  double days = 0.0;
  double goodput = 0.0;  ///< ideal / wall: the share of wall-clock time spent on useful steps
  double effective_mfu = 0.0;  ///< mfu × goodput
  double ideal_chip_hours = 0.0;
  double chip_hours = 0.0;
  double ideal_cost = 0.0;
  double cost = 0.0;
};

namespace detail {
constexpr double ceil_positive(double x) {
  const auto i = static_cast<std::int64_t>(x);
  return static_cast<double>(i) < x ? static_cast<double>(i + 1) : static_cast<double>(i);
}
constexpr double nearest_positive(double x) {
  return static_cast<double>(static_cast<std::int64_t>(x + 0.5));
}
}  // namespace detail

/// Estimates a whole run of `plan` for `in.tokens`: step time and MFU from `estimate_step`, job
/// size from the mesh, interruptions from `in.failures`, checkpoint size from the plan's
/// precision and sharding, the interval from Daly's formula (at least one step, and for an
/// asynchronous checkpoint at least its write), and the wall-clock time from `wall_time_factor`.
constexpr run_totals run_estimate(const training_plan_values& plan, const run_inputs& in) {
  constexpr double infinite = std::numeric_limits<double>::infinity();
  run_totals r;
  const step_cost c = estimate_step(plan);
  r.step = c.step;
  r.mfu = c.mfu;
  r.chips = static_cast<double>(mesh_devices(plan));
  const std::int64_t per_host =
      in.chips_per_host > 0 ? in.chips_per_host : chips_per_host(plan.system);
  r.hosts = detail::ceil_positive(r.chips / static_cast<double>(per_host));
  const double tokens_per_step = static_cast<double>(plan.setup.batch.global_tokens);
  r.steps = in.tokens > 0.0 ? detail::ceil_positive(in.tokens / tokens_per_step) : 0.0;
  r.ideal = r.step * r.steps;
  r.ideal_days = r.ideal.value() / 86400.0;
  r.ideal_chip_hours = r.chips * r.ideal.value() / 3600.0;
  r.ideal_cost = r.ideal_chip_hours * in.price_per_chip_hour;

  r.interruptions = forecast_interruptions(in.failures, {r.chips, r.hosts});
  const double failures_per_second = r.interruptions.unexpected / 86400.0;
  const double planned_per_second = r.interruptions.planned / 86400.0;

  // Checkpoint size and times.
  checkpoint_figures& k = r.checkpoint;
  const precision_policy& precision = plan.setup.precision;
  k.size = static_cast<double>(parameters(plan.model).total) *
           checkpoint_bytes_per_parameter(precision, in.checkpoint) * byte;
  k.per_device = device_checkpoint_bytes(memory_per_device(plan.model, plan.setup), precision,
                                         in.checkpoint);
  const bool storage_given = in.storage_write.value() > 0.0 && in.storage_read.value() > 0.0;
  if (storage_given) {
    k.write = k.size / in.storage_write;
    k.restore = k.size / in.storage_read;
  }
  const byte_rate host_link = plan.system.chip.host_link_bandwidth;
  k.asynchronous = in.checkpoint.asynchronous && host_link.value() > 0.0;
  if (k.asynchronous) {
    k.stall = k.per_device / host_link + in.checkpoint_overhead;
    k.durable_after = k.write;
  } else {
    k.stall = k.write + in.checkpoint_overhead;
  }
  k.restart = in.restart_overhead + k.restore;

  // The interval.
  const double step_s = r.step.value();
  double steps_between = 1.0;
  if (in.checkpoint_interval.value() > 0.0) {
    k.source = interval_source::given;
    steps_between = detail::nearest_positive(in.checkpoint_interval.value() / step_s);
  } else if (failures_per_second > 0.0) {
    k.young = young_interval(k.stall, r.interruptions.mtbf);
    k.daly = daly_interval(k.stall, r.interruptions.mtbf);
    k.source = interval_source::daly;
    steps_between = detail::nearest_positive(k.daly.value() / step_s);
    const double storage_steps = detail::ceil_positive(k.durable_after.value() / step_s);
    if (storage_steps > steps_between) {
      steps_between = storage_steps;
      k.source = interval_source::storage;
    }
  } else {
    k.source = interval_source::run;
    steps_between = r.steps;
  }
  k.steps_between = std::max(1.0, steps_between);
  k.interval = r.step * k.steps_between;
  k.loss = expected_loss(k.interval, k.stall, k.durable_after, k.restart);

  const double factor = storage_given ? wall_time_factor(k.interval, k.stall, k.durable_after,
                                                         k.restart, failures_per_second,
                                                         planned_per_second)
                                      : 0.0;
  r.finishes = factor > 0.0;
  if (!r.finishes) {
    r.wall = infinite * second;
    r.days = infinite;
    r.chip_hours = infinite;
    r.cost = in.price_per_chip_hour > 0.0 ? infinite : 0.0;
    return r;
  }
  r.wall = r.ideal * factor;
  r.unexpected_interruptions = r.wall.value() * failures_per_second;
  r.planned_interruptions = r.wall.value() * planned_per_second;
  r.checkpoint_stalls = r.ideal * (k.stall / k.interval).value();
  r.rework = ((k.interval + k.stall) / 2.0 + k.durable_after) * r.unexpected_interruptions;
  r.restarts = k.restart * (r.unexpected_interruptions + r.planned_interruptions);
  r.planned_saves = (k.stall + k.durable_after) * r.planned_interruptions;
  r.days = r.wall.value() / 86400.0;
  r.goodput = r.wall.value() > 0.0 ? r.ideal.value() / r.wall.value() : 1.0;
  r.effective_mfu = r.mfu * r.goodput;
  r.chip_hours = r.chips * r.wall.value() / 3600.0;
  r.cost = r.chip_hours * in.price_per_chip_hour;
  return r;
}

// --- the reliability section of a report or of JSON -------------------------------------------

/// One named figure of the reliability section, in the unit it names.
struct reliability_figure {
  std::string_view key;
  double value = 0.0;
  std::string_view unit;
};

inline constexpr std::size_t reliability_figure_count = 22;

/// The reliability section as named figures (keys in snake_case, for JSON).
constexpr std::array<reliability_figure, reliability_figure_count> reliability_figures(
    const run_totals& r) {
  const checkpoint_figures& k = r.checkpoint;
  return {{{"chips", r.chips, "chips"},
           {"hosts", r.hosts, "hosts"},
           {"unexpected_interruptions_per_day", r.interruptions.unexpected, "1/day"},
           {"planned_interruptions_per_day", r.interruptions.planned, "1/day"},
           {"mtbf", r.interruptions.mtbf.value(), "s"},
           {"checkpoint_size", k.size.value(), "B"},
           {"checkpoint_stall", k.stall.value(), "s"},
           {"checkpoint_write", k.write.value(), "s"},
           {"checkpoint_restore", k.restore.value(), "s"},
           {"checkpoint_interval", k.interval.value(), "s"},
           {"checkpoint_interval_young", k.young.value(), "s"},
           {"checkpoint_interval_daly", k.daly.value(), "s"},
           {"loss_per_interruption", k.loss.value(), "s"},
           {"days_without_failures", r.ideal_days, "days"},
           {"days", r.days, "days"},
           {"goodput", r.goodput, "fraction"},
           {"mfu", r.mfu, "fraction"},
           {"effective_mfu", r.effective_mfu, "fraction"},
           {"chip_hours_without_failures", r.ideal_chip_hours, "chip-hours"},
           {"chip_hours", r.chip_hours, "chip-hours"},
           {"cost_without_failures", r.ideal_cost, "currency"},
           {"cost", r.cost, "currency"}}};
}

}  // namespace shardplan
