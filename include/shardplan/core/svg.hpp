// The plain pieces the SVG charts share: an axis that maps values to pixels (linear, or
// logarithmic when the data span more than a factor of 20), its tick values, the grid with its
// ticks and labels, numbers and tick labels as text, and XML escaping. Standard library only, so
// that a chart of any layer can draw with it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace shardplan::detail::svg {

/// One axis of a chart: linear, or logarithmic when the data span more than a factor of 20.
struct axis {
  double lo = 0.0;
  double hi = 1.0;
  bool log = false;
  double from = 0.0;  ///< pixel of `lo`
  double to = 1.0;    ///< pixel of `hi`

  /// The pixel of `v` (positive on a log axis).
  double pixel(double v) const {
    const double f = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                         : (v - lo) / (hi - lo);
    return from + f * (to - from);
  }
};

/// An axis over the data [lo, hi] (not negative), drawn from pixel `from` to pixel `to`: on a log
/// axis the ends rounded out to tenths of a decade, on a linear one 5% of room at both ends (never
/// below zero). A single value gets the span from half of it to one and a half times it (from 0
/// to 1 when it is 0).
inline axis make_axis(double lo, double hi, double from, double to) {
  axis a;
  a.from = from;
  a.to = to;
  if (!(hi > lo)) {
    if (lo > 0.0) {
      hi = lo * 1.5;
      lo = lo * 0.5;
    } else {
      hi = lo + 1.0;
    }
  }
  a.log = lo > 0.0 && hi / lo > 20.0;
  if (a.log) {
    a.lo = std::pow(10.0, std::floor(std::log10(lo) * 10.0) / 10.0);
    a.hi = std::pow(10.0, std::ceil(std::log10(hi) * 10.0) / 10.0);
  } else {
    const double pad = (hi - lo) * 0.05;
    a.lo = std::max(0.0, lo - pad);
    a.hi = hi + pad;
  }
  return a;
}

/// Tick values: 1, 2 and 5 times powers of ten on a log axis (powers alone past four decades),
/// about six round numbers (1, 2, 2.5 or 5 times a power of ten apart) on a linear one.
inline std::vector<double> ticks(const axis& a) {
  std::vector<double> out;
  if (a.log) {
    const int first = static_cast<int>(std::floor(std::log10(a.lo)));
    const int last = static_cast<int>(std::ceil(std::log10(a.hi)));
    const bool sparse = last - first > 4;
    for (int e = first; e <= last; ++e)
      for (double m : {1.0, 2.0, 5.0}) {
        if (sparse && m != 1.0) continue;
        const double v = m * std::pow(10.0, e);
        if (v >= a.lo * 0.999 && v <= a.hi * 1.001) out.push_back(v);
      }
    return out;
  }
  const double raw = (a.hi - a.lo) / 6.0;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * p;
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (m * p >= raw) {
      step = m * p;
      break;
    }
  for (double v = std::ceil(a.lo / step) * step; v <= a.hi * 1.0000001; v += step)
    out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  return out;
}

