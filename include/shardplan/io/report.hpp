// Report tables of a training plan: mesh and placement, tensor partitions, memory, traffic per
// axis, time breakdown and bounds, each a `table` to print as text or Markdown.
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <string_view>

#include <shardplan/hardware/kernels.hpp>
#include <shardplan/training/bounds.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/core/format.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>
#include <shardplan/training/precision.hpp>
#include <shardplan/training/sharding.hpp>
#include <shardplan/core/table.hpp>
#include <shardplan/io/reliability_report.hpp>
#include <shardplan/search/search.hpp>

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
            {"activations", format(m.activations)},     {"buffers", format(m.buffers)}};
  // The flat reserve, or a named framework's transients, or (the book's policy) neither.
  if (charges_named_transients(p.setup)) {
    t.rows.push_back({"cuda context and cublas workspace", format(m.cuda_context)});
    t.rows.push_back({"nccl buffers", format(m.nccl_buffers)});
    t.rows.push_back({"optimizer-step temporaries", format(m.optimizer_temporaries)});
    t.rows.push_back({"allocator fragmentation", format(m.fragmentation)});
  } else {
    t.rows.push_back({"reserve", format(m.reserve)});
  }
  // Where gradients are freed between steps the peak is one moment of the step, not the sum.
  if (m.not_live_at_peak.value() > 0.0)
    t.rows.push_back({"not live at the peak (" + std::string(peak_moment_name(m.moment)) + ")",
                      "-" + format(m.not_live_at_peak)});
  t.rows.push_back({"total", format(m.total)});
  // The fullest pipeline stage is the one charged (`memory_per_device`).
  if (p.setup.degrees.pipeline > 1) {
    const std::int64_t s = stage_index(p.setup.degrees, m.stage);
    const std::int64_t layers = layers_on_stage(p.model, p.setup, s);
    t.rows.push_back({"pipeline stage charged (the fullest)",
                      std::string(stage_position_name(m.stage)) + ": stage " +
                          detail::significant(static_cast<double>(s + 1), 6) + " of " +
                          detail::significant(static_cast<double>(p.setup.degrees.pipeline), 6) +
                          ", " +
                          detail::significant(static_cast<double>(layers), 6) +
                          (layers == 1 ? " layer" : " layers")});
  }
  t.rows.push_back({"capacity", format(p.system.chip.memory)});
  // What is offloaded lives in the host's memory, checked against its share per device.
  if (m.host.value() > 0.0) {
    t.rows.push_back({"offloaded to host memory", format(m.host)});
    t.rows.push_back({"host memory per device", format(p.system.chip.host_memory)});
  }
  const memory_assessment a = memory_assessment_of(p);
  t.rows.push_back({"verdict (margin " + detail::significant(a.margin * 100.0, 3) + "% of need)",
                    std::string(verdict_name(a.verdict)) + ", headroom " +
                        detail::significant(a.headroom_gb, 3) + " GB" +
                        (a.validated ? "" : "; not validated: no measured peak of " +
                                                std::string(p.setup.framework.name) + " on " +
                                                std::string(p.system.chip.name))});
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

/// The attention kernel the plan's step is timed with: `eager` with `eager_attention`, the
/// chip's usual kernel (`default_attention_kernel`) for `automatic`, else the plan's.
constexpr attention_kernel reported_attention_kernel(const training_plan_values& p) {
  if (p.setup.eager_attention) return attention_kernel::eager;
  return p.setup.attention == attention_kernel::automatic
             ? default_attention_kernel(p.system.chip)
             : p.setup.attention;
}

/// What the plan's precision computes in: "fp8 matmuls (tensorwise scaling), attention in bf16",
/// "bf16 matmuls and attention".
inline std::string precision_text(const precision_policy& x) {
  const std::string compute(name_of(x.compute));
  const std::string attention(name_of(attention_format(x)));
  std::string s = compute + " matmuls";
  if (x.scaling != low_precision_scaling::none)
    s += " (" + std::string(scaling_name(x.scaling)) + " scaling)";
  return attention == compute ? s + " and attention" : s + ", attention in " + attention;
}

