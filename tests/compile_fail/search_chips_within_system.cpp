// EXPECT: shardplan: a search cannot use more chips than the system has@@chips_within_system<[a-z_:]*{16}, [a-z_:]*{8}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a search space's meshes use at most the system's chips: one DGX H100 node has 8, so 16
// is refused; the twin uses 4.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>

using namespace shardplan;
using node = systems::dgx_h100_superpod<1>;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t chips = 16;
#else
constexpr std::int64_t chips = 4;
#endif

struct small_space {
  static constexpr search_space space = [] {
    search_space s = make_search_space(models::llama3_8b::shape, node::figures, chips,
                                       64 * 8192, 8192);
    s.micro_batches = {1};
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
