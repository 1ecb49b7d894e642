// What a training step costs: FLOPs per device, the bytes each strategy's collectives move on
// each mesh axis and their time on the real links, the pipeline bubble, the optimizer update,
// step time, tokens per second and MFU. All of it is an estimate; `step_assumptions` says how.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

#include <shardplan/hardware/collectives.hpp>
#include <shardplan/models/flops.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/operations.hpp>
#include <shardplan/training/plan.hpp>

namespace shardplan {

/// The best MFU published for a chip family, end to end, a bf16 run against the bf16 peak: no
/// estimate may exceed it at its compute format (`mfu_ceiling`; `step_total` raises compute to
/// it, so `mfu_within_best_measured` holds for every plan; the fuzzer checks the same).
/// - TPU: 71.47%, MaxText's 32B model on one v5p-128 (AI-Hypercomputer/maxtext,
///   MaxText/configs/v5p/README.md: "1x v5p-128 | 328 | 71.47%"), the highest row of that table.
/// - GPU: 64.23%, llm-foundry's MPT-7B on 8 A100-80GB at 2048 tokens without activation
///   checkpointing (mosaicml/llm-foundry, scripts/train/benchmarking/README.md: "| 7b | 2048 | 8
///   | a100_80gb | 64.23 | 64.23 |"), the highest MFU of its A100 and H100 tables.
/// - CPU: 0.50, the assumption of `default_efficiency` (no published training MFU).
constexpr double best_measured_mfu(const chip_figures& chip) {
  switch (chip.kind) {
    case chip_kind::tpu: return 0.7147;
    case chip_kind::gpu: return 0.6423;
    case chip_kind::cpu: return 0.50;
  }
  return 0.50;
}

/// How far the step model has measured off published training runs of the chip's family (a
/// mean absolute error, a fraction; `kernel_fractions::step_error`, whose defaults say where it
/// comes from); 0 where no run of the family was measured. Reports print it beside the step.
constexpr double measured_step_error(const chip_figures& chip) {
  const double e = family_kernel_fractions(chip).step_error;
  return e > 0.0 ? e : 0.0;
}

/// The traffic of one strategy on one mesh axis in one step: which collective, how often, the
/// array each one moves (as `collective_time` sizes it), the bytes one device sends in the
/// whole step, the time on the axis's links, the compute it may hide under and the part that is
/// not hidden.
struct axis_traffic {
  std::string_view strategy;
  collective_kind collective = collective_kind::all_gather;
  std::size_t axis = 0;
  double count = 0.0;  ///< collectives per step
  bytes array{};       ///< the array of one collective
  bytes bytes_per_device{};
  double forward_share = 0.0;  ///< the part of the collectives in the forward pass (the rest:
                               ///< backward pass, or between steps for ZeRO's gathers)
  seconds time{};
  seconds exposed{};
  seconds hidden_under{};  ///< the compute window the collectives may overlap with
  /// The part of `time` no compute window can hide, whatever its length: what the timeline of
  /// the data-parallel stream puts before the first compute or after the last (the first layer's
  /// gather of each micro-batch, the last gradient bucket's reduction; `data_parallel_traffic`).
  seconds floor{};
  /// Inside each micro-batch's forward and backward (tensor, context and expert parallelism):
  /// a stage's share of it is part of the stage's time per micro-batch, which the pipeline
  /// bubble repeats (`bubble_stage`).
  bool per_micro_batch = false;
  /// The share of the hidden time the compute loses to the collectives' kernels (the SMs they
  /// take), charged as exposed.
  double contention = 0.0;

  /// Bytes one device sends in the forward and in the backward pass.
  constexpr bytes forward_bytes() const { return bytes_per_device * forward_share; }
  constexpr bytes backward_bytes() const { return bytes_per_device * (1.0 - forward_share); }
};

inline constexpr std::size_t max_traffic = 24;

/// Every strategy's traffic of a step, in the order the stages add it.
struct traffic_list {
  std::array<axis_traffic, max_traffic> items{};
  std::size_t count = 0;
};

/// A step's cost.
struct step_cost {
  flops model_flops{};              ///< per step, all devices (no recomputation)
  flops hardware_flops{};           ///< per step, all devices (with recomputation)
  seconds compute{};                ///< every operation of the step at its kernel's time
  seconds elementwise{};            ///< the part of `compute` that is memory-bound operations
  seconds bubble{};                 ///< pipeline bubble
  seconds communication_exposed{};  ///< communication not hidden under compute
  seconds optimizer{};              ///< reading and writing the optimizer state from memory
  seconds step{};
  seconds roofline{};  ///< lower bound: the slowest of compute and each axis at peak
  double efficiency = 0.0;  ///< hardware FLOPs at peak over the GEMM and attention time
  double mfu = 0.0;         ///< against the peak of `mfu_format`
  number_format mfu_format = number_format::bf16;
  /// The sum came out faster than `mfu_ceiling` allows (the chip family's `best_measured_mfu`
  /// at the compute format); `compute` was raised by the difference, so `mfu` is that ceiling.
  bool mfu_capped = false;
  seconds uncapped_step{};  ///< the sum before the ceiling (= `step` when not capped)
  double tokens_per_second_per_device = 0.0;
  std::array<axis_traffic, max_traffic> traffic{};
  std::size_t traffic_count = 0;
};

/// The devices of the axes inside axis `a` (the stride between its ranks).
constexpr std::int64_t inner_devices(const training_plan_values& p, std::size_t a) {
  std::int64_t inner = 1;
  for (std::size_t i = a + 1; i < p.axis_count; ++i) inner *= p.axes[i].size;
  return inner;
}

/// The network the collectives of axis `a` use.
constexpr axis_network network_of(const placement_levels& levels, const training_plan_values& p,
                                  std::size_t a) {
  return network_of(levels, inner_devices(p, a), p.axes[a].size);
}
constexpr axis_network network_of(const training_plan_values& p, std::size_t a) {
  return network_of(levels_of(p.system), p, a);
}

/// The first axis carrying `role`, or the axis count when none does.
constexpr std::size_t first_axis(const training_plan_values& p, std::uint8_t role) {
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].roles & role) return i;
  return p.axis_count;
}

/// The peak rate of the plan's compute format on its chip.
constexpr flop_rate compute_peak(const training_plan_values& p) {
  return peak(p.system.chip, p.setup.precision.compute);
}

/// The format whose peak MFU is reported against: the plan's `mfu_format` (bf16 unless it asks
/// otherwise, so that fp8 and bf16 runs compare), or the compute format where the chip has no
/// rate for it.
constexpr number_format mfu_format_of(const training_plan_values& p, const step_assumptions& a) {
  return peak(p.system.chip, a.mfu_format).value() > 0.0 ? a.mfu_format
                                                          : p.setup.precision.compute;
}

/// The highest MFU (against the peak of `mfu_format`) an estimate may report: the chip family's
/// `best_measured_mfu` (a bf16 run against the bf16 peak) at the plan's compute format, i.e.
/// times peak(compute) / peak(mfu_format) (2 for fp8 against bf16 on an H100), and never above
/// 1. A plan with an fp8 recipe is held to the best bf16 MFU reached at twice the rate.
constexpr double mfu_ceiling(const training_plan_values& p, number_format mfu_format) {
  const double ratio = peak(p.system.chip, p.setup.precision.compute).value() /
                       peak(p.system.chip, mfu_format).value();
  const double ceiling = best_measured_mfu(p.system.chip) * ratio;
  return ceiling < 1.0 ? ceiling : 1.0;
}

// ---------------------------------------------------------------------------------------------
// Stage 1: compute.

/// What one step computes and how long the chip takes for it, per device.
struct step_compute {
  flops model_flops{};     ///< per step, all devices (no recomputation)
  flops hardware_flops{};  ///< per step, all devices (with recomputation)
  seconds at_peak{};       ///< hardware FLOPs per device at the compute format's peak
  seconds elementwise{};   ///< memory-bound operations (norms, activations, casts, loss)
  seconds total{};         ///< every operation of the device's micro-batches
  /// The time in which the model FLOPs run at `mfu_ceiling`: no step takes less.
  seconds mfu_floor{};
  double efficiency = 0.0;       ///< `at_peak` over the GEMM and attention time
  double attention_share = 0.0;  ///< attention's part of the forward FLOPs
  /// The slowest stage's fused attention kernels over the step, as they run (`sustained_time`).
  seconds attention{};
  /// The GEMMs of the slowest stage that tensor-parallel collectives overlap, every
  /// micro-batch (`layer_time::tp_window`; 0 without `tp_comm_overlap`).
  seconds tp_window{};
  /// The weight gradients beside which the backward's tensor-parallel reductions of the input
  /// gradients run, over the step (`layer_time::weight_gradient_window`; 0 unless
  /// `tp_backward_beside_weight_gradient`).
  seconds weight_gradient_window{};
  double micro_batches = 1.0;    ///< micro-batches per step on one pipeline
  number_format mfu_format = number_format::bf16;

