// Plan search: every mesh (pipeline, data, expert, context and tensor degrees), ZeRO stage,
// micro-batch, recomputation and pipeline schedule for a model, system, chip count and batch,
// pruned by the plan rules and memory and ranked by estimated step time. One implementation runs
// at run time and in constant expressions (`best_plan<...>()`, `best_plan_t<...>`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <shardplan/training/cost.hpp>
#include <shardplan/core/format.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <shardplan/core/table.hpp>
#include <shardplan/training/training_plan.hpp>

namespace shardplan {

// --- the space -----------------------------------------------------------------------------------

/// A short list of choices held in place (no heap), so that a search space is a literal type.
template <class T, std::size_t Capacity>
struct choice_list {
  std::array<T, Capacity> items{};
  std::size_t count = 0;
  bool overflow = false;  ///< more choices were given than fit; the search refuses the space

  constexpr choice_list() = default;
  constexpr choice_list(std::initializer_list<T> xs) {
    for (const T& x : xs) push_back(x);
  }
  constexpr void push_back(const T& x) {
    if (count < Capacity) {
      items[count++] = x;
    } else {
      overflow = true;
    }
  }
  constexpr const T& operator[](std::size_t i) const { return items[i]; }
  constexpr std::size_t size() const { return count; }
  constexpr const T* begin() const { return items.data(); }
  constexpr const T* end() const { return items.data() + count; }
};

/// A pipeline schedule and its virtual stages (2 or more for `interleaved`, 1 otherwise).
struct schedule_choice {
  pipeline_schedule kind = pipeline_schedule::one_f_one_b;
  std::int64_t virtual_stages = 1;
};

inline constexpr std::size_t max_search_choices = 16;

/// Every plan for one model, system, chip count and batch. Candidate meshes are laid out by
/// `make_training_plan` in Megatron-LM's order, outermost first: [pp, dp, cp, tp] for a dense
/// model and [pp, dp, ep, cp, tp] for a mixture of experts, where `ep` carries expert
/// parallelism folded over data parallelism (the data degree is dp · ep, as in Megatron-LM and
/// DeepSpeed-MoE); axes of size 1 are left out. Degrees are the divisors of `chips` within the
/// limits; every mesh uses exactly `chips` devices.
struct search_space {
  /// Model, system, precision, reserve, step assumptions, and the batch's global tokens and
  /// sequence length. Its mesh, degrees, micro-batch and recomputation are what the search sets.
  training_plan_values base{};
  std::int64_t chips = 0;  ///< devices of every candidate mesh (at most the system's chips)
  choice_list<std::int64_t, max_search_choices> micro_batches{1, 2, 4, 8};
  choice_list<std::int64_t, 4> zero_stages{0, 1, 2, 3};
  choice_list<recompute_policy, max_search_choices> recompute{
      recompute_policy{recompute_kind::none}, recompute_policy{recompute_kind::selective},
      recompute_policy{recompute_kind::full}};
  choice_list<schedule_choice, max_search_choices> schedules{
      schedule_choice{pipeline_schedule::gpipe, 1},
      schedule_choice{pipeline_schedule::one_f_one_b, 1},
      schedule_choice{pipeline_schedule::zero_bubble, 1},
      schedule_choice{pipeline_schedule::interleaved, 2},
      schedule_choice{pipeline_schedule::interleaved, 4},
      schedule_choice{pipeline_schedule::interleaved, 8}};
  /// The largest tensor degree; 0: the chips of one unit of the system's fastest level (an
  /// NVLink node, an NVL72 rack, a TPU slice), so that tensor parallelism stays on it.
  std::int64_t max_tensor = 0;
  std::int64_t max_pipeline = 0;  ///< 0: the layers
  std::int64_t max_context = 0;   ///< 0: no limit beyond the sequence length
  std::int64_t max_expert = 0;    ///< 0: the experts
  /// Allow stages that split the layers unevenly (LLaMA 3 trained 126 layers on 16 stages).
  bool uneven_stages = true;
  /// Megatron sequence parallelism on every candidate with tensor parallelism. Without it a
  /// mixture of experts keeps no candidate with tensor parallelism (`tensor_fits_moe`).
  bool sequence_parallel = true;
  /// Leave uncosted the feasible plans whose step's lower bound already keeps them out of the
  /// ranking and the trade-off (`search_counts::bounded`); the results are the same either way.
  bool bound_pruning = true;
};

/// Plan values with nothing but a model, a system, a batch and the default precision: the base of
/// a search space.
constexpr training_plan_values search_base(const model_shape& model, const system_figures& system,
                                           std::int64_t global_tokens, std::int64_t seq_len) {
  training_plan_values p;
  p.model = model;
  p.system = system;
  p.setup.precision = precision::bf16_mixed_adam::policy;
  p.setup.batch.global_tokens = global_tokens;
  p.setup.batch.seq_len = seq_len;
  return p;
}

/// The full space: micro-batches 1 to 8, ZeRO 0 to 3, no, selective and full recomputation,
/// GPipe, 1F1B, ZB-H1 and interleaved 1F1B with 2, 4 and 8 virtual stages; tensor parallelism
/// within the fastest level, any pipeline and context degree the rules allow.
constexpr search_space make_search_space(const training_plan_values& base, std::int64_t chips) {
  search_space s;
  s.base = base;
  s.chips = chips;
  return s;
}
constexpr search_space make_search_space(const model_shape& model, const system_figures& system,
                                         std::int64_t chips, std::int64_t global_tokens,
                                         std::int64_t seq_len) {
  return make_search_space(search_base(model, system, global_tokens, seq_len), chips);
}

/// The space `best_plan<...>()` searches in a constant expression, small enough to compile in
/// seconds (a candidate that is checked and costed takes 7,000 to 11,000 of clang's constexpr
/// steps and 10 to 40 ms of compile time). It keeps the choices that can win under the cost model
/// of `estimate_step` and drops those another choice beats on memory and time alike:
/// - ZeRO 2 and 3: stage 1 sends what stage 2 sends and holds more; plain data parallelism
///   all-reduces the same bytes (without in-network reduction) and reads the whole optimizer
///   state each step;
/// - ZB-H1 and interleaved 1F1B with 4 virtual stages: ZB-H1 keeps 1F1B's activations with a
///   third of its bubble, and GPipe keeps more with 1F1B's bubble;
/// - no or full recomputation: with a flash-attention kernel selective recomputation stores what
///   no recomputation stores and repeats the attention products (kept with `eager_attention`);
/// - micro-batches of 1 and 2; every pipeline degree; no context parallelism.
/// LLaMA-3 8B on 8 H100 is 256 candidates (100 checked); LLaMA-3 405B on 16,384 H100 is 448
/// (176 checked), about 4 s of compile time on g++ 12 and clang 14.
constexpr search_space compile_time_search_space(const training_plan_values& base,
                                                 std::int64_t chips) {
  search_space s = make_search_space(base, chips);
  s.micro_batches = {1, 2};
  s.zero_stages = {2, 3};
  s.recompute = {recompute_policy{recompute_kind::none}, recompute_policy{recompute_kind::full}};
  if (base.setup.eager_attention)
    s.recompute.push_back(recompute_policy{recompute_kind::selective});
  s.schedules = {schedule_choice{pipeline_schedule::zero_bubble, 1},
                 schedule_choice{pipeline_schedule::interleaved, 4}};
  s.max_context = 1;
  return s;
}

// --- candidates ----------------------------------------------------------------------------------

/// One candidate: the mesh's degrees and the choices the search makes.
struct plan_choice {
  std::int64_t pipeline = 1;
  std::int64_t data = 1;    ///< the `dp` axis; the data degree is data · expert
  std::int64_t expert = 1;  ///< the `ep` axis (also data-parallel); 1 for a dense model
  std::int64_t context = 1;
  std::int64_t tensor = 1;
  /// Megatron sequence parallelism on the tensor axis (only with tensor parallelism): the search
  /// sets it on every candidate with a tensor degree above 1 when the space asks for it.
  bool sequence_parallel = false;
  std::int64_t zero_stage = 0;
  std::int64_t micro_batch = 1;
  schedule_choice schedule{};
  bool uneven_stages = false;  ///< set only when the stages do not divide the layers
  recompute_policy recompute{};
};

namespace detail {

inline constexpr std::size_t max_degree_choices = 128;
using degree_list = choice_list<std::int64_t, max_degree_choices>;

/// The divisors of n up to `limit`, ascending.
constexpr degree_list divisors_up_to(std::int64_t n, std::int64_t limit) {
  degree_list small;
  degree_list large;
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    small.push_back(d);
    if (d * d != n) large.push_back(n / d);
  }
  degree_list out;
  for (std::int64_t d : small)
    if (d <= limit) out.push_back(d);
  for (std::size_t i = large.size(); i-- > 0;)
    if (large[i] <= limit) out.push_back(large[i]);
  out.overflow = out.overflow || small.overflow || large.overflow;
  return out;
}

/// The degree lists of a space: tensor, pipeline, context and expert candidates.
struct degree_lists {
  degree_list tensor;
  degree_list pipeline;
  degree_list context;
  degree_list expert;
};

constexpr std::int64_t or_default(std::int64_t limit, std::int64_t fallback) {
  return limit > 0 ? limit : fallback;
}

constexpr degree_lists degree_candidates(const search_space& s) {
  const model_shape& m = s.base.model;
  const system_figures& sys = s.base.system;
  const std::int64_t fastest = sys.level_count > 0 ? sys.levels[0].degree : 1;
  degree_lists out;
  out.tensor = divisors_up_to(s.chips, or_default(s.max_tensor, fastest));
  out.pipeline = divisors_up_to(s.chips, or_default(s.max_pipeline, m.layers));
  out.context = divisors_up_to(s.chips, or_default(s.max_context, s.chips));
  if (is_moe(m)) {
    out.expert = divisors_up_to(s.chips, or_default(s.max_expert, m.moe.experts));
  } else {
    out.expert.push_back(1);
  }
  return out;
}

/// The integer rules of `check()` on the tensor degree.
constexpr bool tensor_divides_model(const model_shape& m, std::int64_t t) {
  if (m.heads % t != 0) return false;
  if (m.mla.kv_lora_rank == 0 && m.kv_heads % t != 0 && m.kv_heads != 1) return false;
  if (dense_layer_count(m) > 0 && m.d_ff % t != 0) return false;
  if (is_moe(m) && m.moe.expert_d_ff % t != 0) return false;
  return true;
}

/// Whether a tensor degree can run a mixture of experts: Megatron-LM's MoE layer refuses tensor
/// parallelism without sequence parallelism in training, at its first forward pass
/// (`MoELayer.forward` in megatron/core/transformer/moe/moe_layer.py, NVIDIA/Megatron-LM
/// d98e8a64ddf34856e74b24714e3bedb2f5a39553: `if self.training and self.attn_tp_group.size() > 1
/// and not self.config.sequence_parallel: raise ValueError(...)`), so the search never ranks
/// such a plan.
constexpr bool tensor_fits_moe(const model_shape& m, std::int64_t t, bool sequence_parallel) {
  return t == 1 || sequence_parallel || !is_moe(m);
}

/// Whether `chunks` pipeline chunks split the layers, evenly or (when allowed) not.
constexpr bool chunks_fit_layers(std::int64_t layers, std::int64_t chunks, bool uneven) {
  return layers % chunks == 0 || (uneven && layers >= chunks);
}

constexpr bool valid_schedule(const schedule_choice& c) {
  return c.kind == pipeline_schedule::interleaved ? c.virtual_stages >= 2 : c.virtual_stages == 1;
}

}  // namespace detail

