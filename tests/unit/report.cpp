// Tests of report.hpp: the tables carry the plan's figures.
#include <doctest/doctest.h>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/io/report.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

namespace {
using plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<2>,
                           mesh<axis<"dp", 2>, axis<"tp", 8>>, zero<1, "dp">, tensor<"tp">,
                           batch<global_sequences<64>, seq_len<8192>, micro_batch<1>>>;
}  // namespace

TEST_CASE("the traffic table has a row per collective with its axis and time") {
  const step_cost c = plan::step();
  const table t = traffic_table(plan::values, c);
  REQUIRE(t.rows.size() == c.traffic_count);
  for (std::size_t i = 0; i < c.traffic_count; ++i) {
    CHECK(t.rows[i][2] == plan::values.axes[c.traffic[i].axis].name);
    CHECK(t.rows[i][7] == format(c.traffic[i].time));
  }
}

TEST_CASE("the time table adds up to the step") {
  const step_cost c = plan::step();
  CHECK((c.compute + c.bubble + c.communication_exposed + c.optimizer).value() ==
        doctest::Approx(c.step.value()));
  const table t = time_table(c);
  CHECK(t.rows[5][0] == "step");
  CHECK(t.rows[5][1] == format(c.step));
}

TEST_CASE("the placement table names the links of each axis") {
  const table t = placement_table(plan::values);
  REQUIRE(t.rows.size() == 2);
  // tp = 8 fills an 8-GPU NVLink node; dp = 2 crosses the leaf switches.
  CHECK(t.rows[1][3] == "node x8 (nvlink)");
  CHECK(t.rows[0][3] == "leaf x2 (infiniband)");
}

TEST_CASE("the memory table ends with the total and the capacity") {
  const table t = memory_table(plan::values);
  CHECK(t.rows[7][1] == format(plan::memory_per_device().total));
  CHECK(t.rows[8][1] == "80 GB");
}
