// EXPECT: shardplan: every choice list of a search space needs at least one choice@@choice_list_not_empty<[a-z_:]*micro_batches, [a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: every choice list of a search space holds a choice: an empty list of micro-batches
// leaves nothing to search; the twin lists micro-batch 1.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>

using namespace shardplan;
using node = systems::dgx_h100_superpod<1>;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr choice_list<std::int64_t, max_search_choices> micro_batch_list{};
#else
constexpr choice_list<std::int64_t, max_search_choices> micro_batch_list{1};
#endif

struct small_space {
  static constexpr search_space space = [] {
    search_space s = make_search_space(models::llama3_8b::shape, node::figures, 4,
                                       64 * 8192, 8192);
    s.micro_batches = micro_batch_list;
    s.zero_stages = {3};
    s.recompute = {recompute_policy{recompute_kind::none}, recompute_policy{recompute_kind::full}};
    s.schedules = {schedule_choice{pipeline_schedule::zero_bubble, 1}};
    s.max_context = 1;
    return s;
  }();
};

// The search result; reading its fields as well would add a second error on clang, which treats
// the members of a class whose static_assert failed as not constant.
constexpr const search_result& best = constexpr_search<small_space>::result;
