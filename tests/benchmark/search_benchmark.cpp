// Benchmark (not a test): the full plan search for LLaMA-3 405B on 16,384 H100 (2048 DGX H100
// nodes) at 16,777,216 tokens a step in sequences of 8192, on one core. Prints the time of the
// search, plans evaluated per second, the same search costing every feasible plan, search time
// against chips (8 to 131,072) and against the space's size, DeepSeek-V3's search with expert
// parallelism, what one check and one estimate cost, the best plans and the memory/time
// trade-off; writes the search's chart as SVG to argv[1] if given.
// Build with optimisation, e.g.
//   g++ -std=c++20 -O2 -Iinclude tests/benchmark/search_benchmark.cpp -o search_benchmark
//   taskset -c 0 ./search_benchmark search.svg [runs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/io/report.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/io/search_chart.hpp>
#include <string>
#include <vector>

namespace {

using namespace shardplan;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

/// A space searched `runs` times: the result and the best time in seconds.
struct timed_search {
  search_result result;
  double seconds = 1e300;
};

timed_search best_of(int runs, const search_space& space) {
  timed_search out;
  for (int i = 0; i < runs; ++i) {
    const auto start = clock_type::now();
    out.result = search(space);
    out.seconds = std::min(out.seconds, seconds_since(start));
  }
  return out;
}

/// Nanoseconds one call of `f` takes, best of five batches of `n` calls.
template <class F>
double nanoseconds_per_call(int n, F&& f) {
  double best = 1e300;
  for (int batch = 0; batch < 5; ++batch) {
    const auto start = clock_type::now();
    for (int i = 0; i < n; ++i) f();
    best = std::min(best, seconds_since(start) * 1e9 / n);
  }
  return best;
}

std::string rate(double per_second) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f million", per_second / 1e6);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const search_space space =
      make_search_space(models::llama3_405b::shape, systems::dgx_h100_superpod<2048>::figures,
                        16384, 16'777'216, 8192);

  std::printf("search: %s on %lld x %s (%s), %lld tokens a step in sequences of %lld\n",
              std::string(space.base.model.name).c_str(), static_cast<long long>(space.chips),
              std::string(space.base.system.chip.name).c_str(),
              std::string(space.base.system.name).c_str(),
              static_cast<long long>(space.base.setup.batch.global_tokens),
              static_cast<long long>(space.base.setup.batch.seq_len));
  std::printf(
      "space: %lld candidates (tensor, pipeline and context degrees, ZeRO 0-3, micro-batch "
      "1-8, 6 schedules, 3 recomputation policies)\n\n",
      static_cast<long long>(candidate_count(space)));

