// DeepSpeed: a training plan as a DeepSpeed config JSON, with // comment lines for hjson.
#pragma once

#include <cstdint>
#include <string>

#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/io/launch/common.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/training/plan.hpp>

// What this exporter targets, and where its names were checked (a stored copy of the project's
// sources; commit abbreviated):
//   DeepSpeed    docs/_pages/config-json.md at deepspeedai/DeepSpeed 00376da (master, 2026);
//                DeepSpeedConfig reads a config file with hjson (deepspeed/runtime/config.py),
//                which accepts the // comment lines we write, and takes the data-parallel world
//                size from the model-parallel unit; PipelineEngine asserts ZeRO stage < 2;
//                mics_shard_size from the ZeRO config.

namespace shardplan {

/// The plan as a DeepSpeed config: JSON written by hand, preceded by `//` comment lines that
/// DeepSpeed's hjson reader accepts (strip them for a strict JSON reader). Data parallelism is
/// train_batch_size / (train_micro_batch_size_per_gpu x gradient_accumulation_steps); model
/// parallel degrees are not JSON keys, and comment lines say where they go.
inline std::string deepspeed_json(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  lines out =
      opening(p, f, "//",
              "DeepSpeed config JSON: keys of docs/_pages/config-json.md (deepspeedai/DeepSpeed "
              "00376da, 2026); DeepSpeedConfig reads the file with hjson, which accepts these // "
              "lines");
  if (p.system.chip.kind != chip_kind::gpu)
    out.note("no equivalent: this plan's system is " + std::string(p.system.name) +
             "; DeepSpeed's config assumes GPUs (train_micro_batch_size_per_gpu)");
  out.note("data parallel " + n(f.data) +
           " = train_batch_size / (train_micro_batch_size_per_gpu "
           "x gradient_accumulation_steps): DeepSpeed takes it from the model-parallel unit");
  out.note("not in the JSON: sequence length " + n(f.seq_len) + ", set by the data loader");
  if (f.tensor > 1)
    out.note("not in the JSON: tensor parallelism " + n(f.tensor) +
             (f.sequence_parallel ? " with sequence parallelism" : "") +
             ", set by the model's model-parallel unit (mpu) passed to deepspeed.initialize");
  if (f.pipeline > 1) {
    out.note("not in the JSON: pipeline parallelism " + n(f.pipeline) +
             ", PipelineModule(num_stages=" + n(f.pipeline) + ") in the model code");
    if (f.virtual_stages > 1 || p.setup.degrees.schedule != pipeline_schedule::one_f_one_b)
      out.note("no equivalent: the " + std::string(schedule_name(p.setup.degrees.schedule)) +
               " schedule" +
               (f.virtual_stages > 1 ? " with " + n(f.virtual_stages) + " virtual stages" : "") +
               "; DeepSpeed's PipelineEngine runs its 1F1B TrainSchedule");
    if (m.layers % f.pipeline != 0)
      out.note("uneven stages: PipelineModule's partition_method decides the split");
    if (f.zero_stage >= 2)
      out.note("no equivalent: ZeRO-" + n(f.zero_stage) +
               " with pipeline parallelism; "
               "PipelineEngine asserts ZeRO stage < 2");
  }
  if (f.context > 1)
    out.note("no equivalent: ring context parallelism " + n(f.context) +
             "; DeepSpeed-Ulysses "
             "(sequence_parallel_size) splits the sequence with all-to-all instead");
  if (f.expert > 1) {
    out.note("not in the JSON: expert parallelism " + n(f.expert) +
             ", deepspeed.moe.layer.MoE(ep_size=" + n(f.expert) + ") in the model code");
    if (m.moe.top_k > 2)
      out.note("no equivalent: top-" + n(m.moe.top_k) +
               " routing; deepspeed.moe.layer.MoE "
               "supports k = 1 or 2");
  }
  if (f.zero_stage >= 1 && f.zero_stage <= 2 && f.replicas > 1)
    out.note("no equivalent: ZeRO-" + n(f.zero_stage) + " over " + n(f.zero) + " of " + n(f.data) +
             " replicas; DeepSpeed partitions over the whole data-parallel group");
  const precision_policy& x = p.setup.precision;
  // docs/_pages/config-json.md (00376da) has no fp8 key: the recipe is the model code's.
  if (x.compute == number_format::fp8)
    out.note("not in the JSON: fp8 GEMMs (" + std::string(scaling_name(x.scaling)) +
             " scaling) come from the model code (Transformer Engine); the config runs bf16");
  if (p.setup.attention != attention_kernel::automatic && !p.setup.eager_attention)
    out.note("not in the JSON: the " + std::string(kernel_name(p.setup.attention)) +
             " attention kernel is the model code's");
  if (x.compute == number_format::int8 || x.compute == number_format::int4 ||
      x.compute == number_format::fp4)
    out.note("no equivalent: " + std::string(name_of(x.compute)) + " training GEMMs");
  switch (p.setup.recompute.kind) {
    case recompute_kind::none:
      break;
    case recompute_kind::selective:
      out.note(
          "not in the JSON: selective recomputation (attention softmax) is the model's "
          "choice");
      break;
    case recompute_kind::full:
      out.note(
          "full recomputation: the config sets up deepspeed.checkpointing; the model "
          "checkpoints each layer with deepspeed.checkpointing.checkpoint");
      break;
    case recompute_kind::checkpoints:
      out.note("no equivalent: " + n(p.setup.recompute.checkpoints_per_layer) +
               " checkpoints per layer; the model decides what deepspeed.checkpointing keeps");
      break;
  }
  if (p.assumptions.in_network_reduction)
    out.note("no equivalent: in-network reduction (SHARP) is NCCL's choice, not a config key");

  const std::int64_t accumulation = f.micro_batches;
  out.raw("{");
  out.raw("  \"train_batch_size\": " + n(f.sequences) + ",");
  out.raw("  \"train_micro_batch_size_per_gpu\": " + n(f.micro_batch) + ",");
  out.raw("  \"gradient_accumulation_steps\": " + n(accumulation) + ",");
  if (x.compute == number_format::fp16) {
    out.raw("  \"fp16\": {");
    out.raw("    \"enabled\": true");
    out.raw("  },");
  } else if (x.compute != number_format::fp32 && x.compute != number_format::tf32) {
    out.raw("  \"bf16\": {");
    out.raw("    \"enabled\": true");
    out.raw("  },");
  }
  const bool checkpointing = p.setup.recompute.kind == recompute_kind::full ||
                             p.setup.recompute.kind == recompute_kind::checkpoints;
  out.raw("  \"zero_optimization\": {");
  if (f.zero_stage >= 3 && f.replicas > 1) {
    out.raw("    \"stage\": " + n(f.zero_stage) + ",");
    out.raw("    \"mics_shard_size\": " + n(f.zero));
  } else {
    out.raw("    \"stage\": " + n(f.zero_stage));
  }
  out.raw(checkpointing ? "  }," : "  }");
  if (checkpointing) {
    out.raw("  \"activation_checkpointing\": {");
    out.raw(std::string("    \"partition_activations\": ") +
            (f.sequence_parallel ? "true" : "false") + ",");
    out.raw("    \"cpu_checkpointing\": false,");
    out.raw("    \"contiguous_memory_optimization\": false");
    out.raw("  }");
  }
  out.raw("}");
  return out.out;
}

}  // namespace shardplan
