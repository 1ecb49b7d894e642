// EXPECT: shardplan: efficiency is a percentage between 0 and 100
// Rule: `prefill_efficiency<percent{E}>` (a serving plan option) is the fraction of peak
// prefill sustains, in percent: more than 0 and at most 100. 0% would make prefill take forever;
// the twin sustains 50%.
// (Inside a serving_plan clang adds two errors: the option then fails `ServingOptionSpec` and
// the plan is undeclared; the option alone gives exactly this one.)
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr double sustained = 0.0;
#else
constexpr double sustained = 50.0;
#endif

using option = prefill_efficiency<percent{sustained}>;
static_assert(sizeof(option) > 0);
