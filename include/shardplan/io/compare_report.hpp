// Reports of a hardware comparison (search/compare.hpp): one table row per system, the
// assumptions the figures rest on, and an SVG chart of money against time (or cost per token
// against tokens a second per user for serving), one point per system, the Pareto front marked.
#pragma once

#include <algorithm>
#include <cmath>
#include <shardplan/core/format.hpp>
#include <shardplan/core/svg.hpp>
#include <shardplan/core/table.hpp>
#include <shardplan/io/reliability_report.hpp>
#include <shardplan/search/compare.hpp>
#include <string>
#include <utility>
#include <vector>

namespace shardplan {

namespace detail {
inline std::string figure_text(double x) { return significant(round_significant(x, 3), 3); }
}  // namespace detail

/// One row a system: what it is, its best plan's days, chip-hours, cost, energy and goodput,
/// the constraint that binds it, and the deadline; a system with no answer says why.
inline table training_comparison_table(const std::vector<training_option>& options) {
  table t{{"system", "chips", "days", "chip-hours", "cost", "MWh", "energy cost", "goodput", "MFU",
           "binding", "deadline", "front"},
          {},
          {false, true, true, true, true, true, true, true, true, false, false, false}};
  for (const training_option& o : options) {
    std::string name = std::string(o.system.family);
    if (!o.found) {
      t.rows.push_back({name, std::to_string(o.chips), "-", "-", "-", "-", "-", "-", "-",
                        std::string(name_of(o.binding)), std::string(o.problem), ""});
      continue;
    }
    const std::string deadline =
        o.chips_for_deadline <= 0.0
            ? "-"
            : (o.meets_deadline
                   ? "meets"
                   : "misses: needs ~" + detail::count_text(o.chips_for_deadline) + " chips");
    t.rows.push_back({name + " (" + std::string(o.system.figures.chip.name) + ")",
                      std::to_string(o.chips), detail::figure_text(o.run.days),
                      detail::count_text(o.run.chip_hours), detail::money_text(o.run.cost),
                      o.energy.known ? detail::figure_text(o.energy.kwh / 1e3) : "-",
                      detail::money_text(o.energy.cost), detail::percent_text(o.run.goodput),
                      detail::percent_text(o.run.mfu), std::string(name_of(o.binding)), deadline,
                      o.pareto ? "yes" : ""});
  }
  return t;
}

/// The best plan of each system that has one.
inline table training_plans_table(const std::vector<training_option>& options) {
  table t{{"system", "best plan", "step"}, {}, {false, false, true}};
  for (const training_option& o : options)
    if (o.found)
      t.rows.push_back({std::string(o.system.family),
                        describe(o.search.choice, is_moe(o.search.best.model)),
                        format(o.search.cost.step)});
  return t;
}

/// One row a system for a serving job.
inline table serving_comparison_table(const std::vector<serving_option>& options) {
  table t{{"system", "replica", "requests", "TTFT", "TPOT", "tokens/s/chip", "tokens/s/user",
           "$/M tokens", "tokens/J", "kWh/M tokens", "energy $/M", "binding", "front"},
          {},
          {false, true, true, true, true, true, true, true, true, true, true, false, false}};
  for (const serving_option& o : options) {
    const std::string name = std::string(o.system.family);
    if (!o.found) {
      t.rows.push_back({name, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
                        std::string(name_of(o.binding)), std::string(o.problem)});
      continue;
    }
    const serving_estimate& e = o.estimate;
    t.rows.push_back(
        {name + " (" + std::string(o.system.figures.chip.name) + ")",
         std::to_string(o.tensor) + " chip" + (o.tensor > 1 ? "s" : ""),
         std::to_string(o.concurrency), format(e.loaded_time_to_first_token),
         format(e.time_per_output_token),
         detail::figure_text(e.output_tokens_per_second_per_device),
         detail::figure_text(e.output_tokens_per_second_per_user),
         o.cost_per_million_tokens > 0.0
             ? detail::dollars(detail::figure_text(o.cost_per_million_tokens))
             : "-",
         o.tokens_per_joule > 0.0 ? detail::figure_text(o.tokens_per_joule) : "-",
         o.kwh_per_million_tokens > 0.0 ? detail::figure_text(o.kwh_per_million_tokens) : "-",
         o.energy_cost_per_million_tokens > 0.0
             ? detail::dollars(detail::figure_text(o.energy_cost_per_million_tokens))
             : "-",
         std::string(name_of(o.binding)), o.pareto ? "yes" : ""});
  }
  return t;
}

/// What every figure of a comparison assumes, one line each.
inline std::vector<std::string> comparison_assumptions(const energy_inputs& e, bool training) {
  std::vector<std::string> out;
  if (training) {
    out.push_back(
        "each system's best plan is the search's fastest (search/search.hpp) on the "
        "job's chips; its step time errs by the chip family's measured error");
    out.push_back(
        "failures at LLaMA 3's rates scaled to the system's chips and hosts, a "
        "10-minute restart unless given, Daly's checkpoint interval");
    out.push_back("chips for a missed deadline: the plan's days scaled linearly with chips");
  } else {
    out.push_back(
        "each system serves replicas of a power-of-two tensor degree at the largest "
        "concurrency that fits and meets the targets (serving/workload.hpp)");
    out.push_back(
        "engine kernel figures measured on NVIDIA GPUs; on TPUs and CPU servers an "
        "assumption");
  }
  out.push_back(
      "chip power: the datasheet's rated power (TPU v5e, v5p, v6e, TPU7x and "
      "Trainium2 estimated, no figure being published)");
  out.push_back("busy power " + detail::percent_text(e.busy_share) + " of rated, " +
                (training ? "exposed communication, bubble and restarts at " +
                                detail::percent_text(e.idle_share)
                          : std::string("serving counted busy all along")) +
                "; host and network: the DGX datasheets' system power beyond the GPUs, else "
                "DGX H100's 82% of the chips' power");
  out.push_back(e.pue == 1.0 ? std::string("PUE 1.0: IT power only (chips and hosts)")
                             : "PUE " + detail::figure_text(e.pue) + " (given)");
  out.push_back(e.price_per_kwh > 0.0
                    ? "energy at " + detail::dollars(detail::figure_text(e.price_per_kwh)) +
                          " a kWh (given)"
                    : std::string("no energy price given: no energy cost"));
  return out;
}

/// A point of a comparison chart.
struct comparison_point {
  std::string label;
  double x = 0.0;
  double y = 0.0;
  bool pareto = false;
};

/// A comparison as a standalone SVG document: one labelled circle per system (class "point
/// pareto marked" on the front, drawn on top; "point" off it), each label where it covers no
/// other label, point or the legend, the front as a line through its points by x, axes
/// (logarithmic where they span more than a factor of 20) with their labels, the title, and
/// in the legend (a corner free of points) the systems with no answer (orange), each with its
/// constraint.
inline std::string comparison_chart_svg(const std::vector<comparison_point>& points,
                                        const std::string& title, const std::string& x_label,
                                        const std::string& y_label,
                                        const std::vector<std::string>& unanswered = {}) {
  namespace draw = detail::svg;
  using draw::number;
  const double w = 960.0, h = 640.0, left = 90.0, right = 40.0, top = 64.0, bottom = 64.0;
  double x_lo = 0.0, x_hi = 0.0, y_lo = 0.0, y_hi = 0.0;
  bool any = false;
  for (const comparison_point& p : points) {
    if (!(p.x > 0.0) || !(p.y > 0.0) || !std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    if (!any) {
      x_lo = x_hi = p.x;
      y_lo = y_hi = p.y;
      any = true;
    }
    x_lo = std::min(x_lo, p.x);
    x_hi = std::max(x_hi, p.x);
    y_lo = std::min(y_lo, p.y);
    y_hi = std::max(y_hi, p.y);
  }
  if (!any) x_lo = x_hi = y_lo = y_hi = 1.0;
  // Room around the extreme points for their labels.
  x_lo /= 1.3;
  x_hi *= 1.3;
  y_lo /= 1.3;
  y_hi *= 1.3;
  const draw::axis x = draw::make_axis(x_lo, x_hi, left, w - right);
  const draw::axis y = draw::make_axis(y_lo, y_hi, h - bottom, top);
  std::string svg;
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"640\" viewBox=\"0 0 "
      "960 640\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" font-size=\"12\">\n";
  svg += "<title>" + draw::escape(title) + "</title>\n";
  svg += "<rect x=\"0\" y=\"0\" width=\"960\" height=\"640\" fill=\"#ffffff\"/>\n";
  svg +=
      "<text class=\"title\" x=\"480\" y=\"30\" text-anchor=\"middle\" font-size=\"16\" "
      "font-weight=\"bold\">" +
      draw::escape(title) + "</text>\n";
  svg += draw::grid(x, y, draw::short_label);
  svg += "<text class=\"x-label\" x=\"" + number((left + w - right) / 2.0) + "\" y=\"" +
         number(h - 18) + "\" text-anchor=\"middle\" font-size=\"13\">" + draw::escape(x_label) +
         (x.log ? " (log scale)" : "") + "</text>\n";
  svg += "<text class=\"y-label\" x=\"18\" y=\"" + number((top + h - bottom) / 2.0) +
         "\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 18 " +
         number((top + h - bottom) / 2.0) + ")\">" + draw::escape(y_label) +
         (y.log ? " (log scale)" : "") + "</text>\n";
  std::vector<std::pair<double, double>> front;
  for (const comparison_point& p : points)
    if (p.pareto && p.x > 0.0 && p.y > 0.0) front.emplace_back(x.pixel(p.x), y.pixel(p.y));
  std::sort(front.begin(), front.end());
  if (front.size() > 1) {
    std::string d;
    for (std::size_t i = 0; i < front.size(); ++i)
      d += (i == 0 ? "M" : " L") + number(front[i].first) + " " + number(front[i].second);
    svg += "<path class=\"front\" d=\"" + d +
           "\" fill=\"none\" stroke=\"#1a7a1a\" stroke-width=\"2.5\"/>\n";
  }
  // Each drawable point at its pixel, the front's first. The legend goes in a corner that covers
  // no point, as wide as its longest line; labels, in this order, where they cover no other
  // label, point or the legend; the points are drawn with the front's last, on top.
  struct placed {
    const comparison_point* p;
    double px, py;
  };
  std::vector<placed> order;
  for (const comparison_point& p : points)
    if (p.x > 0.0 && p.y > 0.0 && std::isfinite(p.x) && std::isfinite(p.y))
      order.push_back({&p, x.pixel(p.x), y.pixel(p.y)});
  const auto dominated =
      std::stable_partition(order.begin(), order.end(), [](const placed& q) { return q.p->pareto; });
  const std::string no_answer = "no answer (" + std::to_string(unanswered.size()) +
                                (unanswered.size() == 1 ? " system" : " systems") + ")";
  double legend_w = std::max(draw::text_width("on the Pareto front", 12.0),
                             draw::text_width(no_answer, 12.0));
  for (const std::string& u : unanswered) legend_w = std::max(legend_w, draw::text_width(u, 11.0));
  legend_w += 34.0;
  const double legend_h = 66.0 + 18.0 * static_cast<double>(unanswered.size());
  std::vector<draw::box> point_boxes;
  for (const placed& q : order)
    point_boxes.push_back({q.px - 7.0, q.py - 7.0, q.px + 7.0, q.py + 7.0});
  const draw::box legend =
      draw::free_corner({left, top, w - right, h - bottom}, legend_w, legend_h, point_boxes);
  const double lx = legend.x0 + 10.0, ly = legend.y0 + 8.0;
  draw::label_layout labels({left, top, w - right, h - bottom});
  labels.reserve(legend);
  for (const placed& q : order) labels.reserve_point(q.px, q.py, 6.0);
  for (const placed& q : order) {
    const draw::label_spot spot = labels.place(q.p->label, 11.0, q.px, q.py, 6.0);
    svg += draw::leader(q.px, q.py, spot);
    svg += "<text class=\"point-label\" x=\"" + number(spot.x) + "\" y=\"" + number(spot.y) +
           "\" font-size=\"11\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">" +
           draw::escape(q.p->label) + "</text>\n";
  }
  auto circle = [&](const placed& q) {
    const bool on_front = q.p->pareto;
    svg += std::string("<circle class=\"point") + (on_front ? " pareto marked" : "") + "\" cx=\"" +
           number(q.px) + "\" cy=\"" + number(q.py) + "\" r=\"6\" fill=\"" +
           (on_front ? "#d62728" : "#1f77b4") + "\" stroke=\"#000000\" stroke-width=\"1\"/>\n";
  };
  std::for_each(dominated, order.end(), circle);
  std::for_each(order.begin(), dominated, circle);
  svg += "<g class=\"legend\">\n<rect x=\"" + number(lx - 10) + "\" y=\"" + number(ly - 8) +
         "\" width=\"" + number(legend_w) + "\" height=\"" + number(legend_h) +
         "\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#999999\"/>\n";
  svg += "<circle cx=\"" + number(lx + 6) + "\" cy=\"" + number(ly + 6) +
         "\" r=\"5\" fill=\"#d62728\"/><text x=\"" + number(lx + 18) + "\" y=\"" + number(ly + 10) +
         "\">on the Pareto front</text>\n";
  svg += "<circle cx=\"" + number(lx + 6) + "\" cy=\"" + number(ly + 24) +
         "\" r=\"5\" fill=\"#1f77b4\"/><text x=\"" + number(lx + 18) + "\" y=\"" + number(ly + 28) +
         "\">dominated</text>\n";
  svg += "<rect x=\"" + number(lx + 1) + "\" y=\"" + number(ly + 37) +
         "\" width=\"10\" height=\"10\" fill=\"#f28e2b\"/><text x=\"" + number(lx + 18) +
         "\" y=\"" + number(ly + 46) + "\">" + no_answer + "</text>\n";
  for (std::size_t i = 0; i < unanswered.size(); ++i)
    svg += "<text class=\"unanswered\" x=\"" + number(lx + 18) + "\" y=\"" +
           number(ly + 64 + 18.0 * static_cast<double>(i)) +
           "\" font-size=\"11\" fill=\"#f28e2b\">" + draw::escape(unanswered[i]) + "</text>\n";
  svg += "</g>\n";
  svg += "<!-- " + std::to_string(points.size()) + " systems -->\n</svg>\n";
  return svg;
}

/// A training comparison's chart: cost (chip-hours where a system has no price) against days.
inline std::string training_comparison_svg(const std::vector<training_option>& options,
                                           const std::string& title) {
  bool priced = true;
  for (const training_option& o : options)
    if (o.found && !(o.run.cost > 0.0)) priced = false;
  std::vector<comparison_point> points;
  std::vector<std::string> unanswered;
  for (const training_option& o : options) {
    if (o.found)
      points.push_back({std::string(o.system.family), o.run.days,
                        priced ? o.run.cost : o.run.chip_hours, o.pareto});
    else
      unanswered.push_back(std::string(o.system.family) + ": " + std::string(name_of(o.binding)));
  }
  return comparison_chart_svg(points, title, "days with failures",
                              priced ? "cost of the run (USD)" : "chip-hours", unanswered);
}

/// A serving comparison's chart: cost per million output tokens (chip-seconds a token without
/// prices) against output tokens a second per user.
inline std::string serving_comparison_svg(const std::vector<serving_option>& options,
                                          const std::string& title) {
  bool priced = true;
  for (const serving_option& o : options)
    if (o.found && !(o.cost_per_million_tokens > 0.0)) priced = false;
  std::vector<comparison_point> points;
  std::vector<std::string> unanswered;
  for (const serving_option& o : options) {
    if (o.found)
      points.push_back({std::string(o.system.family), o.estimate.output_tokens_per_second_per_user,
                        priced ? o.cost_per_million_tokens
                               : 1.0 / o.estimate.output_tokens_per_second_per_device,
                        o.pareto});
    else
      unanswered.push_back(std::string(o.system.family) + ": " + std::string(name_of(o.binding)));
  }
  return comparison_chart_svg(
      points, title, "output tokens a second per user",
      priced ? "cost per million output tokens (USD)" : "chip-seconds per output token",
      unanswered);
}

/// A training job in a line: its model, tokens, deadline and chips.
inline std::string training_job_title(const training_job& t) {
  std::string out = std::string(t.model.name);
  out.append(": train on ").append(format_count(t.tokens)).append(" tokens");
  if (t.deadline_days > 0.0)
    out.append(" within ").append(detail::figure_text(t.deadline_days)).append(" days");
  return out.append(" on ").append(std::to_string(t.chips)).append(" chips");
}

/// A serving job in a line: its model and request.
inline std::string serving_job_title(const serving_job& s) {
  std::string out = std::string(s.model.name);
  out.append(": serve ").append(std::to_string(s.prompt_tokens)).append(" prompt and ");
  return out.append(std::to_string(s.generated_tokens)).append(" generated tokens a request");
}

/// A training comparison as the tool prints it: the title, the systems, their plans and the
/// assumptions.
inline std::string training_comparison_text(const std::vector<training_option>& options,
                                            const std::string& title, const energy_inputs& e,
                                            bool markdown) {
  std::string out = title;
  out.append("\n\n").append(render(training_comparison_table(options), markdown));
  out.append("\n").append(render(training_plans_table(options), markdown));
  out.append("\nassumptions:\n");
  for (const std::string& a : comparison_assumptions(e, true))
    out.append("- ").append(a).append("\n");
  return out;
}

/// A serving comparison as the tool prints it: the title, the systems and the assumptions.
inline std::string serving_comparison_text(const std::vector<serving_option>& options,
                                           const std::string& title, const energy_inputs& e,
                                           bool markdown) {
  std::string out = title;
  out.append("\n\n").append(render(serving_comparison_table(options), markdown));
  out.append("\nassumptions:\n");
  for (const std::string& a : comparison_assumptions(e, false))
    out.append("- ").append(a).append("\n");
  return out;
}

}  // namespace shardplan
