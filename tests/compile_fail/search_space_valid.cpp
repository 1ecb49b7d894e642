// EXPECT: shardplan: the zero stage must be 0, 1, 2 or 3@@zero_stage_exists<[a-z_:]*{4}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: `constexpr_search<Space>` checks its space first and fails with the rule the space
// breaks and its numbers (`search_space_violation_of`). ZeRO has stages 0 to 3, so a space that
// tries stage 4 is not valid; the twin tries ZeRO-3. The space is tests/static/search.cpp's small
// one: 4 chips of one DGX H100 node.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>

using namespace shardplan;
using node = systems::dgx_h100_superpod<1>;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t zero_stage = 4;
#else
constexpr std::int64_t zero_stage = 3;
#endif

struct small_space {
  static constexpr search_space space = [] {
    search_space s = make_search_space(models::llama3_8b::shape, node::figures, 4,
                                       64 * 8192, 8192);
    s.micro_batches = {1};
    s.zero_stages = {zero_stage};
    s.recompute = {recompute_policy{recompute_kind::none}, recompute_policy{recompute_kind::full}};
    s.schedules = {schedule_choice{pipeline_schedule::zero_bubble, 1}};
    s.max_context = 1;
    return s;
  }();
};

// The search result; reading its fields as well would add a second error on clang, which treats
// the members of a class whose static_assert failed as not constant.
constexpr const search_result& best = constexpr_search<small_space>::result;