/// The rules a search space keeps, in the order `search_space_violation_of` checks them.
enum class search_rule : std::uint8_t {
  none,
  chips_positive,
  chips_within_system,
  batch_positive,
  batch_whole_sequences,
  choices_given,
  choices_within_capacity,
  micro_batches_positive,
  zero_stage_exists,
  schedule_virtual_stages,
  checkpoints_positive,
  divisors_within_capacity,
};

/// The choice lists of a search space, to name the one a rule is about.
enum class search_choice_list : std::uint8_t { micro_batches, zero_stages, recompute, schedules };

/// The first rule a space breaks and its numbers (what `a` and `b` are depends on the rule:
/// chips and the system's chips, tokens and sequence length, a list, a wrong choice).
struct search_space_violation {
  search_rule rule = search_rule::none;
  std::int64_t a = 0;
  std::int64_t b = 0;
};

/// The message of a search-space rule (empty for `none`).
constexpr std::string_view rule_text(search_rule r) {
  switch (r) {
    case search_rule::none:
      return {};
    case search_rule::chips_positive:
      return "shardplan: a search needs a positive chip count";
    case search_rule::chips_within_system:
      return "shardplan: a search cannot use more chips than the system has";
    case search_rule::batch_positive:
      return "shardplan: a search needs positive global tokens and sequence length";
    case search_rule::batch_whole_sequences:
      return "shardplan: the global batch must be whole sequences";
    case search_rule::choices_given:
      return "shardplan: every choice list of a search space needs at least one choice";
    case search_rule::choices_within_capacity:
      return "shardplan: a choice list of a search space holds at most its capacity";
    case search_rule::micro_batches_positive:
      return "shardplan: micro-batches of a search must be positive";
    case search_rule::zero_stage_exists:
      return "shardplan: the zero stage must be 0, 1, 2 or 3";
    case search_rule::schedule_virtual_stages:
      return "shardplan: an interleaved schedule has 2 or more virtual stages, any other has 1";
    case search_rule::checkpoints_positive:
      return "shardplan: checkpointed recomputation keeps at least one tensor per layer";
    case search_rule::divisors_within_capacity:
      return "shardplan: the chip count has more divisors than a search holds (128)";
  }
  return {};
}

