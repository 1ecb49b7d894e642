// Tests of serving_chart.hpp: the SVG is a standalone document with one circle per drawable
// point, each labelled with its concurrency, fitting and over-memory points told apart, the plan's
// concurrency in red, text escaped, and points that cannot be drawn skipped.
#include <doctest/doctest.h>

#include <cstddef>
#include <limits>
#include <shardplan/io/serving_chart.hpp>
#include <string>
#include <vector>

namespace {

using namespace shardplan;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Concurrency 1, 4, 16, 64 and 256: throughput grows, each user's rate falls; 256 does not fit.
/// Given out of order, to check that the line follows concurrency and not the input.
const std::vector<latency_point> five_levels = {{16, 1800.0, 110.0, 0.08, true},
                                                {1, 140.0, 140.0, 0.05, true},
                                                {256, 9000.0, 35.0, 0.60, false},
                                                {4, 520.0, 130.0, 0.06, true},
                                                {64, 5200.0, 80.0, 0.20, true}};

}  // namespace

TEST_CASE("serving chart is a standalone svg document") {
  const std::string svg = latency_throughput_svg(five_levels, {});
  CHECK(svg.find("<svg") == svg.find('<', svg.find("?>")));  // the first element after <?xml
  CHECK(svg.find("xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(svg.rfind("</svg>") != std::string::npos);
  CHECK(svg.find("output tokens/s per user") != std::string::npos);
  CHECK(svg.find("output tokens/s per device") != std::string::npos);
  CHECK(svg.find("class=\"legend\"") != std::string::npos);
}

TEST_CASE("serving chart draws one labelled circle per point, by fit") {
  const std::string svg = latency_throughput_svg(five_levels, {});
  CHECK(occurrences(svg, "<circle") == five_levels.size());
  CHECK(occurrences(svg, "class=\"point fits\"") == 4);
  CHECK(occurrences(svg, "class=\"point over-memory\"") == 1);
  CHECK(occurrences(svg, "class=\"point marked\"") == 0);
  for (const char* label : {">1</text>", ">4</text>", ">16</text>", ">64</text>", ">256</text>"})
    CHECK(occurrences(svg, label) == 1);
  CHECK(occurrences(svg, "<polyline") == 1);
  // The line goes through the points in order of concurrency: its first point is the highest per
  // user rate (concurrency 1, at the right) and its last the lowest (256, at the left).
  const std::size_t at = svg.find("points=\"", svg.find("<polyline")) + 8;
  const std::string pts = svg.substr(at, svg.find('"', at) - at);
  const double first_x = std::stod(pts.substr(0, pts.find(',')));
  const double last_x = std::stod(pts.substr(pts.rfind(' ') + 1));
  CHECK(first_x > last_x);
  CHECK(occurrences(pts, ",") == five_levels.size());
}

TEST_CASE("serving chart marks the plan's concurrency in red") {
  latency_chart_options o;
  o.marked_concurrency = 64;
  const std::string svg = latency_throughput_svg(five_levels, o);
  CHECK(occurrences(svg, "class=\"point marked\"") == 1);
  CHECK(occurrences(svg, "class=\"point fits\"") == 3);
  const std::size_t marked = svg.find("class=\"point marked\"");
  const std::size_t end = svg.find('>', marked);
  CHECK(svg.substr(marked, end - marked).find("fill=\"#d62728\"") != std::string::npos);
  CHECK(svg.find(">64 (the plan)</text>") != std::string::npos);
  // A concurrency that no point has marks nothing.
  o.marked_concurrency = 63;
  CHECK(occurrences(latency_throughput_svg(five_levels, o), "class=\"point marked\"") == 0);
}

TEST_CASE("serving chart escapes the title and subtitle") {
  latency_chart_options o;
  o.title = "a <b> & \"c\" 'd'";
  o.subtitle = "1k in & 2k out";
  const std::string svg = latency_throughput_svg(five_levels, o);
  const std::string escaped = "a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;";
  CHECK(occurrences(svg, escaped) == 2);  // the document's <title> and the heading
  CHECK(svg.find(o.title) == std::string::npos);
  CHECK(svg.find("1k in &amp; 2k out") != std::string::npos);
  CHECK(svg.find("<b>") == std::string::npos);
}

TEST_CASE("serving chart skips points it cannot draw") {
  std::vector<latency_point> points = five_levels;
  const double inf = std::numeric_limits<double>::infinity();
  points.push_back({512, inf, 20.0, 1.0, false});
  points.push_back({1024, 9500.0, std::numeric_limits<double>::quiet_NaN(), 1.0, false});
  points.push_back({0, 100.0, 100.0, 0.05, true});
  points.push_back({2048, -1.0, 10.0, 1.0, false});
  const std::string svg = latency_throughput_svg(points, {});
  CHECK(occurrences(svg, "<circle") == five_levels.size());
  CHECK(svg.find(">512</text>") == std::string::npos);
  CHECK(svg.find(">1024</text>") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
  CHECK(svg.find("nan") == std::string::npos);
}

TEST_CASE("serving chart with nothing to draw says so") {
  latency_chart_options o;
  o.title = "empty";
  for (const std::vector<latency_point>& points :
       {std::vector<latency_point>{},
        std::vector<latency_point>{{8, std::numeric_limits<double>::quiet_NaN(), 50.0, 0.1, true}}}) {
    const std::string svg = latency_throughput_svg(points, o);
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
    CHECK(svg.find("no point to draw") != std::string::npos);
    CHECK(occurrences(svg, "<circle") == 0);
    CHECK(svg.rfind("</svg>\n") == svg.size() - 7);
  }
}

TEST_CASE("serving chart uses a log axis past a factor of 20 and a linear one below") {
  // Throughput from 100 to 10000 per device (a factor 100: log, ticks 100, 1k, 10k in between);
  // per-user rates from 50 to 150 (a factor 3: linear).
  const std::vector<latency_point> points = {{1, 100.0, 150.0, 0.05, true},
                                             {128, 10000.0, 50.0, 0.5, true}};
  const std::string svg = latency_throughput_svg(points, {});
  CHECK(svg.find("output tokens/s per device (log scale)") != std::string::npos);
  CHECK(svg.find("output tokens/s per user (log scale)") == std::string::npos);
  CHECK(svg.find(">1k</text>") != std::string::npos);
  CHECK(svg.find(">2k</text>") != std::string::npos);
  CHECK(svg.find(">5k</text>") != std::string::npos);
}
