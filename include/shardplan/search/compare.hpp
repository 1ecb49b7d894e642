// Which hardware for a job: the best plan of each system for a training run (the search) or a
// serving workload (tensor degrees and concurrency under latency targets), ranked by time,
// chip-hours, money, energy and goodput, each with the constraint that binds it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <shardplan/hardware/cpu.hpp>
#include <shardplan/hardware/system_presets.hpp>
#include <shardplan/run/energy.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/serving/serving_plan.hpp>
#include <shardplan/serving/workload.hpp>
#include <string_view>
#include <vector>

namespace shardplan {

/// What decides a system's answer.
enum class binding_constraint : std::uint8_t {
  compute,   ///< the step is mostly compute (and the optimizer's memory traffic)
  network,   ///< exposed communication and the pipeline bubble outweigh the other parts
  failures,  ///< interruptions cost more of the wall-clock time than the network does of a step
  memory,    ///< no plan fits (training), or the caches cap the concurrency (serving)
  latency,   ///< the latency targets cap the concurrency, or no concurrency meets them
  batching,  ///< the engine's request limit caps the concurrency
  system,    ///< the system cannot be built at the job's size, or the search cannot run
};

/// The constraint's name in reports.
constexpr std::string_view name_of(binding_constraint b) {
  switch (b) {
    case binding_constraint::compute:
      return "compute";
    case binding_constraint::network:
      return "network";
    case binding_constraint::failures:
      return "failures";
    case binding_constraint::memory:
      return "memory";
    case binding_constraint::latency:
      return "latency";
    case binding_constraint::batching:
      return "batching";
    case binding_constraint::system:
      return "system";
  }
  return "?";
}

/// A system to compare: its family's name (a preset, or the user's own) and its figures.
struct compared_system {
  std::string_view family;
  system_figures figures{};
  std::string_view problem;  ///< why the family has no system at this size (empty when it has)
};

// --- training
// -------------------------------------------------------------------------------------

/// Train `model` on `tokens` within `deadline_days` on `chips` chips of each system, at a batch
/// of `global_tokens` in sequences of `seq_len`.
struct training_job {
  model_shape model{};
  double tokens = 0.0;
  double deadline_days = 0.0;  ///< 0: no deadline
  std::int64_t chips = 0;
  std::int64_t global_tokens = 0;
  std::int64_t seq_len = 0;
  /// Failures, checkpoints and restart (run/reliability.hpp); its `tokens` are the job's, its
  /// `price_per_chip_hour` the price of every system's chips unless `compare_training` is given
  /// a price per system (0: no cost).
  run_inputs run{};
  energy_inputs energy{};
};

/// One system's answer to a training job.
struct training_option {
  compared_system system{};
  std::int64_t chips = 0;
  bool found = false;        ///< a plan fits and the run finishes
  std::string_view problem;  ///< why not (empty when found)
  binding_constraint binding = binding_constraint::compute;
  search_result search{};  ///< the best plan, its cost and memory
  run_totals run{};        ///< days, chip-hours, cost and goodput with failures
  step_energy per_step{};
  run_energy energy{};
  bool meets_deadline = true;
  /// The chips the plan would need to meet the deadline if its throughput scaled linearly with
  /// chips (an assumption; 0 without a deadline).
  double chips_for_deadline = 0.0;
  bool pareto =
      false;  ///< no other found option is both faster and cheaper (cost, else chip-hours)
};

/// The families a training comparison sizes to the job's chips: every training preset.
inline constexpr std::array<std::string_view, 10> training_families = {
    "dgx_a100_superpod", "dgx_h100_superpod", "h800_cluster", "dgx_b200_superpod", "gb200_nvl72",
    "tpu_v4p_slice",     "tpu_v5p_slice",     "tpu7x_slice",  "tpu_v5e_slice",     "tpu_v6e_slice"};

/// The book's training time (applied-training.md): 6 x parameters x tokens FLOPs on `chips` chips
/// of peak `peak` at `mfu`, in days.
constexpr double days_at_mfu(const model_shape& model, double tokens, double chips, flop_rate peak,
                             double mfu) {
  return 6.0 * static_cast<double>(parameters(model).total) * tokens /
         (chips * peak.value() * mfu) / 86400.0;
}

namespace detail {
/// The smallest power of two at least `n` (at least 1).
constexpr std::int64_t power_of_two_at_least(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}
}  // namespace detail

/// The request for a system of `family` with at least `chips` chips: GPU clusters in nodes of 8,
/// GB200 in racks of 72, TPU slices as one torus of a power of two of chips up to 16x16x16
/// (16x16 for v5e and v6e) and as many such slices over DCN as it takes beyond that.
constexpr system_request sized_request(std::string_view family, std::int64_t chips) {
  system_request r;
  r.preset = family;
  const bool two_d = same_name(family, "tpu_v5e_slice") || same_name(family, "tpu_v6e_slice");
  if (same_name(family, "gb200_nvl72")) {
    r.racks = (chips + 71) / 72;
  } else if (family.substr(0, 4) == "tpu_" || family.substr(0, 4) == "tpu7") {
    const std::int64_t slice_max = two_d ? 256 : 4096;
    const std::int64_t per_slice = std::min(detail::power_of_two_at_least(chips), slice_max);
    r.slices = (chips + per_slice - 1) / per_slice;
    std::array<std::int64_t, 3> shape = {1, 1, 1};
    // Double the first of the smallest axes: 2x1x1, 2x2x1, 2x2x2, 4x2x2 ... 16x16x16 (16x16).
    for (std::int64_t n = 1; n < per_slice; n *= 2) {
      std::size_t i = 0;
      const std::size_t axes = two_d ? 2 : 3;
      for (std::size_t k = 1; k < axes; ++k)
        if (shape[k] < shape[i]) i = k;
      shape[i] *= 2;
    }
    if (two_d) shape[2] = 0;
    r.shape = shape;
  } else {
    r.nodes = (chips + 7) / 8;
  }
  return r;
}

/// The family's system with at least `chips` chips, or the rule that its size breaks.
constexpr compared_system sized_system(std::string_view family, std::int64_t chips) {
  const system_result s = make_system(sized_request(family, chips));
  return {family, s.figures, s.error};
}

/// The constraint of a found plan: the largest of its compute (with the optimizer), its exposed
/// communication and bubble, and what failures add to each step (step x (1/goodput - 1)).
constexpr binding_constraint binding_of(const step_cost& c, const run_totals& r) {
  const double compute = (c.compute + c.optimizer).value();
  const double network = (c.communication_exposed + c.bubble).value();
  const double failures = r.goodput > 0.0 ? c.step.value() * (1.0 / r.goodput - 1.0) : 1e300;
  if (failures > compute && failures > network) return binding_constraint::failures;
  return network > compute ? binding_constraint::network : binding_constraint::compute;
}

/// The best plan of `s` for the job: the search's fastest plan on the job's chips, its run with
/// failures, its energy. `price_per_chip_hour` prices this system's chips (0: no cost).
inline training_option compare_training_on(const training_job& job, const compared_system& s,
                                           double price_per_chip_hour) {
  training_option o;
  o.system = s;
  o.chips = job.chips;
  if (!s.problem.empty()) {
    o.problem = s.problem;
    o.binding = binding_constraint::system;
    return o;
  }
  const search_space space =
      make_search_space(job.model, s.figures, job.chips, job.global_tokens, job.seq_len);
  o.search = search(space);
  if (!o.search.problem.empty()) {
    o.problem = o.search.problem;
    o.binding = binding_constraint::system;
    return o;
  }
  if (!o.search.found) {
    // Some candidate passed every rule but memory: memory binds; else no candidate passed the
    // rules (degrees that divide the model, meshes that tile the torus) on this many chips.
    const bool memory = o.search.counts.over_memory > 0;
    o.problem = memory ? "shardplan: no plan of the model fits in the memory of these chips"
                       : "shardplan: no plan of the model passes the rules on this many chips "
                         "(degrees that divide the model and the batch, meshes that tile the "
                         "system)";
    o.binding = memory ? binding_constraint::memory : binding_constraint::system;
    return o;
  }
  run_inputs in = job.run;
  in.tokens = job.tokens;
  in.price_per_chip_hour = price_per_chip_hour;
  o.run = run_estimate(o.search.best, in);
  if (!o.run.finishes) {
    o.problem = "shardplan: the run never finishes: interruptions and restarts take all the time";
    o.binding = binding_constraint::failures;
    return o;
  }
  o.found = true;
  o.binding = binding_of(o.search.cost, o.run);
  o.per_step = energy_of_step(o.search.cost, s.figures.chip, o.run.chips, job.energy);
  o.energy = energy_of_run(o.run, o.per_step, s.figures.chip, job.energy);
  if (job.deadline_days > 0.0) {
    o.meets_deadline = o.run.days <= job.deadline_days;
    o.chips_for_deadline = o.run.chips * o.run.days / job.deadline_days;
  }
  return o;
}

/// Marks the options on the time/money front: found, and no other found option is at most as
/// slow and as dear and better in one (money is the cost where every option has a price, else
/// chip-hours).
inline void mark_pareto(std::vector<training_option>& options) {
  bool priced = true;
  for (const training_option& o : options)
    if (o.found && !(o.run.cost > 0.0)) priced = false;
  const auto money = [priced](const training_option& o) {
    return priced ? o.run.cost : o.run.chip_hours;
  };
  for (training_option& a : options) {
    a.pareto = a.found;
    for (const training_option& b : options) {
      if (!a.pareto) break;
      if (&a == &b || !b.found) continue;
      const bool no_worse = b.run.days <= a.run.days && money(b) <= money(a);
      const bool better = b.run.days < a.run.days || money(b) < money(a);
      if (no_worse && better) a.pareto = false;
    }
  }
}

/// Every system's answer, fastest first: options that meet the deadline, then those that miss
/// it, then systems with no answer (in the order given).
inline std::vector<training_option> compare_training(const training_job& job,
                                                     const std::vector<compared_system>& systems,
                                                     const std::vector<double>& prices = {}) {
  std::vector<training_option> out;
  for (std::size_t i = 0; i < systems.size(); ++i) {
    const double price = i < prices.size() ? prices[i] : job.run.price_per_chip_hour;
    out.push_back(compare_training_on(job, systems[i], price));
  }
  std::stable_sort(out.begin(), out.end(), [](const training_option& a, const training_option& b) {
    const int ra = !a.found ? 2 : (a.meets_deadline ? 0 : 1);
    const int rb = !b.found ? 2 : (b.meets_deadline ? 0 : 1);
    if (ra != rb) return ra < rb;
    return ra < 2 && a.run.days < b.run.days;
  });
  mark_pareto(out);
  return out;
}

/// Why a comparison has no answer at all, naming the constraint: empty when some system meets
/// the job. No system holds the model; or none meets the deadline (with the fastest one's days).
inline std::string_view comparison_verdict(const std::vector<training_option>& options) {
  bool any_found = false;
  for (const training_option& o : options) {
    if (o.found && o.meets_deadline) return {};
    any_found = any_found || o.found;
  }
  if (!any_found) return "no system of the comparison holds the job: see each system's constraint";
  return "no system meets the deadline at the job's chips: see the chips each would need";
}

// --- serving
// --------------------------------------------------------------------------------------

/// Serve `model` under a workload: `prompt_tokens` in, `generated_tokens` out per request, with
/// targets for the time to first token (loaded) and per output token (0: none).
struct serving_job {
  model_shape model{};
  std::int64_t prompt_tokens = 0;
  std::int64_t generated_tokens = 1;
  seconds time_to_first_token{};
  seconds time_per_output_token{};
  number_format weights = number_format::bf16;
  number_format kv = number_format::bf16;
  number_format compute = number_format::bf16;
  serving_engine engine = serving_engine::generic;
  energy_inputs energy{};
};

/// One system's answer to a serving job: the replica (tensor degree) and concurrency that serve
/// most output tokens a second per chip within the targets.
struct serving_option {
  compared_system system{};
  bool found = false;
  std::string_view problem;
  binding_constraint binding = binding_constraint::memory;
  std::int64_t tensor = 0;       ///< chips of one replica
  std::int64_t concurrency = 0;  ///< requests in flight on the replica
  serving_plan_values plan{};
  serving_estimate estimate{};
  double price_per_chip_hour = 0.0;
  double cost_per_million_tokens = 0.0;  ///< output tokens; 0 without a price
  double tokens_per_joule = 0.0;         ///< output tokens at the facility
  double kwh_per_million_tokens = 0.0;
  double energy_cost_per_million_tokens = 0.0;  ///< at the job's price per kWh (0: none given)
  bool pareto = false;  ///< no other option serves faster per user and more cheaply
};

/// A replica of `tensor` chips of `s` serving the job at the largest concurrency that fits.
inline serving_plan_values serving_replica(const serving_job& job, const system_figures& s,
                                           std::int64_t tensor) {
  serving_plan_values p;
  p.model = job.model;
  p.system = s;
  if (tensor > 1)
    p.axes[p.axis_count++] = {"tp", tensor, role_tensor, {}};
  else
    p.axes[p.axis_count++] = {"dp", 1, role_data, {}};
  serving_setup& u = p.setup;
  u.prompt_tokens = job.prompt_tokens;
  u.generated_tokens = job.generated_tokens;
  u.weights = job.weights;
  u.kv = job.kv;
  u.compute = job.compute;
  u.engine = job.engine;
  u.max_load = true;
  u.replicate_kv = true;
  return with_max_load(p);
}

/// Whether `e` meets the job's latency targets.
constexpr bool meets_targets(const serving_job& job, const serving_estimate& e) {
  if (job.time_per_output_token.value() > 0.0 &&
      e.time_per_output_token > job.time_per_output_token)
    return false;
  if (job.time_to_first_token.value() > 0.0 &&
      e.loaded_time_to_first_token > job.time_to_first_token)
    return false;
  return true;
}

/// The best replica of `s` for the job: each power-of-two tensor degree up to the system's
/// chips whose plan passes the rules, at the largest concurrency that fits and meets the
/// targets (found by bisection: latency grows with concurrency), ranked by output tokens a
/// second per chip.
inline serving_option compare_serving_on(const serving_job& job, const compared_system& s,
                                         double price_per_chip_hour) {
  serving_option best;
  best.system = s;
  best.price_per_chip_hour = price_per_chip_hour;
  if (!s.problem.empty()) {
    best.problem = s.problem;
    best.binding = binding_constraint::system;
    return best;
  }
  bool any_fits = false;
  for (std::int64_t t = 1; t <= s.figures.chips; t *= 2) {
    serving_plan_values p = serving_replica(job, s.figures, t);
    if (!check(p).empty()) continue;
    any_fits = true;
    const serving_estimate most = estimate_serving(p);
    std::int64_t c = most.concurrency;
    binding_constraint why = most.max_concurrency < engine_figures_of(job.engine).max_batch ||
                                     engine_figures_of(job.engine).max_batch == 0
                                 ? binding_constraint::memory
                                 : binding_constraint::batching;
    serving_estimate e = most;
    if (!meets_targets(job, most)) {
      why = binding_constraint::latency;
      if (!meets_targets(job, estimate_serving_at(p, 1))) continue;
      std::int64_t lo = 1, hi = most.concurrency;  // lo meets, hi does not
      while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (meets_targets(job, estimate_serving_at(p, mid)) ? lo : hi) = mid;
      }
      c = lo;
      e = estimate_serving_at(p, c);
      p.setup.max_load = false;
      p.setup.batch = c;
    }
    if (best.found &&
        e.output_tokens_per_second_per_device <= best.estimate.output_tokens_per_second_per_device)
      continue;
    best.found = true;
    best.problem = {};
    best.binding = why;
    best.tensor = t;
    best.concurrency = c;
    best.plan = p;
    best.estimate = e;
  }
  if (!best.found) {
    best.binding = any_fits ? binding_constraint::latency : binding_constraint::memory;
    best.problem = any_fits ? "shardplan: no concurrency of any replica meets the latency targets"
                            : "shardplan: the model's weights and one cache fit no replica of "
                              "these chips";
    return best;
  }
  const double per_chip = best.estimate.output_tokens_per_second_per_device;
  if (price_per_chip_hour > 0.0 && per_chip > 0.0)
    best.cost_per_million_tokens = price_per_chip_hour / 3600.0 / per_chip * 1e6;
  best.tokens_per_joule = tokens_per_joule(per_chip, s.figures.chip, job.energy);
  if (best.tokens_per_joule > 0.0)
    best.kwh_per_million_tokens = 1e6 / best.tokens_per_joule / joules_per_kwh;
  best.energy_cost_per_million_tokens = best.kwh_per_million_tokens * job.energy.price_per_kwh;
  return best;
}