/// The first rule `s` breaks, with its numbers; `search_rule::none` for a space that can be
/// searched. Search entry points check this first.
constexpr search_space_violation search_space_violation_of(const search_space& s) {
  using r = search_rule;
  using list = search_choice_list;
  auto code = [](list l) { return static_cast<std::int64_t>(l); };
  const batch_settings& b = s.base.setup.batch;
  if (s.chips <= 0) return {r::chips_positive, s.chips, 0};
  if (s.chips > s.base.system.chips) return {r::chips_within_system, s.chips, s.base.system.chips};
  if (b.global_tokens <= 0 || b.seq_len <= 0)
    return {r::batch_positive, b.global_tokens, b.seq_len};
  if (b.global_tokens % b.seq_len != 0)
    return {r::batch_whole_sequences, b.global_tokens, b.seq_len};
  if (s.micro_batches.size() == 0) return {r::choices_given, code(list::micro_batches), 0};
  if (s.zero_stages.size() == 0) return {r::choices_given, code(list::zero_stages), 0};
  if (s.recompute.size() == 0) return {r::choices_given, code(list::recompute), 0};
  if (s.schedules.size() == 0) return {r::choices_given, code(list::schedules), 0};
  auto capacity = [](const auto& l) { return static_cast<std::int64_t>(l.items.size()); };
  if (s.micro_batches.overflow)
    return {r::choices_within_capacity, code(list::micro_batches), capacity(s.micro_batches)};
  if (s.zero_stages.overflow)
    return {r::choices_within_capacity, code(list::zero_stages), capacity(s.zero_stages)};
  if (s.recompute.overflow)
    return {r::choices_within_capacity, code(list::recompute), capacity(s.recompute)};
  if (s.schedules.overflow)
    return {r::choices_within_capacity, code(list::schedules), capacity(s.schedules)};
  for (std::int64_t mb : s.micro_batches)
    if (mb <= 0) return {r::micro_batches_positive, mb, 0};
  for (std::int64_t z : s.zero_stages)
    if (z < 0 || z > 3) return {r::zero_stage_exists, z, 0};
  for (const schedule_choice& c : s.schedules)
    if (!detail::valid_schedule(c))
      return {r::schedule_virtual_stages, static_cast<std::int64_t>(c.kind), c.virtual_stages};
  for (const recompute_policy& rp : s.recompute)
    if (rp.kind == recompute_kind::checkpoints && rp.checkpoints_per_layer <= 0)
      return {r::checkpoints_positive, rp.checkpoints_per_layer, 0};
  const detail::degree_lists d = detail::degree_candidates(s);
  if (d.tensor.overflow || d.pipeline.overflow || d.context.overflow || d.expert.overflow)
    return {r::divisors_within_capacity, s.chips,
            static_cast<std::int64_t>(detail::max_degree_choices)};
  return {};
}

/// Why a space cannot be searched, or empty: the message of `search_space_violation_of(s)`.
constexpr std::string_view search_space_problem(const search_space& s) {
  return rule_text(search_space_violation_of(s).rule);
}

/// Candidates of a space: the product of every list (degrees, ZeRO stages, micro-batches,
/// schedules, recomputation). The search walks them in this order, outermost first.
constexpr std::int64_t candidate_count(const search_space& s) {
  const detail::degree_lists d = detail::degree_candidates(s);
  auto n = [](std::size_t x) { return static_cast<std::int64_t>(x); };
  return n(d.tensor.size()) * n(d.pipeline.size()) * n(d.context.size()) * n(d.expert.size()) *
         n(s.zero_stages.size()) * n(s.micro_batches.size()) * n(s.schedules.size()) *
         n(s.recompute.size());
}

/// The degrees and options of a candidate, as `make_training_plan` takes them. Sequence
/// parallelism is the candidate's, set only with tensor parallelism (as
/// `tensor<"tp", sequence_parallel>` sets it).
constexpr parallel_config config_of(const plan_choice& c) {
  parallel_config out;
  out.data = c.data * c.expert;
  out.tensor = c.tensor;
  out.pipeline = c.pipeline;
  out.context = c.context;
  out.expert = c.expert;
  out.zero_stage = c.zero_stage;
  out.sequence_parallel = c.sequence_parallel && c.tensor > 1;
  out.schedule = c.schedule.kind;
  out.virtual_stages = c.schedule.virtual_stages;
  out.uneven_stages = c.uneven_stages;
  return out;
}

/// The mesh of a candidate with its roles and degrees (`make_training_plan`, then the base's
/// step assumptions). A single chip keeps a data axis of size 1, as a mesh type needs an axis.
constexpr training_plan_values mesh_values(const search_space& s, const plan_choice& c) {
  training_plan_values p =
      make_training_plan(s.base.model, s.base.system, config_of(c), s.base.setup);
  p.assumptions = s.base.assumptions;
  if (p.axis_count == 0) {
    p.axes[p.axis_count++] = {"dp", 1, role_data, {}};
    p = with_degrees(p);
  }
  return p;
}

/// Sets the micro-batch, schedule and recomputation of a candidate on its mesh's values.
constexpr void apply_choice(training_plan_values& p, const plan_choice& c) {
  p.setup.batch.micro_batch = c.micro_batch;
  p.setup.degrees.schedule = c.schedule.kind;
  p.setup.degrees.virtual_stages = c.schedule.virtual_stages;
  p.setup.degrees.uneven_stages = c.uneven_stages;
  p.setup.recompute = c.recompute;
}

/// A candidate's plan values: exactly what `best_plan_t` builds through the type layer.
constexpr training_plan_values plan_values(const search_space& s, const plan_choice& c) {
  training_plan_values p = mesh_values(s, c);
  apply_choice(p, c);
  return p;
}

// --- results -------------------------------------------------------------------------------------

/// What happened to the candidates of a space (or of a range of it).
struct search_counts {
  std::int64_t enumerated = 0;  ///< candidates walked (the product of every list)
  /// Candidates that name a plan another candidate already is: a schedule without a pipeline,
  /// a ZeRO stage without data parallelism, or a recomputation that changes neither the memory
  /// nor the step of a plan that fits (selective under FlashAttention repeats none).
  std::int64_t duplicates = 0;
  /// Broke a divisibility rule of `check()`, found by integer tests before any plan is built
  /// (whole subtrees at once: a tensor degree that does not divide the heads prunes every
  /// candidate under it), or tensor parallelism on a mixture of experts without sequence
  /// parallelism, which Megatron-LM refuses (`detail::tensor_fits_moe`).
  std::int64_t pruned_by_rule = 0;
  std::int64_t over_memory = 0;        ///< `check()` found only that they do not fit in memory
  std::int64_t rejected_by_check = 0;  ///< `check()` found another rule broken (never expected)
  std::int64_t feasible = 0;           ///< passed `check()`
  /// Feasible, but left uncosted: their step's lower bound (`step_lower_bound`) already puts
  /// them behind the ranking's last plan and under a point of the memory/time trade-off, so
  /// neither could take them (only when no visitor looks at the candidates).
  std::int64_t bounded = 0;

  /// Candidates built as plan values and judged by `check()`.
  constexpr std::int64_t checked() const { return over_memory + rejected_by_check + feasible; }
};

/// A costed candidate: its choice, memory per device (bytes), step time (s) and index.
struct ranked_plan {
  plan_choice choice{};
  double memory = 0.0;
  double step = 0.0;
  std::int64_t index = -1;
  /// The step before `step_total` held it to the best measured MFU (= `step` when not held):
  /// plans held to the same floor still rank by what the model says of them.
  double uncapped_step = 0.0;
};

/// Faster, then faster before the MFU ceiling, then smaller, then earlier: the order the search
/// ranks plans in (a total order, so a search split into ranges finds the same best plan).
constexpr bool ranks_before(const ranked_plan& a, const ranked_plan& b) {
  if (a.step != b.step) return a.step < b.step;
  if (a.uncapped_step != b.uncapped_step) return a.uncapped_step < b.uncapped_step;
  if (a.memory != b.memory) return a.memory < b.memory;
  return a.index < b.index;
}

inline constexpr std::size_t max_ranking = 10;
inline constexpr std::size_t max_front = 32;

/// The fastest feasible plans, fastest first.
struct plan_ranking {
  std::array<ranked_plan, max_ranking> plans{};
  std::size_t count = 0;

  /// Whether a plan whose step is more than `step` could not enter the ranking.
  constexpr bool full_below(double step) const {
    return count == max_ranking && step > plans[count - 1].step;
  }