  /// The compute of one micro-batch, and its attention part: the windows communication hides in.
  /// The attention part is the fused kernels' time; eager attention (GEMMs and a softmax among
  /// the rest) is taken at its share of the FLOPs.
  constexpr seconds per_micro_batch() const { return total / micro_batches; }
  constexpr seconds attention_per_micro_batch() const {
    return (attention > 0.0 * second ? attention : total * attention_share) / micro_batches;
  }
};

/// One micro-batch's time for a dense layer, an MoE layer and the embedding and output on one
/// device: what depends on the model, the sharding (tensor, context, expert, sequence
/// parallelism), the micro-batch, the recomputation, the precision and the kernel, not on the
/// data, ZeRO or pipeline layout. The search computes it once for all plans that share it.
struct layer_times {
  layer_time dense{};
  layer_time moe{};
  layer_time ends{};
};

constexpr layer_times time_layers(const training_plan_values& p, const step_assumptions& a) {
  const model_shape& m = p.model;
  const training_setup& t = p.setup;
  const chip_figures& chip = p.system.chip;
  const layer_shard shard = shard_of(t, chip.kind, a.attention);
  const bool dense = m.layers > moe_layer_count(m);
  const bool moe = moe_layer_count(m) > 0;
  layer_times x;
  if (dense) x.dense = time_layer(chip, m, shard, t.recompute, false, a.efficiency);
  if (moe) x.moe = time_layer(chip, m, shard, t.recompute, true, a.efficiency);
  x.ends = time_ends(chip, m, shard, a.efficiency);
  return x;
}

/// The layers of the fullest pipeline stage and of the last stage (which also runs the output:
/// the final norm, the logits and the loss), as the split gives them (`layers_on_stage`: where
/// the layers do not divide evenly the first chunks hold one more, and a framework that counts
/// the ends as layers shortens the first and the last stage, as LLaMA 3 balanced its 126 layers
/// on 16 stages: "we reduce one Transformer layer each from the first and the last stages",
/// Dubey et al. 2024, Sec. 3.3.2). The ends' time, the output's and the embedding lookup's (a
/// memory-bound gather, far under a layer), is charged to the last stage; the first is not
/// timed on its own.
struct bottleneck_stage {
  double layers = 0.0;       ///< layers of the slowest stage
  double last_layers = 0.0;  ///< layers of the last stage
};

constexpr bottleneck_stage stage_layers_of(const model_shape& m, const training_setup& t) {
  bottleneck_stage b;
  b.layers = static_cast<double>(layers_per_stage(m, t));
  b.last_layers = static_cast<double>(layers_on_stage(m, t, t.degrees.pipeline - 1));
  return b;
}

/// The bytes in which a framework's data-parallel gradients are reduced: torchtitan reduces in
/// fp32 (`--training.mixed_precision_reduce`, default and only choice "float32", torchtitan
/// config_manager.py at 9dec370 and 820504e), the others in the gradients' own bytes.
constexpr double gradient_reduce_bytes(const training_setup& t) {
  return t.framework.reduce_bytes > 0.0 ? t.framework.reduce_bytes
                                        : held_gradient_bytes(t.precision);
}

/// Whether DeepSpeed's gradient reduction overlaps the backward pass: at ZeRO-3 by default, at
/// ZeRO-1 and -2 only with `overlap_comm` (DeepSpeed's `zero_optimization.overlap_comm`, false
/// below stage 3 by default: `overlap_comm_valid`, deepspeed/runtime/zero/config.py at
/// 38327e07), and never without ZeRO (the engine's `allreduce_gradients` runs
/// `buffered_allreduce_fallback` after the backward pass). Without it stage_1_and_2.py reduces
/// on the compute stream (`reduction_stream` only `if self.overlap_comm`), ZeRO-1 after the last
/// micro-batch (its hooks exist only with `partition_gradients` or `overlap_comm`). True for
/// every other framework (their overlap is `step_assumptions::overlap_data_parallel`'s).
constexpr bool deepspeed_reduction_overlaps(const training_setup& t) {
  if (!t.framework.reduction_overlap_needs_flag) return true;
  if (t.degrees.zero_stage >= 3) return true;
  return deepspeed_reads_overlap_comm(t.degrees.zero_stage) && t.overlap_comm;
}

/// Whether DeepSpeed reduces the gradients of every micro-batch: ZeRO-2 partitions the
/// gradients, so its backward hooks reduce each bucket as it fills on every backward pass
/// (`reduce_ready_partitions_and_remove_grads`: `if self.partition_gradients or
/// self.is_gradient_accumulation_boundary`, stage_1_and_2.py at v0.6.0 and 38327e07); ZeRO-1
/// only at the step's last micro-batch.
constexpr bool deepspeed_reduces_each_micro_batch(const training_setup& t) {
  return t.framework.zero2_reduces_each_micro_batch && t.degrees.zero_stage == 2;
}

/// DeepSpeed picks its BF16_Optimizer for a bf16 model with fp32 gradient accumulation at ZeRO
/// stage 1 (`_do_optimizer_sanity_check`, deepspeed/runtime/engine.py: `model_dtype ==
/// torch.bfloat16 and grad_accum_dtype == torch.float32 and zero_optimization_stage() == 1`
/// returns `BFLOAT16`); it keeps the fp32 gradients unsharded and all-reduces them
/// (`_bf16_reduce_grads`, `buffered_allreduce_fallback`), as BLOOM's tr11 README describes it
/// ("It doesn't shard the static fp32 buffer it reuses ... it saves on communications
/// overhead"). Read here as ZeRO-1 with 2-byte parameters and 4-byte held gradients.
constexpr bool deepspeed_bf16_optimizer(const training_setup& t) {
  return t.framework.bf16_optimizer_at_zero1 && t.degrees.zero_stage == 1 &&
         t.precision.parameter_bytes == 2.0 && held_gradient_bytes(t.precision) == 4.0 &&
         t.precision.master_bytes > 0.0;
}

/// HBM bytes of FSDP2's copies on the compute stream for each parameter a device gathers, per
/// micro-batch (torchtitan's `fully_shard` with ZeRO-3; 0 otherwise), read off
/// torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py: each all-gather's output is split
/// into the parameters' own tensors (`foreach_all_gather_copy_out`, `split_with_sizes_copy`: the
/// gathered parameters read and written), once for the forward and once for the backward; the
/// unsharded gradients are concatenated into the reduce-scatter's input in the reduce dtype
/// (`foreach_reduce`, `_chunk_cat`: read in their bytes, written in `gradient_reduce_bytes`).
/// The copy into the all-gather's input is the device's shard only and is left out.
constexpr double fsdp2_copy_bytes_per_parameter(const training_setup& t) {
  if (!t.framework.fsdp2_copies || t.degrees.zero_stage < 3 ||
      t.degrees.zero <= 1)
    return 0.0;
  return 2.0 * (2.0 * t.precision.parameter_bytes) + held_gradient_bytes(t.precision) +
         gradient_reduce_bytes(t);
}

/// HBM bytes DeepSpeed's BF16_Optimizer (`deepspeed_bf16_optimizer`) moves for each parameter a
/// device holds after every micro-batch's backward pass: `update_hp_grads` adds the bf16
/// gradient into the fp32 gradient it keeps, `hp_grad.data.add_(lp.grad.data.to(hp_grad.dtype))`
/// (deepspeed/runtime/bf16_optimizer.py at 56c52238, 2022-04-19, "bf16+pipeline parallelism";
/// the pipeline engine calls it after each `_exec_backward_pass` on every stage but the last,
/// whose `optimizer.backward` calls it itself, and the plain engine's `backward` the same way):
/// the bf16 gradient read (2) into a temporary fp32 tensor (written 4, read 4), and the fp32
/// gradient read and written (4 + 4): 18. 0 for every other setup: Megatron accumulates into its
/// fp32 gradients inside the weight-gradient GEMM, FSDP2's reduce-scatter output is the shard.
constexpr double bf16_optimizer_accumulation_bytes_per_parameter(const training_setup& t) {
  if (!deepspeed_bf16_optimizer(t)) return 0.0;
  const double low = t.precision.parameter_bytes;
  const double high = held_gradient_bytes(t.precision);
  return low + 2.0 * high + 2.0 * high;
}