/// The families a serving comparison takes by default: one 8-GPU node of H100, H200 and B200,
/// one GB200 NVL72 rack, a 4x4 of TPU v5e and v6e, a 2x2x1 of TPU v5p, and one dual-socket Xeon
/// 8480+ and EPYC 9654 server.
inline std::vector<compared_system> serving_systems() {
  std::vector<compared_system> out;
  const auto add = [&out](std::string_view family, const system_request& r) {
    const system_result s = make_system(r);
    out.push_back({family, s.figures, s.error});
  };
  add("dgx_h100_superpod", {.preset = "dgx_h100_superpod", .nodes = 1});
  add("dgx_b200_superpod", {.preset = "dgx_b200_superpod", .nodes = 1});
  add("gb200_nvl72", {.preset = "gb200_nvl72", .racks = 1});
  add("tpu_v5e_slice", {.preset = "tpu_v5e_slice", .shape = {4, 4, 0}});
  add("tpu_v6e_slice", {.preset = "tpu_v6e_slice", .shape = {4, 4, 0}});
  add("tpu_v5p_slice", {.preset = "tpu_v5p_slice", .shape = {2, 2, 1}});
  out.push_back({"xeon_8480_2s", systems::single_server<hardware::xeon_8480_2s>::figures, {}});
  out.push_back({"epyc_9654_2s", systems::single_server<hardware::epyc_9654_2s>::figures, {}});
  return out;
}

