// A pipeline timeline as a Gantt chart: one row per stage, one bar per pass (forward, backward,
// weight gradient) from its start to its end, labelled with its micro-batch, the idle time left
// blank, and under it the stage's communication streams (pipeline sends, the collectives inside
// each pass, the data-parallel collectives of the step); a standalone SVG document as a plain
// string.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>

#include <shardplan/core/format.hpp>
#include <shardplan/core/svg.hpp>
#include <shardplan/training/timeline.hpp>

namespace shardplan {

struct timeline_chart_options {
  std::string title;     ///< heading; empty: none
  std::string subtitle;  ///< second line; empty: the schedule, makespan and bubble
  int width = 960;
  /// Passes drawn at most: a timeline with more is summarised in words instead (an SVG of a
  /// million bars is no chart).
  std::size_t max_passes = 20000;
};

namespace detail {

/// How the chart draws a stream (indexed by `transfer_stream`): its bars' class suffix, fill and
/// legend label.
struct stream_style {
  const char* kind;
  const char* fill;
  const char* label;
};
inline constexpr stream_style stream_styles[] = {{"pipeline", "#7f7f7f", "pipeline send"},
                                                 {"layer", "#9467bd", "in-pass collectives"},
                                                 {"data", "#17becf", "data parallel"}};

}  // namespace detail

/// The Gantt chart of `t`: rows of stages top to bottom, time left to right on a linear axis in
/// seconds; bars of class "pass forward", "pass backward" or "pass weight" (blue, green, orange),
/// each titled with its stage, chunk, micro-batch, kind and times, labelled with the micro-batch
/// where the bar is wide enough; under each stage's passes, where the timeline has transfers,
/// three thin lanes of class "transfer pipeline", "transfer layer" and "transfer data" (grey,
/// purple, teal: `transfer_stream`), each titled with its stream, times and exposed part; a
/// legend.
inline std::string timeline_svg(const pipeline_timeline& t, const timeline_chart_options& o = {}) {
  namespace draw = detail::svg;
  using draw::number;
  const double w = std::max(o.width, 480);
  const bool streams = !t.transfers.empty();
  const double lane = 7.0;
  const double row = 26.0 + (streams ? 3.0 * lane + 4.0 : 0.0);
  const double left = 90.0, right = 30.0;
  const double top = 100.0;
  const double rows = static_cast<double>(t.stages);
  const double h = top + rows * row + 80.0;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(w, 0) +
                    "\" height=\"" + number(h, 0) + "\" viewBox=\"0 0 " + number(w, 0) + " " +
                    number(h, 0) + "\" font-family=\"sans-serif\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!o.title.empty())
    out += "<text x=\"" + number(w / 2.0) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">" +
           draw::escape(o.title) + "</text>\n";
  const double share =
      t.makespan.value() > 0.0 ? 100.0 * t.bubble.value() / t.makespan.value() : 0.0;
  // The step the report gives, where it is longer than the passes: what it adds after them is
  // drawn as a grey band and said in the second line.
  const bool adds = t.step.value() > t.makespan.value() * (1.0 + 1e-9);
  const std::string summary =
      std::string(schedule_name(t.schedule)) + ", " + std::to_string(t.stages) + " stages x " +
      std::to_string(t.chunks) + " chunks, " + std::to_string(t.micro_batches) +
      " micro-batches: the passes take " + format(t.makespan) + ", " + number(share) +
      "% idle (estimate)";
  out += "<text class=\"subtitle\" x=\"" + number(w / 2.0) +
         "\" y=\"44\" text-anchor=\"middle\" font-size=\"12\">" +
         draw::escape(o.subtitle.empty() ? summary : o.subtitle) + "</text>\n";
  if (adds)
    out += "<text class=\"step\" x=\"" + number(w / 2.0) +
           "\" y=\"60\" text-anchor=\"middle\" font-size=\"12\">" +
           draw::escape("step " + format(t.step) + " as the report gives it: " +
                        format(t.communication_exposed) + " of communication not hidden and " +
                        format(t.optimizer) + " of optimizer after the passes (grey)") +
           "</text>\n";
  const std::size_t bars = t.passes.size() + t.transfers.size();
  if (bars > o.max_passes || !(t.makespan.value() > 0.0)) {
    out += "<text x=\"" + number(w / 2.0) + "\" y=\"" + number(top + 20.0) +
           "\" text-anchor=\"middle\" font-size=\"13\">" +
           (t.passes.empty() || !(t.makespan.value() > 0.0)
                ? std::string("no pass to draw")
                : std::to_string(t.passes.size()) + " passes" +
                      (t.transfers.empty() ? std::string()
                                           : " and " + std::to_string(t.transfers.size()) +
                                                 " transfers") +
                      ": too many to draw (at most " + std::to_string(o.max_passes) + " bars)") +
           "</text>\n</svg>\n";
    return out;
  }
  draw::axis x;
  x.lo = 0.0;
  x.hi = std::max(t.makespan.value(), t.step.value());
  x.from = left;
  x.to = w - right;
  const double bottom = top + rows * row;
  // Time ticks and grid.
  out += "<g class=\"axes\" font-size=\"11\">\n";
  for (double v : draw::ticks(x)) {
    const double px = x.pixel(v);
    out += "<line x1=\"" + number(px) + "\" y1=\"" + number(top) + "\" x2=\"" + number(px) +
           "\" y2=\"" + number(bottom) + "\" stroke=\"#e0e0e0\"/>\n<text x=\"" + number(px) +
           "\" y=\"" + number(bottom + 16.0) + "\" text-anchor=\"middle\">" +
           draw::escape(format(v * second)) + "</text>\n";
  }
  out += "<text x=\"" + number((x.from + x.to) / 2.0) + "\" y=\"" + number(bottom + 36.0) +
         "\" text-anchor=\"middle\" font-size=\"13\">time in the step</text>\n";
  if (adds)
    out += "<rect class=\"after-passes\" x=\"" + number(x.pixel(t.makespan.value())) +
           "\" y=\"" + number(top) + "\" width=\"" +
           number(x.pixel(t.step.value()) - x.pixel(t.makespan.value())) + "\" height=\"" +
           number(bottom - top) + "\" fill=\"#d9d9d9\" fill-opacity=\"0.6\"><title>" +
           draw::escape(format(t.communication_exposed) + " of communication not hidden and " +
                        format(t.optimizer) + " of optimizer update (estimate)") +
           "</title></rect>\n";
  for (std::int64_t s = 0; s < t.stages; ++s)
    out += "<text x=\"" + number(left - 8.0) + "\" y=\"" +
           number(top + static_cast<double>(s) * row + 17.0) +
           "\" text-anchor=\"end\">stage " + std::to_string(s) + "</text>\n";
  // One bar: its class, its span in pixels, its fill and its tooltip.
  const auto bar = [&out](const std::string& cls, double x0, double x1, double y0, double height,
                          const char* fill, const std::string& title) {
    // A white edge parts bars wide enough to show it; narrower ones back to back stay solid.
    out += "<rect class=\"" + cls + "\" x=\"" + number(x0, 2) + "\" y=\"" + number(y0) +
           "\" width=\"" + number(std::max(x1 - x0, 0.5), 2) + "\" height=\"" + number(height) +
           "\" fill=\"" + fill + "\"" +
           (x1 - x0 >= 4.0 ? " stroke=\"white\" stroke-width=\"0.5\"" : "") + "><title>" +
           draw::escape(title) + "</title></rect>\n";
  };
  out += "</g>\n<g class=\"passes\" font-size=\"10\">\n";
  for (const timeline_pass& p : t.passes) {
    const char* kind = p.kind == pass_kind::forward    ? "forward"
                       : p.kind == pass_kind::backward ? "backward"
                                                       : "weight";
    const char* fill = p.kind == pass_kind::forward    ? "#1f77b4"
                       : p.kind == pass_kind::backward ? "#54a24b"
                                                       : "#f28e2b";
    const double x0 = x.pixel(p.start.value());
    const double x1 = x.pixel(p.end.value());
    const double y0 = top + static_cast<double>(p.stage) * row + 3.0;
    bar(std::string("pass ") + kind, x0, x1, y0, 20.0, fill,
        "stage " + std::to_string(p.stage) + ", chunk " + std::to_string(p.chunk) +
            ", micro-batch " + std::to_string(p.micro_batch) + ", " + name_of(p.kind) + ": " +
            format(p.start) + " to " + format(p.end));
    if (x1 - x0 >= 16.0)
      out += "<text x=\"" + number((x0 + x1) / 2.0) + "\" y=\"" + number(y0 + 13.0) +
             "\" text-anchor=\"middle\" fill=\"white\">" + std::to_string(p.micro_batch) +
             "</text>\n";
  }
  bool drawn[std::size(detail::stream_styles)] = {};
  if (streams) {
    out += "</g>\n<g class=\"transfers\">\n";
    for (const timeline_transfer& b : t.transfers) {
      const auto lane_index = static_cast<std::size_t>(b.stream);
      const detail::stream_style& style = detail::stream_styles[lane_index];
      drawn[lane_index] = true;
      const double lane_of = static_cast<double>(lane_index);
      const double x0 = x.pixel(b.start.value());
      const double x1 = x.pixel(std::min(b.end.value(), x.hi));
      const double y0 = top + static_cast<double>(b.stage) * row + 26.0 + lane_of * lane;
      std::string what = std::string(name_of(b.stream)) + ", stage " + std::to_string(b.stage);
      if (b.micro_batch >= 0) what += ", micro-batch " + std::to_string(b.micro_batch);
      what += ": " + format(b.start) + " to " + format(b.end);
      if (b.stream != transfer_stream::pipeline)
        what += ", " + format(b.exposed) + " of it exposed (estimate)";
      bar(std::string("transfer ") + style.kind, x0, x1, y0, lane - 1.5, style.fill, what);
    }
  }
  out += "</g>\n<g class=\"legend\" font-size=\"12\">\n";
  double lx = left;
  const bool weights = t.schedule == pipeline_schedule::zero_bubble;
  const auto entry = [&out, &lx](const char* label, const char* fill) {
    out += "<rect x=\"" + number(lx) + "\" y=\"74\" width=\"12\" height=\"12\" fill=\"" + fill +
           "\"/><text x=\"" + number(lx + 16.0) + "\" y=\"84\">" + label + "</text>\n";
    lx += 16.0 + draw::text_width(label, 12.0) + 22.0;
  };
  entry("forward", "#1f77b4");
  entry("backward", "#54a24b");
  if (weights) entry("weight gradient", "#f28e2b");
  for (std::size_t k = 0; k < std::size(detail::stream_styles); ++k)
    if (drawn[k]) entry(detail::stream_styles[k].label, detail::stream_styles[k].fill);
  out += "</g>\n</svg>\n";
  return out;
}

/// The pipeline timeline chart of a training plan, as `shardplan check --svg` draws it; "" with
/// `why` set where the plan has none (no pipeline, or a broken rule).
inline std::string plan_timeline_svg(const training_plan_values& p, std::string& why) {
  if (p.setup.degrees.pipeline <= 1) {
    why = "draws a serving plan's latency-throughput curve or a training plan's pipeline "
          "timeline; this plan has no pipeline";
    return {};
  }
  if (!check(p).empty()) {
    why = "the plan breaks a rule (run check without --svg to see which); its pipeline has no "
          "timeline";
    return {};
  }
  timeline_chart_options o;
  o.title = std::string(p.model.name) + ": one step's pipeline timeline (estimate)";
  return timeline_svg(pipeline_timeline_of(p), o);
}

}  // namespace shardplan