/// HBM bytes PyTorch's autograd moves for each parameter a device holds, per micro-batch, where a
/// framework lets the gradients of its micro-batches add up in `param.grad`: every micro-batch
/// after the first finds the gradient defined and `AccumulateGrad` adds the new one in place
/// (`variable_grad += new_grad`, torch/csrc/autograd/functions/accumulate_grad.h: the held
/// gradient read and written, the new one read, 3 g in the parameters' dtype), (m - 1)/m of the
/// micro-batches of a step. DeepSpeed at ZeRO-0/1 outside its BF16_Optimizer does so: its engine
/// and pipeline engine run `backward` without hooks (stage_1_and_2.py registers
/// `create_reduce_and_remove_grad_hooks` only with `partition_gradients` or `overlap_comm`, at
/// v0.6.0 as at 38327e07) and reduce after the last micro-batch, and its optimizers set the
/// gradients to None each step. 0 elsewhere: Megatron-Core accumulates inside the
/// weight-gradient GEMM, FSDP reduce-scatters each micro-batch's gradients, BF16_Optimizer
/// (`bf16_optimizer_accumulation_bytes_per_parameter`) clears them every micro-batch, ZeRO-2 and
/// -3 copy them into their buckets.
constexpr double autograd_accumulation_bytes_per_parameter(const training_setup& t) {
  if (t.framework.accumulation != gradient_accumulation::autograd_in_place ||
      t.degrees.zero_stage > 1 ||
      deepspeed_bf16_optimizer(t))
    return 0.0;
  const double m = static_cast<double>(micro_batches(t));
  return 3.0 * t.precision.parameter_bytes * (m - 1.0) / m;
}

/// HBM bytes of DeepSpeed's per-tensor ZeRO-3 (`deepspeed_zero3_per_tensor`) for each parameter
/// a device gathers, per micro-batch, read off v0.3.16 (0 for every other setup):
/// - each gather (one a layer pass, `layer_passes_per_micro_batch`: the post-forward hook
///   releases the parameters, so the recomputed forward gathers them again) allocates the whole tensor with `torch.zeros`
///   (`_allgather_param`, deepspeed/runtime/zero/partition_parameters.py: written, p bytes) and
///   hands `torch.distributed.all_gather` a list of views of it, which ProcessGroupNCCL gathers
///   into a flat buffer of its own and copies out rank by rank (read and written, 2p): 3p;
/// - the gradients are reduced by `buffered_reduce_fallback` (deepspeed/runtime/zero/stage3.py:
///   `allreduce_bucket` flattens them into a bucket, read and written, 2g; divides it in place by
///   the ranks, 2g; `allreduce_and_copy` copies the result back into each gradient, 2g): 6g.
/// The gradients are the parameters' dtype, as `zero3_per_tensor_traffic` reduces them: p = g, 2
/// bytes in fp16, 30 bytes under full recomputation. The reduction stream's copies wait on its
/// all-reduce, which hides under nothing, so they are charged with the compute stream's.
constexpr double zero3_per_tensor_copy_bytes_per_parameter(const training_setup& t) {
  if (!deepspeed_zero3_per_tensor(t)) return 0.0;
  const double gathers = layer_passes_per_micro_batch(t.recompute.kind);
  const double p = t.precision.parameter_bytes;
  return gathers * 3.0 * p + 6.0 * p;
}

/// The time of the framework's copies for one micro-batch, FSDP2's
/// (`fsdp2_copy_bytes_per_parameter`), DeepSpeed BF16_Optimizer's gradient accumulation
/// (`bf16_optimizer_accumulation_bytes_per_parameter`), DeepSpeed's per-tensor ZeRO-3 buffers
/// (`zero3_per_tensor_copy_bytes_per_parameter`) and autograd's accumulation of micro-batches'
/// gradients (`autograd_accumulation_bytes_per_parameter`), over the parameters of the fullest
/// stage (`fullest_stage_parameters`; all of them, gathered, under ZeRO-3), at the chip's
/// memory-bound rate.
constexpr seconds framework_copy_time(const training_plan_values& p) {
  const double per_parameter = fsdp2_copy_bytes_per_parameter(p.setup) +
                               bf16_optimizer_accumulation_bytes_per_parameter(p.setup) +
                               zero3_per_tensor_copy_bytes_per_parameter(p.setup) +
                               autograd_accumulation_bytes_per_parameter(p.setup);
  if (per_parameter <= 0.0) return 0.0 * second;
  const device_parameters held = fullest_stage_parameters(p.model, p.setup);
  return memory_time(p.system.chip, per_parameter * (held.dense + held.expert) * byte);
}

/// The time of work whose kernels' figures are timed at `sustained`, the share of them a training
/// step sustains (`kernel_fractions::sustained`), except the fused attention kernels among it,
/// `attention` of `work`, which are themselves the kernels their published fractions measured
/// (FlashAttention, cuDNN, splash: `attention_efficiency`) and run at them. The GEMMs are timed
/// from the best shape of a search (MAMF) through a generic shape model, and the memory-bound
/// kernels from tuned ones (Liger, QuACK): what a framework's own kernels keep of those is the
/// share (`default_kernel_fractions`).
constexpr seconds sustained_time(seconds work, seconds attention, double sustained) {
  return (work - attention) / sustained + attention;
}

/// The compute of one step on one device, from the operations of its layers
/// (`training/operations.hpp`, timed by `time_layers`): per micro-batch the dense and MoE layers
/// and the embedding and output of one stage, times the micro-batches. Without a pipeline that
/// is the whole model; with one it is the stage that takes longest (`stage_layers_of`: its
/// ceil(L/p) layers, or the last stage's layers and the output where they take longer), which
/// every other stage waits for in the steady state of each schedule; the GEMM efficiency is
/// reported on the average stage. Everything but the fused attention kernels runs at the
/// family's sustained share (`sustained_time`). An `efficiency<>` of the plan replaces the GEMM
/// and attention fractions and the share. `mfu_floor` is the time of the model FLOPs at
/// `mfu_ceiling`, which `step_total` holds every step to.
constexpr step_compute compute_stage(const training_plan_values& p, const step_assumptions& a,
                                     const layer_times& layers) {
  const model_shape& m = p.model;
  const training_setup& t = p.setup;
  const chip_figures& chip = p.system.chip;
  const double devices = static_cast<double>(mesh_devices(p));
  const double tokens = static_cast<double>(t.batch.global_tokens);
  step_compute c;
  const token_flops forward = forward_flops_per_token(m, t.batch.seq_len, a.attention);
  c.model_flops = 3.0 * forward.total() * flop * tokens;
  c.hardware_flops = hardware_flops_per_token(forward, t.recompute) * tokens;
  c.at_peak = c.hardware_flops / devices / compute_peak(p);
  c.micro_batches = static_cast<double>(micro_batches(t));
  const double moe_layers = static_cast<double>(moe_layer_count(m));
  const double dense_layers = static_cast<double>(m.layers) - moe_layers;
  const double stages = static_cast<double>(t.degrees.pipeline);
  const double sustained = a.efficiency > 0.0 ? 1.0 : family_kernel_fractions(chip).sustained;
  // One micro-batch of `n` dense and `n_moe` MoE layers, and `ends`: its time as it runs
  // (`sustained_time`) and its memory-bound part.
  struct stage_mb {
    seconds time{};
    seconds memory{};
    seconds attention{};
  };
  auto stage_of = [&](double n, double n_moe, const layer_time& ends) {
    auto sum = [&](auto part) {
      return part(layers.dense) * n + part(layers.moe) * n_moe + part(ends);
    };
    const seconds work = sum([](const layer_time& x) { return x.total(); });
    const seconds attention = sum([](const layer_time& x) { return x.attention; });
    const seconds memory = sum([](const layer_time& x) { return x.memory; });
    return stage_mb{sustained_time(work, attention, sustained), memory / sustained, attention};
  };
  // A stage's average share of one micro-batch: its layers of each kind and the ends.
  const stage_mb all = stage_of(dense_layers, moe_layers, layers.ends);
  const stage_mb average{all.time / stages, all.memory / stages, all.attention / stages};
  stage_mb stage = average;
  double stage_dense_layers = dense_layers;
  double stage_moe_layers = moe_layers;
  if (t.degrees.pipeline > 1) {
    // The slowest stage, its layers of the model's mix of kinds: a full stage, or the last one
    // with the output.
    const bottleneck_stage b = stage_layers_of(m, t);
    const double dense_share = dense_layers / static_cast<double>(m.layers);
    const stage_mb full =
        stage_of(b.layers * dense_share, b.layers * (1.0 - dense_share), layer_time{});
    const stage_mb last =
        stage_of(b.last_layers * dense_share, b.last_layers * (1.0 - dense_share), layers.ends);
    const bool last_slowest = last.time > full.time;
    stage_dense_layers = (last_slowest ? b.last_layers : b.layers) * dense_share;
    stage_moe_layers = (last_slowest ? b.last_layers : b.layers) * (1.0 - dense_share);
    stage = last_slowest ? last : full;
  }
  // The framework's copies (`framework_copy_time`) run on the compute stream beside every
  // stage's layers, memory-bound work.
  const seconds copies = framework_copy_time(p) / sustained;
  c.total = (stage.time + copies) * c.micro_batches;
  c.elementwise = (stage.memory + copies) * c.micro_batches;
  c.attention = stage.attention * c.micro_batches;
  c.tp_window = layers.dense.tp_window * stage_dense_layers * c.micro_batches / sustained;
  c.weight_gradient_window = (layers.dense.weight_gradient_window * stage_dense_layers +
                              layers.moe.weight_gradient_window * stage_moe_layers) *
                             c.micro_batches / sustained;
  const seconds average_time = (average.time + copies) * c.micro_batches;
  const seconds average_elementwise = (average.memory + copies) * c.micro_batches;
  c.efficiency = average_time > average_elementwise
                     ? (c.at_peak / (average_time - average_elementwise)).value()
                     : 0.0;
  c.mfu_format = mfu_format_of(p, a);
  c.mfu_floor =
      c.model_flops / devices / (peak(chip, c.mfu_format) * mfu_ceiling(p, c.mfu_format));
  c.attention_share = forward.attention / forward.total();
  return c;
}

