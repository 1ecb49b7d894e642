// Memory per device of a training plan: model states under ZeRO and model parallelism,
// activations under recomputation and pipeline schedules, temporary buffers, the transients at
// the peak (or a flat reserve) and the verdict against the chip's memory.
#pragma once

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <string_view>

#include <shardplan/hardware/fitted.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/models/activations.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/training/precision.hpp>
#include <shardplan/training/setup.hpp>
#include <shardplan/core/units.hpp>

namespace shardplan {

/// Sequences per step that one data-parallel replica processes.
constexpr std::int64_t sequences_per_replica(const training_setup& t) {
  return t.batch.global_tokens / t.batch.seq_len / t.degrees.data;
}

/// Micro-batches per step per replica (gradient-accumulation steps).
constexpr std::int64_t micro_batches(const training_setup& t) {
  return sequences_per_replica(t) / t.batch.micro_batch;
}

/// The layers pipeline stage `s` (0: the first) holds over all its chunks. Without
/// `first_stage_layers` or `last_stage_layers` the L layers, with the embedding and the output
/// counted as `pipeline_embedding_weight` and `pipeline_loss_weight` layers (the framework's), are
/// split over the p·v chunks, chunk j on stage j mod p: E = L + w_in + w_out, each chunk E / (p·v)
/// and E mod (p·v) of them one more, the first chunk w_in fewer and the last w_out fewer
/// (torchtitan's `_generate_llm_fqn_per_model_part`, pipeline_parallel.py@b5bcd76; Megatron-Core's
/// even split, and with `--account-for-embedding-in-pipeline-split` and
/// `--account-for-loss-in-pipeline-split` its weights of 1, transformer_block.py@d98e8a64). The
/// chunks holding one more are the earliest under `pipeline_extra_layers_early` (torchtitan's),
/// else the chunks one short are the ends first, the last, the first, the second last, ...
/// (LLaMA 3's 126 layers on 16 stages: "we reduce one Transformer layer each from the first and
/// the last stages", Dubey et al. 2024, Sec. 3.3.2). With either end given the first or last
/// stage holds that many and the others split the rest, the earliest one more where it does not
/// divide (Megatron-Core's `--decoder-first-pipeline-num-layers` and
/// `--decoder-last-pipeline-num-layers`, the same file).
constexpr std::int64_t layers_on_stage(const model_shape& m, const training_setup& t,
                                       std::int64_t s);

/// Whether the plan gives the first or the last stage's layers (`first_stage_layers`,
/// `last_stage_layers`).
constexpr bool stage_ends_given(const parallel_degrees& d) {
  return d.pipeline > 1 && (d.first_stage_layers > 0 || d.last_stage_layers > 0);
}

/// With the ends given, the stages between them and the layers the ends leave them.
struct between_the_ends {
  std::int64_t stages = 0;
  std::int64_t layers = 0;
};

constexpr between_the_ends between_ends_of(const model_shape& m, const parallel_degrees& d) {
  return {d.pipeline - (d.first_stage_layers > 0 ? 1 : 0) - (d.last_stage_layers > 0 ? 1 : 0),
          m.layers - d.first_stage_layers - d.last_stage_layers};
}

/// Virtual stages (chunks per stage) of the plan's schedule: v interleaved, else 1.
constexpr std::int64_t virtual_stages_of(const parallel_degrees& d) {
  return d.pipeline > 1 && d.schedule == pipeline_schedule::interleaved
             ? std::max<std::int64_t>(d.virtual_stages, 1)
             : 1;
}

/// How the layers fall into the p·v pipeline chunks when no end is given: the split's divisions,
/// made once for every chunk (`chunk_layers_in`).
struct chunk_split {
  std::int64_t chunks = 1;
  std::int64_t base = 0;   ///< effective layers (with the ends' weights) per chunk, rounded down
  std::int64_t extra = 0;  ///< chunks that hold one more
  std::int64_t short_chunks = 0;  ///< chunks one short of base + 1
  std::int64_t w_in = 0;          ///< the layers the embedding counts as, on the first chunk
  std::int64_t w_out = 0;         ///< the layers the output counts as, on the last chunk
  bool extra_early = false;       ///< the framework's `pipeline_extra_layers_early`
};

constexpr chunk_split chunk_split_of(const model_shape& m, const training_setup& t) {
  const parallel_degrees& d = t.degrees;
  const std::int64_t p = std::max<std::int64_t>(d.pipeline, 1);
  chunk_split c;
  c.w_in = p > 1 ? t.framework.pipeline_embedding_weight : 0;
  c.w_out = p > 1 ? t.framework.pipeline_loss_weight : 0;
  c.chunks = p * virtual_stages_of(d);
  const std::int64_t effective = m.layers + c.w_in + c.w_out;
  c.base = effective / c.chunks;
  c.extra = effective % c.chunks;
  c.short_chunks = c.extra == 0 ? 0 : c.chunks - c.extra;
  c.extra_early = t.framework.pipeline_extra_layers_early;
  return c;
}

/// Whether chunk `j` holds base + 1 layers under split `c`: the chunks one short are the ends
/// first, the last, the first, the second last, ... (or from the end where the framework puts
/// the extra layers early).
constexpr bool lengthened(const chunk_split& c, std::int64_t j) {
  // Its place in the order the chunks come one short: from the end, or the ends inward.
  const std::int64_t from_end = c.chunks - 1 - j;
  const std::int64_t place = c.extra_early ? from_end : (from_end <= j ? 2 * from_end : 2 * j + 1);
  return c.extra > 0 && place >= c.short_chunks;
}

/// The layers of chunk `j` under split `c`; the ends' weights come off the first and the last
/// chunk.
constexpr std::int64_t chunk_layers_in(const chunk_split& c, std::int64_t j) {
  const std::int64_t layers = c.base + (lengthened(c, j) ? 1 : 0) - (j == 0 ? c.w_in : 0) -
                              (j == c.chunks - 1 ? c.w_out : 0);
  // A weight above a chunk's share leaves that end's chunk empty (torchtitan refuses it).
  return std::max<std::int64_t>(0, layers);
}

/// The layers of pipeline chunk `j` of the p·v (0: the first; chunk j runs on stage j mod p),
/// as `layers_on_stage` splits them; with an end given, a stage's layers over its v chunks, the
/// earliest one more where they do not divide.
constexpr std::int64_t chunk_layers_of(const model_shape& m, const training_setup& t,
                                       std::int64_t j) {
  const parallel_degrees& d = t.degrees;
  if (stage_ends_given(d)) {
    const std::int64_t p = std::max<std::int64_t>(d.pipeline, 1);
    const std::int64_t v = virtual_stages_of(d);
    const std::int64_t n = layers_on_stage(m, t, j % p);
    return n / v + (j / p < n % v ? 1 : 0);
  }
  return chunk_layers_in(chunk_split_of(m, t), j);
}

constexpr std::int64_t layers_on_stage(const model_shape& m, const training_setup& t,
                                       std::int64_t s) {
  const parallel_degrees& d = t.degrees;
  const std::int64_t p = d.pipeline;
  if (p <= 1) return m.layers;
  if (stage_ends_given(d)) {
    if (s == 0 && d.first_stage_layers > 0) return d.first_stage_layers;
    if (s == p - 1 && d.last_stage_layers > 0) return d.last_stage_layers;
    const between_the_ends rest = between_ends_of(m, d);
    if (rest.stages <= 0 || rest.layers <= 0) return 0;
    const std::int64_t index = s - (d.first_stage_layers > 0 ? 1 : 0);
    return rest.layers / rest.stages + (index < rest.layers % rest.stages ? 1 : 0);
  }
  const chunk_split split = chunk_split_of(m, t);
  std::int64_t layers = 0;
  for (std::int64_t j = s; j < split.chunks; j += p) layers += chunk_layers_in(split, j);
  return layers;
}

/// The most layers any pipeline stage holds: the largest of the first, the second (the
/// earliest of the stages between the ends, which holds the most of them) and the last.
constexpr std::int64_t layers_per_stage(const model_shape& m, const training_setup& t) {
  const std::int64_t p = t.degrees.pipeline;
  std::int64_t most = layers_on_stage(m, t, 0);
  if (p > 2) most = std::max(most, layers_on_stage(m, t, 1));
  if (p > 1) most = std::max(most, layers_on_stage(m, t, p - 1));
  return most;
}

/// Whether the plan may split its layers unevenly: it says `uneven_stages`, or its framework
/// splits them however they fall (`pipeline_extra_layers_early`).
constexpr bool ragged_split_allowed(const training_setup& t) {
  return t.degrees.uneven_stages || t.framework.pipeline_extra_layers_early;
}

/// Whether the split gives every chunk a whole share: the p·v chunks divide L + w_in + w_out,
/// or, with an end given, the chunks between the ends divide what the ends leave (the ends' own
/// chunks split their layers as `chunk_layers_of` does; Megatron-Core's further rule that they be
/// multiples of v is its importer's); anything else needs `uneven_stages`.
constexpr bool split_divides_layers(const model_shape& m, const training_setup& t) {
  const parallel_degrees& d = t.degrees;
  const std::int64_t v = virtual_stages_of(d);
  if (d.pipeline <= 1) return true;
  if (stage_ends_given(d)) {
    const between_the_ends rest = between_ends_of(m, d);
    return rest.stages == 0 || rest.layers % (rest.stages * v) == 0;
  }
  return (m.layers + t.framework.pipeline_embedding_weight + t.framework.pipeline_loss_weight) %
             (d.pipeline * v) ==
         0;
}

/// Whether the split leaves no chunk short of a layer: the chunks no more than L + w_in + w_out;
/// with an end given, the ends leaving the stages between them at least one layer a chunk, and
/// none over when no stage is between them.
constexpr bool split_within_layers(const model_shape& m, const training_setup& t) {
  const parallel_degrees& d = t.degrees;
  const std::int64_t v = virtual_stages_of(d);
  if (d.pipeline <= 1) return true;
  if (stage_ends_given(d)) {
    const between_the_ends rest = between_ends_of(m, d);
    return rest.stages == 0 ? rest.layers == 0 : rest.layers >= rest.stages * v;
  }
  return m.layers + t.framework.pipeline_embedding_weight + t.framework.pipeline_loss_weight >=
         d.pipeline * v;
}

/// The chunk-micro-batches of activations pipeline stage `s` (0: the first) holds at its peak, in
/// units of one chunk's layers for one micro-batch (a chunk: the stage's layers, or 1/v of them
/// with v virtual stages). As the schedules run (training/timeline.hpp lays them out, and its
/// tests count the same): GPipe keeps all m micro-batches; 1F1B and ZB-H1 min(p − s, m);
/// interleaved 1F1B warms up (p − s − 1)·2 + (v − 1)·p chunk forwards and holds one more, at most
/// all m·v (Megatron-LM's `forward_backward_pipelining_with_interleaving`). For m ≥ p the first
/// stage's count, p·v + p − 1 chunks, is Korthikanti et al.'s p·(1 + (p − 1)/(p·v)) stages'
/// worth (2022, Sec. 4.2.3); with fewer micro-batches every forward runs before the first
/// backward and the stage holds them all.
constexpr double chunks_in_flight(const parallel_degrees& d, double micro_batches,
                                  std::int64_t s) {
  const double p = static_cast<double>(d.pipeline);
  const double stage = static_cast<double>(s);
  if (d.pipeline <= 1) return 1.0;
  switch (d.schedule) {
    case pipeline_schedule::gpipe: return micro_batches;
    case pipeline_schedule::one_f_one_b:
    case pipeline_schedule::zero_bubble: return std::min(p - stage, micro_batches);
    case pipeline_schedule::interleaved: {
      const double v = static_cast<double>(d.virtual_stages);
      return std::min((p - stage - 1.0) * 2.0 + (v - 1.0) * p + 1.0, micro_batches * v);
    }
  }
  return 1.0;
}

/// Chunks of a stage: its virtual stages under interleaving, else one.
constexpr double stage_chunks(const parallel_degrees& d) {
  return d.pipeline > 1 && d.schedule == pipeline_schedule::interleaved
             ? static_cast<double>(d.virtual_stages)
             : 1.0;
}

/// The micro-batch-layers of activations pipeline stage `s` keeps, in units of one layer's
/// activations for one micro-batch: `chunks_in_flight` chunks of L/p/v layers. Without
/// pipelining the micro-batches run one after the other: one micro-batch of every layer.
/// `stage_layers`: the stage's layers (`layers_on_stage`).
constexpr double layers_in_flight(const training_setup& t, std::int64_t s,
                                  std::int64_t stage_layers) {
  const parallel_degrees& d = t.degrees;
  const double layers = static_cast<double>(stage_layers);
  if (d.pipeline == 1) return layers;
  return layers / stage_chunks(d) * chunks_in_flight(d, static_cast<double>(micro_batches(t)), s);
}

constexpr double layers_in_flight(const model_shape& m, const training_setup& t,
                                  std::int64_t s = 0) {
  return layers_in_flight(t, s, layers_on_stage(m, t, s));
}

/// Which pipeline stage a figure is for: the first, the middle (stage 1, the earliest of those
/// between the ends, which keeps the most micro-batches in flight of them), the last.
enum class stage_position : std::uint8_t { first, middle, last };

/// The position's name in reports and JSON.
constexpr std::string_view stage_position_name(stage_position s) {
  switch (s) {
    case stage_position::first: return "first";
    case stage_position::middle: return "middle";
    case stage_position::last: return "last";
  }
  return "?";
}

/// The index of a stage position in a pipeline of p stages.
constexpr std::int64_t stage_index(const parallel_degrees& d, stage_position stage) {
  if (d.pipeline <= 1 || stage == stage_position::first) return 0;
  return stage == stage_position::middle ? 1 : d.pipeline - 1;
}

/// The first layer of pipeline stage `s` counting the stages before it (contiguous, as
/// without interleaving); the last stage holds the stack's last layers.
constexpr std::int64_t first_layer_of(const model_shape& m, const training_setup& t,
                                      std::int64_t s) {
  if (s > 0 && s == t.degrees.pipeline - 1) return m.layers - layers_on_stage(m, t, s);
  std::int64_t first = 0;
  for (std::int64_t r = 0; r < s; ++r) first += layers_on_stage(m, t, r);
  return first;
}

/// Parameters one device holds before ZeRO sharding, split into dense (sharded by ZeRO over
/// `zero`) and expert (sharded over `zero_expert`) parts. Matrices are split by tensor
/// parallelism, vocabulary rows too (vocab-parallel embeddings); norms and routers are
/// replicated. Routed experts are split across expert parallelism and, like Megatron-LM's
/// default expert tensor parallelism, by tensor parallelism too. The first stage holds the
/// input embedding and the leading dense layers; the last holds the output projection (a second
/// copy when embeddings are tied and the pipeline has more than one stage) and the final norm;
/// the stages between them their layers alone (`layers_on_stage`).
struct device_parameters {
  double dense = 0.0;
  double expert = 0.0;
};

constexpr device_parameters parameters_on_device(const model_shape& m, const parameter_counts& c,
                                                 const training_setup& setup,
                                                 stage_position stage) {
  const parallel_degrees& d = setup.degrees;
  const double t = static_cast<double>(d.tensor);
  const std::int64_t index = stage_index(d, stage);
  const std::int64_t stage_layers = layers_on_stage(m, setup, index);
  // The first stage holds the stack's first layers, the last its last ones.
  const std::int64_t moe_layers =
      is_moe(m) ? moe_layers_in(m, first_layer_of(m, setup, index), stage_layers) : 0;
  const std::int64_t dense_layers = stage_layers - moe_layers;

  const double vocab_table = static_cast<double>(m.vocab * m.d_model) / t;
  double embeddings = 0.0;
  const bool single_stage = d.pipeline == 1;
  if (single_stage) {
    embeddings = static_cast<double>(c.embedding) / t + static_cast<double>(c.final_norm);
  } else if (index == 0) {
    embeddings = vocab_table;
  } else if (index == d.pipeline - 1) {
    embeddings = vocab_table + static_cast<double>(c.final_norm);
  }
  if (index == 0) embeddings += static_cast<double>(c.position_embedding);

  // Key and value projections are split over whole kv heads; with fewer kv heads than tensor
  // ranks (multi-query attention) every rank keeps a copy of them.
  const double kv_weights =
      m.mla.kv_lora_rank == 0 && m.kv_heads % d.tensor != 0
          ? static_cast<double>(2 * m.d_model * m.kv_heads * m.head_dim)
          : 0.0;
  const double attention =
      (static_cast<double>(c.attention_per_layer) - kv_weights) / t + kv_weights;
  const double norms = static_cast<double>(c.norms_per_layer);
  const double dense_layer = attention + norms + static_cast<double>(c.dense_mlp_per_layer) / t;
  const double shared = static_cast<double>(m.moe.shared_experts * c.expert) / t;
  const double moe_dense_part =
      attention + norms + static_cast<double>(c.router_per_layer) + shared;
  const double routed =
      static_cast<double>(m.moe.experts * c.expert) / static_cast<double>(d.expert) / t;
  return {embeddings + static_cast<double>(dense_layers) * dense_layer +
              static_cast<double>(moe_layers) * moe_dense_part,
          static_cast<double>(moe_layers) * routed};
}

constexpr device_parameters parameters_on_device(const model_shape& m, const training_setup& t,
                                                 stage_position stage) {
  return parameters_on_device(m, parameters(m), t, stage);
}

/// The parameters of the pipeline stage that holds the most: the first, the middle (stage 1)
/// or the last (`parameters_on_device`).
constexpr device_parameters fullest_stage_parameters(const model_shape& m,
                                                     const training_setup& t) {
  const parameter_counts c = parameters(m);
  device_parameters most = parameters_on_device(m, c, t, stage_position::first);
  const std::int64_t p = t.degrees.pipeline;
  for (const stage_position s : {stage_position::middle, stage_position::last}) {
    if (p <= (s == stage_position::middle ? 2 : 1)) continue;
    const device_parameters here = parameters_on_device(m, c, t, s);
    if (here.dense + here.expert > most.dense + most.expert) most = here;
  }
  return most;
}

/// The moment of a step at which a device's memory peaks. `backward_start`: the forward is done
/// and the loss's backward runs, every saved activation and the logits live (the papers' peak,
/// and every framework's that keeps its gradients allocated between steps); `backward_end`: the
/// backward reaches the first layer, every gradient live and the activations freed.
enum class peak_moment : std::uint8_t { backward_start, backward_end };

/// The moment's name in reports and JSON.
constexpr std::string_view peak_moment_name(peak_moment p) {
  return p == peak_moment::backward_start ? "backward_start" : "backward_end";
}

/// Memory per device, term by term. All in bytes.
struct memory_breakdown {
  bytes parameters{};
  bytes gradients{};
  bytes master_weights{};
  bytes optimizer{};
  bytes activations{};
  bytes buffers{};  ///< gathered ZeRO-3 layers, their gradients, logits, pipeline send buffers
  bytes reserve{};  ///< the flat reserve (generic framework, or `training_memory_policy::reserve`)
  // The transients at the peak under a named framework (`transient_memory`); zero otherwise.
  bytes cuda_context{};           ///< CUDA context and cuBLAS workspace, fixed per device
  bytes nccl_buffers{};           ///< NCCL's per-channel buffers of every communicator
  bytes optimizer_temporaries{};  ///< temporaries of the optimizer step
  bytes fragmentation{};          ///< the caching allocator's share of the dynamic memory
  /// Terms above that are not allocated at the moment of the peak (`peak_phases`): gradients a
  /// framework frees between steps when the peak is the start of the backward pass, or the
  /// activations and logits freed by its end when the peak is there. Subtracted from `total`.
  bytes not_live_at_peak{};
  /// Bytes held in host memory for this device (`offload_policy`, a named remat policy's
  /// offloaded tensors); not part of `total`, checked against the host's memory per device.
  bytes host{};
  /// When the peak happens (`peak_moment`).
  peak_moment moment = peak_moment::backward_start;
  /// The pipeline stage whose memory this is (`memory_per_device`: the fullest).
  stage_position stage = stage_position::first;
  bytes total{};

