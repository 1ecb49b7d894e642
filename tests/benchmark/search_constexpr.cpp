// Compile-time subject: the plan search for LLaMA-3 405B on 16,384 H100 (2048 DGX H100 nodes) at
// 16,777,216 tokens a step in sequences of 8192, run in constant expressions with the compilers'
// default limits (no -fconstexpr-* flags). tests/benchmark/search_compile_time.sh times it.
//
// By default the space of `best_plan` (compile_time_search_space): 448 candidates, 176 checked,
// 113 costed; the best is pp 2 x dp 2048 x tp 4, ZeRO-3, ZB-H1, MFU 43.7%.
// With -DSHARDPLAN_TARGETED_SEARCH a space narrowed around what the run-time search finds (ZeRO 2
// and 3, micro-batch 1, ZB-H1, no or full recomputation, pipeline up to 64, context up to 16):
// 560 candidates, 520 checked, 359 costed; it finds the run-time search's best plan over all
// 120,960 candidates, pp 64 x dp 8 x cp 16 x tp 2, ZeRO-2, MFU 49.3%.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>

using namespace shardplan;
using cluster = systems::dgx_h100_superpod<2048>;

#ifndef SHARDPLAN_TARGETED_SEARCH
constexpr const search_result& r =
    best_plan<models::llama3_405b, cluster, 16384, 16'777'216, 8192>();
static_assert(r.found && r.counts.checked() == 176);
static_assert(r.cost.mfu > 0.4);
#else
struct targeted {
  static constexpr search_space space = [] {
    search_space s =
        make_search_space(models::llama3_405b::shape, cluster::figures, 16384, 16'777'216, 8192);
    s.zero_stages = {2, 3};
    s.micro_batches = {1};
    s.schedules = {schedule_choice{pipeline_schedule::zero_bubble, 1}};
    s.recompute = {recompute_policy{recompute_kind::none}, recompute_policy{recompute_kind::full}};
    s.max_pipeline = 64;
    s.max_context = 16;
    return s;
  }();
};
constexpr const search_result& r = constexpr_search<targeted>::result;
static_assert(r.found && r.counts.checked() == 520);
static_assert(r.choice.pipeline == 64 && r.choice.data == 8 && r.choice.context == 16 &&
              r.choice.tensor == 2 && r.choice.zero_stage == 2);
static_assert(r.cost.mfu > 0.49);
#endif

int main() {}