  constexpr void add(const ranked_plan& x) {
    if (count == max_ranking && !ranks_before(x, plans[count - 1])) return;
    std::size_t i = count < max_ranking ? count++ : count - 1;
    for (; i > 0 && ranks_before(x, plans[i - 1]); --i) plans[i] = plans[i - 1];
    plans[i] = x;
  }
};

/// The memory/time trade-off: feasible plans no other plan beats on both memory per device and
/// step time, by memory ascending (and so by step time descending).
struct pareto_front {
  std::array<ranked_plan, max_front> plans{};
  std::size_t count = 0;
  bool truncated = false;  ///< more than `max_front` points; the largest-memory ones were dropped

  /// Whether a point of the front needs no more memory than `memory` and no more time than
  /// `step`: a later plan of that memory and a step of at least `step` would not be added.
  constexpr bool covers(double memory, double step) const {
    for (std::size_t i = 0; i < count; ++i)
      if (plans[i].memory <= memory && plans[i].step <= step) return true;
    return false;
  }

  constexpr void add(const ranked_plan& x) {
    for (std::size_t i = 0; i < count; ++i) {
      const ranked_plan& y = plans[i];
      if (y.memory <= x.memory && y.step <= x.step &&
          (y.memory < x.memory || y.step < x.step || y.index < x.index))
        return;  // dominated, or the same point found earlier
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const ranked_plan& y = plans[i];
      const bool dominated = x.memory <= y.memory && x.step <= y.step;
      if (!dominated) plans[kept++] = y;
    }
    count = kept;
    if (count == max_front) {
      truncated = true;
      if (x.memory >= plans[count - 1].memory) return;
      --count;
    }
    std::size_t i = count++;
    for (; i > 0 && x.memory < plans[i - 1].memory; --i) plans[i] = plans[i - 1];
    plans[i] = x;
  }
};

/// The outcome of searching a range of a space, before the best plan is rebuilt: what
/// `search_range` returns and `merge` combines.
struct search_partial {
  bool found = false;
  ranked_plan best{};
  search_counts counts{};
  plan_ranking ranking{};
  pareto_front front{};
};

/// The best plan of a space, its values, cost and memory, the fastest plans and the trade-off.
struct search_result {
  std::string_view problem;  ///< why the space could not be searched (empty when it could)
  bool found = false;        ///< some candidate is feasible
  plan_choice choice{};      ///< the best candidate
  training_plan_values best{};
  step_cost cost{};  ///< `estimate_step(best)`
  /// The best plan's MFU (`cost.mfu`), for `static_assert(best_plan<...>().mfu > 0.4)`.
  double mfu = 0.0;
  memory_breakdown memory{};
  search_counts counts{};
  plan_ranking ranking{};  ///< the fastest feasible plans, the best first
  pareto_front front{};
};

/// Combines the outcomes of two ranges of one space.
constexpr search_partial merge(const search_partial& a, const search_partial& b) {
  search_partial out = a;
  if (b.found && (!a.found || ranks_before(b.best, a.best))) out.best = b.best;
  out.found = a.found || b.found;
  out.counts.enumerated += b.counts.enumerated;
  out.counts.duplicates += b.counts.duplicates;
  out.counts.pruned_by_rule += b.counts.pruned_by_rule;
  out.counts.over_memory += b.counts.over_memory;
  out.counts.rejected_by_check += b.counts.rejected_by_check;
  out.counts.feasible += b.counts.feasible;
  out.counts.bounded += b.counts.bounded;
  for (std::size_t i = 0; i < b.ranking.count; ++i) out.ranking.add(b.ranking.plans[i]);
  for (std::size_t i = 0; i < b.front.count; ++i) out.front.add(b.front.plans[i]);
  out.front.truncated = out.front.truncated || b.front.truncated;
  return out;
}

/// One candidate that reached `check()`, as a visitor of the search sees it.
struct search_candidate {
  const training_plan_values& plan;
  const plan_choice& choice;
  std::int64_t index;
  const plan_violations& violations;  ///< empty when the plan is feasible
  bytes memory;                       ///< per device (from `check()` when it does not fit)
  const step_cost* cost;              ///< the estimate when feasible, else null
};

/// The visitor that looks at nothing (the search's default).
struct ignore_candidates {
  constexpr void operator()(const search_candidate&) const {}
};

