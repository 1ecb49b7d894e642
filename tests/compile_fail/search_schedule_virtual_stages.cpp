// EXPECT: shardplan: an interleaved schedule has 2 or more virtual stages, any other has 1@@schedule_virtual_stages<[a-z_:]*interleaved, [a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: interleaved 1F1B runs 2 or more model chunks per device (Narayanan et al. 2021), any
// other schedule one: interleaved with 1 virtual stage is refused; the twin uses 2.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>

using namespace shardplan;
using node = systems::dgx_h100_superpod<1>;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t virtual_stages = 1;
#else
constexpr std::int64_t virtual_stages = 2;
#endif

struct small_space {
  static constexpr search_space space = [] {
    search_space s = make_search_space(models::llama3_8b::shape, node::figures, 4,
                                       64 * 8192, 8192);
    s.micro_batches = {1};
    s.zero_stages = {3};
    s.recompute = {recompute_policy{recompute_kind::none}, recompute_policy{recompute_kind::full}};
    s.schedules = {schedule_choice{pipeline_schedule::interleaved, virtual_stages}};
    s.max_context = 1;
    return s;
  }();
};

// The search result; reading its fields as well would add a second error on clang, which treats
// the members of a class whose static_assert failed as not constant.
constexpr const search_result& best = constexpr_search<small_space>::result;
