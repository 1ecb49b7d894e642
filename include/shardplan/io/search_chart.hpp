// The plan search as a chart: step time against memory per device for every candidate that
// passes the divisibility rules, those that fit and those that do not, the memory/time trade-off
// and the best plan marked; a standalone SVG document as a plain string.
#pragma once

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <shardplan/training/cost.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/core/svg.hpp>
#include <shardplan/core/units.hpp>

namespace shardplan {

/// One candidate on the chart.
struct chart_point {
  double memory = 0.0;  ///< bytes per device
  double step = 0.0;    ///< seconds
  bool fits = false;    ///< fits in the chip's memory (and breaks no rule)
};

/// What the chart draws besides its points.
struct search_chart_options {
  std::string title;          ///< the heading; empty: none
  double capacity = 0.0;      ///< bytes of memory per device, drawn as a line; 0: none
  double best_memory = -1.0;  ///< the best plan (bytes, seconds); negative: none
  double best_step = -1.0;
  std::string best_label;                        ///< what the best plan is, printed under the title
  std::vector<std::pair<double, double>> front;  ///< the trade-off: (bytes, seconds), by memory
  int width = 960;
  int height = 640;
  /// Draw points that land on the same tenth of a pixel with the same status once (a full search
  /// has tens of thousands of candidates, many of them alike).
  bool merge_overlapping = true;
};

/// Every candidate of a space that reaches `check()`: feasible ones with their cost, and those
/// over memory costed too (the cost model needs only divisible degrees). Also returns the search.
inline std::vector<chart_point> chart_points(const search_space& s,
                                             search_result* result = nullptr) {
  std::vector<chart_point> points;
  const search_result r = search(s, [&points](const search_candidate& c) {
    const double step =
        c.cost != nullptr ? c.cost->step.value() : estimate_step(c.plan).step.value();
    points.push_back({c.memory.value(), step, c.cost != nullptr});
  });
  if (result != nullptr) *result = r;
  return points;
}

/// The chart as a standalone SVG document: x memory per device (GB), y step time (s), both
/// logarithmic when they span more than a factor of 20; one circle per point (class "point fits"
/// or "point over-memory"), the chip's memory as a dashed line, the trade-off as a line, the best
/// plan as a star (class "best marked") with its label, the legend in a row above the plot, axes
/// with ticks and labels, and the title and best plan wrapped to the picture's width.
inline std::string search_chart_svg(const std::vector<chart_point>& points,
                                    const search_chart_options& o = {}) {
  namespace draw = detail::svg;
  using draw::number;
  const double w = o.width;
  const double h = o.height;
  const double left = 80.0;
  const double right = 24.0;
  const double bottom = 64.0;
  // The heading: the title and the best plan wrapped to the picture's width, then the legend in
  // a row above the plot, where it covers no point.
  const std::vector<std::string> title_lines =
      o.title.empty() ? std::vector<std::string>{} : draw::wrap(o.title, 16.0 * 1.1, w - 24.0);
  const std::vector<std::string> best_lines =
      o.best_label.empty() ? std::vector<std::string>{}
                           : draw::wrap("best: " + o.best_label, 12.0, w - 24.0);
  const double legend_y =
      12.0 + 20.0 * static_cast<double>(title_lines.size()) +
      16.0 * static_cast<double>(best_lines.size()) + 8.0;
  const double top = legend_y + 26.0;
  constexpr double gb = 1e9;

  double x_lo = 0.0, x_hi = 0.0, y_lo = 0.0, y_hi = 0.0;
  bool any = false;
  auto widen = [&](double x, double y) {
    if (!(x > 0.0) || !(y > 0.0) || !std::isfinite(x) || !std::isfinite(y)) return;
    if (!any) {
      x_lo = x_hi = x;
      y_lo = y_hi = y;
      any = true;
    }
    x_lo = std::min(x_lo, x);
    x_hi = std::max(x_hi, x);
    y_lo = std::min(y_lo, y);
    y_hi = std::max(y_hi, y);
  };
  for (const chart_point& p : points) widen(p.memory / gb, p.step);
  if (o.capacity > 0.0 && any) widen(o.capacity / gb, y_lo);
  if (!any) widen(1.0, 1.0);
  // A single value sits near the left or bottom of [value, twice the value].
  if (!(x_hi > x_lo)) x_hi = x_lo * 2.0;
  if (!(y_hi > y_lo)) y_hi = y_lo * 2.0;
  const draw::axis x = draw::make_axis(x_lo, x_hi, left, w - right);
  const draw::axis y = draw::make_axis(y_lo, y_hi, h - bottom, top);

  std::string svg;
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(w, 0) + "\" height=\"" +
         number(h, 0) + "\" viewBox=\"0 0 " + number(w, 0) + " " + number(h, 0) +
         "\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" font-size=\"12\">\n";
  svg += "<title>" + draw::escape(o.title.empty() ? "plan search" : o.title) + "</title>\n";
  svg += "<rect x=\"0\" y=\"0\" width=\"" + number(w, 0) + "\" height=\"" + number(h, 0) +
         "\" fill=\"#ffffff\"/>\n";
  double line_y = 12.0;
  for (const std::string& line : title_lines) {
    line_y += 20.0;
    svg += "<text class=\"title\" x=\"" + number(w / 2.0) + "\" y=\"" + number(line_y) +
           "\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">" +
           draw::escape(line) + "</text>\n";
  }
  for (const std::string& line : best_lines) {
    line_y += 16.0;
    svg += "<text class=\"subtitle\" x=\"" + number(w / 2.0) + "\" y=\"" + number(line_y) +
           "\" text-anchor=\"middle\" font-size=\"12\" fill=\"#d62728\">" +
           draw::escape(line) + "</text>\n";
  }

  // Grid, ticks and tick labels.
  svg += draw::grid(x, y);
  svg += "<text class=\"x-label\" x=\"" + number((left + w - right) / 2.0) + "\" y=\"" +
         number(h - 18) + "\" text-anchor=\"middle\" font-size=\"13\">memory per device (GB" +
         std::string(x.log ? ", log scale" : "") + ")</text>\n";
  svg += "<text class=\"y-label\" x=\"18\" y=\"" + number((top + h - bottom) / 2.0) +
         "\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 18 " +
         number((top + h - bottom) / 2.0) + ")\">step time (s" +
         std::string(y.log ? ", log scale" : "") + ")</text>\n";

  // The chip's memory.
  if (o.capacity > 0.0) {
    const double px = x.pixel(o.capacity / gb);
    svg += "<line class=\"capacity\" x1=\"" + number(px) + "\" y1=\"" + number(top) + "\" x2=\"" +
           number(px) + "\" y2=\"" + number(h - bottom) +
           "\" stroke=\"#444444\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n";
    svg += "<text x=\"" + number(px + 4) + "\" y=\"" + number(top + 12) +
           "\" font-size=\"11\" fill=\"#444444\">" + draw::label(o.capacity / gb) +
           " GB per device</text>\n";
  }

  // The points: those over memory first, so that the feasible ones stay visible on top.
  const char* fits_color = "#1f77b4";
  const char* over_color = "#f28e2b";
  std::set<std::pair<long long, long long>> drawn[2];
  std::size_t marks = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const bool fits = pass == 1;
    svg += std::string("<g class=\"") + (fits ? "fits" : "over-memory") + "\" fill=\"" +
           (fits ? fits_color : over_color) + "\" fill-opacity=\"" + (fits ? "0.75" : "0.45") +
           "\">\n";
    for (const chart_point& p : points) {
      if (p.fits != fits || !(p.memory > 0.0) || !(p.step > 0.0)) continue;
      const double px = x.pixel(p.memory / gb);
      const double py = y.pixel(p.step);
      if (o.merge_overlapping &&
          !drawn[pass].insert({std::llround(px * 10.0), std::llround(py * 10.0)}).second)
        continue;
      svg += "<circle class=\"point " + std::string(fits ? "fits" : "over-memory") + "\" cx=\"" +
             number(px) + "\" cy=\"" + number(py) + "\" r=\"3\"/>\n";
      ++marks;
    }
    svg += "</g>\n";
  }