constexpr step_compute compute_stage(const training_plan_values& p, const step_assumptions& a) {
  return compute_stage(p, a, time_layers(p, a));
}

// ---------------------------------------------------------------------------------------------
// Stage 2: traffic per strategy. Each adds its collectives with the compute window they may
// hide under; stage 3 decides what is exposed.

/// The share of a collective's hidden time the compute beside it loses on a GPU, where the
/// collective's kernels (NCCL's, one block per channel) take SMs, L2 and HBM bandwidth from the
/// kernels they overlap: 0.189 / 1.189 = 0.159. Lee et al. 2025 (arXiv:2507.03114, abstract)
/// measure compute overlapped with communication at "an average computational slowdown of
/// 18.9%, with a maximum of 40.0%" against the same compute alone (GPT and LLaMA training on 4
/// A100s, H100s, MI250s and MI210s); compute that takes 1.189 times as long while a collective
/// runs does 1 / 1.189 of its work in that time. The average for every collective and every GPU
/// is our assumption; it is not measured by collective, size or SM count. TPUs 0: their ICI
/// collectives run on DMA engines beside the matrix units (an assumption, unmeasured).
/// `userbuffers` and `symmetric_memory` tensor-parallel overlap set their own
/// (`tensor_parallel_traffic`).
constexpr double collective_overlap_contention(const chip_figures& chip) {
  return chip.kind == chip_kind::gpu ? 0.189 / 1.189 : 0.0;
}

/// Appends `count` collectives of `kind` moving `array` among the `net.size` ranks of `net`,
/// reported on `axis` (nothing for a group of one): the bytes one device sends, their time on
/// the group's links and the contention they cost the compute they hide under
/// (`collective_overlap_contention`).
constexpr void push_traffic(traffic_list& out, const chip_figures& chip, const axis_network& net,
                            const collective_options& opts, std::string_view strategy,
                            collective_kind kind, std::size_t axis, double count, bytes array,
                            seconds hidden_under, double forward_share, seconds host_per_call,
                            seconds floor) {
  if (net.size <= 1 || count <= 0.0) return;
  const seconds one = collective_time(kind, array, net, opts) + host_per_call;
  axis_traffic x{strategy, kind, axis, count, array};
  x.forward_share = forward_share;
  const double n = static_cast<double>(net.size);
  double sent = array.value() * (n - 1.0) / n;  // a ring's share of the array per device
  if (kind == collective_kind::all_reduce) sent *= 2.0;
  if (kind == collective_kind::all_to_all) sent = array.value() / n * (n - 1.0) / n;
  if (kind == collective_kind::send_recv) sent = array.value();
  x.bytes_per_device = sent * count * byte;
  x.time = one * count;
  x.hidden_under = hidden_under;
  x.floor = floor < x.time ? floor : x.time;
  x.contention = collective_overlap_contention(chip);
  if (out.count < max_traffic) out.items[out.count++] = x;
}

/// What the traffic stages share: the plan, its links and the step's compute windows.
struct traffic_inputs {
  const training_plan_values& plan;
  const step_assumptions& assumptions;
  const step_compute& compute;
  placement_levels levels;
  collective_options options;
  /// The links each of the plan's axes crosses (`network_of`), found once.
  std::array<axis_network, max_mesh_axes> networks{};

  /// `push_traffic` over the ranks of the plan's `axis` (nothing when the axis is absent).
  constexpr void add(traffic_list& out, std::string_view strategy, collective_kind kind,
                     std::size_t axis, double count, bytes array, seconds hidden_under,
                     double forward_share, seconds host_per_call = 0.0 * second,
                     seconds floor = 0.0 * second) const {
    if (axis >= plan.axis_count) return;
    push_traffic(out, plan.system.chip, networks[axis], options, strategy, kind, axis, count,
                 array, hidden_under, forward_share, host_per_call, floor);
  }
  /// The time of one collective of `kind` moving `array` on `axis` (0 on an absent axis).
  constexpr seconds time_of(collective_kind kind, std::size_t axis, bytes array) const {
    if (axis >= plan.axis_count || plan.axes[axis].size <= 1) return 0.0 * second;
    return collective_time(kind, array, networks[axis], options);
  }
  /// The layers of one pipeline stage.
  constexpr double stage_layers() const {
    return static_cast<double>(layers_per_stage(plan.model, plan.setup));
  }
  /// The [b, s/cp, h] activations of one micro-batch on one device, in bytes.
  constexpr bytes activations() const {
    const training_setup& t = plan.setup;
    return static_cast<double>(t.batch.micro_batch) *
           static_cast<double>(t.batch.seq_len / t.degrees.context) *
           static_cast<double>(plan.model.d_model) * t.precision.activation_bytes * byte;
  }
  /// The same activations as a sequence-parallel all-gather carries them
  /// (`sequence_gather_bytes` an element).
  constexpr bytes gathered_activations() const {
    return activations() *
           (sequence_gather_bytes(plan.setup) / plan.setup.precision.activation_bytes);
  }
  /// What one tensor-parallel all-reduce moves, or one sequence-parallel pair of an all-gather
  /// and a reduce-scatter (in the activation bytes) as one all-reduce of their mean bytes.
  constexpr bytes tensor_pair_activations() const {
    return (activations() + gathered_activations()) * 0.5;
  }
};

constexpr traffic_inputs make_traffic_inputs(const training_plan_values& p,
                                             const step_assumptions& a, const step_compute& c) {
  traffic_inputs in{p, a, c, levels_of(p.system), collective_options{a.in_network_reduction, true}};
  for (std::size_t i = 0; i < p.axis_count; ++i) in.networks[i] = network_of(in.levels, p, i);
  return in;
}

/// Parameters in the arrays that data axis `i` reduces (and, for ZeRO, gathers) on one device of
/// the fullest stage (`fullest_stage_parameters`): its dense parameters, its expert parameters unless the axis is also an expert axis
/// (there each device holds other experts), and on a plain data axis beside ZeRO axes (hybrid
/// sharding) the ZeRO axes' shard of them.
constexpr double data_axis_parameters(const training_plan_values& p, std::size_t i) {
  const parallel_degrees& d = p.setup.degrees;
  const device_parameters held = fullest_stage_parameters(p.model, p.setup);
  const double params = held.dense + ((p.axes[i].roles & role_expert) ? 0.0 : held.expert);
  const bool hybrid = d.zero_stage >= 1 && !(p.axes[i].roles & role_zero);
  return hybrid ? params / static_cast<double>(d.zero) : params;
}

