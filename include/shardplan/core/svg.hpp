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