/// Marks the serving options no other beats on both tokens a second per user and cost per
/// million tokens (chip-seconds per token where some option has no price).
inline void mark_pareto(std::vector<serving_option>& options) {
  bool priced = true;
  for (const serving_option& o : options)
    if (o.found && !(o.cost_per_million_tokens > 0.0)) priced = false;
  const auto money = [priced](const serving_option& o) {
    return priced ? o.cost_per_million_tokens
                  : 1.0 / o.estimate.output_tokens_per_second_per_device;
  };
  for (serving_option& a : options) {
    a.pareto = a.found;
    for (const serving_option& b : options) {
      if (!a.pareto) break;
      if (&a == &b || !b.found) continue;
      const double ua = a.estimate.output_tokens_per_second_per_user;
      const double ub = b.estimate.output_tokens_per_second_per_user;
      const bool no_worse = ub >= ua && money(b) <= money(a);
      const bool better = ub > ua || money(b) < money(a);
      if (no_worse && better) a.pareto = false;
    }
  }
}

/// Why a serving comparison has no answer ("": some system serves the job).
inline std::string_view comparison_verdict(const std::vector<serving_option>& options) {
  for (const serving_option& o : options)
    if (o.found) return {};
  return "no system of the comparison serves the job: see each system's constraint";
}

/// Every system's answer to a serving job, most output tokens a second per chip first.
inline std::vector<serving_option> compare_serving(const serving_job& job,
                                                   const std::vector<compared_system>& systems,
                                                   const std::vector<double>& prices = {}) {
  std::vector<serving_option> out;
  for (std::size_t i = 0; i < systems.size(); ++i)
    out.push_back(compare_serving_on(job, systems[i], i < prices.size() ? prices[i] : 0.0));
  std::stable_sort(out.begin(), out.end(), [](const serving_option& a, const serving_option& b) {
    if (a.found != b.found) return a.found;
    return a.found && a.estimate.output_tokens_per_second_per_device >
                          b.estimate.output_tokens_per_second_per_device;
  });
  mark_pareto(out);
  return out;
}

}  // namespace shardplan
