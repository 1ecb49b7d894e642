// A serving plan's latency against its throughput as a chart: for each concurrency level, the
// output tokens/s one request sees (interactivity) against the output tokens/s per device, the
// levels whose caches fit and those that do not, and the plan's own level marked; a standalone SVG
// document as a plain string. Plain doubles only, so that any layer's numbers can be drawn.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <shardplan/core/svg.hpp>

namespace shardplan {

/// One concurrency level of a serving plan under its workload.
struct latency_point {
  double concurrency = 0.0;                   ///< requests in flight
  double tokens_per_second_per_device = 0.0;  ///< output tokens/s per device (throughput)
  /// Output tokens/s one request sees (1 / time per output token).
  double tokens_per_second_per_user = 0.0;
  double time_to_first_token = 0.0;           ///< seconds
  bool fits = true;                           ///< the caches of this many requests fit in memory
};

/// What the chart draws besides its points.
struct latency_chart_options {
  std::string title;                 ///< heading; empty: none
  std::string subtitle;              ///< second line (e.g. the workload); empty: none
  /// The plan's own concurrency, drawn in red with a label; negative: none.
  double marked_concurrency = -1.0;
  int width = 960;
  int height = 640;
};

namespace detail::serving_chart {

inline bool positive(double v) { return std::isfinite(v) && v > 0.0; }

inline bool drawable(const latency_point& p) {
  return positive(p.concurrency) && positive(p.tokens_per_second_per_device) &&
         positive(p.tokens_per_second_per_user);
}

}  // namespace detail::serving_chart

/// The chart as a standalone SVG document: x output tokens/s per user, y output tokens/s per
/// device, each logarithmic when it spans more than a factor of 20; one line through the points in
/// order of concurrency, one circle per point (class "point fits", "point over-memory" or "point
/// marked", drawn on top) labelled with its concurrency where the label covers no other label,
/// point or the legend, and titled with its figures; a legend in a corner free of points, axes
/// and the title. Points with a non-finite or non-positive concurrency or rate are skipped (a time to first
/// token that is not positive is only left out of the point's tooltip); with none left, the
/// document says "no point to draw".
inline std::string latency_throughput_svg(const std::vector<latency_point>& points,
                                          const latency_chart_options& o = {}) {
  namespace d = detail::serving_chart;
  namespace draw = detail::svg;
  using draw::number;
  const double w = std::max(o.width, 320);
  const double h = std::max(o.height, 240);
  const double left = 80.0, right = 24.0, bottom = 64.0;
  const double top = o.title.empty() && o.subtitle.empty() ? 24.0 : 72.0;
  const char* fits_color = "#1f77b4";  // search_chart.hpp's colours
  const char* over_color = "#f28e2b";
  const char* mark_color = "#d62728";

  std::vector<latency_point> drawn;
  for (const latency_point& p : points)
    if (d::drawable(p)) drawn.push_back(p);
  std::stable_sort(drawn.begin(), drawn.end(), [](const latency_point& a, const latency_point& b) {
    return a.concurrency < b.concurrency;
  });

  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(w, 0) + "\" height=\"" +
         number(h, 0) + "\" viewBox=\"0 0 " + number(w, 0) + " " + number(h, 0) +
         "\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" font-size=\"12\">\n";
  svg += "<title>";
  svg += draw::escape(o.title.empty() ? "latency and throughput" : o.title);
  svg += "</title>\n";
  svg += "<rect x=\"0\" y=\"0\" width=\"" + number(w, 0) + "\" height=\"" + number(h, 0) +
         "\" fill=\"#ffffff\"/>\n";
  if (!o.title.empty())
    svg += "<text class=\"title\" x=\"" + number(w / 2.0) +
           "\" y=\"30\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">" +
           draw::escape(o.title) + "</text>\n";
  if (!o.subtitle.empty())
    svg += "<text class=\"subtitle\" x=\"" + number(w / 2.0) + "\" y=\"" +
           number(o.title.empty() ? 30.0 : 52.0) + "\" text-anchor=\"middle\">" +
           draw::escape(o.subtitle) + "</text>\n";
  if (drawn.empty()) {
    svg += "<text class=\"empty\" x=\"" + number(w / 2.0) + "\" y=\"" + number(h / 2.0) +
           "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#444444\">no point to draw</text>\n";
    return svg + "</svg>\n";
  }

  double x_lo = drawn[0].tokens_per_second_per_user, x_hi = x_lo;
  double y_lo = drawn[0].tokens_per_second_per_device, y_hi = y_lo;
  for (const latency_point& p : drawn) {
    x_lo = std::min(x_lo, p.tokens_per_second_per_user);
    x_hi = std::max(x_hi, p.tokens_per_second_per_user);
    y_lo = std::min(y_lo, p.tokens_per_second_per_device);
    y_hi = std::max(y_hi, p.tokens_per_second_per_device);
  }
  const draw::axis x = draw::make_axis(x_lo, x_hi, left, w - right);
  const draw::axis y = draw::make_axis(y_lo, y_hi, h - bottom, top);

  // Grid, ticks, tick labels, axes and their titles.
  svg += draw::grid(x, y, draw::short_label);
  const std::string mid_y = number((top + h - bottom) / 2.0);
  svg += "<text class=\"x-label\" x=\"" + number((left + w - right) / 2.0) + "\" y=\"" +
         number(h - 18) + "\" text-anchor=\"middle\" font-size=\"13\">output tokens/s per user" +
         std::string(x.log ? " (log scale)" : "") + "</text>\n";
  svg += "<text class=\"y-label\" x=\"18\" y=\"" + mid_y +
         "\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 18 " + mid_y +
         ")\">output tokens/s per device" + std::string(y.log ? " (log scale)" : "") + "</text>\n";

  // The line in order of concurrency, then the points with their labels.
  if (drawn.size() > 1) {
    std::string pts;
    for (const latency_point& p : drawn)
      pts += (pts.empty() ? "" : " ") + number(x.pixel(p.tokens_per_second_per_user)) + "," +
             number(y.pixel(p.tokens_per_second_per_device));
    svg += "<polyline class=\"curve\" points=\"" + pts +
           "\" fill=\"none\" stroke=\"#666666\" stroke-width=\"1.5\"/>\n";
  }
  // Each point at its pixel, the plan's first. The legend goes in a corner that covers no point;
  // labels, in this order, where they cover no other label, point or the legend; the points are
  // drawn with the plan's last, on top.
  struct placed {
    const latency_point* p;
    double cx, cy;
    bool marked;
  };
  std::vector<placed> order;
  for (const latency_point& p : drawn)
    order.push_back({&p, x.pixel(p.tokens_per_second_per_user),
                     y.pixel(p.tokens_per_second_per_device),
                     o.marked_concurrency >= 0.0 &&
                         std::fabs(p.concurrency - o.marked_concurrency) <= 1e-9 * p.concurrency});
  const auto unmarked =
      std::stable_partition(order.begin(), order.end(), [](const placed& q) { return q.marked; });
  const draw::box area{left, top, w - right, h - bottom};
  std::vector<draw::box> point_boxes;
  for (const placed& q : order)
    point_boxes.push_back({q.cx - 7.0, q.cy - 7.0, q.cx + 7.0, q.cy + 7.0});
  const draw::box legend = draw::free_corner(area, 234.0, 84.0, point_boxes);
  draw::label_layout labels(area);
  labels.reserve(legend);
  for (const placed& q : order) labels.reserve_point(q.cx, q.cy, q.marked ? 6.0 : 4.0);
  for (const placed& q : order) {
    const std::string text = draw::short_label(q.p->concurrency) + (q.marked ? " (the plan)" : "");
    const draw::label_spot spot = labels.place(text, 11.0, q.cx, q.cy, q.marked ? 6.0 : 4.0);
    svg += draw::leader(q.cx, q.cy, spot);
    svg += std::string("<text class=\"label") + (q.marked ? " marked" : "") + "\" x=\"" +
           number(spot.x) + "\" y=\"" + number(spot.y) + "\" font-size=\"11\"" +
           (q.marked ? " font-weight=\"bold\" fill=\"#d62728\"" : "") +
           " stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">" + text + "</text>\n";
  }
  svg += "<g class=\"points\">\n";
  auto circle = [&](const placed& q) {
    const latency_point& p = *q.p;
    const char* kind = q.marked ? "marked" : p.fits ? "fits" : "over-memory";
    std::string tip = "concurrency " + draw::short_label(p.concurrency) + ": " +
                      number(p.tokens_per_second_per_user, 1) + " tokens/s per user, " +
                      number(p.tokens_per_second_per_device, 0) + " tokens/s per device";
    if (d::positive(p.time_to_first_token))
      tip += ", first token in " + number(p.time_to_first_token, 3) + " s";
    if (!p.fits) tip += ", caches over memory";
    svg += std::string("<circle class=\"point ") + kind + "\" cx=\"" + number(q.cx) +
           "\" cy=\"" + number(q.cy) + "\" r=\"" + (q.marked ? "6" : "4") + "\" fill=\"" +
           (q.marked ? mark_color : p.fits ? fits_color : over_color) +
           "\" stroke=\"#000000\" stroke-width=\"0.5\"><title>" + draw::escape(tip) +
           "</title></circle>\n";
  };
  std::for_each(unmarked, order.end(), circle);
  std::for_each(order.begin(), unmarked, circle);
  svg += "</g>\n";

  const double lx = legend.x0 + 10.0;
  double ly = legend.y0 + 8.0;
  svg += "<g class=\"legend\">\n<rect x=\"" + number(legend.x0) + "\" y=\"" + number(legend.y0) +
         "\" width=\"234\" height=\"84\" fill=\"#ffffff\" fill-opacity=\"0.9\" "
         "stroke=\"#999999\"/>\n";
  auto entry = [&](const std::string& mark, const char* text) {
    svg += mark + "<text x=\"" + number(lx + 18) + "\" y=\"" + number(ly + 9) + "\">" + text +
           "</text>\n";
    ly += 18.0;
  };
  auto dot = [&](const char* color) {
    return "<rect x=\"" + number(lx + 2) + "\" y=\"" + number(ly + 2) +
           "\" width=\"8\" height=\"8\" rx=\"4\" fill=\"" + color + "\"/>";
  };
  entry(dot(fits_color), "caches fit in memory");
  entry(dot(over_color), "caches over memory");
  entry(dot(mark_color), "the plan&apos;s concurrency");
  entry("<line x1=\"" + number(lx) + "\" y1=\"" + number(ly + 6) + "\" x2=\"" + number(lx + 12) +
            "\" y2=\"" + number(ly + 6) + "\" stroke=\"#666666\" stroke-width=\"1.5\"/>",
        "by concurrency (label: requests)");
  svg += "</g>\n<!-- " + std::to_string(drawn.size()) + " of " + std::to_string(points.size()) +
         " points drawn -->\n</svg>\n";
  return svg;
}

}  // namespace shardplan