/// What PyTorch's list API costs the host per rank of one all-gather: DeepSpeed's Python loop
/// makes one `narrow` view of the flat buffer per rank (`_allgather_param`,
/// deepspeed/runtime/zero/partition_parameters.py at v0.3.16) and ProcessGroupNCCL's
/// `allgather` copies each rank's chunk out of the gathered buffer with one `copy_`. A Python tensor
/// operation costs about 5 us without autograd and a C++ one about 1 us (pytorch/pytorch issue
/// 41383, 2020: a million `2*x` in 5 s with requires_grad=False; "the same operation called
/// using c++ API would take about a microsecond"): 6 us a rank.
inline constexpr seconds list_collective_rank_overhead = 6e-6 * second;

/// ZeRO-3 as DeepSpeed v0.3.13 to v0.4.2 ran it (`training_setup::zero3_per_tensor`):
/// - per micro-batch every parameter tensor is gathered for the forward, again for the
///   recomputed forward under full recomputation (its post-forward hook released it), and for
///   the backward, each by a collective of its own (`parameter_tensors`) after a
///   `torch.cuda.synchronize()` (`_allgather_param`, partition_parameters.py at v0.3.16), so none
///   hides under compute, and each pays `list_collective_rank_overhead` per rank on the host,
///   which the synchronisations put on the critical path;
/// - the fp16 gradients are all-reduced bucket by bucket (`buffered_reduce_fallback`, taken
///   while `contiguous_gradients` and `reduce_scatter` kept their defaults, False, until v0.4.3
///   made the first True), on the compute stream.
constexpr void zero3_per_tensor_traffic(const traffic_inputs& in, traffic_list& out,
                                        std::size_t axis, double params) {
  const training_plan_values& p = in.plan;
  const training_setup& t = p.setup;
  const double tensors = static_cast<double>(parameter_tensors(p.model));
  const double mb = in.compute.micro_batches;
  const recompute_kind r = t.recompute.kind;
  const double gathers = layer_passes_per_micro_batch(r);
  const double bytes_each = t.precision.parameter_bytes;
  const double bucket = t.framework.bucket_size;  // elements; a described 0 is one bucket
  const double buckets = bucket > 0.0 ? std::max(1.0, detail::ceil_div(params, bucket)) : 1.0;
  const seconds host = list_collective_rank_overhead * static_cast<double>(p.axes[axis].size);
  in.add(out, "zero-3 parameter gather, per tensor", collective_kind::all_gather, axis,
         gathers * mb * tensors, params * bytes_each / tensors * byte, 0.0 * second,
         1.0 / gathers, host);
  in.add(out, "zero-3 gradient all-reduce, per bucket", collective_kind::all_reduce, axis,
         mb * buckets, params * bytes_each / buckets * byte, 0.0 * second, 0.0);
}

/// The parameters of the last gradient bucket a framework reduces over a data axis of `ranks`
/// devices, of the `layer_parameters` of one layer, holding `bytes_each` a gradient: the
/// backward fills the buckets in turn and the last is full only when it ends, so its reduction
/// hides under nothing (nor, with ZeRO-1/2, the gather of the first bucket's parameters, which
/// the next forward waits for):
/// - Megatron-Core: max(40,000,000, 1,000,000 · ranks) parameters
///   (`DistributedDataParallel.__init__`, megatron/core/distributed/distributed_data_parallel.py
///   at core_r0.8.0, baf94af3c667248865f23df73b9fb8e2395e6fd0: "If using very large dp_sizes,
///   make buckets larger"); the first pipeline stage's, whose backward ends last;
/// - DeepSpeed: `reduce_bucket_size`, 5e8 elements (`deepspeed_reduce_bucket_elements`);
/// - torchtitan and torchtune: one layer, the transformer block FSDP2's `fully_shard` wraps;
/// - MaxText: one layer, an assumption (XLA reduces each layer's gradients where the backward
///   produces them);
/// - generic: PyTorch DDP's 25 MiB (`ddp_bucket_bytes`).
constexpr double gradient_bucket_parameters(const framework_profile& f, double ranks,
                                            double layer_parameters, double bytes_each) {
  switch (f.bucket) {
    case bucket_rule::ranks_scaled: return std::max(f.bucket_size, f.bucket_per_rank * ranks);
    case bucket_rule::elements: return f.bucket_size;
    case bucket_rule::layer: return layer_parameters;
    case bucket_rule::fixed_bytes: break;
  }
  return f.bucket_size / bytes_each;
}

/// DeepSpeed's pipeline engine reduces the data-parallel gradients only after the last
/// micro-batch's backward pass: its `TrainSchedule` appends `ReduceTiedGrads`, `ReduceGrads` and
/// `OptimizerStep` to the step's last command list (deepspeed/runtime/pipe/schedule.py), and
/// `_exec_reduce_grads` (pipe/engine.py) all-reduces then, so nothing of it hides under compute
/// (microsoft/DeepSpeed, read at 38327e07; the bf16 path since 56c52238, 2022-04-19).
constexpr bool deepspeed_pipeline_reduces_after_backward(const training_setup& t) {
  return t.framework.pipeline_reduces_after_backward && t.degrees.pipeline > 1;
}

/// Data parallelism: one all-reduce of the gradients a step (ZeRO-1/2: a reduce-scatter of
/// gradients and an all-gather of parameters; ZeRO-3: per micro-batch two all-gathers of the
/// parameters and a reduce-scatter of the gradients), over the data axes; expert gradients
/// only over data axes that are not expert axes. Hidden under compute when overlapped (ZeRO-3
/// behind each micro-batch, the others behind the last micro-batch's backward pass), but for
/// what the data stream's timeline leaves before or after all compute (`axis_traffic::floor`):
/// ZeRO-3 gathers the first layer's parameters before each micro-batch's forward can start and
/// scatters the first layer's gradients after its backward ends (FSDP's units are layers); the
/// other reductions leave their last bucket (`gradient_bucket_parameters`) after the backward,
/// and ZeRO-1/2 the first bucket's parameter gather before the next forward.
constexpr void data_parallel_traffic(const traffic_inputs& in, traffic_list& out) {
  const training_plan_values& p = in.plan;
  const training_setup& t = p.setup;
  const parallel_degrees& d = t.degrees;
  const bool overlap = in.assumptions.overlap_data_parallel &&
                       !deepspeed_pipeline_reduces_after_backward(t) &&
                       deepspeed_reduction_overlaps(t);
  const seconds micro_batch = in.compute.per_micro_batch();
  const double grad_b = held_gradient_bytes(t.precision);
  const double reduce_b = gradient_reduce_bytes(t);
  const double param_b = t.precision.parameter_bytes;
  const seconds backward_last = overlap ? micro_batch * (2.0 / 3.0) : 0.0 * second;
  const double layers = std::max(1.0, in.stage_layers());
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    if (!(p.axes[i].roles & (role_data | role_zero))) continue;
    // One collective over this axis carries the parameters of every data axis outside it
    // (hierarchically); sizing each axis's collective by the device's full array is the
    // book's per-axis model.
    const double params = data_axis_parameters(p, i);
    const bool zero_axis = (p.axes[i].roles & role_zero) != 0;
    // The last bucket's parameters, in the bytes of the array it belongs to.
    auto bucket = [&](double bytes_each) {
      return std::min(params, gradient_bucket_parameters(t.framework, static_cast<double>(d.data),
                                                         params / layers, bytes_each));
    };
    if (zero_axis && deepspeed_zero3_per_tensor(t)) {
      zero3_per_tensor_traffic(in, out, i, params);
    } else if (d.zero_stage >= 3 && zero_axis) {
      // Per micro-batch: the forward gather hides under the forward pass (a third of the
      // compute), the backward gather and the gradient scatter under the backward pass; the
      // first layer's gather and scatter of each micro-batch under nothing.
      const double mb = in.compute.micro_batches;
      const seconds window = overlap ? micro_batch * mb : 0.0 * second;
      const double unit = params / layers;
      in.add(out, "fsdp parameter gather", collective_kind::all_gather, i, 2.0 * mb,
             params * param_b * byte, window * (2.0 / 3.0), 0.5, 0.0 * second,
             in.time_of(collective_kind::all_gather, i, unit * param_b * byte) * mb);
      in.add(out, "fsdp gradient scatter", collective_kind::reduce_scatter, i, mb,
             params * reduce_b * byte, window / 3.0, 0.0, 0.0 * second,
             in.time_of(collective_kind::reduce_scatter, i, unit * reduce_b * byte) * mb);
    } else if (d.zero_stage >= 1 && !zero_axis) {
      // A plain data axis beside ZeRO axes (hybrid sharding) all-reduces the gradients the
      // ZeRO axes have already reduce-scattered, in their reduce dtype.
      in.add(out, "gradient all-reduce", collective_kind::all_reduce, i, 1.0,
             params * reduce_b * byte, backward_last, 0.0, 0.0 * second,
             in.time_of(collective_kind::all_reduce, i, bucket(reduce_b) * reduce_b * byte));
    } else if (d.zero_stage >= 1) {
      // ZeRO-1/2 reduce-scatter the gradients; DeepSpeed's BF16_Optimizer all-reduces its fp32
      // gradients whole and shards only the optimizer step. Both then gather the parameters.
      // DeepSpeed's ZeRO-2 reduces every micro-batch's gradients, each under its own backward.
      const bool whole = deepspeed_bf16_optimizer(t);
      const collective_kind reduce =
          whole ? collective_kind::all_reduce : collective_kind::reduce_scatter;
      const double reductions =
          deepspeed_reduces_each_micro_batch(t) ? in.compute.micro_batches : 1.0;
      in.add(out, whole ? "bf16 optimizer gradient all-reduce" : "zero gradient scatter", reduce,
             i, reductions, params * grad_b * byte, backward_last * reductions, 0.0, 0.0 * second,
             in.time_of(reduce, i, bucket(grad_b) * grad_b * byte) * reductions);
      in.add(out, "zero parameter gather", collective_kind::all_gather, i, 1.0,
             params * param_b * byte, overlap ? micro_batch / 3.0 : 0.0 * second, 1.0,
             0.0 * second,
             in.time_of(collective_kind::all_gather, i, bucket(grad_b) * param_b * byte));
    } else {
      in.add(out, "gradient all-reduce", collective_kind::all_reduce, i, 1.0,
             params * grad_b * byte, backward_last, 0.0, 0.0 * second,
             in.time_of(collective_kind::all_reduce, i, bucket(grad_b) * grad_b * byte));
    }
  }
}

