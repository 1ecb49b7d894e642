// The pipeline step as a timeline: every micro-batch's forward and backward passes (and, for
// ZB-H1, its weight-gradient passes) on every stage, in the order each schedule runs them, each
// starting when its stage is free and its inputs have arrived. The bubble is what the timeline
// leaves idle, not a formula: in the ideal case (equal stages, free sends) it comes out as
// (p−1)/m of the compute for GPipe and 1F1B, (p−1)/(v·m) interleaved and (p−1)/(3m) for ZB-H1
// with equal forward, backward and weight passes, and point-to-point sends add their time on
// the chain between stages. An estimate; `estimate_step` still charges `bubble_fraction`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <shardplan/training/cost.hpp>

namespace shardplan {

/// A pass of one micro-batch through one chunk of layers: forward, backward (with ZB-H1 the
/// gradient of the input only) or, with ZB-H1, the weights' gradient.
enum class pass_kind : std::uint8_t { forward, backward, weight };

constexpr const char* name_of(pass_kind k) {
  switch (k) {
    case pass_kind::forward: return "forward";
    case pass_kind::backward: return "backward";
    case pass_kind::weight: return "weight gradient";
  }
  return "?";
}

/// One pass on the timeline: stage (device of the pipeline), chunk (its virtual stage: chunk c of
/// stage s holds the layers of virtual stage c·p + s), micro-batch, kind and its times.
struct timeline_pass {
  std::int64_t stage = 0;
  std::int64_t chunk = 0;
  std::int64_t micro_batch = 0;
  pass_kind kind = pass_kind::forward;
  seconds start{};
  seconds end{};
};

/// The communication streams a stage's collectives run on beside its compute:
/// - `pipeline`: the sends of boundary activations (forward) and their gradients (backward) to
///   the neighbouring stage, each as long as one send, from the end of the pass that produced it;
/// - `layer`: the tensor-, context- and expert-parallel collectives inside each pass (per layer,
///   on the critical path unless overlapped), as long as the pass's share of their link time,
///   from the start of the pass;
/// - `data`: the data-parallel (and ZeRO/FSDP) gradient reduction and parameter gathers of the
///   step, as long as their link time, from the start of the stage's last backward pass, which
///   they overlap as Megatron-Core's and FSDP's bucketed reductions do.
enum class transfer_stream : std::uint8_t { pipeline, layer, data };

constexpr const char* name_of(transfer_stream k) {
  switch (k) {
    case transfer_stream::pipeline: return "pipeline send";
    case transfer_stream::layer: return "tensor, context and expert collectives";
    case transfer_stream::data: return "data-parallel collectives";
  }
  return "?";
}

/// One bar on a communication stream of a stage: what it carries and when (`exposed`: the part
/// the step estimate charges as not hidden, for `layer` and `data`; 0 for sends, whose time
/// lies on the chain between stages).
struct timeline_transfer {
  std::int64_t stage = 0;
  transfer_stream stream = transfer_stream::pipeline;
  std::int64_t micro_batch = -1;  ///< -1: the whole step's
  seconds start{};
  seconds end{};
  seconds exposed{};
};

/// What one pass of one micro-batch through one chunk takes, and a send between stages (the
/// boundary activations forward, their gradient backward).
struct pass_durations {
  seconds forward{};
  seconds backward{};  ///< the whole backward, or with ZB-H1 its input-gradient part
  seconds weight{};    ///< ZB-H1's weight-gradient pass (0 otherwise)
  seconds send{};
};

struct pipeline_timeline {
  pipeline_schedule schedule = pipeline_schedule::one_f_one_b;
  std::int64_t stages = 1;
  std::int64_t chunks = 1;  ///< virtual stages per stage
  std::int64_t micro_batches = 1;
  std::vector<timeline_pass> passes;  ///< in the order they were laid out
  /// The communication streams' bars: the sends `lay_out_pipeline` lays out with the passes, and
  /// the collectives `pipeline_timeline_of` adds.
  std::vector<timeline_transfer> transfers;
  seconds makespan{};                 ///< from the first forward to the last pass
  seconds busy{};                     ///< one stage's passes (every stage has the same)
  seconds bubble{};                   ///< makespan − busy: what the schedule leaves idle
  /// The most micro-batch chunks the first stage holds activations for at once (forwarded, not
  /// yet backward-passed): the in-flight count its memory pays for.
  std::int64_t first_stage_in_flight = 0;
  /// The plan's step as `estimate_step` gives it, and what it adds to the passes: communication
  /// not hidden and the optimizer update (`pipeline_timeline_of` sets them; 0 for a timeline laid
  /// out alone).
  seconds step{};
  seconds communication_exposed{};
  seconds optimizer{};
};

namespace detail {

struct pass_ref {
  pass_kind kind;
  std::int64_t micro_batch;
  std::int64_t chunk;
};

/// The order stage `s` of `p` runs its passes in:
/// - GPipe: every forward, then every backward (Huang et al. 2019);
/// - 1F1B: p − s − 1 forwards, then one forward and one backward in turn, then the remaining
///   backwards (Megatron-LM's `forward_backward_pipelining_without_interleaving`);
/// - interleaved 1F1B: as Megatron-LM's `forward_backward_pipelining_with_interleaving`, the
///   micro-batches in groups of p through the chunks in turn (forwards chunk 0 first, backwards
///   the last chunk first), (p − s − 1)·2 + (v − 1)·p warm-up forwards;
/// - ZB-H1 (Qi et al. 2024): for x = 0 .. m + p − 2, forward x, backward x − (p − 1 − s) and
///   weight gradient x − (p − 1), each where it exists: warm-up forwards, then B without W for
///   s steps, then F, B, W, then B, W, then the last W's (sail-sg/zero-bubble-pipeline-
///   parallelism @c5d5074 megatron/core/pipeline_parallel/schedules.py, as analysed in
///   jayhenry/blog articles/202505-pp-summary/pp-summary.md @3ee6043).
inline std::vector<pass_ref> pass_order(pipeline_schedule schedule, std::int64_t p,
                                        std::int64_t v, std::int64_t m, std::int64_t s) {
  std::vector<pass_ref> o;
  const auto f = [](std::int64_t mb, std::int64_t c) { return pass_ref{pass_kind::forward, mb, c}; };
  const auto b = [](std::int64_t mb, std::int64_t c) {
    return pass_ref{pass_kind::backward, mb, c};
  };
  switch (schedule) {
    case pipeline_schedule::gpipe:
      for (std::int64_t i = 0; i < m; ++i) o.push_back(f(i, 0));
      for (std::int64_t i = 0; i < m; ++i) o.push_back(b(i, 0));
      break;
    case pipeline_schedule::one_f_one_b: {
      const std::int64_t warm = std::min(p - s - 1, m);
      std::int64_t next_b = 0;
      for (std::int64_t i = 0; i < warm; ++i) o.push_back(f(i, 0));
      for (std::int64_t i = warm; i < m; ++i) {
        o.push_back(f(i, 0));
        o.push_back(b(next_b++, 0));
      }
      while (next_b < m) o.push_back(b(next_b++, 0));
      break;
    }
    case pipeline_schedule::interleaved: {
      const std::int64_t total = m * v;
      const auto forward_of = [&](std::int64_t k) {
        return f((k / (p * v)) * p + k % p, (k / p) % v);
      };
      const auto backward_of = [&](std::int64_t k) {
        return b((k / (p * v)) * p + k % p, v - 1 - (k / p) % v);
      };
      const std::int64_t warm = std::min((p - s - 1) * 2 + (v - 1) * p, total);
      std::int64_t next_f = 0, next_b = 0;
      for (; next_f < warm; ++next_f) o.push_back(forward_of(next_f));
      while (next_f < total) {
        o.push_back(forward_of(next_f++));
        o.push_back(backward_of(next_b++));
      }
      while (next_b < total) o.push_back(backward_of(next_b++));
      break;
    }
    case pipeline_schedule::zero_bubble:
      for (std::int64_t x = 0; x < m + p - 1; ++x) {
        if (x < m) o.push_back(f(x, 0));
        const std::int64_t bx = x - (p - 1 - s);
        if (bx >= 0 && bx < m) o.push_back(b(bx, 0));
        const std::int64_t wx = x - (p - 1);
        if (wx >= 0 && wx < m) o.push_back({pass_kind::weight, wx, 0});
      }
      break;
  }
  return o;
}

}  // namespace detail

/// The timeline of `m` micro-batches through `p` stages of `v` chunks each under `schedule`, each
/// pass taking `d` (per chunk). A pass starts when its stage has finished the pass before it in
/// the schedule's order and its inputs are there: a forward needs the previous virtual stage's
/// forward of its micro-batch (one send later when that ran on another stage), a backward its own
/// forward and the next virtual stage's backward, a weight gradient its backward. Throws
/// std::invalid_argument when the layout cannot exist (interleaving with micro-batches that are
/// not a multiple of the stages, Megatron-LM's rule) or would hold more than 2·10^6 passes.
inline pipeline_timeline lay_out_pipeline(pipeline_schedule schedule, std::int64_t p,
                                          std::int64_t v, std::int64_t m,
                                          const pass_durations& d) {
  if (p < 1 || v < 1 || m < 1) throw std::invalid_argument("timeline: stages, chunks and micro-batches are at least 1");
  if (schedule != pipeline_schedule::interleaved) v = 1;
  if (schedule == pipeline_schedule::interleaved && m % p != 0)
    throw std::invalid_argument("timeline: the interleaved schedule runs micro-batches in groups of the " +
                                std::to_string(p) + " stages; " + std::to_string(m) +
                                " is not a multiple");
  const bool split = schedule == pipeline_schedule::zero_bubble;
  const std::int64_t kinds = split ? 3 : 2;
  if (static_cast<double>(p) * static_cast<double>(v) * static_cast<double>(m) *
          static_cast<double>(kinds) > 2e6)
    throw std::invalid_argument("timeline: more than 2 million passes to lay out");
  pipeline_timeline t;
  t.schedule = schedule;
  t.stages = p;
  t.chunks = v;
  t.micro_batches = m;
  const std::int64_t virtual_stages = p * v;
  // When each pass ended, by kind, virtual stage and micro-batch (negative: not yet).
  std::vector<double> done(static_cast<std::size_t>(kinds * virtual_stages * m), -1.0);
  const auto at = [&](pass_kind k, std::int64_t vs, std::int64_t mb) -> double& {
    return done[static_cast<std::size_t>((static_cast<std::int64_t>(k) * virtual_stages + vs) * m +
                                         mb)];
  };
  std::vector<std::vector<detail::pass_ref>> order;
  for (std::int64_t s = 0; s < p; ++s) order.push_back(detail::pass_order(schedule, p, v, m, s));
  std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
  std::vector<double> free(static_cast<std::size_t>(p), 0.0);
  const double send = d.send.value();
  std::size_t left = 0;
  for (const auto& o : order) left += o.size();
  t.passes.reserve(left);
  std::int64_t in_flight = 0;
  while (left > 0) {
    bool moved = false;
    for (std::int64_t s = 0; s < p; ++s) {
      auto& i = next[static_cast<std::size_t>(s)];
      const auto& o = order[static_cast<std::size_t>(s)];
      while (i < o.size()) {
        const detail::pass_ref& r = o[i];
        const std::int64_t vs = r.chunk * p + s;
        double ready = free[static_cast<std::size_t>(s)];
        bool waiting = false;
        const auto needs = [&](pass_kind k, std::int64_t other_vs, bool remote) {
          const double e = at(k, other_vs, r.micro_batch);
          if (e < 0.0) waiting = true;
          else ready = std::max(ready, e + (remote ? send : 0.0));
        };
        double length = 0.0;
        switch (r.kind) {
          case pass_kind::forward:
            if (vs > 0) needs(pass_kind::forward, vs - 1, p > 1);
            length = d.forward.value();
            break;
          case pass_kind::backward:
            needs(pass_kind::forward, vs, false);
            if (vs < virtual_stages - 1) needs(pass_kind::backward, vs + 1, p > 1);
            length = d.backward.value();
            break;
          case pass_kind::weight:
            needs(pass_kind::backward, vs, false);
            length = d.weight.value();
            break;
        }
        if (waiting) break;
        const double end = ready + length;
        at(r.kind, vs, r.micro_batch) = end;
        free[static_cast<std::size_t>(s)] = end;
        t.passes.push_back({s, r.chunk, r.micro_batch, r.kind, ready * second, end * second});
        // The send this pass's output needs: a forward's to the next virtual stage, a
        // backward's to the previous one, when those run on another stage.
        const bool sends = p > 1 && send > 0.0 &&
                           ((r.kind == pass_kind::forward && vs < virtual_stages - 1) ||
                            (r.kind == pass_kind::backward && vs > 0));
        if (sends)
          t.transfers.push_back({s, transfer_stream::pipeline, r.micro_batch, end * second,
                                 (end + send) * second, 0.0 * second});
        if (s == 0) {
          if (r.kind == pass_kind::forward) ++in_flight;
          if (r.kind == pass_kind::backward) --in_flight;
          t.first_stage_in_flight = std::max(t.first_stage_in_flight, in_flight);
        }
        ++i;
        --left;
        moved = true;
      }
    }
    if (!moved) throw std::logic_error("timeline: the schedule's order deadlocks");
  }
  t.makespan = *std::max_element(free.begin(), free.end()) * second;
  t.busy = static_cast<double>(m * v) * (d.forward + d.backward + d.weight);
  t.bubble = t.makespan - t.busy;
  return t;
}

/// The plan's pipeline as a timeline: its schedule, stages, virtual stages and micro-batches;
/// a micro-batch's compute on a device (`estimate_step`'s compute over the micro-batches) split
/// into its chunks, the forward a third of the model FLOPs' share of it (the recomputed forward
/// belongs to the backward), ZB-H1's weight gradient as long as the forward; a send is the plan's
/// pipeline send (`pipeline_traffic`: the boundary activations over the pipeline axis's link).
/// Its streams (`transfer_stream`): the sends; each pass's share of the step's tensor-, context-
/// and expert-parallel collectives (by their forward share); the step's data-parallel
/// collectives on each stage from its last backward pass. The passes stay the compute alone
/// (`busy` is the step's compute); what the estimate charges as exposed is each bar's
/// `exposed`. Throws std::invalid_argument for a plan without pipeline parallelism.
inline pipeline_timeline pipeline_timeline_of(const training_plan_values& p) {
  const parallel_degrees& deg = p.setup.degrees;
  if (deg.pipeline <= 1) throw std::invalid_argument("timeline: the plan has no pipeline axis");
  const step_cost c = estimate_step(p);
  const auto m = static_cast<double>(micro_batches(p.setup));
  const std::int64_t v = deg.schedule == pipeline_schedule::interleaved ? deg.virtual_stages : 1;
  const double per_chunk = c.compute.value() / m / static_cast<double>(v);
  const double forward_share =
      c.hardware_flops.value() > 0.0 ? c.model_flops.value() / (3.0 * c.hardware_flops.value()) : 1.0 / 3.0;
  pass_durations d;
  d.forward = per_chunk * forward_share * second;
  if (deg.schedule == pipeline_schedule::zero_bubble) {
    d.weight = d.forward;
    d.backward = (per_chunk - 2.0 * d.forward.value()) * second;
  } else {
    d.backward = (per_chunk - d.forward.value()) * second;
  }
  for (std::size_t i = 0; i < c.traffic_count; ++i)
    if (c.traffic[i].strategy == "pipeline send" && c.traffic[i].count > 0.0)
      d.send = c.traffic[i].time / c.traffic[i].count;
  pipeline_timeline t = lay_out_pipeline(deg.schedule, deg.pipeline, v, micro_batches(p.setup), d);
  // The collectives of the step by stream: per pass (layer) or per step (data).
  seconds layer_forward{}, layer_backward{}, layer_exposed{}, data{}, data_exposed{};
  for (std::size_t i = 0; i < c.traffic_count; ++i) {
    const axis_traffic& x = c.traffic[i];
    if (x.axis >= p.axis_count) continue;
    const std::uint8_t roles = p.axes[x.axis].roles;
    if (roles & role_pipeline) continue;
    if (roles & (role_tensor | role_context | role_expert)) {
      layer_forward += x.time * x.forward_share;
      layer_backward += x.time * (1.0 - x.forward_share);
      layer_exposed += x.exposed;
    } else if (roles & (role_data | role_zero)) {
      data += x.time;
      data_exposed += x.exposed;
    }
  }
  const double chunks = m * static_cast<double>(v);
  const seconds layer_total = layer_forward + layer_backward;
  if (layer_total.value() > 0.0) {
    for (const timeline_pass& x : t.passes) {
      if (x.kind == pass_kind::weight) continue;
      const seconds length =
          (x.kind == pass_kind::forward ? layer_forward : layer_backward) / chunks;
      t.transfers.push_back({x.stage, transfer_stream::layer, x.micro_batch, x.start,
                             x.start + length, layer_exposed * (length / layer_total)});
    }
  }
  if (data.value() > 0.0) {
    std::vector<double> last(static_cast<std::size_t>(deg.pipeline), -1.0);
    for (const timeline_pass& x : t.passes)
      if (x.kind == pass_kind::backward)
        last[static_cast<std::size_t>(x.stage)] = x.start.value();
    for (std::int64_t s = 0; s < deg.pipeline; ++s) {
      const double from = last[static_cast<std::size_t>(s)];
      t.transfers.push_back({s, transfer_stream::data, -1, from * second, from * second + data,
                             data_exposed});
    }
  }
  t.step = c.step;
  t.communication_exposed = c.communication_exposed;
  t.optimizer = c.optimizer;
  return t;
}

}  // namespace shardplan