  /// Parameters, gradients, master weights and optimizer state.
  constexpr bytes model_states() const {
    return parameters + gradients + master_weights + optimizer;
  }
  /// The named transients (zero where the flat reserve or the book's policy is charged).
  constexpr bytes transients() const {
    return cuda_context + nccl_buffers + optimizer_temporaries + fragmentation;
  }
};

/// How a framework shards the model states: the ZeRO stage it runs and the devices that divide
/// the dense and the expert states.
struct state_sharding {
  std::int64_t stage = 0;
  double dense = 1.0;
  double expert = 1.0;
};

/// The sharding the plan's framework applies.
/// - generic (and DeepSpeed, MaxText for now): the plan's ZeRO stage over its ZeRO axes.
/// - torchtitan: FSDP2 shards over the `fsdp` mesh, dp_shard x cp ("fsdp = self.dp_shard *
///   self.cp", experts over "efsdp = fsdp * self.tp // self.ep": torchtitan
///   torchtitan/distributed/parallel_dims.py@b5bcd76c66d0acb1a08b176d9639425bc55e0b2a, and
///   `resolve_fsdp_mesh`, which appends "cp" to the shard axes, torchtitan/distributed/fsdp.py
///   at the same commit), so context parallelism divides the states too; and with cp > 1 FSDP is
///   on even without a dp_shard axis (`fsdp_enabled = dp_shard_enabled or cp_enabled`,
///   parallel_dims.py), as ZeRO-3.
/// - Megatron-Core: the distributed optimizer (ZeRO-1) and DDP's gradient reduce-scatter run over
///   the data-parallel group with context parallelism (`intra_dp_cp_group =
///   get_data_parallel_group(with_context_parallel=True, ...)`, Megatron-LM
///   megatron/core/process_groups_config.py@d98e8a64ddf34856e74b24714e3bedb2f5a39553).
constexpr state_sharding sharding_of(const training_setup& t) {
  const parallel_degrees& d = t.degrees;
  const double cp = static_cast<double>(d.context);
  state_sharding out{d.zero_stage, static_cast<double>(d.zero), static_cast<double>(d.zero_expert)};
  if (t.framework.context_enables_fsdp && d.zero_stage == 0 && d.context > 1) out.stage = 3;
  if (t.framework.shards_states_over_context) {
    out.dense *= cp;
    out.expert *= cp;
  }
  return out;
}

/// Bytes of one accumulated gradient element. Megatron-Core keeps fp32 main gradients in a
/// contiguous buffer unless `--grad-reduce-in-bf16` ("bfloat16 requires gradient accumulation
/// and all-reduce to be done in fp32", megatron/training/arguments.py@d98e8a6; the buffer then
/// has the parameters' type); the distributed optimizer's table gives bf16 parameters with fp32
/// gradients 6 + 12/d bytes per parameter (docs/user-guide/features/dist_optimizer.md@d98e8a6).
/// Every other framework: the precision policy's.
constexpr double gradient_bytes_of(const training_setup& t) {
  if (t.framework.fp32_main_gradients)
    return t.grad_reduce_in_bf16 ? t.precision.parameter_bytes : 4.0;
  return t.precision.gradient_bytes;
}

/// Model-state bytes of `device` parameters under the plan's ZeRO stage and precision
/// (Rajbhandari et al. 2020: stage 1 shards optimizer states (and the fp32 master copy, part of
/// its K = 12), stage 2 also gradients, stage 3 also parameters), over the devices the plan's
/// framework shards across (`sharding_of`).
constexpr memory_breakdown model_state_memory(const device_parameters& p, const training_setup& t) {
  const precision_policy& x = t.precision;
  const state_sharding z = sharding_of(t);
  auto sharded = [&](bool by_zero) {
    return by_zero ? p.dense / z.dense + p.expert / z.expert : p.dense + p.expert;
  };
  memory_breakdown out;
  out.parameters = sharded(z.stage >= 3) * x.parameter_bytes * byte;
  out.gradients = sharded(z.stage >= 2) * gradient_bytes_of(t) * byte;
  out.master_weights = sharded(z.stage >= 1) * x.master_bytes * byte;
  out.optimizer = sharded(z.stage >= 1) * x.optimizer_state_bytes *
                  static_cast<double>(x.optimizer_states) * byte;
  const offload_policy& o = t.offload;
  if (!o.any()) return out;
  // Offloaded (`offload_policy`): the shares on the host, the rest on the device.
  const double shard = sharded(z.stage >= 1);
  const bytes host_states = (out.master_weights + out.optimizer) * o.optimizer;
  out.host = host_states + shard * (o.host_gradient_bytes + o.host_staging_bytes) * byte;
  out.master_weights = out.master_weights * (1.0 - o.optimizer);
  out.optimizer = out.optimizer * (1.0 - o.optimizer);
  if (o.gradients_on_host) out.gradients = bytes{};
  if (o.parameters_on_host) {
    out.host = out.host + out.parameters;
    out.parameters = bytes{};
  }
  return out;
}

/// Activation inputs for this setup (the sequence divided by context parallelism).
constexpr activation_inputs activation_inputs_of(const training_setup& t) {
  return {.micro_batch = t.batch.micro_batch,
          .seq_len = t.batch.seq_len / t.degrees.context,
          .tensor_parallel = t.degrees.tensor,
          .sequence_parallel = t.degrees.sequence_parallel,
          .expert_parallel = t.degrees.expert,
          .recompute = t.recompute,
          .activation_bytes = t.precision.activation_bytes,
          .linear_input_bytes =
              t.framework.fp8_linear_inputs && t.precision.compute == number_format::fp8 ? 1.0
                                                                                         : 0.0,
          .dropout = t.dropout,
          .eager_attention = t.eager_attention};
}

/// A dense layer's sizes as the op-level byte counts below use them: sequence s and micro-batch b
/// on the device, hidden h, tensor parallelism t, activation bytes e, heads a, kv heads kv, head
/// dim d_h, MLP width f, and sp (t under sequence parallelism, else 1).
struct layer_dimensions {
  double s = 0.0, b = 0.0, h = 0.0, t = 1.0, e = 2.0, a = 0.0, kv = 0.0, dh = 0.0, f = 0.0;
  double sp = 1.0;
};

constexpr layer_dimensions dimensions_of(const model_shape& m, const activation_inputs& in) {
  const double t = static_cast<double>(in.tensor_parallel);
  return {.s = static_cast<double>(in.seq_len),
          .b = static_cast<double>(in.micro_batch),
          .h = static_cast<double>(m.d_model),
          .t = t,
          .e = in.activation_bytes,
          .a = static_cast<double>(m.heads),
          .kv = static_cast<double>(m.kv_heads),
          .dh = static_cast<double>(m.head_dim),
          .f = static_cast<double>(m.d_ff),
          .sp = in.sequence_parallel ? t : 1.0};
}

/// Bytes one layer keeps for one micro-batch under torchtitan's op-level selective activation
/// checkpointing (`SelectiveAC`, torchtitan/distributed/activation_checkpoint.py
/// @b5bcd76c66d0acb1a08b176d9639425bc55e0b2a). Its policy saves the outputs of the ops in its save
/// set (PyTorch's compute-intensive ops, mm and the SDPA kernels among them, plus `topk`,
/// `reduce_scatter_tensor` and `all_to_all_single`), "except every second mm/linear" (a counter
/// per block forward; the MoE router's gate is always recomputed and not counted; the experts'
/// grouped GEMMs are in no save list and are recomputed), and recomputes the rest; the
/// checkpointed block's input is kept too. The matmuls run in the order of the model code: wq,
/// wk, wv, wo (models/common/attention.py), or MLA's wq (or wq_a, wq_b), wkv_a, wkv_b, wo
/// (models/deepseek_v3), then w1, w3, w2 (`self.w2(F.silu(self.w1(x)) * self.w3(x))`,
/// models/common/feed_forward.py) of the dense MLP or of the shared experts; the odd ones are
/// saved. Per token on one device, with e the activation bytes:
/// - the block input, e·h (divided by t under sequence parallelism);
/// - each saved matmul's output: wq e·a·d_h/t, wv e·kv·d_h/t; MLA's wq e·a·(d_nope + d_rope)/t or
///   wq_a e·q_lora, wkv_a e·(kv_lora + d_rope), wkv_b e·a·(d_nope + d_v)/t; w1 and w3 e·f/t (the
///   shared experts' f·n_shared); w2 and wo their local (partial-sum) output e·h;
/// - the attention kernel's output e·a·d_v/t and its fp32 logsumexp 4·a/t (eager attention: the
///   math kernel's s x s weights e·a·s/t as well);
/// - an MoE layer's `topk` values and indices, 12 bytes per routed expert, and with expert
///   parallelism the dispatched and combined tokens of the all-to-alls, 2·k·e·h;
/// - under sequence parallelism, the reduce-scatters after wo and w2: e·h/t each.
/// torchtitan has no dropout. (A helper read the op lists and the MoE's forward at b5bcd76 and at
/// 8a2686c4, where each model passed its own list; the parity comes out the same.)
constexpr bytes torchtitan_selective_layer_bytes(const model_shape& m, layer_kind kind,
                                                 const activation_inputs& in) {
  const layer_dimensions x = dimensions_of(m, in);
  const double s = x.s, b = x.b, h = x.h, t = x.t, e = x.e, a = x.a, kv = x.kv, dh = x.dh;
  const double sp = x.sp;
  double per_token = e * h / sp;  // the block's input
  int count = 0;
  auto mm = [&](double out) {  // a matmul's output, saved when it is an odd one
    if (++count % 2 == 1) per_token += out;
  };
  if (m.mla.kv_lora_rank > 0) {
    const double nope = static_cast<double>(m.mla.qk_nope_head_dim);
    const double rope = static_cast<double>(m.mla.qk_rope_head_dim);
    const double v = static_cast<double>(m.mla.v_head_dim);
    const double q_lora = static_cast<double>(m.mla.q_lora_rank);
    if (q_lora > 0.0) {
      mm(e * q_lora);                     // wq_a
      mm(e * a * (nope + rope) / t);      // wq_b
    } else {
      mm(e * a * (nope + rope) / t);      // wq
    }
    mm(e * (static_cast<double>(m.mla.kv_lora_rank) + rope));  // wkv_a
    mm(e * a * (nope + v) / t);                                // wkv_b
    per_token += (e * a * v + 4.0 * a) / t;                    // attention output, logsumexp
  } else {
    mm(e * a * dh / t);                      // wq
    mm(e * kv * dh / t);                     // wk
    mm(e * kv * dh / t);                     // wv
    per_token += (e * a * dh + 4.0 * a) / t;  // SDPA output and logsumexp
  }
  if (in.eager_attention) per_token += e * a * s / t;  // the math kernel's weights
  mm(e * h);                                           // wo
  const double f = kind == layer_kind::moe ? static_cast<double>(m.moe.expert_d_ff) *
                                                 static_cast<double>(m.moe.shared_experts)
                                           : x.f;
  if (f > 0.0) {
    mm(e * f / t);                  // w1
    if (m.gated_mlp) mm(e * f / t);  // w3
    mm(e * h);                      // w2
  }
  if (kind == layer_kind::moe) {
    const double k = static_cast<double>(m.moe.top_k);
    per_token += 12.0 * k;  // topk's values and indices
    if (in.expert_parallel > 1) per_token += 2.0 * k * e * h;  // dispatch and combine
  }
  if (in.sequence_parallel && in.tensor_parallel > 1) per_token += 2.0 * e * h / t;
  return s * b * per_token * byte;
}

/// Bytes one torchtune layer keeps for one micro-batch without recomputation, the tensors
/// autograd saves as its modules run in eager PyTorch (torchtune at
/// 1814feb17a9038e1a8053ce93111bd26774a8db6, the commit of S5's table). Per token on one device,
/// with e the activation bytes:
/// - each of the two `RMSNorm`s: `x_fp32 = x.float()`, saved by `pow` and by the product with
///   the `rsqrt`, 4·h; `x_normed`, saved by the product with `scale`, e·h; the output, saved by
///   the projections it feeds, e·h (torchtune/modules/rms_norm.py). Compiled
///   (`compiled_layers`) the norm keeps its bf16 input and its output, e·h each, and recomputes
///   the fp32 copy and `x_normed` in the backward: an assumption (the compiled graph's saved
///   tensors were not read; the MLP's intermediates are assumed kept as in eager mode). S5 gives
///   only the sum of what compiling the layers and the loss saves, 9.7 GB, not this split
///   (tests/validation/MEMORY.md, rule M12);
/// - attention: the rotated q, and k and v after the grouped-query expansion to every query head
///   (`k.unsqueeze(2).expand(...).flatten(1, 2)` copies them), e·a·d_h each; the kernel's output
///   e·a·d_h and fp32 logsumexp 4·a; the `contiguous()` copy `output_proj` saves, e·a·d_h
///   (modules/attention.py). RoPE saves nothing of that size: each product's other operand is the
///   cache, which needs no gradient (modules/position_embeddings.py). Eager attention adds the
///   s x s weights, e·a·s;
/// - the gated MLP: w1's output (saved by SiLU), SiLU's and w3's outputs (saved by the product)
///   and the product (saved by w2), e·f each; ungated, w1's output and the activation's
///   (modules/feed_forward.py).
/// Heads and the MLP divide by tensor parallelism, the norms under sequence parallelism. There is
/// no dropout. Mixture-of-experts layers and MLA keep the generic bytes.
constexpr bytes torchtune_layer_bytes(const model_shape& m, layer_kind kind,
                                      const activation_inputs& in, bool compiled) {
  if (kind == layer_kind::moe || m.mla.kv_lora_rank > 0) return layer_activation_bytes(m, kind, in);
  const layer_dimensions x = dimensions_of(m, in);
  const double s = x.s, b = x.b, h = x.h, t = x.t, e = x.e, a = x.a, dh = x.dh, f = x.f;
  const double sp = x.sp;
  const double norm = (compiled ? 2.0 * e : 4.0 + 2.0 * e) * h / sp;
  double per_token = 2.0 * norm;
  per_token += (5.0 * e * a * dh + 4.0 * a) / t;       // q, k, v, output, logsumexp, copy
  if (in.eager_attention) per_token += e * a * s / t;  // the math kernel's weights
  per_token += (m.gated_mlp ? 4.0 : 2.0) * e * f / t;  // the MLP's intermediates
  return s * b * per_token * byte;
}

/// What one layer keeps for one micro-batch under a policy that names its tensors
/// (`recompute_kind::named`): on the device and in host memory.
struct kept_bytes {
  bytes device{};
  bytes host{};
};

/// Bytes per token on one device of a named tensor (`layer_tensor`), e the activation bytes:
/// query_proj e·a·d_h/t, key_proj and value_proj e·kv·d_h/t each, context the kernel's output and
/// its fp32 logsumexp (e·a·d_h + 4·a)/t (MaxText's splash kernel tags both, attention_op.py at
/// e591f30), attention_out e·a·d_h/t, out_proj e·h (divided by t under sequence parallelism:
/// base.yml shards `activation_embed` over `tensor`), the carry decoder_layer_input e·h (the
/// same), mlpwi_0 e·f/t and, gated, mlpwi_1 e·f/t. mlpwo counts 0 in a dense layer: it feeds only
/// the residual add, whose backward needs no input, and JAX saves a named value only where the
/// backward reads it (derived from JAX's partial evaluation, not measured; out_proj is read, by
/// the MLP norm's backward). In an MoE layer (moe.py at e591f30) mlpwi_0 and mlpwi_1 are the
/// routed experts' and the shared experts' (MaxText's MLP block names the shared ones alike),
/// e·(k + shared)·f_e/t, and mlpwo the k routed experts' outputs, e·k·h (divided by t under
/// sequence parallelism), which the combine's backward reads for the router weights' gradient;
/// the dense dispatch's capacity padding (`capacity_factor`) is not counted.
constexpr double named_tensor_bytes(const model_shape& m, layer_kind kind,
                                    const layer_dimensions& x, layer_tensor tensor) {
  const bool moe = kind == layer_kind::moe;
  const double k = static_cast<double>(m.moe.top_k);
  const double width =
      moe ? (k + static_cast<double>(m.moe.shared_experts)) * static_cast<double>(m.moe.expert_d_ff)
          : x.f;
  switch (tensor) {
    case layer_tensor::query_proj: return x.e * x.a * x.dh / x.t;
    case layer_tensor::key_proj:
    case layer_tensor::value_proj: return x.e * x.kv * x.dh / x.t;
    case layer_tensor::context: return (x.e * x.a * x.dh + 4.0 * x.a) / x.t;
    case layer_tensor::attention_out: return x.e * x.a * x.dh / x.t;
    case layer_tensor::out_proj:
    case layer_tensor::decoder_layer_input: return x.e * x.h / x.sp;
    case layer_tensor::mlpwi_0: return x.e * width / x.t;
    case layer_tensor::mlpwi_1: return m.gated_mlp ? x.e * width / x.t : 0.0;
    case layer_tensor::mlpwo: return moe ? x.e * k * x.h / x.sp : 0.0;
  }
  return 0.0;
}

/// What one layer keeps under a named policy: the scanned layer's input (its carry) on the
/// device, or in host memory where the policy offloads it, and the `saved` tensors on the
/// device, the `offloaded` ones in host memory (MaxText's `remat_policy`,
/// `maxtext_remat_policies`; the carry is a residual of every policy, nnx_decoders.py at
/// e591f30). MLA is not modelled by name: its layers keep the generic selective bytes on the
/// device.
constexpr kept_bytes named_layer_bytes(const model_shape& m, layer_kind kind,
                                       const activation_inputs& in) {
  if (m.mla.kv_lora_rank > 0) {
    activation_inputs selective = in;
    selective.recompute = {recompute_kind::selective};
    return {layer_activation_bytes(m, kind, selective), bytes{}};
  }
  const layer_dimensions x = dimensions_of(m, in);
  double device = 0.0;
  double host = 0.0;
  for (unsigned i = 0; i < std::size(layer_tensor_names); ++i) {
    const auto tensor = static_cast<layer_tensor>(i);
    const bool offloaded = (in.recompute.offloaded & tensor_bit(tensor)) != 0;
    const bool kept =
        !rematerialisable(tensor) || (in.recompute.saved & tensor_bit(tensor)) != 0;
    if (offloaded) host += named_tensor_bytes(m, kind, x, tensor);
    else if (kept) device += named_tensor_bytes(m, kind, x, tensor);
  }
  return {x.s * x.b * device * byte, x.s * x.b * host * byte};
}

/// The policy MaxText's `selective` stands for (the MaxText export writes it):
/// `minimal_with_context`.
constexpr recompute_policy maxtext_selective_policy() {
  return policy_of(*maxtext_remat_policy("minimal_with_context"));
}

/// Bytes one layer keeps for one micro-batch under the plan's recomputation and framework:
/// torchtitan's `selective` is its op-level policy (`torchtitan_selective_layer_bytes`),
/// MaxText's its `minimal_with_context` (`named_layer_bytes`), a named policy its named tensors
/// on the device; torchtune's layer
/// without recomputation is `torchtune_layer_bytes`; every other case is
/// `layer_activation_bytes`.
constexpr bytes stored_layer_bytes(const model_shape& m, layer_kind kind, const training_setup& t,
                                   const activation_inputs& in) {
  if (in.recompute.kind == recompute_kind::selective && in.recompute.modules == 0) {
    if (t.framework.selective == selective_recompute::op_level)
      return torchtitan_selective_layer_bytes(m, kind, in);
    if (t.framework.selective == selective_recompute::minimal_with_context) {
      activation_inputs named = in;
      named.recompute = maxtext_selective_policy();
      return named_layer_bytes(m, kind, named).device;
    }
  }
  if (in.recompute.kind == recompute_kind::named) return named_layer_bytes(m, kind, in).device;
  if (t.framework.eager_module_storage && in.recompute.kind == recompute_kind::none)
    return torchtune_layer_bytes(m, kind, in, t.compiled_layers);
  return layer_activation_bytes(m, kind, in);
}

/// `per_layer(kind)` of one layer, weighted by stage `s`'s mix of dense and MoE layers, times the
/// layers it keeps in flight (`layers_in_flight`).
template <class PerLayer>
constexpr bytes in_flight_layers(const model_shape& m, const training_setup& t, std::int64_t s,
                                 PerLayer per_layer) {
  const std::int64_t stage_layers = layers_on_stage(m, t, s);
  if (stage_layers <= 0) return bytes{};
  const std::int64_t dense =
      is_moe(m) ? stage_layers - moe_layers_in(m, first_layer_of(m, t, s), stage_layers)
                : stage_layers;
  const double dense_share = static_cast<double>(dense) / static_cast<double>(stage_layers);
  const bytes one = per_layer(layer_kind::dense) * dense_share +
                    per_layer(layer_kind::moe) * (1.0 - dense_share);
  return one * layers_in_flight(t, s, stage_layers);
}

/// Activation bytes pipeline stage `s` (0: the first) keeps at its peak: one layer's
/// activations times the layers in flight there, weighted by the stage's mix of dense and MoE
/// layers.
constexpr bytes activation_memory(const model_shape& m, const training_setup& t,
                                  std::int64_t s = 0) {
  const activation_inputs in = activation_inputs_of(t);
  return in_flight_layers(m, t, s,
                          [&](layer_kind kind) { return stored_layer_bytes(m, kind, t, in); });
}

/// Bytes pipeline stage `s` keeps in host memory at its peak: what a named policy offloads
/// (`named_layer_bytes`), times the layers in flight there, weighted as `activation_memory`.
constexpr bytes host_activation_memory(const model_shape& m, const training_setup& t,
                                       std::int64_t s = 0) {
  if (t.recompute.kind != recompute_kind::named || t.recompute.offloaded == 0) return bytes{};
  const activation_inputs in = activation_inputs_of(t);
  return in_flight_layers(m, t, s,
                          [&](layer_kind kind) { return named_layer_bytes(m, kind, in).host; });
}

/// The layer full recomputation rematerialises during the backward pass: at the peak one layer
/// holds all its activations (as without recomputation) on top of every layer's checkpoint
/// (`torch.utils.checkpoint` reruns the block's forward inside its backward: torchtitan `FullAC`,
/// torchtitan/distributed/activation_checkpoint.py@b5bcd76c66d0acb1a08b176d9639425bc55e0b2a;
/// Megatron-Core's `--recompute-granularity full` does the same per layer). The larger of the
/// model's layer kinds, under every named framework (DeepSpeed's checkpointing reruns the block
/// the same way, and XLA's rematerialisation of a MaxText layer holds it too); zero for the
/// generic framework (the papers' accounting, Korthikanti et al. Sec. 5, counts only the
/// checkpoints) and for any other recomputation. The layer holds what it stores without
/// recomputation under the plan's framework (`stored_layer_bytes`).
/// Under selective recomputation of modules (`recompute_module`) the same holds for the largest
/// of them: each is recomputed just before its own backward and freed after it, so one module's
/// activations are back at a time (the attention core's scores are not charged: a fused kernel's
/// backward recomputes them itself).
constexpr bytes rematerialised_module_memory(const model_shape& m, const activation_inputs& in) {
  const recompute_module_set all = recomputed_modules(in.recompute);
  bytes most{};
  for (unsigned i = 0; i < std::size(recompute_module_names); ++i) {
    const auto x = static_cast<recompute_module>(i);
    if (x == recompute_module::core_attn || (all & module_bit(x)) == 0) continue;
    activation_inputs without = in;
    const recompute_module_set rest = static_cast<recompute_module_set>(all & ~module_bit(x));
    without.recompute = rest == 0 ? recompute_policy{recompute_kind::none}
                                  : recompute_policy{recompute_kind::selective, 0, rest};
    for (layer_kind kind : {layer_kind::dense, layer_kind::moe}) {
      const bool present =
          kind == layer_kind::dense ? dense_layer_count(m) > 0 : dense_layer_count(m) < m.layers;
      if (!present) continue;
      const bytes back =
          layer_activation_bytes(m, kind, without) - layer_activation_bytes(m, kind, in);
      if (back > most) most = back;
    }
  }
  return most;
}

constexpr bytes rematerialised_layer_memory(const model_shape& m, const training_setup& t) {
  if (!t.framework.holds_rematerialised_layer) return bytes{};
  activation_inputs in = activation_inputs_of(t);
  if (recomputed_modules(t.recompute) != 0) return rematerialised_module_memory(m, in);
  if (t.recompute.kind == recompute_kind::named) {
    // What the named policy does not keep on the device is back during the layer's backward:
    // the larger of the model's layer kinds.
    activation_inputs whole_layer = in;
    whole_layer.recompute = {recompute_kind::none};
    auto back = [&](layer_kind kind) {
      const bytes kept = named_layer_bytes(m, kind, in).device;
      const bytes whole = stored_layer_bytes(m, kind, t, whole_layer);
      return whole > kept ? whole - kept : bytes{};
    };
    const bytes dense = dense_layer_count(m) > 0 ? back(layer_kind::dense) : bytes{};
    const bytes moe = dense_layer_count(m) < m.layers ? back(layer_kind::moe) : bytes{};
    return moe > dense ? moe : dense;
  }
  if (t.recompute.kind != recompute_kind::full) return bytes{};
  in.recompute = {recompute_kind::none};
  const bytes dense =
      dense_layer_count(m) > 0 ? stored_layer_bytes(m, layer_kind::dense, t, in) : bytes{};
  const bytes moe =
      dense_layer_count(m) < m.layers ? stored_layer_bytes(m, layer_kind::moe, t, in) : bytes{};
  return moe > dense ? moe : dense;
}

/// Whether FSDP keeps a stage's parameters gathered and its gradients unsharded across the
/// micro-batches: torchtitan does not reshard after forward when pipelining ("For PP, by default
/// do not reshard after forward to avoid per-microbatch all-gathers": `return not pp_enabled`,
/// torchtitan/distributed/fsdp.py@b5bcd76c66d0acb1a08b176d9639425bc55e0b2a), and PyTorch's
/// pipeline schedules turn gradient synchronisation and resharding after backward off for every
/// micro-batch but the last (`set_requires_gradient_sync(False)`,
/// `set_reshard_after_backward(False)`), so gradients accumulate unsharded in FSDP's reduce dtype.
constexpr bool fsdp_keeps_stage_gathered(const training_setup& t) {
  return t.framework.fsdp_gathered_across_micro_batches && sharding_of(t).stage >= 3 &&
         t.degrees.pipeline > 1;
}

/// Bytes per logit (one token's score of one vocabulary entry on a device) live at the loss's
/// peak, the start of the backward pass with every saved activation still held:
/// - `generic`: 4, the output layer and the fp32 cross-entropy as Korthikanti et al. count them
///   (Sec. 4.2.2).
/// - `megatron_core`: 8, the fp32 logits and their fp32 gradient: the vocab-parallel
///   cross-entropy casts the logits to fp32 and saves their softmax for the backward pass
///   (megatron/core/tensor_parallel/cross_entropy.py@d98e8a64ddf34856e74b24714e3bedb2f5a39553).
/// - `torchtitan`, eager, without tensor parallelism: 12. The loss is
///   `cross_entropy(pred.flatten(0, 1).float(), labels)` and the bf16 `pred` is deleted before
///   `loss.backward()` (train.py@9dec370ad26b5f8e9a7333a0e36165018262644b, lines 131-134 and
///   304-307; torchtitan/components/loss.py@b5bcd76). ATen's cross-entropy is `log_softmax` then
///   `nll_loss`: `log_softmax` saves its fp32 output; the backward writes `nll_loss`'s fp32
///   gradient and then `log_softmax`'s fp32 input gradient from both, three fp32 copies at once.
/// - `torchtitan`, eager, with tensor parallelism: 16. torchtitan enables `loss_parallel` with TP
///   (`loss_parallel_enabled`, torchtitan/parallelisms/parallel_dims.py@9dec370), whose fused backward of `nll_loss`
///   and `log_softmax` computes `(grad_input + torch.exp(x)) * grad_output` from the saved fp32
///   log-softmax `x` and a `zeros_like(x)` gradient: four fp32 copies at once
///   (`_nll_loss_and_log_softmax_backward`, torch/distributed/tensor/parallel/loss.py, read in a
///   stored 2024 copy of PyTorch whose commit is not pinned).
/// - `torchtitan` with `compiled_loss`: 4, the bf16 logits the compiled graph saves and its bf16
///   gradient (the fp32 cast, softmax and gradient fused into the kernels; the graph's saved
///   tensors are not checked).
/// - `torchtune`, eager: 12, as torchtitan's without TP. The model casts its output to fp32
///   (`F.linear(h, self.tok_embeddings.weight).float()`, torchtune/modules/transformer.py at
///   1814feb17a9038e1a8053ce93111bd26774a8db6), the recipe deletes it after the loss ("free
///   logits otherwise it peaks backward memory", recipes/full_finetune_single_device.py), and
///   `log_softmax`'s saved output, `nll_loss`'s gradient and `log_softmax`'s input gradient are
///   three fp32 copies.
/// - `torchtune` with `compiled_loss`: 8. The compiled loss's input is the model's fp32 output,
///   which the graph keeps for its backward, and the backward writes one fp32 gradient (the
///   graph's saved tensors are not checked).
/// - `torchtune` with `chunked_loss`: `CEWithChunkedOutputLoss` (modules/loss/
///   ce_chunked_output_loss.py) projects and upcasts each of its k = 8 chunks on its own. Eager,
///   every chunk's `log_softmax` keeps its fp32 output (4) and one chunk's backward adds two
///   more copies of a chunk (8/k): 5. Compiled (`training.compile_loss` compiles only "the
///   upcast + cross-entropy calculation"), each chunk keeps its bf16 logits (e) and one chunk's
///   bf16 gradient is live (e/k): 2.25 in bf16.
constexpr double logit_bytes(const training_setup& t) {
  const double e = t.precision.activation_bytes;
  constexpr double chunks = 8.0;
  switch (t.framework.loss) {
    case loss_memory::korthikanti: return 4.0;
    case loss_memory::torchtitan:
      if (t.compiled_loss) return 2.0 * e;
      return t.degrees.tensor == 1 ? 12.0 : 16.0;
    case loss_memory::torchtune:
      if (t.chunked_loss) return t.compiled_loss ? e + e / chunks : 4.0 + 8.0 / chunks;
      return t.compiled_loss ? 8.0 : 12.0;
    case loss_memory::fp32_softmax: return 8.0;
  }
  return 8.0;
}

/// Parameters of a device's largest layer (attention and the larger of its dense MLP and its
/// experts on the device), split by tensor parallelism.
constexpr double largest_layer_parameters(const parameter_counts& c, const parallel_degrees& d) {
  return static_cast<double>(c.attention_per_layer +
                             std::max(c.dense_mlp_per_layer, c.moe_per_layer / d.expert)) /
         static_cast<double>(d.tensor);
}

/// Whether a setup runs ZeRO-3 as DeepSpeed v0.3.13 to v0.4.2 did (`zero3_per_tensor_traffic`,
/// cost.hpp; `gathered_parameter_memory`).
constexpr bool deepspeed_zero3_per_tensor(const training_setup& t) {
  return t.framework.reads_zero3_per_tensor && t.zero3_per_tensor &&
         t.degrees.zero_stage >= 3;
}

/// The parameter buffers of `buffer_memory`. Under ZeRO-3 two gathered layers (the current one
/// and the prefetched next) and one layer's unsharded gradients before its reduce-scatter; where
/// the framework gathers each weight for its own use (`gathers_per_weight`) one layer in the
/// working format and the largest weight's unsharded gradient; where FSDP keeps the stage
/// gathered (`fsdp_keeps_stage_gathered`), the whole stage's parameters in their working format
/// and its gradients in fp32 (torchtitan's `mixed_precision_reduce = "float32"`,
/// torchtitan/config/configs.py@b5bcd76). DeepSpeed's ZeRO-3 of v0.3.13 to v0.4.2
/// (`deepspeed_zero3_per_tensor`) gathers one module's tensors at a time and prefetches the next ones until 5e7 elements
/// (`fetch_sub_module`, `get_params_to_prefetch`, `stage3_prefetch_bucket_size`, stage3.py and
/// zero/constants.py at v0.3.16), so two of the largest tensors (`largest_parameter_tensor`, split
/// by tensor parallelism) are gathered at once; the gradients wait in the reduce bucket
/// (`reduce_bucket_size`, 5e8 elements, the framework's `bucket_size`, or the one tensor when it is
/// larger), which `buffered_reduce_fallback` flattens into a copy: twice that, in the parameters'
/// dtype as it reduces them.
constexpr bytes gathered_parameter_memory(const model_shape& m, const parameter_counts& c,
                                          const training_setup& t, stage_position stage) {
  if (fsdp_keeps_stage_gathered(t)) {
    const device_parameters p = parameters_on_device(m, c, t, stage);
    return (p.dense + p.expert) * (t.precision.parameter_bytes + 4.0) * byte;
  }
  if (deepspeed_zero3_per_tensor(t)) {
    const double tensor = largest_parameter_tensor(m) / static_cast<double>(t.degrees.tensor);
    const double waiting = std::max(tensor, t.framework.bucket_size);
    return (2.0 * tensor + 2.0 * waiting) * t.precision.parameter_bytes * byte;
  }
  if (sharding_of(t).stage < 3) return bytes{};
  if (t.framework.gathers_per_weight)
    return (largest_layer_parameters(c, t.degrees) * t.precision.activation_bytes +
            largest_parameter_tensor(m) / static_cast<double>(t.degrees.tensor) *
                gradient_bytes_of(t)) *
           byte;
  return largest_layer_parameters(c, t.degrees) *
         (2.0 * t.precision.parameter_bytes + gradient_bytes_of(t)) * byte;
}

/// Temporary buffers of a stage: the gathered parameters (`gathered_parameter_memory`); on the
/// last stage the logits of one micro-batch at `logit_bytes` each (s·b·V/t of them), on top of
/// the gathered parameters or, where the framework frees them before the layers' backward
/// (`loss_apart_from_layer_buffers`), the larger of the two; with a pipeline, a send and a
/// receive buffer of one micro-batch's boundary activations.
constexpr bytes buffer_memory(const model_shape& m, const parameter_counts& c,
                              const training_setup& t, stage_position stage) {
  const parallel_degrees& d = t.degrees;
  const double tp = static_cast<double>(d.tensor);
  const double s = static_cast<double>(t.batch.seq_len / d.context);
  const double b = static_cast<double>(t.batch.micro_batch);
  const double gathered = gathered_parameter_memory(m, c, t, stage).value();
  const double logits = stage_index(d, stage) == d.pipeline - 1
                            ? logit_bytes(t) * s * b * static_cast<double>(m.vocab) / tp
                            : 0.0;
  double total = t.framework.loss_apart_from_layer_buffers ? std::max(gathered, logits)
                                                           : gathered + logits;
  if (d.pipeline > 1)
    total += 2.0 * s * b * static_cast<double>(m.d_model) * t.precision.activation_bytes /
             (d.sequence_parallel ? tp : 1.0);
  return total * byte;
}

constexpr bytes buffer_memory(const model_shape& m, const training_setup& t, stage_position stage) {
  return buffer_memory(m, parameters(m), t, stage);
}

// --- transients at the peak (named frameworks) -------------------------------------------------

/// The CUDA context a PyTorch process holds on its device, outside the caching allocator:
/// 287,047,680 bytes measured with lazy module loading (`CUDA_MODULE_LOADING=LAZY`, PyTorch's
/// default since 1.13) against 666,632,192 bytes eager, pytorch/pytorch PR #86509 ("Sets
/// CUDA_MODULE_LOADING to LAZY when not set by the user"; the GPU is not stated there). No
/// published figure for an H100 was found: that it carries over to one is an assumption.
inline constexpr bytes cuda_context_memory = 287'047'680.0 * byte;

/// The cuBLAS workspace PyTorch allocates per handle and stream through its caching allocator:
/// 4096 KiB x 8 = 32 MiB on Hopper (sm90; 4096 KiB x 2 + 16 KiB x 8 on other chips),
/// `parseChosenWorkspaceSize`, aten/src/ATen/cuda/CublasHandlePool.cpp at pytorch/pytorch
/// 26a39059ec580351411f180816c47e2ef5134ae1; cuBLASLt shares it by default
/// (`TORCH_CUBLASLT_UNIFIED_WORKSPACE`, same file). One compute stream is charged, at the Hopper
/// size (the other chips' is 24 MB less).
inline constexpr bytes cublas_workspace_memory = 4096.0 * 8.0 * 1024.0 * byte;

/// NCCL's buffer of one channel's connection to a peer for its Simple protocol:
/// `DEFAULT_BUFFSIZE (1 << 22) /* 4MiB */`, the default of `NCCL_BUFFSIZE` (NVIDIA/nccl
/// src/init.cc at 48bb7fec7953112ff37499a272317f6663f8f600; the NCCL user guide's environment
/// variables page documents the same 4 MiB default). The receiving side holds it.
inline constexpr bytes nccl_channel_buffer = 4194304.0 * byte;

/// Channels per communicator: an assumption, not a measurement. NCCL chooses the count from the
/// topology at run time (bounded by `NCCL_MIN_NCHANNELS` / `NCCL_MAX_NCHANNELS`); 32, the count
/// NVLink rings commonly reach, is charged, so each communicator holds 32 x 4 MiB = 134 MB. No
/// published per-communicator measurement for an H100 was found.
inline constexpr double nccl_channels_assumed = 32.0;

/// The caching allocator's fragmentation as a share of the dynamic memory (activations and
/// buffers, which are allocated and freed every step): 5%, the share the flat reserve has always
/// charged, not a published measurement (none was found). To be calibrated on the memory
/// validation's calibration half (tests/validation/MEMORY.md), which it has not been yet.
inline constexpr double fragmentation_fraction = 0.05;

/// Whether the plan's framework charges the named transients: Megatron-Core, torchtitan and
/// torchtune (PyTorch on CUDA, as torchtitan), whose allocations are modelled. `generic` charges
/// the flat reserve, and DeepSpeed, allocated as `generic` for now, keeps it too; MaxText's
/// buffers are assigned by XLA when the step compiles (`compiled_buffer_assignment`): neither.
constexpr bool charges_named_transients(const training_setup& t) {
  return t.memory_policy == training_memory_policy::framework && t.framework.named_transients;
}

/// The communicators a device belongs to: one process group per parallel axis of more than one
/// device (data with ZeRO, tensor, context, pipeline, expert), as PyTorch's DeviceMesh and
/// Megatron-Core's parallel state create them.
constexpr double nccl_communicators(const parallel_degrees& d) {
  double n = 0.0;
  for (std::int64_t degree : {d.data, d.tensor, d.context, d.pipeline, d.expert})
    if (degree > 1) n += 1.0;
  return n;
}

/// NCCL's buffers on one device: each communicator's channels, one Simple-protocol buffer of
/// `nccl_channel_buffer` per channel (a ring's connection from the previous peer).
constexpr bytes nccl_buffer_memory(const parallel_degrees& d) {
  return nccl_channel_buffer * (nccl_communicators(d) * nccl_channels_assumed);
}

/// Temporaries of the optimizer step. A fused Adam (`torch.optim.AdamW(fused=True)`, and the
/// Transformer Engine / Apex `FusedAdam` Megatron-Core uses) updates every state in place through
/// `multi_tensor_apply`, which walks the tensors in chunks of `kChunkSize = 65536` elements inside
/// the kernel (aten/src/ATen/native/cuda/MultiTensorApply.cuh) and allocates nothing the size of
/// a state. The foreach implementation does: `_multi_tensor_adam` builds `exp_avg_sq_sqrt =
/// torch._foreach_sqrt(device_exp_avg_sqs)`, one optimizer state's size for the whole group
/// (torch/optim/adam.py at pytorch/pytorch dc80ccded5385cca3e777472d64cfe3d874fad89). torchtitan's
/// default is "fused" (`implementation ... = "fused"`, torchtitan/components/optimizer.py at
/// d0eb02f20a80eaf9973fa38dc9e7d64d88b0f5f5) and Megatron-Core's optimizer is fused, so both
/// charge nothing; `fused = false` charges the foreach temporary, one state of the device's shard.
constexpr bytes optimizer_step_temporaries(const memory_breakdown& states,
                                           const precision_policy& x, bool fused) {
  if (fused || x.optimizer_states < 1) return bytes{};
  return states.optimizer / static_cast<double>(x.optimizer_states);
}

/// Fills the transients of `out` (whose states, activations, buffers and `not_live_at_peak` are
/// set) under the plan's policy: the flat reserve, the named terms, or nothing
/// (`training_memory_policy::book`). `freed_dynamic`: the activations and buffers not live at
/// the peak, which the fragmentation is not charged on.
constexpr void charge_transients(memory_breakdown& out, const training_setup& t,
                                 bytes freed_dynamic = bytes{}) {
  const bool compiled = t.memory_policy == training_memory_policy::framework &&
                        t.framework.compiled_buffer_assignment;
  if (t.memory_policy == training_memory_policy::book || compiled) return;
  if (!charges_named_transients(t)) {
    const bytes planned =
        out.model_states() + out.activations + out.buffers - out.not_live_at_peak;
    out.reserve = t.reserve.fixed + planned * t.reserve.fraction;
    return;
  }
  out.cuda_context = cuda_context_memory + cublas_workspace_memory;
  out.nccl_buffers = nccl_buffer_memory(t.degrees);
  out.optimizer_temporaries = optimizer_step_temporaries(out, t.precision, true);
  out.fragmentation = (out.activations + out.buffers - freed_dynamic) * fragmentation_fraction;
}

/// Whether the plan's gradients are freed between steps, so that the step's peak is the larger
/// of its two moments (`peak_moment`) rather than the sum of everything it allocates: torchtune
/// sets them to None after each optimizer step (`self._optimizer.zero_grad(set_to_none=True)`,
/// recipes/full_finetune_single_device.py at 1814feb17a9038e1a8053ce93111bd26774a8db6), so with
/// one micro-batch per step and no pipeline the forward runs with no gradient allocated. With
/// more micro-batches the gradients accumulate across them and are live from the second on.
/// Megatron-Core and DeepSpeed keep contiguous gradient buffers; torchtitan zeroes its gradients
/// in place since f84224af0 (2026-08-13: `zero_grad(set_to_none=...disable_cuda_graphs)`, default
/// false), so both keep them live, as the papers' sum does.
constexpr bool gradients_freed_between_steps(const training_setup& t) {
  return t.framework.frees_gradients_each_step && t.degrees.pipeline == 1 &&
         micro_batches(t) == 1;
}

/// Sets the moment of `out`'s peak and what is not live then (`not_live_at_peak`), returning the
/// activations and buffers freed by that moment. Where gradients are freed between steps
/// (`gradients_freed_between_steps`) the step peaks either at the start of the backward pass
/// (every activation, the loss's logits and buffers, no gradient yet) or at its end (every
/// gradient, the layer being rematerialised and the gathered parameters, the activations and
/// logits freed), whichever holds more. With `optimizer_in_backward` each gradient is freed as
/// its step runs: the end holds one layer's gradients at most.
constexpr bytes peak_phases(memory_breakdown& out, const model_shape& m, const parameter_counts& c,
                            const training_setup& t, stage_position stage,
                            bytes rematerialised) {
  if (!gradients_freed_between_steps(t)) return bytes{};
  const bytes layer_gradients =
      largest_layer_parameters(c, t.degrees) * gradient_bytes_of(t) * byte;
  const bytes gradients_at_end =
      t.optimizer_in_backward && layer_gradients < out.gradients ? layer_gradients
                                                                   : out.gradients;
  const bytes dynamic_at_end =
      rematerialised + gathered_parameter_memory(m, c, t, stage);
  const bytes freed_at_end = out.activations + out.buffers - dynamic_at_end;
  if (gradients_at_end - freed_at_end > bytes{}) {
    out.moment = peak_moment::backward_end;
    out.not_live_at_peak = freed_at_end + (out.gradients - gradients_at_end);
    return freed_at_end;
  }
  out.moment = peak_moment::backward_start;
  out.not_live_at_peak = out.gradients;
  return bytes{};
}

/// Memory of one pipeline stage on one device.
constexpr memory_breakdown stage_memory(const model_shape& m, const parameter_counts& c,
                                        const training_setup& t, stage_position stage) {
  memory_breakdown out = model_state_memory(parameters_on_device(m, c, t, stage), t);
  out.stage = stage;
  // Each stage holds what its schedule keeps there (`chunks_in_flight`): the last one
  // micro-batch under 1F1B, (v − 1)·p + 1 chunks interleaved, all under GPipe.
  const std::int64_t index = stage_index(t.degrees, stage);
  out.activations = activation_memory(m, t, index);
  out.host = out.host + host_activation_memory(m, t, index);
  const bytes rematerialised = rematerialised_layer_memory(m, t);
  out.activations = out.activations + rematerialised;
  out.buffers = buffer_memory(m, c, t, stage);
  const bytes freed_dynamic = peak_phases(out, m, c, t, stage, rematerialised);
  charge_transients(out, t, freed_dynamic);
  out.total = out.model_states() + out.activations + out.buffers + out.reserve +
              out.transients() - out.not_live_at_peak;
  return out;
}

constexpr memory_breakdown stage_memory(const model_shape& m, const training_setup& t,
                                        stage_position stage) {
  return stage_memory(m, parameters(m), t, stage);
}

/// Memory per device: the largest of the first, the middle (stage 1, where more than two stages
/// run) and the last pipeline stage. The middle holds no embedding or output, but one micro-batch
/// fewer in flight, and more layers where the split shortens the first (`layers_on_stage`);
/// the stages after it hold fewer micro-batches and no more layers.
///
/// With `stop_above`, the first stage (first, middle, last) whose memory exceeds it is returned
/// without computing the rest: the device needs at least that much (a search that only asks
/// whether a plan fits stops there).
constexpr memory_breakdown memory_per_device(const model_shape& m, const parameter_counts& c,
                                             const training_setup& t,
                                             bytes stop_above = bytes{1e300 * byte}) {
  memory_breakdown most = stage_memory(m, c, t, stage_position::first);
  if (t.degrees.pipeline == 1 || most.total > stop_above) return most;
  if (t.degrees.pipeline > 2) {
    const memory_breakdown middle = stage_memory(m, c, t, stage_position::middle);
    if (middle.total > most.total) most = middle;
    if (most.total > stop_above) return most;
  }
  const memory_breakdown last = stage_memory(m, c, t, stage_position::last);
  return last.total > most.total ? last : most;
}

constexpr memory_breakdown memory_per_device(const model_shape& m, const training_setup& t) {
  return memory_per_device(m, parameters(m), t);
}

// --- the verdict --------------------------------------------------------------------------------

/// What the memory estimate says of a plan against its chip: `fits` with room to spare beyond the
/// margin, `tight` (it fits, but by less than the margin: inside the model's error band the
/// estimate cannot tell), `does_not_fit` (the need exceeds the capacity, as `fits` says).
enum class memory_verdict : std::uint8_t { fits, tight, does_not_fit };

/// The verdict's name in reports and JSON ("fits", "tight", "does_not_fit").
constexpr std::string_view verdict_name(memory_verdict v) {
  switch (v) {
    case memory_verdict::fits: return "fits";
    case memory_verdict::tight: return "tight";
    case memory_verdict::does_not_fit: return "does_not_fit";
  }
  return "?";
}

/// A verdict and its numbers: the headroom (capacity minus need, negative when it does not fit)
/// in GB (1e9 bytes) and the margin it was judged against, a fraction of the need.
struct memory_assessment {
  memory_verdict verdict = memory_verdict::fits;
  double headroom_gb = 0.0;
  double margin = memory_error_band;
  /// Whether measured peaks of the plan's chip family and framework back the band
  /// (`memory_validated`); where not, the verdict is the model's, not validated.
  bool validated = true;
};

/// Whether the memory validation measured peaks of this chip family under this framework
/// (`memory_measured_framework`, training/framework.hpp, on NVIDIA's NVLink-switched GPUs,
/// `fitted::memory_measured_family`). DeepSpeed, MaxText, TPUs, AMD's and Intel's parts and CPU
/// servers have none: their verdicts are not validated.
constexpr bool memory_validated(const chip_figures& chip, const framework_profile& f) {
  return memory_measured_framework(f.base) && fitted::memory_measured_family(chip);
}

/// The verdict of `need` bytes per device against `capacity`: does not fit above the capacity
/// (strict, the same comparison as the `fits_in_memory` rule); tight when the headroom is less
/// than `margin` x need (the estimate's measured error could use it up); else fits.
constexpr memory_assessment assess_memory(bytes need, bytes capacity,
                                          double margin = memory_error_band) {
  memory_assessment out;
  out.margin = margin;
  out.headroom_gb = (capacity - need).value() / 1e9;
  if (need > capacity) out.verdict = memory_verdict::does_not_fit;
  else if (capacity - need < need * margin) out.verdict = memory_verdict::tight;
  return out;
}

}  // namespace shardplan