/// The share of its hidden time a userbuffers collective costs the GEMM beside it: the SMs of
/// its kernels over the chip's, half of the collectives on 16 (`pipeline`, `bulk`) and half on 1
/// (`ring_exchange`; `initialize_ub`, transformer_engine/pytorch/module/base.py at v1.9); 0 on
/// a chip that does not give its SM count.
constexpr double userbuffers_contention(const chip_figures& chip) {
  const double sms = static_cast<double>(chip.arch.compute_units);
  return sms > 0.0 ? (16.0 + 1.0) / 2.0 / sms : 0.0;
}

/// Tensor parallelism: per layer and micro-batch two all-reduces forward and two backward of
/// the [b, s, h] activations (sequence parallelism swaps each for an all-gather and a
/// reduce-scatter, the same bytes), two more with full recomputation, one more when the MLP is
/// recomputed (its forward's); on the critical path, except the backward's reductions of the
/// input gradients where they run beside the weight gradients
/// (`tp_backward_beside_weight_gradient`, `step_compute::weight_gradient_window`): both
/// all-reduces, or with sequence parallelism the two reduce-scatters.
///
/// With a `tp_overlap_method` they hide under the GEMMs they feed or drain
/// (`step_compute::tp_window`, those GEMMs already timed in their chunks), less:
/// - under torchtitan's op-level selective checkpointing, the all-gathers its backward reruns
///   (`sac_reruns_gathers`), two a dense layer, exposed with or without overlap;
/// - the last chunk of each reduce-scatter that follows its GEMM, which has nothing left to hide
///   under: the forward's two (and a recomputed forward's), and under `windowed_einsum` the
///   backward's two; userbuffers' bulk backward reduce-scatter hides whole beside the weight
///   gradient;
/// - under `symmetric_memory`, the backward's collectives, which it does not overlap;
/// - under `userbuffers`, the SMs its kernels take from the GEMMs while hidden: half of the
///   collectives (the pipelined and bulk ones) on 16 SMs, half (ring exchange) on 1
///   (`userbuffers_contention`); under `symmetric_memory` none, its copies running on the copy
///   engines, and under `windowed_einsum` none, a TPU's (`tp_overlap_method`).
constexpr void tensor_parallel_traffic(const traffic_inputs& in, traffic_list& out) {
  const training_setup& t = in.plan.setup;
  const recompute_kind r = t.recompute.kind;
  const bool full = recomputes_layer_forward(r);
  const bool reruns_mlp_input = recomputes(t.recompute, recompute_module::mlp) ||
                                recomputes(t.recompute, recompute_module::moe);
  const double per_layer = full ? 6.0 : reruns_mlp_input ? 5.0 : 4.0;
  const std::size_t axis = first_axis(in.plan, role_tensor);
  const double calls = in.stage_layers() * in.compute.micro_batches;
  const tp_overlap_method method = tp_overlap_of(t, in.plan.system.chip.kind);
  if (sac_reruns_gathers(t) && in.plan.model.mla.kv_lora_rank == 0) {
    const model_shape& m = in.plan.model;
    const double dense = in.stage_layers() *
                         (1.0 - static_cast<double>(moe_layer_count(m)) /
                                    static_cast<double>(m.layers));
    in.add(out, "tensor all-gather, recomputed", collective_kind::all_gather, axis,
           2.0 * dense * in.compute.micro_batches, in.gathered_activations(), 0.0 * second, 0.0);
  }
  if (method == tp_overlap_method::none) {
    // Where the framework runs them beside the QKV and MLP-up weight gradients, the backward's
    // two all-reduces leave the line; with sequence parallelism only its two reduce-scatters,
    // the all-gathers before the output projection's and MLP down's data gradients staying in
    // line (one pair's worth).
    const bool sp = t.degrees.sequence_parallel;
    const double beside =
        tp_backward_beside_weight_gradient(t, in.plan.system.chip.kind) ? (sp ? 1.0 : 2.0) : 0.0;
    const double in_line = per_layer - beside;
    in.add(out, "tensor all-reduce", collective_kind::all_reduce, axis, in_line * calls,
           in.tensor_pair_activations(), 0.0 * second, 2.0 / in_line);
    if (beside > 0.0)
      in.add(out,
             sp ? "tensor reduce-scatter, beside the weight gradients"
                : "tensor all-reduce, beside the weight gradients",
             sp ? collective_kind::reduce_scatter : collective_kind::all_reduce, axis,
             2.0 * calls, in.activations(), in.compute.weight_gradient_window, 0.0);
    return;
  }
  const bool backward = tp_overlaps_backward(method);
  const double overlapped = backward ? per_layer : per_layer - 2.0;
  const std::size_t first = out.count;
  in.add(out, "tensor all-gather and reduce-scatter, overlapped", collective_kind::all_reduce,
         axis, overlapped * calls, in.tensor_pair_activations(), in.compute.tp_window,
         backward ? 2.0 / per_layer : 1.0);
  if (out.count > first)
    out.items[first].contention = method == tp_overlap_method::userbuffers
                                      ? userbuffers_contention(in.plan.system.chip)
                                      : 0.0;  // symmetric memory: copy engines, no SMs
  const double tail_chunks = tp_overlap_chunks(method, static_cast<double>(t.degrees.tensor),
                                               tp_side::row, false);
  // The last chunks belong to the collectives above: their bytes are counted there once.
  const std::size_t tails = out.count;
  // Windowed einsums also end the backward's two reduce-scatters so.
  const double forward_tails = full ? 4.0 : 2.0;
  const double backward_tails = method == tp_overlap_method::windowed_einsum ? 2.0 : 0.0;
  in.add(out, "tensor reduce-scatter, last chunks", collective_kind::reduce_scatter, axis,
         (forward_tails + backward_tails) * calls, in.activations() / tail_chunks, 0.0 * second,
         forward_tails / (forward_tails + backward_tails));
  if (out.count > tails) out.items[tails].bytes_per_device = 0.0 * byte;
  if (!backward)
    in.add(out, "tensor all-reduce, backward", collective_kind::all_reduce, axis, 2.0 * calls,
           in.tensor_pair_activations(), 0.0 * second, 0.0);
}

