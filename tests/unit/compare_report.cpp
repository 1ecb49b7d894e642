// Tests of io/compare_report.hpp: a comparison's table has a row per system and names the
// constraint of each without an answer; the chart draws one point per answered system, marks
// the front and lists the others; the assumptions say what the energy figures rest on.
#include <doctest/doctest.h>

#include <shardplan/io/compare_report.hpp>
#include <shardplan/models/llama.hpp>
#include <string>
#include <vector>

using namespace shardplan;

namespace {

/// Occurrences of `what` in `text`.
std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::vector<training_option> small_comparison() {
  training_job job;
  job.model = models::llama3_8b::shape;
  job.tokens = 1e11;
  job.deadline_days = 30.0;
  job.chips = 16;
  job.global_tokens = 1'048'576;
  job.seq_len = 8192;
  job.run.price_per_chip_hour = 2.0;
  std::vector<compared_system> systems;
  for (std::string_view f : {"dgx_h100_superpod", "dgx_b200_superpod", "tpu_v5p_slice"})
    systems.push_back(sized_system(f, job.chips));
  systems.push_back({"broken", {}, "shardplan: a planted problem"});
  return compare_training(job, systems);
}

}  // namespace

TEST_CASE("a training comparison's table has a row per system, naming what stops the others") {
  const std::vector<training_option> options = small_comparison();
  const table t = training_comparison_table(options);
  REQUIRE(t.rows.size() == 4);
  CHECK(t.header.size() == t.rows.front().size());
  // The system without an answer comes last, with its constraint and its problem.
  CHECK(t.rows.back()[0] == "broken");
  CHECK(t.rows.back()[9] == "system");
  CHECK(t.rows.back()[10] == "shardplan: a planted problem");
  // The answered ones carry their chip, a cost at $2 a chip-hour and the deadline's verdict.
  CHECK(t.rows.front()[0].find("(") != std::string::npos);
  CHECK(t.rows.front()[4].rfind("$", 0) == 0);
  CHECK(t.rows.front()[10] == "meets");
  const table plans = training_plans_table(options);
  CHECK(plans.rows.size() == 3);
}

TEST_CASE("the chart has a point per answered system, the front marked and the rest listed") {
  const std::vector<training_option> options = small_comparison();
  std::size_t front = 0;
  for (const training_option& o : options) front += o.pareto ? 1 : 0;
  const std::string svg = training_comparison_svg(options, "llama3-8b <test> & chart");
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(count(svg, "<circle class=\"point") == 3);
  CHECK(count(svg, "<circle class=\"point pareto marked\"") == front);
  CHECK(svg.find("broken: system") != std::string::npos);
  CHECK(svg.find("no answer (1 system)") != std::string::npos);
  // The title is escaped.
  CHECK(svg.find("llama3-8b &lt;test&gt; &amp; chart") != std::string::npos);
  CHECK(svg.find("cost of the run") != std::string::npos);
}

TEST_CASE("a serving comparison's table and chart follow the same rules") {
  serving_job job;
  job.model = models::llama3_8b::shape;
  job.prompt_tokens = 1024;
  job.generated_tokens = 128;
  job.time_per_output_token = 0.1 * second;
  std::vector<compared_system> systems = serving_systems();
  systems.resize(2);  // an H100 node and a B200 node
  const std::vector<serving_option> options = compare_serving(job, systems, {2.0, 4.0});
  const table t = serving_comparison_table(options);
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0][7].rfind("$", 0) == 0);  // a cost per million tokens with prices given
  const std::string svg = serving_comparison_svg(options, "serving");
  CHECK(count(svg, "<circle class=\"point") == 2);
  CHECK(svg.find("cost per million output tokens") != std::string::npos);
}

TEST_CASE("the assumptions say what power, pue and prices the figures rest on") {
  const std::vector<std::string> plain = comparison_assumptions({}, true);
  bool it_only = false;
  bool no_price = false;
  for (const std::string& a : plain) {
    it_only = it_only || a.find("PUE 1.0: IT power only") != std::string::npos;
    no_price = no_price || a.find("no energy price given") != std::string::npos;
  }
  CHECK(it_only);
  CHECK(no_price);
  const std::vector<std::string> given =
      comparison_assumptions({.pue = 1.3, .price_per_kwh = 0.1}, false);
  bool pue = false;
  for (const std::string& a : given) pue = pue || a.find("PUE 1.3 (given)") != std::string::npos;
  CHECK(pue);
}
