// EXPECT: shardplan: a price per chip-hour is positive
// Rule: `price<dollars_per_hour{P}>` is what a chip-hour costs, and every dollar figure of the
// plan scales with it: a free or negative price is a mistake. The twin pays $2 a chip-hour.
// (Inside a serving_plan clang adds two errors: the option then fails `ServingOptionSpec` and
// the plan is undeclared; the option alone gives exactly this one.)
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr double dollars = 0.0;
#else
constexpr double dollars = 2.0;
#endif

using option = price<dollars_per_hour{dollars}>;
static_assert(sizeof(option) > 0);