/// How a framework's context parallelism moves the keys and values (`context_parallel_traffic`).
enum class context_exchange : std::uint8_t {
  /// Step by step beside each step's attention, K and V forward, K, V and their gradients
  /// backward (Transformer Engine's `AttnFuncWithCP`; the default).
  ring,
  /// PyTorch's ring attention as torchtitan ran it (torch 1963fc8, torchtitan 9dec370), read off
  /// torch/distributed/tensor/experimental/_attention.py (2025 copies whose ring, merger and
  /// rotaters are the same text; `set_rotate_method` is from PR 142093, 2024-12, which 9dec370
  /// imports) and torchtitan's config_manager.py at 9dec370
  /// (`--experimental.context_parallel_rotate_method`, default "allgather"):
  /// - per layer K and V are all-gathered once for the forward, once for a recomputed forward
  ///   and once for the backward, overlapping the first ring step only (PR 132820);
  /// - torchtitan's Llama repeats K and V to every query head before SDPA (`repeats_kv`,
  ///   training/operations.hpp), so the gathered arrays are the query heads' width;
  /// - the backward passes dK and dV, in fp32, one rank on per step (`permute_tensor`), cp
  ///   times per layer, each waited on before the next step: under `torch.compile` a
  ///   collective's wait follows it (an inference from the code, not a profile).
  all_gather,
};

/// The context exchange of the plan's framework.
constexpr context_exchange context_exchange_of(const training_setup& t) {
  return runs_pytorch_ring(t) ? context_exchange::all_gather : context_exchange::ring;
}

/// Context parallelism (`context_exchange`): by default per layer and micro-batch the ring
/// passes K and V forward and K, V and their gradients backward, sized as three all-gathers of
/// the keys and values of the device's tensor-parallel share of the heads, hidden under
/// attention compute when overlapped; PyTorch's all-gather ring as `context_exchange` says.
constexpr void context_parallel_traffic(const traffic_inputs& in, traffic_list& out) {
  const model_shape& m = in.plan.model;
  const training_setup& t = in.plan.setup;
  // The keys and values of the device's heads: tensor parallelism splits the heads.
  const double tp = static_cast<double>(t.degrees.tensor);
  const bool gathered = context_exchange_of(t) == context_exchange::all_gather;
  const double kv_heads =
      repeats_kv(t) ? static_cast<double>(m.heads) / tp : kv_heads_per_rank(m, tp);
  const double kv_width = m.mla.kv_lora_rank > 0
                              ? static_cast<double>(m.heads) / tp *
                                    static_cast<double>(m.mla.qk_nope_head_dim +
                                                        m.mla.qk_rope_head_dim + m.mla.v_head_dim)
                              : 2.0 * kv_heads * static_cast<double>(m.head_dim);
  const std::size_t axis = first_axis(in.plan, role_context);
  const double calls = in.stage_layers() * in.compute.micro_batches;
  const double tokens =
      static_cast<double>(t.batch.micro_batch) * static_cast<double>(t.batch.seq_len);
  const seconds window =
      in.assumptions.overlap_context ? in.compute.attention_per_micro_batch() : 0.0 * second;
  if (!gathered) {
    in.add(out, "context kv ring", collective_kind::all_gather, axis, 3.0 * calls,
           tokens * kv_width * t.precision.activation_bytes * byte, window, 1.0 / 3.0);
    return;
  }
  const recompute_kind r = t.recompute.kind;
  const double gathers = layer_passes_per_micro_batch(r);
  const double cp = static_cast<double>(t.degrees.context);
  in.add(out, "context kv all-gather", collective_kind::all_gather, axis, gathers * calls,
         tokens * kv_width * t.precision.activation_bytes * byte, window / cp,
         (gathers - 1.0) / gathers);
  in.add(out, "context dkv ring, fp32", collective_kind::send_recv, axis, cp * calls,
         tokens / cp * kv_width * 4.0 * byte, 0.0 * second, 0.0);
}

/// Pipeline parallelism: per micro-batch and virtual stage a send forward and one backward of
/// the boundary activations, split over the tensor-parallel ranks (sequence parallelism, or
/// Megatron's scatter/gather optimisation). The book's T = message·(N_MB + N_stages − 2) per
/// direction is on the critical path, whether this device sends them or the stages before and
/// after it (`axis_traffic::time` is the path's, `bytes_per_device` the device's own); the
/// other sends of an interleaved schedule overlap.
constexpr void pipeline_traffic(const traffic_inputs& in, traffic_list& out) {
  const training_plan_values& p = in.plan;
  const parallel_degrees& d = p.setup.degrees;
  const std::size_t axis = first_axis(p, role_pipeline);
  if (axis >= p.axis_count) return;
  const double mb = in.compute.micro_batches;
  const double sends = 2.0 * mb * static_cast<double>(d.virtual_stages);
  const double critical = 2.0 * (mb + static_cast<double>(d.pipeline) - 2.0);
  const bytes message = in.activations() / static_cast<double>(d.tensor);
  const seconds one = collective_time(collective_kind::send_recv, message,
                                      in.networks[axis], in.options);
  in.add(out, "pipeline send", collective_kind::send_recv, axis, sends, message,
         one * std::max(0.0, sends - critical), 0.5);
  // The critical path waits for the other stages' sends of the fill and the drain too: its time
  // is the book's count, however few of them this device sends (one micro-batch through twelve
  // stages: 2 sends of its own, 22 on the path).
  if (out.count > 0 && out.items[out.count - 1].strategy == "pipeline send")
    out.items[out.count - 1].time = one * std::max(sends, critical);
}

/// Tied embeddings on a pipeline: the first stage's input embedding and the last stage's output
/// layer are one matrix, held twice; after the last backward pass the two stages all-reduce its
/// gradient (Megatron-LM `_allreduce_word_embedding_grads` over the embedding group,
/// megatron/core/distributed/finalize_model_grads.py at core_r0.8.0, baf94af3; DeepSpeed's
/// `ReduceTiedGrads`, deepspeed/runtime/pipe/schedule.py), which nothing hides. A group of two
/// ranks, the pipeline axis's first and last, in the gradients' bytes, split by tensor
/// parallelism.
constexpr void tied_embedding_traffic(const traffic_inputs& in, traffic_list& out) {
  const training_plan_values& p = in.plan;
  const model_shape& m = p.model;
  const training_setup& t = p.setup;
  const std::size_t axis = first_axis(p, role_pipeline);
  if (!m.tied_embeddings || axis >= p.axis_count || p.axes[axis].size <= 1) return;
  const double params = static_cast<double>(m.vocab) * static_cast<double>(m.d_model) /
                        static_cast<double>(t.degrees.tensor);
  // Two ranks (p - 1) · inner apart; all of it a floor.
  const axis_network ends =
      network_of(in.levels, inner_devices(p, axis) * (p.axes[axis].size - 1), 2);
  push_traffic(out, p.system.chip, ends, in.options, "tied embedding all-reduce",
               collective_kind::all_reduce, axis, 1.0,
               params * held_gradient_bytes(t.precision) * byte, 0.0 * second, 0.0, 0.0 * second,
               std::numeric_limits<double>::infinity() * second);
}

/// Expert parallelism: per MoE layer and micro-batch a dispatch and a combine all-to-all
/// forward and backward of the routed tokens, each token sent once to each distinct device its
/// top-k experts live on (`expected_destinations`), and again for a forward rerun by Megatron-Core's
/// `moe` recomputation module (its checkpoint holds the dispatch and the combine); on the
/// critical path.
constexpr void expert_parallel_traffic(const traffic_inputs& in, traffic_list& out) {
  const model_shape& m = in.plan.model;
  if (!is_moe(m)) return;
  const parallel_degrees& d = in.plan.setup.degrees;
  const double moe_share = static_cast<double>(moe_layer_count(m)) / static_cast<double>(m.layers);
  const double passes = recomputes(in.plan.setup.recompute, recompute_module::moe) ? 6.0 : 4.0;
  in.add(out, "expert all-to-all", collective_kind::all_to_all, first_axis(in.plan, role_expert),
         passes * in.stage_layers() * moe_share * in.compute.micro_batches,
         in.activations() * expected_destinations(m.moe.top_k, d.expert) *
             static_cast<double>(d.expert),
         0.0 * second, 0.5);
}

// ---------------------------------------------------------------------------------------------
// Stage 3: overlap.

/// Each collective's exposed time: its `floor`, which nothing hides, and what of the rest does
/// not fit in the compute window it hides under; the hidden part costs the compute beside it its
/// `contention`.
constexpr void overlap_stage(traffic_list& traffic) {
  for (std::size_t i = 0; i < traffic.count; ++i) {
    axis_traffic& x = traffic.items[i];
    const seconds hideable = x.time - (x.floor < x.time ? x.floor : x.time);
    const seconds hidden = hideable > x.hidden_under ? x.hidden_under : hideable;
    x.exposed = x.time - hidden + hidden * x.contention;
  }
}

