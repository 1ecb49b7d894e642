// EXPECT: shardplan: a serving plan generates at least one token
// Rule: `generated_tokens<N>` is the tokens decoded per sequence; a serving plan decodes at
// least one (a plan of prefill alone has no decode step to cost). The twin generates 1.
// (Inside a serving_plan clang adds two errors: the option then fails `ServingOptionSpec` and
// the plan is undeclared; the option alone gives exactly this one.)
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tokens = 0;
#else
constexpr std::int64_t tokens = 1;
#endif

using option = generated_tokens<tokens>;
static_assert(sizeof(option) > 0);
