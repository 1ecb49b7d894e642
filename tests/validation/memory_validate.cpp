// Memory validation against published MEASURED peaks: each run is a training_plan built from its
// published configuration; the runner compares `Plan::memory_per_device().total` (GB, 10^9
// bytes) with the measured peak (converted to GB from the source's GiB / bytes / GB), prints the
// kind of peak the source measured (allocated / reserved / active) and the breakdown, and exits
// non-zero when the mean absolute error over all runs exceeds `mae_threshold_percent`, the
// held-out half's `held_out_threshold_percent`, or any run's `worst_threshold_percent`.
// Sources, the calibration / held-out split (by source, fixed before any calibration) and the
// rules for unstated inputs: tests/validation/MEMORY.md; verbatim figures:
// tests/validation/CANDIDATE_MEMORY_PEAKS.md. Uses the library defaults (reserve 2 GB + 5%).
//
// The runs live in memory_runs_*.hpp (one translation unit: this file includes them).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "memory_runs_common.hpp"
#include "memory_runs_megatron.hpp"
#include "memory_runs_pytorch.hpp"

namespace {

/// The regression threshold on the overall MAE (%): a guard against a change that makes the
/// memory model worse, not a target. The first run measured 39.5% (calibration 32.0%, held-out
/// 49.8%); with each run on its framework's allocations and the named transients 16.3%
/// (calibration 14.8%, held-out 18.5%, worst 49.6%); each peak against what its tooling counts
/// (MEMORY.md rule M10) 15.0% (calibration 12.6%, held-out 18.5%, worst 43.3%); with each
/// stage's in-flight micro-batches as its schedule keeps them and Megatron-LM's peaks against the
/// last stage they are logged from, 14.5% (calibration 11.8%, held-out 18.2%, worst 34.5%); with
/// the loss's logits as each framework's cross-entropy holds them (`logit_bytes`), 8.5%
/// (calibration 8.8%, held-out 8.0%, worst 31.9%); with Megatron-Core's MLP recomputation
/// (`recompute::mlp`) 7.9% (calibration 8.8%, held-out 6.6%, worst 26.2%); with torchtune's
/// allocations (`training_framework::torchtune`: its eager layers, its losses, gradients freed
/// between steps and the peak as the larger of two moments) 6.5% (calibration 6.4%, held-out
/// 6.6%, worst 17.8%). Issue 13's targets, 10% overall, 12% on the held-out half and no run worse
/// than 25%, are met, and CI fails when any is exceeded.
constexpr double mae_threshold_percent = 10.0;
constexpr double held_out_threshold_percent = 12.0;
constexpr double worst_threshold_percent = 25.0;

using validation::memory_result;

using validation::mean;
using validation::print_group;


double gigabytes(shardplan::bytes b) { return b.value() / 1e9; }

}  // namespace