  // The trade-off: from each plan on it, the step time holds until the next one.
  if (o.front.size() > 1) {
    std::string d;
    for (std::size_t i = 0; i < o.front.size(); ++i) {
      const double px = x.pixel(o.front[i].first / gb);
      const double py = y.pixel(o.front[i].second);
      if (i == 0) {
        d += "M" + number(px) + " " + number(py);
      } else {
        d += " H" + number(px) + " V" + number(py);
      }
    }
    svg += "<path class=\"trade-off\" d=\"" + d +
           "\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"5\" stroke-opacity=\"0.8\"/>\n";
    svg += "<path class=\"trade-off\" d=\"" + d +
           "\" fill=\"none\" stroke=\"#1a7a1a\" stroke-width=\"2.5\"/>\n";
  }

  // The best plan: a star and its label.
  if (o.best_memory > 0.0 && o.best_step > 0.0) {
    const double cx = x.pixel(o.best_memory / gb);
    const double cy = y.pixel(o.best_step);
    std::string pts;
    for (int i = 0; i < 10; ++i) {
      const double r = i % 2 == 0 ? 11.0 : 4.5;
      const double a = -1.5707963267948966 + i * 0.6283185307179586;
      pts += (i ? " " : "") + number(cx + r * std::cos(a)) + "," + number(cy + r * std::sin(a));
    }
    svg += "<polygon class=\"best marked\" points=\"" + pts +
           "\" fill=\"#d62728\" stroke=\"#000000\" stroke-width=\"1\"/>\n";
    // Above the star (below it near the top), on the side with room, with a white halo.
    const std::string label = "best, " + draw::number(o.best_step, 2) + " s";
    const double label_w = draw::text_width(label, 12.0 * 1.1);
    const double label_x = cx + 10.0 + label_w > w - right ? cx - 10.0 - label_w : cx + 10.0;
    svg += "<text class=\"best-label\" x=\"" + number(label_x) + "\" y=\"" +
           number(cy < top + 30 ? cy + 24 : cy - 14) +
           "\" font-size=\"12\" font-weight=\"bold\" fill=\"#d62728\" stroke=\"#ffffff\" "
           "stroke-width=\"3\" paint-order=\"stroke\">" + label + "</text>\n";
  }

