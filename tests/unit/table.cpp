// Tests of table.hpp: text and Markdown renderings line up.
#include <doctest/doctest.h>

#include <shardplan/core/table.hpp>

using namespace shardplan;

TEST_CASE("text tables align numbers right and names left") {
  const table t{{"chip", "bf16"}, {{"H100 SXM", "989 TFLOP/s"}, {"v5e", "197 TFLOP/s"}}, {false, true}};
  CHECK(render_text(t) ==
        "chip             bf16\n"
        "--------  -----------\n"
        "H100 SXM  989 TFLOP/s\n"
        "v5e       197 TFLOP/s\n");
}

TEST_CASE("markdown tables mark numeric columns right-aligned") {
  const table t{{"model", "params"}, {{"llama", "8.03 B"}}, {false, true}};
  CHECK(render_markdown(t) ==
        "| model | params |\n"
        "| ----- | -----: |\n"
        "| llama | 8.03 B |\n");
}
