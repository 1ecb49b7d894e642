// Validation against published LLM training runs: each run is a training_plan built from its
// published configuration; the runner compares the predicted step time with the published (or
// published-derived) one and exits non-zero when the mean absolute error over the runs that are
// not low-confidence exceeds `mae_threshold_percent`. Sources, verbatim figures, the
// calibration / held-out split and the rule for unstated inputs: tests/validation/RUNS.md.
// Uses the library defaults (efficiency 0 = default_efficiency(chip)); per run only what the
// source documents (attention kernel, overlap, FLOP convention of eager kernels) is set.
//
// The runs live in runs_*.hpp (one translation unit: this file includes them).

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "runs_common.hpp"
#include "runs_megatron.hpp"
#include "runs_pytorch.hpp"
#include "runs_jax.hpp"
#include "runs_nvidia.hpp"

namespace {

/// The regression threshold on the headline MAE (%), over all runs not marked low-confidence:
/// a guard against a change that makes the model worse, not a target. With the kernel model and
/// the sustained shares fitted on the calibration half (hardware/kernels.hpp) the 145 runs came
/// out at 14.6% (calibration 11.8%, held-out 17.1%); with torchtitan's eager modules
/// (`eager_modules_of`) and its 500 W H100s' matrix peak between SXM and NVL, 13.7%
/// (calibration 11.8%, held-out 15.3%); with a pipeline at the pace of its slowest stage
/// (`stage_layers_of`), 13.4% (calibration 11.4%, held-out 15.3%); with DeepSpeed's ZeRO-3 of
/// 2021 (`zero3_per_tensor`) and torchtitan's op-level selective policy timed (`op_sac_share`),
/// 11.3% (calibration 8.4%, held-out 13.9%), and the guard moved from 16% to 13%; with
/// tensor-parallel overlap (`tp_comm_overlap`: the Megatron-Core README's, Megatron-Bridge's and
/// torchtitan's async-TP runs), 11.7% (calibration 8.4%, held-out 14.6%); with NCCL's ring
/// latency added to every collective's bytes (`collective_time`), 9.9% (calibration 7.4%,
/// held-out 12.1%), and the guard moved from 12% to 11%; with the data-parallel floor, DeepSpeed's
/// pipeline reduction and BF16_Optimizer, the tied embedding's all-reduce, BLOOM's ramp-up and
/// the Zero Bubble paper's 33 pipeline runs, 185 runs at 8.4% (calibration 8.1%, held-out 8.6%);
/// with Megatron-Core's input-gradient reductions beside the weight gradients and XLA's
/// collective matmul on TPU (RUNS.md item 28), 7.7% (calibration 7.8%, held-out 7.7%). Issue
/// 11's compute-bound target (6%) and both issues' worst-run bounds are not met, and the README
/// says where the model misses.
constexpr double mae_threshold_percent = 11.0;

/// Compute-bound: exposed communication below this share of the predicted step.
constexpr double compute_bound_share = 0.10;
/// Communication-bound: exposed communication at or above this share.
constexpr double communication_bound_share = 0.20;

using validation::result;

using validation::mean;

void print_group_note(const char* title, const std::map<std::string, mean>& groups) {
  validation::print_group(title, groups, " (runs not low-confidence)");
}


}  // namespace

int main() {
  validation::runs v;
  validation::add_megatron_runs(v);
  validation::add_pytorch_runs(v);
  validation::add_jax_runs(v);
  validation::add_nvidia_runs(v);

  std::printf("shardplan validation: predicted vs published step time (s), library defaults\n\n");
  std::printf("%-26s %-28s %-11s %-22s %6s %10s %10s %8s  %s\n", "run", "source", "half", "chip",
              "chips", "predicted", "published", "error%", "fits? (L = low confidence)");
  for (const result& r : v) {
    std::printf("%-26s %-28s %-11s %-22s %6lld %10.3f %10.3f %+8.1f  %s%s\n", r.id.c_str(),
                r.source.c_str(), validation::name_of(r.part), r.chip.c_str(),
                static_cast<long long>(r.chips), r.predicted, r.published, r.error(),
                r.low_confidence ? "L " : "", r.rules.empty() ? "fits" : r.rules.c_str());
    if (!r.why.empty() && std::fabs(r.error()) > 10.0)
      std::printf("%-26s   note: %s\n", "", r.why.c_str());
  }

  std::printf(
      "\nbreakdown of the prediction (s): compute (of which elementwise), bubble, exposed "
      "communication, optimizer; exposed-communication share of the step; predicted MFU\n");
  std::printf("%-26s %10s %9s %9s %9s %8s %7s %6s\n", "run", "compute", "(elemw)", "bubble",
              "comm", "optim", "comm%", "MFU%");
  for (const result& r : v) {
    const shardplan::step_cost& c = r.cost;
    std::printf("%-26s %10.3f %9.3f %9.3f %9.3f %8.3f %7.1f %6.1f\n", r.id.c_str(),
                c.compute.value(), c.elementwise.value(), c.bubble.value(),
                c.communication_exposed.value(), c.optimizer.value(),
                r.communication_share() * 100.0, c.mfu * 100.0);
  }

  std::map<std::string, mean> by_source, by_chip, by_half, by_bound, by_family;
  std::map<std::string, double> family_error;  // what measured_step_error says, in %
  mean overall, low, fitting;
  for (const result& r : v) {
    const double e = std::fabs(r.error());
    if (r.low_confidence) {
      low.add(e);
      continue;
    }
    overall.add(e);
    if (r.fits) fitting.add(e);
    by_source[r.source].add(e);
    by_chip[r.chip].add(e);
    by_family[r.family].add(e);
    family_error[r.family] = r.family_error * 100.0;
    by_half[validation::name_of(r.part)].add(e);
    const double share = r.communication_share();
    if (share < compute_bound_share) by_bound["compute-bound (comm < 10%)"].add(e);
    if (share >= communication_bound_share) by_bound["communication-bound (comm >= 20%)"].add(e);
  }
  print_group_note("source", by_source);
  print_group_note("chip", by_chip);
  print_group_note("half", by_half);
  print_group_note("bound", by_bound);
  print_group_note("chip family", by_family);
  // The reports print measured_step_error beside every step (training/cost.hpp): it must be the
  // figure this runner measures, within half a point, or the reports say a stale error.
  bool stale = false;
  for (const auto& [name, m] : by_family) {
    const double said = family_error[name];
    if (std::fabs(said - m.value()) > 0.5) {
      std::printf("measured_step_error(%s) says %.1f%%, this runner measures %.1f%%: update it\n",
                  name.c_str(), said, m.value());
      stale = true;
    }
  }
  mean per_source;
  for (const auto& [name, m] : by_source) per_source.add(m.value());
  std::printf("\nmean of the per-source MAEs: %.1f%% over %d sources\n", per_source.value(),
              per_source.n);
  std::printf("runs the memory model calls feasible: %d, MAE %.1f%%\n", fitting.n,
              fitting.value());
  std::printf("low-confidence runs (not in the headline): %d, MAE %.1f%%\n", low.n, low.value());
  const double mae = overall.value();
  std::printf("\nmean absolute error over %d runs (%zu in all): %.1f%%\n", overall.n, v.size(),
              mae);
  std::printf("regression threshold %.0f%%: %s\n", mae_threshold_percent,
              mae <= mae_threshold_percent ? "pass" : "FAIL");
  return mae <= mae_threshold_percent && !stale ? 0 : 1;
}