  // The legend: one row above the plot.
  double lx = left;
  const double ly = legend_y;
  svg += "<g class=\"legend\">\n";
  auto entry = [&](const std::string& mark, const std::string& text) {
    svg += mark + "<text x=\"" + number(lx + 16) + "\" y=\"" + number(ly + 9) + "\">" +
           draw::escape(text) + "</text>\n";
    lx += 16.0 + draw::text_width(text, 12.0) + 22.0;
  };
  entry("<rect x=\"" + number(lx + 2) + "\" y=\"" + number(ly + 2) +
            "\" width=\"8\" height=\"8\" rx=\"4\" fill=\"" + fits_color + "\"/>",
        "fits in memory");
  entry("<rect x=\"" + number(lx + 2) + "\" y=\"" + number(ly + 2) +
            "\" width=\"8\" height=\"8\" rx=\"4\" fill=\"" + over_color + "\"/>",
        "over memory (infeasible)");
  entry("<line x1=\"" + number(lx) + "\" y1=\"" + number(ly + 6) + "\" x2=\"" + number(lx + 12) +
            "\" y2=\"" + number(ly + 6) + "\" stroke=\"#1a7a1a\" stroke-width=\"2.5\"/>",
        "memory/time trade-off");
  entry("<rect x=\"" + number(lx + 1) + "\" y=\"" + number(ly + 1) +
            "\" width=\"10\" height=\"10\" fill=\"#d62728\" stroke=\"#000000\"/>",
        "best plan (fastest that fits)");
  svg += "</g>\n";
  svg += "<!-- " + std::to_string(points.size()) + " candidates, " + std::to_string(marks) +
         " marks -->\n";
  svg += "</svg>\n";
  return svg;
}

/// The chart of a whole search: every candidate that passes the divisibility rules, the chip's
/// memory, the trade-off and the best plan, titled with the model, chips, system and batch.
inline std::string search_chart_svg(const search_space& s) {
  search_result r;
  const std::vector<chart_point> points = chart_points(s, &r);
  search_chart_options o;
  o.title = std::string(s.base.model.name) + " on " + std::to_string(s.chips) + " x " +
            std::string(s.base.system.chip.name) + " (" + std::string(s.base.system.name) + "), " +
            std::to_string(s.base.setup.batch.global_tokens) + " tokens a step in sequences of " +
            std::to_string(s.base.setup.batch.seq_len);
  o.capacity = s.base.system.chip.memory.value();
  if (r.found) {
    o.best_memory = r.memory.total.value();
    o.best_step = r.cost.step.value();
    o.best_label = describe(r.choice, is_moe(s.base.model)) + " (" +
                   detail::svg::number(r.cost.step.value(), 2) + " s, MFU " +
                   detail::svg::number(r.cost.mfu * 100.0, 1) + "%)";
  }
  for (std::size_t i = 0; i < r.front.count; ++i)
    o.front.emplace_back(r.front.plans[i].memory, r.front.plans[i].step);
  return search_chart_svg(points, o);
}

}  // namespace shardplan
