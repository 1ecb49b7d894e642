// EXPECT: shardplan: a choice list of a search space holds at most its capacity@@choice_list_within_capacity<[a-z_:]*micro_batches, [a-z_:]*{16}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a choice list holds at most its capacity (16 micro-batches); 17 are refused rather than
// cut silently; the twin lists 16.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>

using namespace shardplan;
using node = systems::dgx_h100_superpod<1>;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr choice_list<std::int64_t, max_search_choices> micro_batch_list{
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
#else
constexpr choice_list<std::int64_t, max_search_choices> micro_batch_list{
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
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
