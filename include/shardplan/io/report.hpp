// Report tables of a training plan: mesh and placement, tensor partitions, memory, traffic per
// axis, time breakdown and bounds, each a `table` to print as text or Markdown.
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <string_view>

#include <shardplan/training/bounds.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/core/format.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>
#include <shardplan/training/sharding.hpp>
#include <shardplan/core/table.hpp>
#include <shardplan/io/reliability_report.hpp>

namespace shardplan {

namespace detail {

inline std::string roles_text(std::uint8_t roles) {
  std::string out;
  auto add = [&out](const char* s) { out += out.empty() ? s : std::string("+") + s; };
  if (roles & role_zero) add("zero");
  else if (roles & role_data) add("data");
  if (roles & role_tensor) add("tensor");
  if (roles & role_context) add("context");
  if (roles & role_pipeline) add("pipeline");
  if (roles & role_expert) add("expert");
  return out.empty() ? "-" : out;
}

}  // namespace detail

/// The mesh: each axis, its parallelism, the levels it crosses and whether its rings wrap.
inline table placement_table(const training_plan_values& p) {
  table t{{"axis", "size", "parallelism", "links", "bandwidth (all-gather)"}, {},
          {false, true, false, false, true}};
  const placement_levels levels = levels_of(p.system);
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    const axis_network net = network_of(p, i);
    std::string links;
    for (std::size_t k = 0; k < net.count; ++k) {
      const level_use& u = net.uses[k];
      if (!links.empty()) links += ", ";
      links += std::string(u.level.name) + " x" + std::to_string(u.degree) + " (" +
               std::string(name_of(u.level.link));
      if (u.level.torus) links += u.level.wraps && u.degree == u.level.degree ? ", wraps" : ", no wrap";
      links += ")";
    }
    if (links.empty()) links = "-";
    t.rows.push_back({std::string(p.axes[i].name), std::to_string(p.axes[i].size),
                      detail::roles_text(p.axes[i].roles), links,
                      net.count == 0 ? "-" : format(axis_bandwidth(net))});
  }
  (void)levels;
  return t;
}

/// Memory per device, term by term, against the chip's memory.
inline table memory_table(const training_plan_values& p) {
  const memory_breakdown m = memory_per_device(p.model, p.setup);
  table t{{"memory per device", "bytes"}, {}, {false, true}};
  t.rows = {{"parameters", format(m.parameters)},       {"gradients", format(m.gradients)},
            {"master weights", format(m.master_weights)}, {"optimizer state", format(m.optimizer)},
            {"activations", format(m.activations)},     {"buffers", format(m.buffers)},
            {"reserve", format(m.reserve)},             {"total", format(m.total)},
            {"capacity", format(p.system.chip.memory)}};
  return t;
}

/// Each strategy's collectives on its axis in one step.
inline table traffic_table(const training_plan_values& p, const step_cost& c) {
  table t{{"strategy", "collective", "axis", "per step", "array", "sent forward", "sent backward",
           "time", "exposed"},
          {},
          {false, false, false, true, true, true, true, true, true}};
  for (std::size_t i = 0; i < c.traffic_count; ++i) {
    const axis_traffic& x = c.traffic[i];
    t.rows.push_back({std::string(x.strategy), std::string(name_of(x.collective)),
                      std::string(p.axes[x.axis].name), detail::significant(x.count, 6),
                      format(x.array), format(x.forward_bytes()), format(x.backward_bytes()),
                      format(x.time), format(x.exposed)});
  }
  return t;
}

/// The step's time, part by part, and what it gives.
inline table time_table(const step_cost& c) {
  table t{{"time per step (estimate)", "value"}, {}, {false, true}};
  t.rows = {{"compute (matmuls at " + detail::significant(c.efficiency * 100.0, 3) +
                 "% of peak, elementwise at HBM bandwidth)",
             format(c.compute)},
            {"  of which elementwise", format(c.elementwise)},
            {"pipeline bubble", format(c.bubble)},
            {"communication not hidden", format(c.communication_exposed)},
            {"optimizer update", format(c.optimizer)},
            {"step", format(c.step)},
            {"roofline lower bound (peak rates)", format(c.roofline)},
            {c.mfu_capped ? "MFU (held to the chip family's best measured; compute raised)"
                          : "MFU",
             detail::significant(c.mfu * 100.0, 3) + "%"},
            {"tokens per second per device", detail::significant(c.tokens_per_second_per_device, 4)}};
  return t;
}

/// Each data and tensor axis against its threshold.
inline table bounds_table(const training_plan_values& p) {
  const plan_bounds b = bounds_of(p);
  table t{{"axis", "bound", "threshold", "plan", "compute-bound"}, {},
          {false, false, true, true, false}};
  for (std::size_t i = 0; i < b.count; ++i) {
    const axis_bound& x = b.items[i];
    t.rows.push_back({std::string(p.axes[x.axis].name), std::string(bound_formula(x)),
                      std::isfinite(x.critical) ? detail::significant(x.critical, 4) : "-",
                      detail::significant(x.actual, 4),
                      x.compute_bound() ? "yes" : "no"});
  }
  return t;
}

/// Every tensor's partition in the book's notation, one per row.
inline table sharding_table(const training_plan_values& p) {
  const plan_shardings s = shardings_of(p);
  table t{{"tensor", "partition"}, {}, {false, false}};
  for (std::size_t i = 0; i < s.count; ++i)
    t.rows.push_back({std::string(s.tensors[i].tensor), notation(s.tensors[i], p)});
  return t;
}

/// What a report says instead of the reliability figures when no run is given.
inline constexpr std::string_view no_run_text =
    "no run given: a token budget (a plan file's \"run\": {\"tokens\": ...}) adds failures, "
    "checkpoints, days, cost and goodput";

/// The report of a training plan as text or Markdown tables: verdict and broken rules, mesh and
/// placement, partitions; when it can be costed, memory, traffic, time, bounds and, when `run`
/// gives a token budget, reliability (estimates) for that run.
inline std::string plan_report(const training_plan_values& p, const run_inputs& run, bool markdown) {
  auto render = [markdown](const table& t) { return markdown ? render_markdown(t) : render_text(t); };
  auto heading = [markdown](const std::string& h) {
    return markdown ? "## " + h + "\n\n" : h + "\n" + std::string(h.size(), '=') + "\n";
  };
  std::ostringstream out;
  const plan_violations v = check(p);
  out << heading("Plan") << std::string(p.model.name) << " on " << p.system.chips << " x "
      << std::string(p.system.chip.name) << " (" << std::string(p.system.name) << "): "
      << (v.empty() ? "feasible" : "INFEASIBLE") << "\n";
  for (std::size_t i = 0; i < v.count; ++i)
    out << "  - " << rule_name(v.items[i].rule) << ": " << describe(v.items[i]) << "\n";
  out << "\n" << heading("Mesh and placement") << render(placement_table(p)) << "\n"
      << heading("Partitions (How to Scale Your Model notation)") << render(sharding_table(p))
      << "\n";
  if (!costable(v)) return out.str();
  const step_cost c = estimate_step(p);
  out << heading("Memory per device") << render(memory_table(p)) << "\n"
      << heading("Traffic per axis and step (estimate)") << render(traffic_table(p, c)) << "\n"
      << heading("Time per step (estimate)") << render(time_table(c)) << "\n"
      << heading("Bounds") << render(bounds_table(p)) << "\n"
      << heading("Reliability (estimate)");
  if (has_run(run)) out << render(reliability_table(run_estimate(p, run)));
  else out << no_run_text << "\n";
  return out.str();
}

}  // namespace shardplan