/// `v` with `decimals` decimals: coordinates and figures ("12.5", "640").
inline std::string number(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

/// A tick label without needless decimals: "0.5", "2", "1000".
inline std::string label(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// A tick label with thousands and millions shortened: "0.5", "20", "2k", "1.5M".
inline std::string short_label(double v) {
  char buf[64];
  if (std::fabs(v) >= 1e6)
    std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
  else if (std::fabs(v) >= 1e3)
    std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// A rectangle in pixels, left to right and top to bottom.
struct box {
  double x0 = 0.0;
  double y0 = 0.0;
  double x1 = 0.0;
  double y1 = 0.0;
};

/// Whether two boxes share more than an edge.
inline bool overlaps(const box& a, const box& b) {
  return std::min(a.x1, b.x1) > std::max(a.x0, b.x0) && std::min(a.y1, b.y1) > std::max(a.y0, b.y0);
}

/// The width in pixels of `text` at `size` pixels in DejaVu Sans (the charts' first font): its
/// advance widths in ems (DejaVuSans.ttf, 2048 units an em), rounded up; letters it lacks count
/// as an em's 0.7.
inline double text_width(const std::string& text, double size) {
  double ems = 0.0;
  for (char c : text) {
    double w = 0.7;
    if (c >= '0' && c <= '9') w = 0.64;
    else if (c == 'i' || c == 'j' || c == 'l') w = 0.28;
    else if (c == 'f' || c == 't') w = 0.4;
    else if (c == 'r') w = 0.42;
    else if (c == 'm') w = 0.98;
    else if (c == 'w') w = 0.82;
    else if (c >= 'a' && c <= 'z') w = 0.64;
    else if (c >= 'A' && c <= 'Z') w = 0.78;
    else if (c == ' ' || c == '.' || c == ',' || c == ':' || c == ';') w = 0.34;
    else if (c == '(' || c == ')' || c == '-' || c == '/' || c == '\'') w = 0.4;
    else if (c == '_') w = 0.5;
    else if (c == '%') w = 0.96;
    ems += w;
  }
  return ems * size;
}

/// The box of a line of `text` at `size` pixels whose baseline starts at (x, y) (text-anchor
/// start): DejaVu Sans's ascent 0.93 em above, descent 0.24 em below.
inline box text_box(const std::string& text, double size, double x, double y) {
  return {x, y - 0.93 * size, x + text_width(text, size), y + 0.24 * size};
}

/// `text` broken at spaces into lines no wider than `width` pixels at `size` (a word wider than
/// that keeps a line of its own).
inline std::vector<std::string> wrap(const std::string& text, double size, double width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    const std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && text_width(longer, size) > width) {
      lines.push_back(line);
      line = word;
    } else {
      line = longer;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

/// A `width` x `height` box in the first corner of `area` (inset 6 px; bottom right, top left,
/// top right, bottom left) that covers none of `avoid`; bottom right when every corner does.
inline box free_corner(const box& area, double width, double height,
                       const std::vector<box>& avoid) {
  const double in = 6.0;
  const box corners[] = {
      {area.x1 - in - width, area.y1 - in - height, area.x1 - in, area.y1 - in},
      {area.x0 + in, area.y0 + in, area.x0 + in + width, area.y0 + in + height},
      {area.x1 - in - width, area.y0 + in, area.x1 - in, area.y0 + in + height},
      {area.x0 + in, area.y1 - in - height, area.x0 + in + width, area.y1 - in}};
  for (const box& c : corners) {
    bool free = true;
    for (const box& a : avoid)
      if (overlaps(c, a)) {
        free = false;
        break;
      }
    if (free) return c;
  }
  return corners[0];
}

/// Where a point's label goes: the baseline's start, and whether a leader line joins its point to
/// the label's near edge (end_x, end_y), where the label sits off the point's first ring.
struct label_spot {
  double x = 0.0;
  double y = 0.0;
  bool leader = false;
  double end_x = 0.0;
  double end_y = 0.0;
};

/// The leader line from a point at (x, y) to its label's spot ("" when the label sits beside it).
inline std::string leader(double x, double y, const label_spot& spot) {
  if (!spot.leader) return {};
  return "<line class=\"leader\" x1=\"" + number(x) + "\" y1=\"" + number(y) + "\" x2=\"" +
         number(spot.end_x) + "\" y2=\"" + number(spot.end_y) +
         "\" stroke=\"#888888\" stroke-width=\"0.8\"/>\n";
}

/// Places point labels where they cover no other label, no reserved box (points, a legend) and
/// stay inside the plot: beside the point (right, then left; above, then below), then stepped
/// further up and down a line of text at a time, with a leader line. A label with no free spot takes
/// the first one (and the chart's layout test names the overlap).
class label_layout {
 public:
  explicit label_layout(box area) : area_(area) {}

  /// Keeps labels off `b`.
  void reserve(const box& b) { taken_.push_back(b); }

  /// Keeps labels off a point of radius `r` at (x, y).
  void reserve_point(double x, double y, double r) {
    taken_.push_back({x - r, y - r, x + r, y + r});
  }

  /// The spot for `text` at `size` pixels beside a point of radius `r` at (x, y); the spot's box
  /// is reserved.
  label_spot place(const std::string& text, double size, double x, double y, double r) {
    const double width = text_width(text, size);
    const double line = 1.2 * size;
    label_spot first;
    bool have_first = false;
    for (int ring = 0; ring <= 12; ++ring) {
      for (int side = 0; side < 4; ++side) {
        const bool right = side % 2 == 0;
        const double sign = side < 2 ? -1.0 : 1.0;  // above first
        const double centre = y + sign * (0.55 + 1.05 * ring) * line;
        const double sx = right ? x + r + 3.0 : x - r - 3.0 - width;
        const double sy = centre + 0.345 * size;  // the box's middle on `centre`
        const box b = text_box(text, size, sx, sy);
        const box padded{b.x0 - 1.0, b.y0 - 1.0, b.x1 + 1.0, b.y1 + 1.0};
        const label_spot spot{sx, sy, ring > 0, right ? sx - 1.0 : sx + width + 1.0, centre};
        if (!have_first) {
          first = spot;
          have_first = true;
        }
        if (b.x0 < area_.x0 || b.x1 > area_.x1 || b.y0 < area_.y0 || b.y1 > area_.y1) continue;
        bool free = true;
        for (const box& t : taken_)
          if (overlaps(padded, t)) {
            free = false;
            break;
          }
        if (!free) continue;
        taken_.push_back(b);
        return spot;
      }
    }
    taken_.push_back(text_box(text, size, first.x, first.y));
    return first;
  }

 private:
  box area_;
  std::vector<box> taken_;
};

/// Text for an element or an attribute: the five characters XML reserves, escaped.
inline std::string escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

/// The plot's grid, ticks, tick labels (written by `tick_label`) and its two axis lines, as one
/// group of class "axes"; the plot spans `x.from` to `x.to` across and `y.to` (top) to `y.from`
/// (bottom) down, the axes' own pixels.
inline std::string grid(const axis& x, const axis& y, std::string (*tick_label)(double) = label) {
  const double left = x.from;
  const double right = x.to;
  const double bottom = y.from;
  const double top = y.to;
  std::string svg = "<g class=\"axes\" stroke=\"#000000\" stroke-width=\"1\">\n";
  for (double v : ticks(x)) {
    const std::string px = number(x.pixel(v));
    svg += "<line x1=\"" + px + "\" y1=\"" + number(top) + "\" x2=\"" + px + "\" y2=\"" +
           number(bottom) + "\" stroke=\"#e4e4e4\"/>\n";
    svg += "<line x1=\"" + px + "\" y1=\"" + number(bottom) + "\" x2=\"" + px + "\" y2=\"" +
           number(bottom + 6) + "\"/>\n";
    svg += "<text x=\"" + px + "\" y=\"" + number(bottom + 20) +
           "\" text-anchor=\"middle\" stroke=\"none\">" + tick_label(v) + "</text>\n";
  }
  for (double v : ticks(y)) {
    const double py = y.pixel(v);
    svg += "<line x1=\"" + number(left) + "\" y1=\"" + number(py) + "\" x2=\"" + number(right) +
           "\" y2=\"" + number(py) + "\" stroke=\"#e4e4e4\"/>\n";
    svg += "<line x1=\"" + number(left - 6) + "\" y1=\"" + number(py) + "\" x2=\"" +
           number(left) + "\" y2=\"" + number(py) + "\"/>\n";
    svg += "<text x=\"" + number(left - 9) + "\" y=\"" + number(py + 4) +
           "\" text-anchor=\"end\" stroke=\"none\">" + tick_label(v) + "</text>\n";
  }
  svg += "<line x1=\"" + number(left) + "\" y1=\"" + number(bottom) + "\" x2=\"" + number(right) +
         "\" y2=\"" + number(bottom) + "\"/>\n";
  svg += "<line x1=\"" + number(left) + "\" y1=\"" + number(top) + "\" x2=\"" + number(left) +
         "\" y2=\"" + number(bottom) + "\"/>\n";
  svg += "</g>\n";
  return svg;
}

}  // namespace shardplan::detail::svg
