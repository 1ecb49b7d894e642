// Tests of io/timeline_chart.hpp: the Gantt chart of a pipeline timeline.
#include <doctest/doctest.h>

#include <string>

#include <shardplan/io/timeline_chart.hpp>

namespace {

using namespace shardplan;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

pass_durations passes() {
  pass_durations d;
  d.forward = 1.0 * second;
  d.backward = 2.0 * second;
  d.weight = 1.0 * second;
  return d;
}

}  // namespace

TEST_CASE("the gantt chart draws one bar per pass, by kind, in a standalone svg") {
  const pipeline_timeline t = lay_out_pipeline(pipeline_schedule::zero_bubble, 4, 1, 8, passes());
  timeline_chart_options o;
  o.title = "a <test> & more";
  const std::string svg = timeline_svg(t, o);
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(count(svg, "class=\"pass forward\"") == 32);
  CHECK(count(svg, "class=\"pass backward\"") == 32);
  CHECK(count(svg, "class=\"pass weight\"") == 32);
  CHECK(svg.find("a &lt;test&gt; &amp; more") != std::string::npos);
  CHECK(svg.find("ZB-H1, 4 stages x 1 chunks, 8 micro-batches") != std::string::npos);
  CHECK(count(svg, "stage 3</text>") == 1);
}

TEST_CASE("a timeline too large to draw is said so, not drawn") {
  const pipeline_timeline t = lay_out_pipeline(pipeline_schedule::one_f_one_b, 4, 1, 8, passes());
  timeline_chart_options o;
  o.max_passes = 10;
  const std::string svg = timeline_svg(t, o);
  CHECK(count(svg, "class=\"pass") == 0);
  CHECK(svg.find("64 passes: too many to draw (at most 10)") != std::string::npos);
  CHECK(svg.find("weight gradient") == std::string::npos);
}