/// Searches candidates [first, last) of the space (in `candidate_count` order), calling
/// `visit(search_candidate)` for each candidate that passes the integer rules. Assumes a valid
/// space (`search_space_problem` empty). Candidates are pruned cheaply before any plan is built:
/// tensor degrees against heads, kv heads and widths (and, for a mixture of experts without
/// sequence parallelism, every tensor degree above 1), pipeline chunks against layers, context
/// against the sequence, the data degree and micro-batch against the sequences, interleaving
/// against the micro-batches; the rest goes through `check_plan` (which gives the memory), and the
/// feasible through `compute_stage` and, unless their step's lower bound already keeps them out
/// of the ranking and the trade-off (`search_space::bound_pruning`, without a visitor), the rest
/// of `estimate_step`.
template <class Visitor>
constexpr search_partial search_range(const search_space& s, std::int64_t first, std::int64_t last,
                                      Visitor&& visit) {
  // Whether a visitor looks at the candidates (then every feasible one is costed for it).
  constexpr bool watched = !std::is_same_v<std::remove_cvref_t<Visitor>, ignore_candidates>;
  search_partial r;
  const model_shape& m = s.base.model;
  const parameter_counts counts = parameters(m);
  const batch_settings& batch = s.base.setup.batch;
  const std::int64_t sequences = batch.global_tokens / batch.seq_len;
  const detail::degree_lists d = detail::degree_candidates(s);
  auto n = [](std::size_t x) { return static_cast<std::int64_t>(x); };
  const std::int64_t per_recompute = 1;
  const std::int64_t per_schedule = per_recompute * n(s.recompute.size());
  const std::int64_t per_micro_batch = per_schedule * n(s.schedules.size());
  const std::int64_t per_zero = per_micro_batch * n(s.micro_batches.size());
  const std::int64_t per_expert = per_zero * n(s.zero_stages.size());
  const std::int64_t per_context = per_expert * n(d.expert.size());
  const std::int64_t per_pipeline = per_context * n(d.context.size());
  const std::int64_t per_tensor = per_pipeline * n(d.pipeline.size());
  const std::int64_t total = per_tensor * n(d.tensor.size());
  if (last > total) last = total;
  if (first < 0) first = 0;
  if (first >= last) return r;
  r.counts.enumerated = last - first;

  // `index` is the first candidate of the subtree in hand. A subtree outside [first, last) is
  // stepped over; one that breaks a rule is counted (its part inside the range) and stepped over.
  std::int64_t index = 0;
  enum class verdict { descend, outside, broken, duplicate };
  auto judge = [&](std::int64_t size, bool ok, bool duplicate) {
    const std::int64_t lo = index > first ? index : first;
    const std::int64_t hi = index + size < last ? index + size : last;
    if (hi <= lo) return verdict::outside;
    if (duplicate) {
      r.counts.duplicates += hi - lo;
      return verdict::duplicate;
    }
    if (!ok) {
      r.counts.pruned_by_rule += hi - lo;
      return verdict::broken;
    }
    return verdict::descend;
  };

  plan_choice c;
  for (std::int64_t t : d.tensor) {
    const bool t_ok =
        detail::tensor_divides_model(m, t) && detail::tensor_fits_moe(m, t, s.sequence_parallel);
    if (judge(per_tensor, t_ok, false) != verdict::descend) {
      index += per_tensor;
      continue;
    }
    c.tensor = t;
    c.sequence_parallel = s.sequence_parallel && t > 1;
    for (std::int64_t p : d.pipeline) {
      const bool p_ok =
          (s.chips / t) % p == 0 && detail::chunks_fit_layers(m.layers, p, s.uneven_stages);
      if (judge(per_pipeline, p_ok, false) != verdict::descend) {
        index += per_pipeline;
        continue;
      }
      c.pipeline = p;
      for (std::int64_t cp : d.context) {
        const bool cp_ok = (s.chips / (t * p)) % cp == 0 &&
                           (cp == 1 || batch.seq_len % (context_load_balanced ? 2 * cp : cp) == 0);
        if (judge(per_context, cp_ok, false) != verdict::descend) {
          index += per_context;
          continue;
        }
        c.context = cp;
        for (std::int64_t e : d.expert) {
          const std::int64_t rest = s.chips / (t * p * cp);
          const bool e_ok = rest % e == 0 && (!is_moe(m) || m.moe.experts % e == 0) &&
                            sequences % rest == 0;  // rest = dp · ep is the data degree
          if (judge(per_expert, e_ok, false) != verdict::descend) {
            index += per_expert;
            continue;
          }
          c.expert = e;
          c.data = rest / e;
          // What depends only on the sharding, the micro-batch and the recomputation is timed
          // once per mesh: one entry per micro-batch and recomputation choice.
          std::array<layer_times, max_search_choices * max_search_choices> timed{};
          std::array<bool, max_search_choices * max_search_choices> have{};
          const std::int64_t per_replica = sequences / rest;
          for (std::size_t zi = 0; zi < s.zero_stages.size(); ++zi) {
            // Without data parallelism ZeRO shards nothing: one plan, plain data parallelism.
            if (judge(per_zero, true, rest == 1 && zi > 0) != verdict::descend) {
              index += per_zero;
              continue;
            }
            c.zero_stage = rest == 1 ? 0 : s.zero_stages[zi];
            training_plan_values plan = mesh_values(s, c);
            for (std::size_t mi = 0; mi < s.micro_batches.size(); ++mi) {
              const std::int64_t mb = s.micro_batches[mi];
              if (judge(per_micro_batch, per_replica % mb == 0, false) != verdict::descend) {
                index += per_micro_batch;
                continue;
              }
              c.micro_batch = mb;
              const std::int64_t micro_batches = per_replica / mb;
              for (std::size_t si = 0; si < s.schedules.size(); ++si) {
                // Without a pipeline the schedule means nothing: one plan, 1F1B.
                const schedule_choice sc = p == 1 ? schedule_choice{} : s.schedules[si];
                const std::int64_t chunks = p * sc.virtual_stages;
                const bool s_ok =
                    detail::chunks_fit_layers(m.layers, chunks, s.uneven_stages) &&
                    (sc.kind != pipeline_schedule::interleaved || micro_batches % p == 0);
                if (judge(per_schedule, s_ok, p == 1 && si > 0) != verdict::descend) {
                  index += per_schedule;
                  continue;
                }
                c.schedule = sc;
                c.uneven_stages = m.layers % chunks != 0;
                // A recomputation that changes neither a feasible plan's memory nor its step
                // (Megatron's selective under FlashAttention, which keeps no scores to drop) is
                // the same plan as the earlier choice it repeats. Each choice's memory (negative:
                // not feasible) and step (negative: not yet costed), found once, also for
                // choices before `first`.
                std::array<double, max_search_choices> rc_memory{}, rc_step{};
                std::array<bool, max_search_choices> rc_have{};
                // The layer times of recomputation choice `ri` on this mesh and micro-batch.
                auto layer_times_of = [&](const training_plan_values& x,
                                          std::size_t ri) -> const layer_times& {
                  const std::size_t slot = mi * max_search_choices + ri;
                  if (!have[slot]) {
                    timed[slot] = time_layers(x, x.assumptions);
                    have[slot] = true;
                  }
                  return timed[slot];
                };
                auto twin_of = [&](std::size_t rj) {
                  plan_choice tc = c;
                  tc.recompute = s.recompute[rj];
                  training_plan_values twin = plan;
                  apply_choice(twin, tc);
                  return twin;
                };
                auto memory_of = [&](std::size_t rj) {
                  if (!rc_have[rj]) {
                    const plan_check k = check_plan(twin_of(rj), counts, !watched);
                    rc_memory[rj] = k.violations.empty() ? k.memory.total.value() : -1.0;
                    rc_step[rj] = -1.0;
                    rc_have[rj] = true;
                  }
                  return rc_memory[rj];
                };
                auto step_of = [&](std::size_t rj) {
                  if (rc_step[rj] < 0.0 && memory_of(rj) >= 0.0) {
                    const training_plan_values twin = twin_of(rj);
                    rc_step[rj] =
                        estimate_step(twin, twin.assumptions, layer_times_of(twin, rj)).step.value();
                  }
                  return rc_step[rj];
                };
                for (std::size_t ri = 0; ri < s.recompute.size(); ++ri) {
                  const recompute_policy& rp = s.recompute[ri];
                  if (judge(per_recompute, true, false) != verdict::descend) {
                    index += per_recompute;
                    continue;
                  }
                  c.recompute = rp;
                  apply_choice(plan, c);
                  const plan_check k = check_plan(plan, counts, !watched);
                  const plan_violations& v = k.violations;
                  const double memory = v.empty() ? k.memory.total.value() : -1.0;
                  rc_memory[ri] = memory;
                  rc_step[ri] = -1.0;
                  rc_have[ri] = true;
                  step_cost cost{};
                  bool repeats = false;
                  if (v.empty()) {
                    // An earlier choice of the same memory may be the same plan: cost both.
                    bool same_memory = false;
                    for (std::size_t rj = 0; rj < ri && !same_memory; ++rj)
                      same_memory = memory_of(rj) == memory;
                    const step_compute compute =
                        compute_stage(plan, plan.assumptions, layer_times_of(plan, ri));
                    const double bound = step_lower_bound(plan, compute).value();
                    if (s.bound_pruning && !same_memory && !watched &&
                        r.ranking.full_below(bound) && r.front.covers(memory, bound)) {
                      ++r.counts.feasible;
                      ++r.counts.bounded;
                      ++index;
                      continue;
                    }
                    cost = estimate_step(plan, plan.assumptions, compute);
                    rc_step[ri] = cost.step.value();
                    for (std::size_t rj = 0; rj < ri && same_memory && !repeats; ++rj)
                      repeats = memory_of(rj) == memory && step_of(rj) == rc_step[ri];
                  }
                  if (repeats) {
                    ++r.counts.duplicates;
                    ++index;
                    continue;
                  }
                  if (!v.empty()) {
                    const bool memory_only =
                        v.count == 1 && v.items[0].rule == plan_rule::fits_in_memory;
                    if (memory_only) {
                      ++r.counts.over_memory;
                    } else {
                      ++r.counts.rejected_by_check;
                    }
                    if constexpr (watched) {
                      const bytes needed =
                          v.has(plan_rule::fits_in_memory)
                              ? plan_checks::first(v, plan_rule::fits_in_memory).a * byte
                              : 0.0 * byte;
                      visit(search_candidate{plan, c, index, v, needed, nullptr});
                    }
                  } else {
                    ++r.counts.feasible;
                    const ranked_plan x{c, memory, cost.step.value(), index,
                                        cost.uncapped_step.value()};
                    if (!r.found || ranks_before(x, r.best)) r.best = x;
                    r.found = true;
                    r.ranking.add(x);
                    r.front.add(x);
                    if constexpr (watched)
                      visit(search_candidate{plan, c, index, v, memory * byte, &cost});
                  }
                  ++index;
                }
              }
            }
          }
        }
      }
    }
  }
  return r;
}

