// EXPECT: shardplan: the chip count has more divisors than a search holds \(128\)@@divisors_within_capacity<[a-z_:]*{720720}, [a-z_:]*{128}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a search holds at most 128 degrees a list: 720,720 = 2^4 3^2 5 7 11 13 chips have
// (4+1)(2+1)(1+1)^4 = 240 divisors, all of them context degrees. The system is 81 TPU v5p pods
// of 16x20x28 = 8960 chips (725,760); the twin searches 4 of them.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>

using namespace shardplan;
using pods = systems::tpu_v5p_slice<16, 20, 28, 81>;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t chips = 720720;
#else
constexpr std::int64_t chips = 4;
#endif

struct small_space {
  static constexpr search_space space = [] {
    search_space s = make_search_space(models::llama3_8b::shape, pods::figures, chips,
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
