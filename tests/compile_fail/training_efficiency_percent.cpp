// EXPECT: shardplan: efficiency is a percentage between 0 and 100
// Rule: `efficiency<percent{E}>` (a training plan option) is the fraction of peak the chip
// sustains on matmuls, in percent: more than 0 and at most 100. 450 (a slipped digit) is not a
// percentage; the twin sustains 45%. (Inside a training_plan clang adds two errors: the option
// then fails `PlanOptionSpec` and the plan is undeclared; the option alone gives exactly this one.)
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr double sustained = 450.0;
#else
constexpr double sustained = 45.0;
#endif

using e = efficiency<percent{sustained}>;
static_assert(sizeof(e) > 0);