/// Rebuilds the best plan of a finished search: its values, cost and memory.
constexpr search_result finish(const search_space& s, const search_partial& r) {
  search_result out;
  out.found = r.found;
  out.counts = r.counts;
  out.ranking = r.ranking;
  out.front = r.front;
  if (r.found) {
    out.choice = r.best.choice;
    out.best = plan_values(s, r.best.choice);
    out.cost = estimate_step(out.best);
    out.mfu = out.cost.mfu;
    out.memory = memory_per_device(out.best.model, out.best.setup);
  }
  return out;
}

/// Searches the whole space, calling `visit` for every candidate that reaches `check()`. Runs at
/// run time and in constant expressions (with the no-op visitor, within one expression's limits:
/// about 100 checked and costed candidates under clang's default 1,048,576 steps, at 7,000 to
/// 11,000 steps each; `constexpr_search` splits larger spaces).
template <class Visitor>
constexpr search_result search(const search_space& s, Visitor&& visit) {
  const std::string_view problem = search_space_problem(s);
  if (!problem.empty()) {
    search_result out;
    out.problem = problem;
    return out;
  }
  return finish(s, search_range(s, 0, candidate_count(s), visit));
}
constexpr search_result search(const search_space& s) { return search(s, ignore_candidates{}); }

/// A ranked candidate's plan values, rebuilt from a finished search (`r.found`): every
/// candidate of a space shares the best plan's model, system, batch, precision, reserve and
/// assumptions, and `plan_values` sets the rest from the choice. For the best choice it is
/// `r.best`; for each plan of `r.ranking` and `r.front` it is what the search checked and costed.
constexpr training_plan_values plan_values(const search_result& r, const plan_choice& c) {
  search_space s;
  s.base = r.best;
  return plan_values(s, c);
}

// --- compile time --------------------------------------------------------------------------------

/// Candidates one constant expression of a compile-time search takes. A checked and costed
/// candidate costs 7,000 to 11,000 clang steps (check about 2,300, estimate_step most of the
/// rest): 32 of them, all feasible, took 359,000 of clang 14's default 1,048,576
/// steps (measured on LLaMA-3 405B), a margin of almost three for a growing cost model. g++'s
/// limits (2^33 operations, 262,144 loop iterations) are far away.
inline constexpr std::int64_t constexpr_search_chunk = 32;

/// Value traits whose template arguments carry a broken search-space rule's numbers into the
/// diagnostic, as `plan_checks` does for plans: a rule the space keeps passes `kept`.
namespace search_checks {
// clang-format off
struct chips { std::int64_t value; };
struct system_chips { std::int64_t value; };
struct global_tokens { std::int64_t value; };
struct sequence_length { std::int64_t value; };
struct choices { std::int64_t value; };
struct capacity { std::int64_t value; };
struct micro_batch { std::int64_t value; };
struct zero_stage { std::int64_t value; };
struct virtual_stages { std::int64_t value; };
struct checkpoints_per_layer { std::int64_t value; };
struct divisors_held { std::int64_t value; };
// clang-format on

inline constexpr std::int64_t kept = plan_checks::kept;

template <chips C>
struct chips_positive {
  static constexpr bool value = C.value == kept || C.value > 0;
};
template <chips C, system_chips S>
struct chips_within_system {
  static constexpr bool value = C.value == kept || C.value <= S.value;
};
template <global_tokens T, sequence_length S>
struct batch_positive {
  static constexpr bool value = T.value == kept || (T.value > 0 && S.value > 0);
};
template <global_tokens T, sequence_length S>
struct batch_whole_sequences {
  static constexpr bool value = T.value == kept || (S.value > 0 && T.value % S.value == 0);
};
template <search_choice_list L, choices N>
struct choice_list_not_empty {
  static constexpr bool value = N.value == kept || N.value > 0;
};
template <search_choice_list L, capacity C>
struct choice_list_within_capacity {
  static constexpr bool value = C.value == kept;
};
template <micro_batch B>
struct micro_batches_positive {
  static constexpr bool value = B.value == kept || B.value > 0;
};
template <zero_stage Z>
struct zero_stage_exists {
  static constexpr bool value = Z.value == kept || (Z.value >= 0 && Z.value <= 3);
};
template <pipeline_schedule S, virtual_stages V>
struct schedule_virtual_stages {
  static constexpr bool value =
      V.value == kept || (S == pipeline_schedule::interleaved ? V.value >= 2 : V.value == 1);
};
template <checkpoints_per_layer N>
struct checkpoints_positive {
  static constexpr bool value = N.value == kept || N.value > 0;
};
template <chips C, divisors_held D>
struct divisors_within_capacity {
  static constexpr bool value = C.value == kept;
};

}  // namespace search_checks

