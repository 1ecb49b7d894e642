// Serving validation against published MEASUREMENTS: each run is a serving plan built from its
// published setup (model, chip, tensor parallelism, formats, engine, input and output lengths,
// concurrency or maximum load); the runner compares the estimate (workload.hpp's
// `estimate_serving_at`) with the measured figure, prints every run, the mean absolute error per
// source, per half, per metric and per engine, and exits non-zero when the overall mean
// absolute error exceeds `mae_threshold_percent` or the held-out half's exceeds
// `held_out_threshold_percent`. Sources, the split (by source, fixed before calibrating) and the
// rules for unstated inputs: tests/validation/SERVING.md.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "runs_common.hpp"
#include "serving_runs.hpp"

namespace {

/// Issue 14's targets, which CI holds: 10% overall and 15% on the held-out half. History: the
/// first run with the calibrated engine figures measured 12.5% over 84 runs (held-out 22.1%);
/// with torchao's batch-1 tables, 97 runs, 12.4% (held-out 19.1%); with finite benchmarks (the
/// vLLM blog's 500 requests and their drain, its max_num_seqs of 512) and dynamic activation
/// scales (torchao's float8dq), 9.8% (held-out 13.8%), the calibration half unchanged at 6.1%.
constexpr double mae_threshold_percent = 10.0;
constexpr double held_out_threshold_percent = 15.0;

using validation::mean;
using validation::print_group;

using namespace shardplan;

}  // namespace

int main() {
  const auto runs = validation::serving_runs();
  std::printf("shardplan serving validation: estimate vs published measurement\n\n");
  std::printf("%-7s %-26s %-11s %-14s %-9s %2s %-12s %-5s %6s %6s %6s %-10s %10s %10s %7s  %s\n",
              "run", "source", "half", "model", "chip", "tp", "engine", "w", "in", "out", "conc",
              "metric", "predicted", "measured", "error%", "step: gemm/attn/mem/comm/ovh ms");
  std::map<std::string, mean> by_source, by_half, by_metric, by_engine;
  mean all, held;
  double worst = 0.0;
  std::string worst_id;
  for (const auto& r : runs) {
    const serving_plan_values p = validation::plan_of(r);
    serving_estimate e;
    const double x = validation::predicted(r, p, engine_figures_of(p.setup.engine), e);
    const double error = (x - r.measured) / r.measured * 100.0;
    const step_time& t = r.metric == validation::serving_metric::time_to_first_token_ms
                             ? e.prefill
                             : e.step;
    std::printf(
        "%-7s %-26s %-11s %-14s %-9s %2lld %-12s %-5s %6lld %6lld %6lld %-10s %10.1f %10.1f "
        "%+7.1f  %.2f/%.2f/%.2f/%.2f/%.2f\n",
        std::string(r.id).c_str(), std::string(r.source).c_str(),
        r.half == validation::serving_half::calibration ? "calibration" : "held-out",
        std::string(r.model.name).c_str(), std::string(r.chip.name).substr(0, 9).c_str(),
        static_cast<long long>(r.tensor), std::string(name_of(r.engine)).c_str(),
        std::string(name_of(r.weights)).c_str(), static_cast<long long>(r.input),
        static_cast<long long>(r.output), static_cast<long long>(p.setup.batch),
        validation::name_of(r.metric), x, r.measured, error, t.gemm.value() * 1e3,
        t.attention.value() * 1e3, t.memory.value() * 1e3, t.communication.value() * 1e3,
        t.overhead.value() * 1e3);
    const double a = std::fabs(error);
    all.add(a);
    if (r.half == validation::serving_half::held_out) held.add(a);
    by_source[std::string(r.source)].add(a);
    by_half[r.half == validation::serving_half::calibration ? "calibration" : "held-out"].add(a);
    by_metric[validation::name_of(r.metric)].add(a);
    by_engine[std::string(name_of(r.engine))].add(a);
    if (a > worst) {
      worst = a;
      worst_id = std::string(r.id);
    }
  }
  print_group("source", by_source);
  print_group("half", by_half);
  print_group("metric", by_metric);
  print_group("engine", by_engine);
  std::printf("\nall %d runs: mean absolute error %.1f%% (held-out %.1f%%), worst %.1f%% (%s)\n",
              all.n, all.value(), held.value(), worst, worst_id.c_str());
  // The measured error the reports print (workload.hpp's serving_measured_error) must be this
  // runner's, within half a point.
  const double printed[] = {serving_measured_error.batch_1_decode,
                            serving_measured_error.time_to_first_token,
                            serving_measured_error.throughput};
  const double now[] = {by_metric["tok/s/user"].value(), by_metric["TTFT ms"].value(),
                        by_metric["out tok/s"].value()};
  bool fresh = true;
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(printed[i] - now[i]) > 0.5) {
      std::printf("serving_measured_error is stale: %.1f%% printed, %.1f%% measured\n",
                  printed[i], now[i]);
      fresh = false;
    }
  }
  const bool pass = fresh && all.value() <= mae_threshold_percent &&
                    held.value() <= held_out_threshold_percent;
  std::printf("thresholds: %.0f%% overall, %.0f%% held-out: %s\n", mae_threshold_percent,
              held_out_threshold_percent, pass ? "pass" : "FAIL");
  return pass ? 0 : 1;
}