  // The full search, best of `runs` on one core (the search is single-threaded).
  search_result r = search(space);  // warm-up
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = clock_type::now();
    r = search(space);
    times.push_back(seconds_since(start));
  }
  std::sort(times.begin(), times.end());
  const double best_time = times.front();
  const double median_time = times[times.size() / 2];
  const search_counts& c = r.counts;
  std::cout << render_text(search_counts_table(c)) << "\n";
  std::printf("full search: %.1f ms (best of %d runs; median %.1f ms)\n", best_time * 1e3, runs,
              median_time * 1e3);
  std::printf(
      "plans evaluated per second: %s (every candidate decided: %lld as duplicates (by integer "
      "tests, or a recomputation that changes nothing) or broken rules, %lld by check(), %lld "
      "of them costed, %lld feasible ones ruled out by their step's lower bound)\n",
      rate(static_cast<double>(c.enumerated) / best_time).c_str(),
      static_cast<long long>(c.duplicates + c.pruned_by_rule), static_cast<long long>(c.checked()),
      static_cast<long long>(c.feasible - c.bounded), static_cast<long long>(c.bounded));
  std::printf("  built and checked per second: %s\n",
              rate(static_cast<double>(c.checked()) / best_time).c_str());

  // The same search costing every feasible plan: the same results, and its time.
  search_space exhaustive_space = space;
  exhaustive_space.bound_pruning = false;
  search(exhaustive_space);  // warm-up
  const timed_search exhaustive_run = best_of(runs, exhaustive_space);
  const search_result& exhaustive = exhaustive_run.result;
  const double exhaustive_time = exhaustive_run.seconds;
  bool same = exhaustive.ranking.count == r.ranking.count &&
              exhaustive.front.count == r.front.count &&
              exhaustive.counts.feasible == c.feasible &&
              exhaustive.counts.duplicates == c.duplicates;
  for (std::size_t i = 0; same && i < r.ranking.count; ++i)
    same = exhaustive.ranking.plans[i].index == r.ranking.plans[i].index &&
           exhaustive.ranking.plans[i].step == r.ranking.plans[i].step;
  for (std::size_t i = 0; same && i < r.front.count; ++i)
    same = exhaustive.front.plans[i].index == r.front.plans[i].index;
  std::printf("costing every feasible plan (no bound): %.1f ms, %s plans per second; "
              "ranking, trade-off and counts %s\n\n",
              exhaustive_time * 1e3,
              rate(static_cast<double>(c.enumerated) / exhaustive_time).c_str(),
              same ? "the same" : "DIFFERENT");

  // Search time against chips: LLaMA-3 405B at the same batch on 8 to 131,072 chips (DGX H100
  // SuperPODs to 2,048 nodes, a fat tree of 8,192 H100 nodes, 15 TPU7x slices of 9,216 chips;
  // no catalogue system holds 131,072 GPUs).
  struct sized_space {
    const char* system;
    search_space space;
  };
  const std::int64_t tokens = 16'777'216;
  const model_shape& m405 = models::llama3_405b::shape;
  const std::vector<sized_space> by_chips{
      {"dgx h100 superpod<1>", make_search_space(m405, systems::dgx_h100_superpod<1>::figures, 8,
                                                 tokens, 8192)},
      {"dgx h100 superpod<8>", make_search_space(m405, systems::dgx_h100_superpod<8>::figures, 64,
                                                 tokens, 8192)},
      {"dgx h100 superpod<64>",
       make_search_space(m405, systems::dgx_h100_superpod<64>::figures, 512, tokens, 8192)},
      {"dgx h100 superpod<512>",
       make_search_space(m405, systems::dgx_h100_superpod<512>::figures, 4096, tokens, 8192)},
      {"dgx h100 superpod<2048>", space},
      {"nvlink fat tree<h100, 8192>",
       make_search_space(m405, systems::nvlink_fat_tree<hardware::h100_sxm, 8192>::figures, 65536,
                         tokens, 8192)},
      {"tpu7x slice<16, 24, 24, 15>",
       make_search_space(m405, systems::tpu7x_slice<16, 24, 24, 15>::figures, 131072, tokens,
                         8192)}};
  std::printf("search time against chips (best of %d runs)\n", runs);
  std::printf("%8s  %-28s  %10s  %9s  %9s  %10s  %s\n", "chips", "system", "candidates",
              "checked", "costed", "time", "per candidate");
  for (const sized_space& x : by_chips) {
    const timed_search sized = best_of(runs, x.space);
    const double best = sized.seconds;
    const search_counts& k = sized.result.counts;
    std::printf("%8lld  %-28s  %10lld  %9lld  %9lld  %7.2f ms  %.0f ns\n",
                static_cast<long long>(x.space.chips), x.system,
                static_cast<long long>(k.enumerated), static_cast<long long>(k.checked()),
                static_cast<long long>(k.feasible - k.bounded), best * 1e3,
                best * 1e9 / static_cast<double>(std::max<std::int64_t>(k.enumerated, 1)));
  }

  // A mixture of experts: DeepSeek-V3 on 2,048 H800 (256 nodes), 15,728,640 tokens of 4,096,
  // expert parallelism in the space.
  {
    const search_space moe = make_search_space(models::deepseek_v3::shape,
                                               systems::h800_cluster<256>::figures, 2048,
                                               15'728'640, 4096);
    const timed_search timed = best_of(runs, moe);
    const search_result& found = timed.result;
    const double best = timed.seconds;
    std::printf("\ndeepseek-v3 on 2048 h800, expert parallelism searched: %lld candidates, %lld "
                "checked, %lld costed, %.1f ms; best: %s\n",
                static_cast<long long>(found.counts.enumerated),
                static_cast<long long>(found.counts.checked()),
                static_cast<long long>(found.counts.feasible - found.counts.bounded), best * 1e3,
                found.found ? describe(found.choice, true).c_str() : "none");
  }

  // Search time against the space's size: the 405B space with 1 to 16 micro-batch choices.
  std::printf("\nsearch time against the space's size (405B on 16,384 H100)\n");
  std::printf("%-22s  %10s  %9s  %10s  %s\n", "micro-batches", "candidates", "checked", "time",
              "per candidate");
  for (std::int64_t n : {1, 2, 4, 8, 16}) {
    search_space grown = space;
    grown.micro_batches = {};
    for (std::int64_t mb = 1; mb <= n; ++mb) grown.micro_batches.push_back(mb);
    const timed_search timed = best_of(runs, grown);
    const search_result& sized = timed.result;
    const double best = timed.seconds;
    std::printf("%-22s  %10lld  %9lld  %7.2f ms  %.0f ns\n",
                ("1 to " + std::to_string(n)).c_str(),
                static_cast<long long>(sized.counts.enumerated),
                static_cast<long long>(sized.counts.checked()), best * 1e3,
                best * 1e9 / static_cast<double>(sized.counts.enumerated));
  }
  std::printf("\n");

  // What one candidate costs, on the best plan.
  volatile double sink = 0.0;
  const training_plan_values p = r.best;
  const double ns_check =
      nanoseconds_per_call(20000, [&] { sink = sink + static_cast<double>(check(p).count); });
  const double ns_estimate =
      nanoseconds_per_call(20000, [&] { sink = sink + estimate_step(p).step.value(); });
  const double ns_memory = nanoseconds_per_call(
      20000, [&] { sink = sink + memory_per_device(p.model, p.setup).total.value(); });
  std::printf(
      "one candidate: check() %.0f ns, estimate_step() %.0f ns, memory_per_device() %.0f "
      "ns\n\n",
      ns_check, ns_estimate, ns_memory);

  std::printf("best plan: %s\n", describe(r.choice).c_str());
  std::cout << render_text(time_table(r.cost)) << "\n" << render_text(memory_table(r.best)) << "\n";
  std::cout << "fastest plans\n" << render_text(ranking_table(r)) << "\n";
  std::cout << "memory/time trade-off (the fastest plan for each memory budget)\n"
            << render_text(trade_off_table(r));

  if (argc > 1) {
    const auto start = clock_type::now();
    const std::string svg = search_chart_svg(space);
    std::ofstream(argv[1]) << svg;
    std::printf("\nchart: %s (%zu bytes, %.2f s with every candidate over memory costed too)\n",
                argv[1], svg.size(), seconds_since(start));
  }
  return 0;
}
