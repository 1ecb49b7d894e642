// EXPECT: shardplan: a prompt has no fewer than zero tokens
// Rule: `prompt_tokens<N>` is the prompt prefilled per sequence: 0 (generation from nothing)
// or more, never negative. The twin has an empty prompt.
// (Inside a serving_plan clang adds two errors: the option then fails `ServingOptionSpec` and
// the plan is undeclared; the option alone gives exactly this one.)
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tokens = -1;
#else
constexpr std::int64_t tokens = 0;
#endif

using option = prompt_tokens<tokens>;
static_assert(sizeof(option) > 0);