int main() {
  validation::memory_runs v;
  validation::add_pytorch_memory_runs(v);
  validation::add_megatron_memory_runs(v);

  std::printf(
      "shardplan memory validation: predicted memory_per_device().total vs measured peak, GB "
      "(10^9 bytes), library defaults\n\n");
  std::printf("%-20s %-20s %-11s %-22s %5s %-10s %7s %9s %9s %8s  %s\n", "run", "source", "half",
              "chip", "chips", "measured", "cap GB", "predicted", "measured", "error%",
              "fits?");
  for (const memory_result& r : v) {
    std::printf("%-20s %-20s %-11s %-22s %5lld %-10s %7.1f %9.2f %9.2f %+8.1f  %s\n",
                r.id.c_str(), r.source.c_str(), validation::name_of(r.part), r.chip.c_str(),
                static_cast<long long>(r.chips), validation::name_of(r.kind), r.capacity,
                r.predicted, r.measured, r.error(), r.rules.empty() ? "fits" : r.rules.c_str());
    if (!r.why.empty()) std::printf("%-20s   note: %s\n", "", r.why.c_str());
  }

  std::printf(
      "\nbreakdown of the prediction (GB): model states (params, grads, master, optimizer), "
      "activations, buffers (ZeRO-3 gathers, logits, pipeline), reserve, what is not live at the "
      "peak's moment (s: start of the backward, e: its end); last pipeline stage's total and its "
      "error where pipelined (Megatron-LM S4 measures the last rank)\n");
  std::printf("%-20s %8s %8s %8s %8s %8s %8s %8s %8s %10s %9s %9s %8s\n", "run", "params",
              "grads", "master", "optim", "states", "activ", "buffers", "reserve", "not live",
              "total", "last stg", "err% ls");
  for (const memory_result& r : v) {
    const shardplan::memory_breakdown& m = r.m;
    std::printf("%-20s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %c %9.2f ",
                r.id.c_str(), gigabytes(m.parameters), gigabytes(m.gradients),
                gigabytes(m.master_weights), gigabytes(m.optimizer), gigabytes(m.model_states()),
                gigabytes(m.activations), gigabytes(m.buffers), gigabytes(m.reserve),
                gigabytes(m.not_live_at_peak),
                m.moment == shardplan::peak_moment::backward_start ? 's' : 'e',
                gigabytes(m.total));
    if (r.pipeline > 1)
      std::printf("%9.2f %+8.1f\n", r.last_stage,
                  (r.last_stage - r.measured) / r.measured * 100.0);
    else
      std::printf("%9s\n", "-");
  }

  std::map<std::string, mean> by_source, by_half, by_kind;
  mean overall;
  double worst = 0.0;
  for (const memory_result& r : v) {
    const double e = std::fabs(r.error());
    overall.add(e);
    by_source[r.source].add(e);
    by_half[validation::name_of(r.part)].add(e);
    by_kind[validation::name_of(r.kind)].add(e);
    worst = std::max(worst, e);
  }
  print_group("source", by_source);
  print_group("half", by_half);
  print_group("kind of measured peak", by_kind);

  std::vector<const memory_result*> sorted;
  for (const memory_result& r : v) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](const memory_result* a, const memory_result* b) {
    return std::fabs(a->error()) > std::fabs(b->error());
  });
  std::printf("\nlargest misses\n");
  for (std::size_t i = 0; i < std::min<std::size_t>(5, sorted.size()); ++i)
    std::printf("  %-20s %+8.1f%%\n", sorted[i]->id.c_str(), sorted[i]->error());

  const double mae = overall.value();
  std::printf("\nmean absolute error over %d measured peaks from %zu sources: %.1f%% (worst %.1f%%)\n",
              overall.n, by_source.size(), mae, worst);
  std::printf("issue 13 targets: overall 10%%, held-out 12%%, none worse than 25%%\n");
  const double held_out = by_half["held-out"].value();
  // The band the verdict and the reports use (fitted::memory_error_band, hardware/fitted.hpp)
  // must be this runner's mean absolute error rounded up to a whole percent.
  const double band = std::ceil(mae) / 100.0;
  const bool band_fresh = std::fabs(band - shardplan::fitted::memory_error_band) < 1e-9;
  if (!band_fresh)
    std::printf("fitted::memory_error_band says %.0f%%, this runner measures %.1f%%, %.0f%% "
                "rounded up: update it\n",
                shardplan::fitted::memory_error_band * 100.0, mae, band * 100.0);
  const bool pass = band_fresh && mae <= mae_threshold_percent &&
                    held_out <= held_out_threshold_percent && worst <= worst_threshold_percent;
  std::printf("thresholds %.0f%% overall, %.0f%% held-out (%.1f%%), %.0f%% for any run (%.1f%%): "
              "%s\n",
              mae_threshold_percent, held_out_threshold_percent, held_out,
              worst_threshold_percent, worst, pass ? "pass" : "FAIL");
  return pass ? 0 : 1;
}
