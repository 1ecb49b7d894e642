// Static tests of search.hpp: the plan search in constant expressions, within the compilers'
// default limits. Compiling is passing.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/training/training_plan.hpp>
#include <type_traits>

namespace {

using namespace shardplan;

using node = systems::dgx_h100_superpod<1>;
constexpr std::int64_t tokens = 1 << 20;  // 128 sequences of 8192

// --- best_plan: LLaMA-3 8B on the 8 H100 of one DGX node ---------------------------------------

// The search of `compile_time_search_space` (256 candidates, 100 checked, in chunks of 32).
static_assert(best_plan<models::llama3_8b, node, 8, tokens, 8192>().found);
static_assert(best_plan<models::llama3_8b, node, 8, tokens, 8192>().mfu >
              0.4);  // the words
// Data parallelism over all 8 GPUs with ZeRO-2, no pipeline, no tensor parallelism, no
// recomputation (tests/unit/search.cpp derives it by hand).
constexpr const search_result& best = best_plan<models::llama3_8b, node, 8, tokens, 8192>();

// Its step, bounded by hand: 3 x 17,156,800,512 FLOPs a token (tests/unit/search.cpp) x 2^20
// tokens / 8 GPUs at the H100's bf16 peak times the Hopper GEMM fraction (0.75,
// hardware/kernels.hpp) is the least compute can take, then ZeRO-2's optimizer pass, 2 x 12 / 8
// + 2 / 8 + 2 = 5.25 bytes a parameter of 8,030,261,248 at 3.35 TB/s. MFU is the model FLOPs
// over the step at peak.
constexpr double abs_diff(double a, double b) { return a > b ? a - b : b - a; }
constexpr double h100_peak = 989.4e12;  // H100 SXM dense bf16 (NVIDIA's datasheet, 1,979 sparse)
constexpr double hbm = 3.35e12;         // H100 SXM HBM3 (NVIDIA's datasheet)
constexpr double flops_per_gpu = 3.0 * 17'156'800'512.0 * tokens / 8.0;
constexpr double optimizer = 5.25 * 8'030'261'248.0 / hbm;
constexpr double fastest_step = flops_per_gpu / (h100_peak * 0.75) + optimizer;
static_assert(node::figures.chip.peak_bf16.value() == h100_peak);
static_assert(node::figures.chip.memory_bandwidth.value() == hbm);
static_assert(best.cost.step.value() > fastest_step);
static_assert(best.cost.optimizer.value() > 0.999999 * optimizer &&
              best.cost.optimizer.value() < 1.000001 * optimizer);
static_assert(abs_diff(best.mfu, flops_per_gpu / (best.cost.step.value() * h100_peak)) < 1e-12);
static_assert(best.mfu == best.cost.mfu);
static_assert(best.choice.data == 8 && best.choice.tensor == 1 && best.choice.pipeline == 1);
static_assert(best.choice.zero_stage == 2);
static_assert(best.choice.recompute.kind == recompute_kind::none);
// Memory per GPU (tests/unit/search.cpp derives each term): ZeRO-2 states 30,113,479,680 B,
// activations 36,507,222,016 B, logits 4,202,692,608 B, plus 5% and 2 GB.
constexpr double derived_memory =
    2e9 + 1.05 * (30'113'479'680.0 + 36'507'222'016.0 + 4'202'692'608.0);
static_assert(abs_diff(best.memory.total.value(), derived_memory) < 1e-9 * derived_memory);
static_assert(best.counts.enumerated == 256);
static_assert(best.counts.duplicates + best.counts.pruned_by_rule + best.counts.checked() ==
              best.counts.enumerated);

// --- best_plan_t: the best plan as a training_plan type ------------------------------------------

using best_type = best_plan_t<models::llama3_8b, node, 8, tokens, 8192>;
// Axes of size 1 are left out, as `make_training_plan` leaves them out of the values.
using expected_type =
    training_plan<models::llama3_8b, node, mesh<axis<"dp", 8>>, zero<2, "dp">,
                  batch<global_tokens<tokens>, seq_len<8192>, micro_batch<1>>, recompute::none>;
static_assert(std::is_same_v<best_type, expected_type>);
static_assert(best_type::fits);
SHARDPLAN_REQUIRE_FEASIBLE(best_type);
static_assert(best_type::values.setup.degrees.data == 8);
static_assert(best_type::values.setup.degrees.zero == 8);
static_assert(best_type::values.axis_count == best.best.axis_count);
static_assert(best_type::step().step.value() == best.cost.step.value());
static_assert(best_type::memory_per_device().total.value() == best.memory.total.value());

// A candidate with every axis maps to the type written out by hand, and to the same values.
constexpr plan_choice every_axis{.pipeline = 16,
                                 .data = 16,
                                 .context = 2,
                                 .tensor = 8,
                                 .sequence_parallel = true,
                                 .zero_stage = 1,
                                 .micro_batch = 1,
                                 .schedule = {pipeline_schedule::interleaved, 4},
                                 .uneven_stages = true,
                                 .recompute = {recompute_kind::full}};
using cluster = systems::dgx_h100_superpod<512>;
using every_axis_type = plan_type<models::llama3_405b, cluster, 16'777'216, 8192, every_axis>::type;
static_assert(
    std::is_same_v<
        every_axis_type,
        training_plan<
            models::llama3_405b, cluster,
            mesh<axis<"pp", 16>, axis<"dp", 16>, axis<"cp", 2>, axis<"tp", 8>>, zero<1, "dp">,
            context<"cp">, pipeline<"pp", schedule::interleaved<4>, uneven_stages>,
            tensor<"tp", sequence_parallel>,
            batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>, recompute::full>>);
constexpr search_space cluster_space =
    make_search_space(models::llama3_405b::shape, cluster::figures, 4096, 16'777'216, 8192);
static_assert(estimate_step(plan_values(cluster_space, every_axis)).step.value() ==
              every_axis_type::step().step.value());
static_assert(check(plan_values(cluster_space, every_axis)).count ==
              every_axis_type::violations.count);

// Options reach every candidate and the plan type: with Megatron's 18-byte accounting (fp32
// gradients) the model states grow, and the type carries the precision.
using megatron_best =
    best_plan_t<models::llama3_8b, node, 8, tokens, 8192, precision::megatron_mixed_adam>;
static_assert(megatron_best::values.setup.precision.gradient_bytes == 4.0);
static_assert(megatron_best::fits);
static_assert(best_plan<models::llama3_8b, node, 8, tokens, 8192, precision::megatron_mixed_adam>()
                  .cost.step.value() == megatron_best::step().step.value());

// --- search(): the same function as at run time, in one constant expression ----------------------

// A space small enough for one expression: 4 chips, tensor and pipeline degrees 1, 2 and 4,
// ZeRO-3, micro-batch 1, no or full recomputation: 18 candidates, 12 checked and costed, about
// 91,000 of clang 14's default 1,048,576 steps.
struct small_space {
  static constexpr search_space space = [] {
    search_space s = make_search_space(models::llama3_8b::shape, node::figures, 4, 64 * 8192, 8192);
    s.micro_batches = {1};
    s.zero_stages = {3};
    s.recompute = {recompute_policy{recompute_kind::none}, recompute_policy{recompute_kind::full}};
    s.schedules = {schedule_choice{pipeline_schedule::zero_bubble, 1}};
    s.max_context = 1;
    return s;
  }();
};
constexpr search_result small = search(small_space::space);
static_assert(small.problem.empty());
static_assert(small.found);
static_assert(candidate_count(small_space::space) == 3 * 3 * 2);
static_assert(small.counts.rejected_by_check == 0);
// The chunked compile-time search finds the same plan.
static_assert(constexpr_search<small_space>::result.cost.step.value() == small.cost.step.value());
static_assert(constexpr_search<small_space>::result.counts.feasible == small.counts.feasible);

// An invalid space says why instead of searching.
constexpr search_space too_many_chips =
    make_search_space(models::llama3_8b::shape, node::figures, 16, tokens, 8192);
static_assert(search_space_problem(too_many_chips) ==
              "shardplan: a search cannot use more chips than the system has");
static_assert(!search(too_many_chips).found);

}  // namespace