/// The search of `SpaceSpec::space` (a `static constexpr search_space`) at compile time, split
/// into ranges of `constexpr_search_chunk` candidates, each its own constant expression, merged
/// pairwise in a tree of constant expressions. The result is the one `search` returns.
///
/// The space is checked first: a broken rule fails compilation with its message and numbers
/// (`search_space_violation_of`), one static_assert per rule, each in a class of its own (as
/// `require_feasible` does), and nothing is searched.
template <class SpaceSpec>
struct constexpr_search {
  static constexpr const search_space& space = SpaceSpec::space;
  static constexpr search_space_violation violation = search_space_violation_of(SpaceSpec::space);
  static constexpr bool valid = violation.rule == search_rule::none;
  using r = search_rule;
  template <search_rule R>
  static constexpr std::int64_t a = violation.rule == R ? violation.a : search_checks::kept;
  template <search_rule R>
  static constexpr std::int64_t b = violation.rule == R ? violation.b : search_checks::kept;
  static constexpr search_choice_list list = static_cast<search_choice_list>(
      violation.rule == r::choices_given || violation.rule == r::choices_within_capacity
          ? violation.a
          : 0);
  // clang-format off
  struct rule_1 { using check = search_checks::chips_positive<
      search_checks::chips{a<r::chips_positive>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: a search needs a positive chip count", check); } rule_1_;
  struct rule_2 { using check = search_checks::chips_within_system<
      search_checks::chips{a<r::chips_within_system>},
      search_checks::system_chips{b<r::chips_within_system>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: a search cannot use more chips than the system has", check); } rule_2_;
  struct rule_3 { using check = search_checks::batch_positive<
      search_checks::global_tokens{a<r::batch_positive>},
      search_checks::sequence_length{b<r::batch_positive>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: a search needs positive global tokens and sequence length", check); } rule_3_;
  struct rule_4 { using check = search_checks::batch_whole_sequences<
      search_checks::global_tokens{a<r::batch_whole_sequences>},
      search_checks::sequence_length{b<r::batch_whole_sequences>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: the global batch must be whole sequences", check); } rule_4_;
  struct rule_5 { using check = search_checks::choice_list_not_empty<list,
      search_checks::choices{violation.rule == r::choices_given ? 0 : search_checks::kept}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: every choice list of a search space needs at least one choice", check); } rule_5_;
  struct rule_6 { using check = search_checks::choice_list_within_capacity<list,
      search_checks::capacity{b<r::choices_within_capacity>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: a choice list of a search space holds at most its capacity", check); } rule_6_;
  struct rule_7 { using check = search_checks::micro_batches_positive<
      search_checks::micro_batch{a<r::micro_batches_positive>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: micro-batches of a search must be positive", check); } rule_7_;
  struct rule_8 { using check = search_checks::zero_stage_exists<
      search_checks::zero_stage{a<r::zero_stage_exists>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: the zero stage must be 0, 1, 2 or 3", check); } rule_8_;
  struct rule_9 { using check = search_checks::schedule_virtual_stages<
      static_cast<pipeline_schedule>(violation.rule == r::schedule_virtual_stages ? violation.a : 0),
      search_checks::virtual_stages{b<r::schedule_virtual_stages>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: an interleaved schedule has 2 or more virtual stages, any other has 1",
      check); } rule_9_;
  struct rule_10 { using check = search_checks::checkpoints_positive<
      search_checks::checkpoints_per_layer{a<r::checkpoints_positive>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: checkpointed recomputation keeps at least one tensor per layer",
      check); } rule_10_;
  struct rule_11 { using check = search_checks::divisors_within_capacity<
      search_checks::chips{a<r::divisors_within_capacity>},
      search_checks::divisors_held{b<r::divisors_within_capacity>}>;
    SHARDPLAN_RULE(check::value,
      "shardplan: the chip count has more divisors than a search holds (128)", check); } rule_11_;
  // clang-format on

  static constexpr std::int64_t total = valid ? candidate_count(SpaceSpec::space) : 0;
  static constexpr std::int64_t chunks =
      (total + constexpr_search_chunk - 1) / constexpr_search_chunk;

  template <std::int64_t First, std::int64_t Last>
  static constexpr search_partial range() {
    if constexpr (Last - First <= 1) {
      return search_range(space, First * constexpr_search_chunk, Last * constexpr_search_chunk,
                          ignore_candidates{});
    } else {
      return merge(part<First, (First + Last) / 2>, part<(First + Last) / 2, Last>);
    }
  }
  /// Chunks [First, Last), one constant expression each.
  template <std::int64_t First, std::int64_t Last>
  static constexpr search_partial part = range<First, Last>();

  static constexpr search_result searched() {
    if constexpr (valid) {
      return finish(space, part<0, (chunks > 0 ? chunks : 1)>);
    } else {
      search_result out;
      out.problem = rule_text(violation.rule);
      return out;
    }
  }
  static constexpr search_result result = searched();
};

namespace detail {

/// The base values of a plan of `Model` on `System` with `Options` applied, as the type layer
/// applies them.
template <ModelSpec Model, SystemSpec System, PlanOptionSpec... Options>
constexpr training_plan_values search_base_of(std::int64_t global_tokens, std::int64_t seq_len) {
  training_plan_values p =
      search_base(checked_shape<Model>(), checked_system<System>(), global_tokens, seq_len);
  (apply_option<Options>(p), ...);
  return p;
}

/// The compile-time search space of `best_plan`.
template <ModelSpec Model, SystemSpec System, std::int64_t Chips, std::int64_t GlobalTokens,
          std::int64_t SeqLen, PlanOptionSpec... Options>
struct default_search_space {
  static constexpr search_space space = compile_time_search_space(
      search_base_of<Model, System, Options...>(GlobalTokens, SeqLen), Chips);
};

template <pipeline_schedule Kind, std::int64_t V>
struct schedule_type {
  using type = schedule::one_f_one_b;
};
template <std::int64_t V>
struct schedule_type<pipeline_schedule::gpipe, V> {
  using type = schedule::gpipe;
};
template <std::int64_t V>
struct schedule_type<pipeline_schedule::zero_bubble, V> {
  using type = schedule::zero_bubble;
};
template <std::int64_t V>
struct schedule_type<pipeline_schedule::interleaved, V> {
  using type = schedule::interleaved<V>;
};

template <recompute_kind Kind, std::int64_t N>
struct recompute_type {
  using type = recompute::selective;
};
template <std::int64_t N>
struct recompute_type<recompute_kind::none, N> {
  using type = recompute::none;
};
template <std::int64_t N>
struct recompute_type<recompute_kind::full, N> {
  using type = recompute::full;
};
template <std::int64_t N>
struct recompute_type<recompute_kind::checkpoints, N> {
  using type = recompute::checkpoints<N>;
};
template <std::int64_t N>
struct recompute_type<recompute_kind::mlp, N> {
  using type = recompute::mlp;
};

}  // namespace detail

namespace detail {

template <class... Ts>
struct type_list {};

template <class... Lists>
struct concat {
  using type = type_list<>;
};
template <class... A>
struct concat<type_list<A...>> {
  using type = type_list<A...>;
};
template <class... A, class... B, class... Rest>
struct concat<type_list<A...>, type_list<B...>, Rest...> {
  using type = typename concat<type_list<A..., B...>, Rest...>::type;
};

/// `type_list<T>` when `Keep`, else the empty list.
template <bool Keep, class T>
using keep_if = std::conditional_t<Keep, type_list<T>, type_list<>>;

/// Data parallelism (ZeRO at `Stage`) over the data axes present: dp, ep or both.
template <int Stage, bool Dp, bool Ep>
struct data_strategy {
  using type = type_list<>;
};
template <int Stage>
struct data_strategy<Stage, true, false> {
  using type = type_list<std::conditional_t<Stage == 0, data<"dp">, zero<Stage, "dp">>>;
};
template <int Stage>
struct data_strategy<Stage, false, true> {
  using type = type_list<std::conditional_t<Stage == 0, data<"ep">, zero<Stage, "ep">>>;
};
template <int Stage>
struct data_strategy<Stage, true, true> {
  using type = type_list<std::conditional_t<Stage == 0, data<"dp", "ep">, zero<Stage, "dp", "ep">>>;
};

template <class Model, class System, class Axes, class Options>
struct assemble_plan;
template <class Model, class System, class... Axes, class... Options>
struct assemble_plan<Model, System, type_list<Axes...>, type_list<Options...>> {
  using type = training_plan<Model, System, mesh<Axes...>, Options...>;
};

}  // namespace detail

/// The `training_plan` type of a candidate: the mesh [pp, dp, (ep,) cp, tp] without its axes of
/// size 1 (a single chip keeps `dp`), data parallelism (ZeRO at the candidate's stage) over dp
/// and ep, expert parallelism on ep, context on cp, the pipeline with its schedule on pp, tensor
/// parallelism (with the candidate's sequence parallelism) on tp, the batch, the recomputation,
/// then `Options` (precision, reserve, assumptions). Its `values` are the candidate's
/// `plan_values`.
template <ModelSpec Model, SystemSpec System, std::int64_t GlobalTokens, std::int64_t SeqLen,
          plan_choice C, PlanOptionSpec... Options>
struct plan_type {
  static constexpr bool pp = C.pipeline > 1;
  static constexpr bool ep = C.expert > 1;
  static constexpr bool cp = C.context > 1;
  static constexpr bool tp = C.tensor > 1;
  static constexpr bool dp = C.data > 1 || !(pp || ep || cp || tp);
  using schedule_t =
      typename detail::schedule_type<C.schedule.kind, C.schedule.virtual_stages>::type;
  using pipeline_type =
      std::conditional_t<C.uneven_stages, pipeline<"pp", schedule_t, uneven_stages>,
                         pipeline<"pp", schedule_t>>;
  using tensor_type =
      std::conditional_t<C.sequence_parallel, tensor<"tp", sequence_parallel>, tensor<"tp">>;
  using recompute_t =
      typename detail::recompute_type<C.recompute.kind, C.recompute.checkpoints_per_layer>::type;
  using axes = typename detail::concat<
      detail::keep_if<pp, axis<"pp", C.pipeline>>, detail::keep_if<dp, axis<"dp", C.data>>,
      detail::keep_if<ep, axis<"ep", C.expert>>, detail::keep_if<cp, axis<"cp", C.context>>,
      detail::keep_if<tp, axis<"tp", C.tensor>>>::type;
  using options = typename detail::concat<
      typename detail::data_strategy<static_cast<int>(C.zero_stage), dp, ep>::type,
      detail::keep_if<ep, expert<"ep">>, detail::keep_if<cp, context<"cp">>,
      detail::keep_if<pp, pipeline_type>, detail::keep_if<tp, tensor_type>,
      detail::type_list<
          batch<global_tokens<GlobalTokens>, seq_len<SeqLen>, micro_batch<C.micro_batch>>,
          recompute_t, Options...>>::type;
  using type = typename detail::assemble_plan<Model, System, axes, options>::type;
};

/// The best plan for `Model` on `Chips` chips of `System` at `GlobalTokens` tokens a step in
/// sequences of `SeqLen`, searched in a constant expression over `compile_time_search_space`:
/// `static_assert(best_plan<models::llama3_8b, systems::dgx_h100_superpod<1>, 8, 1 << 20,
/// 8192>().cost.mfu > 0.4)`. `Options` (a precision, reserve, efficiency, ...) apply to every
/// candidate.
template <ModelSpec Model, SystemSpec System, std::int64_t Chips, std::int64_t GlobalTokens,
          std::int64_t SeqLen, PlanOptionSpec... Options>
constexpr const search_result& best_plan() {
  return constexpr_search<
      detail::default_search_space<Model, System, Chips, GlobalTokens, SeqLen, Options...>>::result;
}

/// The best plan's type, a `training_plan<...>`: `best_plan_t<...>::values`, `::fits`, `::step()`.
template <ModelSpec Model, SystemSpec System, std::int64_t Chips, std::int64_t GlobalTokens,
          std::int64_t SeqLen, PlanOptionSpec... Options>
using best_plan_t =
    typename plan_type<Model, System, GlobalTokens, SeqLen,
                       best_plan<Model, System, Chips, GlobalTokens, SeqLen, Options...>().choice,
                       Options...>::type;

// --- reports (run time) --------------------------------------------------------------------------

/// A candidate in one line, with every choice in which candidates differ: "pp 64 x dp 8 x cp 16
/// x tp 2 with sequence parallelism, ZeRO-2, micro-batch 1, ZB-H1 on uneven stages, no
/// recomputation". The schedule is named only with a pipeline, sequence parallelism only with
/// tensor parallelism (the search makes no other candidates), the expert axis for a mixture of
/// experts (`moe`).
inline std::string describe(const plan_choice& c, bool moe = false) {
  auto n = [](std::int64_t x) { return std::to_string(x); };
  std::string out = "pp " + n(c.pipeline) + " x dp " + n(c.data);
  if (moe) out += " x ep " + n(c.expert);
  out += " x cp " + n(c.context) + " x tp " + n(c.tensor);
  if (c.tensor > 1)
    out += c.sequence_parallel ? " with sequence parallelism" : " without sequence parallelism";
  out += c.zero_stage == 0 ? ", no ZeRO" : ", ZeRO-" + n(c.zero_stage);
  out += ", micro-batch " + n(c.micro_batch);
  if (c.pipeline > 1) {
    switch (c.schedule.kind) {
      case pipeline_schedule::gpipe:
        out += ", GPipe";
        break;
      case pipeline_schedule::one_f_one_b:
        out += ", 1F1B";
        break;
      case pipeline_schedule::zero_bubble:
        out += ", ZB-H1";
        break;
      case pipeline_schedule::interleaved:
        out += ", interleaved 1F1B (" + n(c.schedule.virtual_stages) + " virtual stages)";
        break;
    }
    if (c.uneven_stages) out += " on uneven stages";
  }
  switch (c.recompute.kind) {
    case recompute_kind::none:
      out += ", no recomputation";
      break;
    case recompute_kind::selective:
      out += ", selective recomputation";
      for (unsigned i = 0; i < std::size(recompute_module_names); ++i)
        if ((c.recompute.modules & module_bit(static_cast<recompute_module>(i))) != 0)
          out.append(" ").append(recompute_module_names[i]);
      break;
    case recompute_kind::named:
      out += ", named tensors kept (a remat policy)";
      break;
    case recompute_kind::full:
      out += ", full recomputation";
      break;
    case recompute_kind::checkpoints:
      out += ", " + n(c.recompute.checkpoints_per_layer) + " checkpoints per layer";
      break;
    case recompute_kind::mlp:
      out += ", the MLP recomputed";
      break;
  }
  return out;
}

namespace detail {

/// MFU of a ranked plan: every candidate of a space does the same model FLOPs on the same chips,
/// so MFU scales with the inverse of the step time.
inline double mfu_of(const search_result& r, const ranked_plan& x) {
  return x.step > 0.0 ? r.cost.mfu * r.cost.step.value() / x.step : 0.0;
}

inline table plan_rows(const search_result& r, const ranked_plan* plans, std::size_t count,
                       bool ranked) {
  table t{{"memory per device", "step", "MFU", "plan"}, {}, {true, true, true, false}};
  if (ranked) {
    t.header.insert(t.header.begin(), "rank");
    t.numeric.insert(t.numeric.begin(), true);
  }
  const bool moe = is_moe(r.best.model);
  for (std::size_t i = 0; i < count; ++i) {
    const ranked_plan& x = plans[i];
    std::vector<std::string> row;
    if (ranked) row.push_back(std::to_string(i + 1));
    row.push_back(format(x.memory * byte));
    row.push_back(format(x.step * second));
    row.push_back(significant(mfu_of(r, x) * 100.0, 3) + "%");
    row.push_back(describe(x.choice, moe));
    t.rows.push_back(row);
  }
  return t;
}

}  // namespace detail

/// The fastest feasible plans of a search, fastest first.
inline table ranking_table(const search_result& r) {
  return detail::plan_rows(r, r.ranking.plans.data(), r.ranking.count, true);
}

/// The memory/time trade-off of a search: each plan on it is the fastest that fits in its memory.
inline table trade_off_table(const search_result& r) {
  return detail::plan_rows(r, r.front.plans.data(), r.front.count, false);
}

/// What the search did with the candidates.
inline table search_counts_table(const search_counts& c) {
  auto n = [](std::int64_t x) { return std::to_string(x); };
  return {{"candidates", "count"},
          {{"enumerated", n(c.enumerated)},
           {"the same plan as another", n(c.duplicates)},
           {"break a divisibility rule", n(c.pruned_by_rule)},
           {"checked: over memory", n(c.over_memory)},
           {"checked: another rule broken", n(c.rejected_by_check)},
           {"checked: feasible, costed", n(c.feasible - c.bounded)},
           {"checked: feasible, ruled out by its bound", n(c.bounded)}},
          {false, true}};
}

}  // namespace shardplan
