// EXPECT: shardplan: the interleaved schedule needs at least 2 virtual stages
// Rule: interleaved 1F1B (Narayanan et al. 2021) gives each pipeline stage V >= 2 chunks of
// layers; with one chunk it is plain 1F1B (`schedule::one_f_one_b`). The twin interleaves 2.
// (Inside a training_plan clang reports this error and then about 19 more from the plan that
// uses the broken schedule; the schedule alone gives exactly this one.)
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t chunks_per_stage = 1;
#else
constexpr std::int64_t chunks_per_stage = 2;
#endif

using s = schedule::interleaved<chunks_per_stage>;
static_assert(s::kind == pipeline_schedule::interleaved);