/// Every strategy's traffic of a step, with its exposed time: stages 2 and 3.
constexpr traffic_list communication_stage(const training_plan_values& p,
                                           const step_assumptions& a, const step_compute& c) {
  const traffic_inputs in = make_traffic_inputs(p, a, c);
  traffic_list out;
  data_parallel_traffic(in, out);
  const std::size_t first = out.count;
  tensor_parallel_traffic(in, out);
  context_parallel_traffic(in, out);
  for (std::size_t i = first; i < out.count; ++i) out.items[i].per_micro_batch = true;
  pipeline_traffic(in, out);
  tied_embedding_traffic(in, out);
  const std::size_t ep = out.count;
  expert_parallel_traffic(in, out);
  for (std::size_t i = ep; i < out.count; ++i) out.items[i].per_micro_batch = true;
  overlap_stage(out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Stages 4 and 5: the pipeline bubble and the optimizer.

/// The bubble as a fraction of the compute: (p−1)/(v·m) for 1F1B and interleaved 1F1B (v = 1
/// for 1F1B), (p−1)/m for GPipe, (p−1)/(3m) for ZB-H1; 0 without pipeline parallelism.
constexpr double bubble_fraction(const parallel_degrees& d, double micro_batches) {
  if (d.pipeline <= 1) return 0.0;
  const double idle = static_cast<double>(d.pipeline) - 1.0;
  switch (d.schedule) {
    case pipeline_schedule::gpipe:
    case pipeline_schedule::one_f_one_b:
      return idle / micro_batches;
    case pipeline_schedule::interleaved:
      return idle / (static_cast<double>(d.virtual_stages) * micro_batches);
    case pipeline_schedule::zero_bubble:
      return idle / (3.0 * micro_batches);
  }
  return 0.0;
}

/// The pipeline bubble of a step: `bubble_fraction` of the stage's busy time, its compute and
/// the exposed communication inside each micro-batch (`axis_traffic::per_micro_batch`: the
/// tensor-parallel collectives, the context-parallel ring, the expert all-to-alls). A stage
/// idles while the others run their micro-batches, and each of those takes its communication
/// as well as its compute: the bubble of Narayanan et al. 2021 (Sec. 2.2.1) is (p−1) micro-batch
/// times, t_f + t_b, of a stage as it runs, collectives included. The data-parallel and
/// pipeline traffic are charged once per step (the fill and drain's sends by
/// `pipeline_traffic`).
constexpr seconds bubble_stage(const training_plan_values& p, const step_compute& c,
                               const traffic_list& t) {
  seconds busy = c.total;
  for (std::size_t i = 0; i < t.count; ++i)
    if (t.items[i].per_micro_batch) busy += t.items[i].exposed;
  return busy * bubble_fraction(p.setup.degrees, c.micro_batches);
}

/// No step of the plan takes less: its compute and the bubble that compute alone leaves (the
/// bubble's collectives, the exposed communication and the optimizer only add to them), and never
/// less than the MFU floor (`step_total`). The search leaves a plan uncosted when this already
/// rules it out.
constexpr seconds step_lower_bound(const training_plan_values& p, const step_compute& c) {
  return std::max(c.total + c.total * bubble_fraction(p.setup.degrees, c.micro_batches),
                  c.mfu_floor);
}

/// The optimizer update: it reads and writes master weights and optimizer states and reads
/// gradients and parameters once, from HBM, on the pipeline stage (first, middle or last) whose
/// model states are the largest; only the model states are read (`model_state_memory`). What the plan
/// offloads (`offload_policy`) is updated on the host instead: its gradients cross the host link
/// to it in fp32 and its updated parameters come back, after the backward pass (DeepSpeed's
/// `step` and Megatron-Core's `HybridDeviceOptimizer` copy them around the host's update); the
/// host's own update is not timed (no host CPU's Adam rate is in the catalogue).
constexpr seconds optimizer_stage(const training_plan_values& p) {
  const parameter_counts counts = parameters(p.model);
  const offload_policy& o = p.setup.offload;
  const double link = p.system.chip.host_link_bandwidth.value();
  auto time = [&](stage_position stage) {
    const device_parameters d = parameters_on_device(p.model, counts, p.setup, stage);
    const memory_breakdown m = model_state_memory(d, p.setup);
    seconds t = (2.0 * (m.master_weights + m.optimizer) + m.gradients + m.parameters) /
                p.system.chip.memory_bandwidth;
    if (o.optimizer > 0.0 && link > 0.0) {
      const state_sharding z = sharding_of(p.setup);
      const double shard = d.dense / z.dense + d.expert / z.expert;
      t += shard * o.optimizer * (4.0 + p.setup.precision.parameter_bytes) / link * second;
    }
    return t;
  };
  seconds most = time(stage_position::first);
  if (p.setup.degrees.pipeline > 2) {
    const seconds middle = time(stage_position::middle);
    if (middle > most) most = middle;
  }
  if (p.setup.degrees.pipeline > 1) {
    const seconds last = time(stage_position::last);
    if (last > most) most = last;
  }
  return most;
}

// ---------------------------------------------------------------------------------------------
// Stage 6: the sum.

/// The step: compute + bubble + exposed communication + optimizer, at least `mfu_floor` (any
/// shortfall added to compute); the roofline (the slowest of compute at peak and each
/// strategy's traffic), MFU and tokens per second.
constexpr step_cost step_total(const training_plan_values& p, const step_compute& compute,
                               const traffic_list& traffic, seconds bubble, seconds optimizer) {
  const double devices = static_cast<double>(mesh_devices(p));
  step_cost c;
  c.model_flops = compute.model_flops;
  c.hardware_flops = compute.hardware_flops;
  c.efficiency = compute.efficiency;
  c.compute = compute.total;
  c.elementwise = compute.elementwise;
  c.traffic = traffic.items;
  c.traffic_count = traffic.count;
  seconds exposed = 0.0 * second;
  seconds slowest_axis = 0.0 * second;
  for (std::size_t i = 0; i < traffic.count; ++i) {
    exposed += traffic.items[i].exposed;
    slowest_axis = std::max(slowest_axis, traffic.items[i].time);
  }
  c.communication_exposed = exposed;
  c.bubble = bubble;
  c.optimizer = optimizer;
  c.step = c.compute + c.bubble + c.communication_exposed + c.optimizer;
  c.uncapped_step = c.step;
  // An efficiency option would otherwise report an MFU no published run has reached.
  c.mfu_capped = c.step < compute.mfu_floor;
  if (c.mfu_capped) {
    c.compute += compute.mfu_floor - c.step;
    c.step = compute.mfu_floor;
  }
  c.roofline = std::max(compute.at_peak, slowest_axis);
  c.mfu_format = compute.mfu_format;
  c.mfu = mfu(c.model_flops, c.step, devices, peak(p.system.chip, c.mfu_format));
  c.tokens_per_second_per_device =
      static_cast<double>(p.setup.batch.global_tokens) / c.step.value() / devices;
  return c;
}

/// Estimates one training step as six named stages, each its own function: `compute_stage`,
/// the traffic of each strategy (`data_parallel_traffic`, `tensor_parallel_traffic`,
/// `context_parallel_traffic`, `pipeline_traffic`, `expert_parallel_traffic`), `overlap_stage`,
/// `bubble_stage`, `optimizer_stage` and `step_total`. Every figure is an estimate.
constexpr step_cost estimate_step(const training_plan_values& p, const step_assumptions& a,
                                  const step_compute& compute) {
  const traffic_list traffic = communication_stage(p, a, compute);
  return step_total(p, compute, traffic, bubble_stage(p, compute, traffic), optimizer_stage(p));
}

constexpr step_cost estimate_step(const training_plan_values& p, const step_assumptions& a,
                                  const layer_times& layers) {
  return estimate_step(p, a, compute_stage(p, a, layers));
}

constexpr step_cost estimate_step(const training_plan_values& p, step_assumptions a) {
  return estimate_step(p, a, time_layers(p, a));
}

/// Estimates one training step with the plan's own assumptions.
constexpr step_cost estimate_step(const training_plan_values& p) {
  return estimate_step(p, p.assumptions);
}

/// The invariant of every estimate (tests and the fuzzer check it): its MFU is a number, not
/// negative, and at most `mfu_ceiling` (the chip family's `best_measured_mfu` for bf16 plans).
constexpr bool mfu_within_best_measured(const training_plan_values& p, const step_cost& c) {
  return c.mfu >= 0.0 && c.mfu <= mfu_ceiling(p, c.mfu_format) * (1.0 + 1e-12);
}

}  // namespace shardplan
