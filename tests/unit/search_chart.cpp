// Tests of search_chart.hpp: the SVG is a standalone, well-formed document with one circle per
// point, fitting and over-memory points told apart, a legend, axes, and the best plan marked.
#include <doctest/doctest.h>

#include <cstddef>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/io/search_chart.hpp>
#include <string>
#include <vector>

namespace {

using namespace shardplan;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Whether every element opened is closed in order (a small XML well-formedness check: tags,
/// self-closing tags, the declaration and comments).
bool well_formed(const std::string& xml) {
  std::vector<std::string> open;
  std::size_t at = 0;
  while ((at = xml.find('<', at)) != std::string::npos) {
    if (xml.compare(at, 4, "<!--") == 0) {
      at = xml.find("-->", at);
      if (at == std::string::npos) return false;
      continue;
    }
    const std::size_t end = xml.find('>', at);
    if (end == std::string::npos) return false;
    const std::string tag = xml.substr(at + 1, end - at - 1);
    at = end + 1;
    if (tag.empty() || tag[0] == '?') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return false;
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
  }
  return open.empty();
}

const std::vector<chart_point> five_points = {{20e9, 9.0, true},
                                              {40e9, 7.0, true},
                                              {60e9, 6.0, true},
                                              {90e9, 5.5, false},
                                              {150e9, 5.0, false}};

search_chart_options five_point_options() {
  search_chart_options o;
  o.title = "five plans";
  o.capacity = 80e9;
  o.best_memory = 60e9;
  o.best_step = 6.0;
  o.best_label = "pp 1 x dp 8";
  o.front = {{20e9, 9.0}, {40e9, 7.0}, {60e9, 6.0}};
  return o;
}

}  // namespace

TEST_CASE("the chart is a standalone svg document a browser can open") {
  const std::string svg = search_chart_svg(five_points, five_point_options());
  CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0) == 0);
  CHECK(occurrences(svg,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"640\" "
                    "viewBox=\"0 0 960 640\"") == 1);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(occurrences(svg, "<svg") == 1);
  CHECK(well_formed(svg));
  CHECK(svg.find("<title>five plans</title>") != std::string::npos);
}

TEST_CASE("one circle per point, fitting and over-memory points in two colours") {
  const std::string svg = search_chart_svg(five_points, five_point_options());
  CHECK(occurrences(svg, "<circle class=\"point") == 5);
  CHECK(occurrences(svg, "<circle class=\"point fits\"") == 3);
  CHECK(occurrences(svg, "<circle class=\"point over-memory\"") == 2);
  CHECK(svg.find("<g class=\"fits\" fill=\"#1f77b4\"") != std::string::npos);
  CHECK(svg.find("<g class=\"over-memory\" fill=\"#f28e2b\"") != std::string::npos);
}

TEST_CASE("the chart has a legend, axes with labels, the memory line and the best plan marked") {
  const std::string svg = search_chart_svg(five_points, five_point_options());
  CHECK(occurrences(svg, "<g class=\"legend\">") == 1);
  CHECK(svg.find(">fits in memory</text>") != std::string::npos);
  CHECK(svg.find(">over memory (infeasible)</text>") != std::string::npos);
  CHECK(svg.find(">best plan (fastest that fits)</text>") != std::string::npos);
  CHECK(svg.find(">memory per device (GB)</text>") != std::string::npos);  // linear: 20 to 150
  CHECK(svg.find(">step time (s)</text>") != std::string::npos);
  CHECK(occurrences(svg, "<polygon class=\"best marked\"") == 1);
  CHECK(svg.find(">best: pp 1 x dp 8</text>") != std::string::npos);
  CHECK(occurrences(svg, "<line class=\"capacity\"") == 1);
  CHECK(svg.find(">80 GB per device</text>") != std::string::npos);
  CHECK(occurrences(svg, "class=\"trade-off\"") == 2);  // a white halo and the line
  // Ticks on both axes: round numbers as labels.
  CHECK(svg.find(">100</text>") != std::string::npos);
  CHECK(svg.find(">6</text>") != std::string::npos);
}

TEST_CASE("axes spanning more than a factor of 20 are logarithmic") {
  const std::vector<chart_point> wide = {{5e9, 6.0, true}, {2000e9, 900.0, false}};
  const std::string svg = search_chart_svg(wide);
  CHECK(svg.find(">memory per device (GB, log scale)</text>") != std::string::npos);
  CHECK(svg.find(">step time (s, log scale)</text>") != std::string::npos);
  CHECK(svg.find(">1000</text>") != std::string::npos);
  CHECK(well_formed(svg));
}

TEST_CASE("points on the same spot are drawn once unless asked otherwise") {
  const std::vector<chart_point> twice = {{40e9, 7.0, true}, {40e9, 7.0, true}, {41e9, 7.0, true}};
  CHECK(occurrences(search_chart_svg(twice), "<circle class=\"point") == 2);
  search_chart_options all;
  all.merge_overlapping = false;
  CHECK(occurrences(search_chart_svg(twice, all), "<circle class=\"point") == 3);
}

TEST_CASE("the chart of a search shows every checked candidate and marks the best") {
  const search_space s = make_search_space(
      models::llama3_8b::shape, systems::dgx_h100_superpod<1>::figures, 8, 1 << 20, 8192);
  search_result r;
  const std::vector<chart_point> points = chart_points(s, &r);
  REQUIRE(r.found);
  CHECK(static_cast<std::int64_t>(points.size()) == r.counts.checked());
  // No plan beats the 8 GPUs' peak on the model's 6·N·D FLOPs (8,030,261,248 parameters, 2^20
  // tokens, 989.4 TFLOP/s each), and none holds less than its share of the 16 bytes a parameter
  // of bf16 mixed-precision Adam when every state is split 8 ways.
  const double fastest = 6.0 * 8'030'261'248.0 * 1048576.0 / (8.0 * 989.4e12);
  const double least_memory = 16.0 * 8'030'261'248.0 / 8.0;
  std::int64_t fits = 0;
  std::int64_t over = 0;
  for (const chart_point& p : points) {
    fits += p.fits ? 1 : 0;
    over += p.fits ? 0 : 1;
    CHECK(p.step >= fastest);
    CHECK(p.memory >= least_memory);
    CHECK(p.fits == (p.memory <= 80e9));
  }
  CHECK(fits == r.counts.feasible);
  CHECK(over == r.counts.over_memory);
  // Drawn one circle a point, the chart shows each feasible and each over-memory plan.
  search_chart_options all;
  all.merge_overlapping = false;
  const std::string every = search_chart_svg(points, all);
  CHECK(occurrences(every, "<circle class=\"point fits\"") == static_cast<std::size_t>(fits));
  CHECK(occurrences(every, "<circle class=\"point over-memory\"") ==
        static_cast<std::size_t>(over));

  const std::string svg = search_chart_svg(s);
  CHECK(well_formed(svg));
  CHECK(occurrences(svg, "<polygon class=\"best marked\"") == 1);
  CHECK(svg.find("best: " + describe(r.choice)) != std::string::npos);
  CHECK(svg.find("llama3-8b on 8 x h100 sxm") != std::string::npos);
  CHECK(occurrences(svg, "<circle class=\"point") <= points.size());
}