namespace detail {

inline table time_table(const step_cost& c, const std::string& matmul_peak) {
  table t{{"time per step (estimate)", "value"}, {}, {false, true}};
  t.rows = {{"compute (operations timed by the kernel model; matmuls at " +
                 detail::significant(c.efficiency * 100.0, 3) + "% of " + matmul_peak + ")",
             format(c.compute)},
            {"  of which memory-bound operations", format(c.elementwise)},
            {"pipeline bubble", format(c.bubble)},
            {"communication not hidden", format(c.communication_exposed)},
            {"optimizer update", format(c.optimizer)},
            {"step", format(c.step)},
            {"roofline lower bound (peak rates)", format(c.roofline)},
            {c.mfu_capped ? "MFU (of the " + std::string(name_of(c.mfu_format)) +
                                " peak; held to the chip family's best measured, compute raised)"
                          : "MFU (of the " + std::string(name_of(c.mfu_format)) + " peak)",
             detail::significant(c.mfu * 100.0, 3) + "%"},
            {"tokens per second per device", detail::significant(c.tokens_per_second_per_device, 4)}};
  return t;
}

}  // namespace detail

/// The step's time, part by part, and what it gives; the matmuls' fraction is of the peak of
/// the plan's compute format ("of the fp8 peak"), MFU of the peak of `c.mfu_format`.
inline table time_table(const training_plan_values& p, const step_cost& c) {
  table t =
      detail::time_table(c, "the " + std::string(name_of(p.setup.precision.compute)) + " peak");
  const double e = measured_step_error(p.system.chip);
  t.rows.push_back({"the model's mean error on published runs of this chip family",
                    e > 0.0 ? detail::significant(e * 100.0, 3) + "%" : "not measured"});
  return t;
}

/// The step's time without its plan: the matmuls' fraction is of the compute format's peak.
inline table time_table(const step_cost& c) {
  return detail::time_table(c, "the compute format's peak");
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
  const attention_kernel kernel = reported_attention_kernel(p);
  const std::string_view precision_name = p.setup.precision.name;
  out << "precision" << (precision_name.empty() ? "" : " ") << std::string(precision_name) << ": "
      << precision_text(p.setup.precision) << "; attention kernel "
      << std::string(kernel_name(kernel))
      << (p.setup.attention == attention_kernel::automatic && !p.setup.eager_attention
              ? " (the chip's usual)"
              : "")
      << "; MFU against the " << std::string(name_of(mfu_format_of(p, p.assumptions)))
      << " peak\n";
  out << "\n" << heading("Mesh and placement") << render(placement_table(p)) << "\n"
      << heading("Partitions (How to Scale Your Model notation)") << render(sharding_table(p))
      << "\n";
  if (!costable(v)) return out.str();
  const step_cost c = estimate_step(p);
  out << heading("Memory per device") << render(memory_table(p)) << "\n"
      << heading("Traffic per axis and step (estimate)") << render(traffic_table(p, c)) << "\n"
      << heading("Time per step (estimate)") << render(time_table(p, c)) << "\n"
      << heading("Bounds") << render(bounds_table(p)) << "\n"
      << heading("Reliability (estimate)");
  if (has_run(run)) out << render(reliability_table(run_estimate(p, run)));
  else out << no_run_text << "\n";
  return out.str();
}

/// A search's result as the tool prints it: the counts, then (when a plan was found) the fastest
/// plans, the memory/time trade-off and the best plan's report.
inline std::string search_text(const search_result& r, const run_inputs& run, bool markdown) {
  std::string out = render(search_counts_table(r.counts), markdown);
  out.append("\n");
  if (!r.found) return out.append("no feasible plan\n");
  out.append("fastest plans (estimates)\n").append(render(ranking_table(r), markdown));
  out.append("\nmemory/time trade-off\n").append(render(trade_off_table(r), markdown));
  return out.append("\n").append(plan_report(r.best, run, markdown));
}

}  // namespace shardplan
