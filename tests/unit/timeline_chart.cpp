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
  CHECK(svg.find("64 passes: too many to draw (at most 10 bars)") != std::string::npos);
  CHECK(svg.find("weight gradient") == std::string::npos);
}

TEST_CASE("the chart draws each stage's communication streams under its passes") {
  // 4 stages of 1F1B, 8 micro-batches, a send of 0.1 s: each forward but the last stage's and
  // each backward but the first stage's sends, 3 x 8 of each.
  pass_durations d = passes();
  d.send = 0.1 * second;
  pipeline_timeline t = lay_out_pipeline(pipeline_schedule::one_f_one_b, 4, 1, 8, d);
  t.transfers.push_back({0, transfer_stream::data, -1, 1.0 * second, 2.0 * second, 0.5 * second});
  const std::string svg = timeline_svg(t);
  CHECK(count(svg, "class=\"transfer pipeline\"") == 48);
  CHECK(count(svg, "class=\"transfer data\"") == 1);
  CHECK(count(svg, "class=\"transfer layer\"") == 0);
  CHECK(svg.find("data-parallel collectives, stage 0: 1 s to 2 s, 500 ms of it exposed") !=
        std::string::npos);
  CHECK(svg.find(">pipeline send</text>") != std::string::npos);
  CHECK(svg.find(">in-pass collectives</text>") == std::string::npos);
}
