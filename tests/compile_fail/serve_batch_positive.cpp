// EXPECT: shardplan: a serving batch has at least one sequence
// Rule: `serve_batch<N>` decodes N sequences together on the whole mesh: at least one. The
// twin decodes 4.
// (Inside a serving_plan clang adds two errors: the option then fails `ServingOptionSpec` and
// the plan is undeclared; the option alone gives exactly this one.)
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t sequences = 0;
#else
constexpr std::int64_t sequences = 4;
#endif

using option = serve_batch<sequences>;
static_assert(sizeof(option) > 0);
