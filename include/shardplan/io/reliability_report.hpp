// Report tables of a training run's reliability: the inputs it assumes, interruptions by cause,
// checkpoints, where the wall-clock time goes, and the run with and without failures.
#pragma once

#include <cstdio>
#include <string>

#include <shardplan/core/format.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/core/table.hpp>

namespace shardplan {

namespace detail {

inline std::string percent_text(double fraction, int digits = 3) {
  return significant(round_significant(fraction * 100.0, digits), digits) + "%";
}

/// "$" and a figure, appended: `"$" + text` (operator+ of a short literal and a temporary) makes
/// g++ 12 at -O2 report a false -Wrestrict overlap, GCC bug 105329.
inline std::string dollars(const std::string& figure) {
  std::string out = "$";
  out += figure;
  return out;
}

/// "$84.5 M", "$1.2 k", "-" without a price.
inline std::string money_text(double amount) {
  if (amount <= 0.0) return "-";
  return dollars(with_si_prefix(amount, "", 3));
}

/// "41.8 M", "3.5 k".
inline std::string count_text(double n) { return with_si_prefix(n, "", 3); }

inline std::string per_day_text(double n) {
  return significant(round_significant(n, 3), 3) + " a day";
}

inline std::string rate_text(const component_rate& r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", r.per_unit_hour);
  return std::string(buf) + " per " + std::string(name_of(r.scale)) + "-hour";
}

inline std::string interval_source_text(interval_source s) {
  switch (s) {
    case interval_source::daly: return "Daly's optimum";
    case interval_source::storage: return "the previous write must finish";
    case interval_source::given: return "given";
    case interval_source::run: return "nothing fails";
  }
  return "?";
}

/// "3.52 ms: copy to host memory (asynchronous)" or "2.1 s: the write (synchronous)".
inline std::string stall_text(const checkpoint_figures& k) {
  return format(k.stall) + (k.asynchronous ? ": copy to host memory (asynchronous checkpoint)"
                                           : ": the write to storage (synchronous checkpoint)");
}

/// The interval and what set it: "4 steps = 16.2 s (Daly's optimum 17.7 s for the stall and
/// MTBF, in whole steps)".
inline std::string interval_text(const checkpoint_figures& k) {
  const std::string out = significant(k.steps_between, 6) +
                          (k.steps_between == 1.0 ? " step = " : " steps = ") + format(k.interval);
  switch (k.source) {
    case interval_source::daly:
      return out + " (Daly's optimum " + format(k.daly) +
             " for the stall and MTBF, in whole steps)";
    case interval_source::storage:
      return out + " (the asynchronous write, " + format(k.durable_after) + ", must finish)";
    case interval_source::given: return out + " (given)";
    case interval_source::run: return out + " (nothing fails: one at the end)";
  }
  return out;
}

}  // namespace detail

/// The inputs a run estimate assumes, one per row: what to print beside its figures.
inline table run_inputs_table(const run_inputs& in) {
  table t{{"assumption", "value"}, {}, {false, false}};
  const failure_rates& f = in.failures;
  t.rows = {
      {"token budget", detail::count_text(in.tokens) + " tokens"},
      {"price", in.price_per_chip_hour > 0.0
                    ? detail::dollars(detail::significant(in.price_per_chip_hour, 3)) +
                          " per chip-hour"
                    : "-"},
      {"storage write / read", format(in.storage_write) + " / " + format(in.storage_read)},
      {"restart overhead (besides the restore)", format(in.restart_overhead)},
      {"checkpoint", std::string(in.checkpoint.asynchronous ? "asynchronous" : "synchronous") +
                         ", " +
                         (in.checkpoint.working_weights ? "with" : "without") +
                         " working weights, " +
                         (in.checkpoint.optimizer_states ? "with" : "without") +
                         " optimizer states"},
      {"fixed stall per checkpoint", format(in.checkpoint_overhead)},
      {"gpu failures", detail::rate_text(f.gpu)},
      {"hbm failures", detail::rate_text(f.hbm)},
      {"host failures", detail::rate_text(f.host)},
      {"network failures", detail::rate_text(f.network)},
      {"software failures", detail::rate_text(f.software)},
      {"planned interruptions", detail::rate_text(f.planned)},
  };
  return t;
}

/// Interruptions by cause: per day, and the share of the unexpected ones.
inline table interruption_table(const run_totals& r) {
  const interruption_forecast& f = r.interruptions;
  table t{{"cause", "per day", "share"}, {}, {false, true, true}};
  auto row = [&](const char* name, double per_day) {
    t.rows.push_back({name, detail::significant(detail::round_significant(per_day, 3), 3),
                      f.unexpected > 0.0 ? detail::percent_text(per_day / f.unexpected) : "-"});
  };
  row("gpu", f.gpu);
  row("hbm", f.hbm);
  row("host", f.host);
  row("network", f.network);
  row("software", f.software);
  row("unexpected", f.unexpected);
  t.rows.push_back({"planned (no work lost)",
                    detail::significant(detail::round_significant(f.planned, 3), 3), "-"});
  return t;
}

/// Checkpoint size and times, the interval and what one interruption costs.
inline table checkpoint_table(const run_totals& r) {
  const checkpoint_figures& k = r.checkpoint;
  table t{{"checkpoint", "value"}, {}, {false, true}};
  t.rows = {
      {"size (the job's states, once)", format(k.size)},
      {"held by the fullest device", format(k.per_device)},
      {"write / restore at the storage bandwidth", format(k.write) + " / " + format(k.restore)},
      {"stall per checkpoint (delta)", format(k.stall)},
      {"durable after the stall (W)", format(k.durable_after)},
      {"Young / Daly interval", format(k.young) + " / " + format(k.daly)},
      {"interval used (" + detail::interval_source_text(k.source) + ")",
       detail::significant(k.steps_between, 6) + (k.steps_between == 1.0 ? " step, " : " steps, ") +
           format(k.interval)},
      {"restart with restore (R)", format(k.restart)},
      {"expected cost of one failure (L)", format(k.loss)},
  };
  return t;
}

/// The run without and with failures: days, chip-hours, cost, goodput and MFU.
inline table run_table(const run_totals& r) {
  table t{{"run", "without failures", "with failures"}, {}, {false, true, true}};
  auto days = [](double d) { return detail::significant(detail::round_significant(d, 3), 3); };
  t.rows = {
      {"steps", detail::count_text(r.steps), detail::count_text(r.steps)},
      {"days", days(r.ideal_days), r.finishes ? days(r.days) : "never"},
      {"chip-hours", detail::count_text(r.ideal_chip_hours),
       r.finishes ? detail::count_text(r.chip_hours) : "-"},
      {"cost", detail::money_text(r.ideal_cost), r.finishes ? detail::money_text(r.cost) : "-"},
      {"goodput", "100%", detail::percent_text(r.goodput)},
      {"MFU", detail::percent_text(r.mfu), detail::percent_text(r.effective_mfu)},
  };
  return t;
}

/// Where the wall-clock time goes, in days and as a share of the whole.
inline table time_lost_table(const run_totals& r) {
  table t{{"wall-clock time", "days", "share"}, {}, {false, true, true}};
  if (!r.finishes) return t;
  auto row = [&](const char* name, seconds s) {
    t.rows.push_back({name,
                      detail::significant(detail::round_significant(s.value() / 86400.0, 3), 3),
                      detail::percent_text(s.value() / r.wall.value())});
  };
  row("training steps", r.ideal);
  row("checkpoint stalls", r.checkpoint_stalls);
  row("work redone after failures", r.rework);
  row("restarts and restores", r.restarts);
  row("saves before planned stops", r.planned_saves);
  row("total", r.wall);
  return t;
}

/// The key figures of a run's reliability in one table.
inline table reliability_table(const run_totals& r) {
  table t{{"reliability", "value"}, {}, {false, false}};
  const checkpoint_figures& k = r.checkpoint;
  t.rows = {
      {"chips / hosts", detail::significant(r.chips, 6) + " / " + detail::significant(r.hosts, 6)},
      {"unexpected interruptions", detail::per_day_text(r.interruptions.unexpected)},
      {"planned interruptions", detail::per_day_text(r.interruptions.planned)},
      {"job MTBF", format(r.interruptions.mtbf)},
      {"checkpoint size", format(k.size) + " (" + format(k.per_device) + " on the fullest device)"},
      {"checkpoint stall", detail::stall_text(k)},
      {"checkpoint write / restore", format(k.write) + " / " + format(k.restore)},
      {"checkpoint interval", detail::interval_text(k)},
      {"expected cost of one failure", format(k.loss)},
      {"days without / with failures",
       detail::significant(detail::round_significant(r.ideal_days, 3), 3) + " / " +
           (r.finishes ? detail::significant(detail::round_significant(r.days, 3), 3) : "never")},
      {"goodput", detail::percent_text(r.goodput)},
      {"effective MFU", detail::percent_text(r.effective_mfu)},
  };
  return t;
}

}  // namespace shardplan
