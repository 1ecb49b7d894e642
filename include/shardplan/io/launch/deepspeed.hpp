// DeepSpeed: a training plan as a DeepSpeed config, pure JSON with its notes in "_comment".
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <shardplan/core/format.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/io/launch/common.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/training/plan.hpp>

// What this exporter targets, and where its names were checked (a git snapshot of the project,
// read with `git show`): deepspeedai/DeepSpeed edaa7221267243c7be7fb49c5d5f5c4fb97b4641
// (master, 2026-08-22). The keys: the constants of deepspeed/runtime/constants.py and the string
// keys DeepSpeedConfig reads (deepspeed/runtime/config.py), the fields of the pydantic sections
// (DeepSpeedZeroConfig of deepspeed/runtime/zero/config.py, DeepSpeedBF16Config and
// DeepSpeedFP16Config of deepspeed/runtime/precision_config.py) and activation_checkpointing's
// constants (deepspeed/runtime/activation_checkpointing/config.py), all in
// tests/export/deepspeed_keys.txt. The batch rule and the data-parallel world size from
// DeepSpeedConfig.__init__ and _batch_assertion (config.py); PipelineEngine asserts ZeRO stage < 2
// (deepspeed/runtime/pipe/engine.py); deepspeed.moe.layer.MoE takes k = 1 or 2
// (deepspeed/moe/layer.py).
//
// Pure JSON, so that json.load reads it (Hugging Face Accelerate and Transformers load the file
// with it; DeepSpeed itself uses hjson): the notes go in a top-level "_comment" array of strings.
// DeepSpeedConfig reads top-level keys by name and checks no others (config.py: get_* helpers,
// `param_dict.get`), so "_comment" is ignored; the sections are pydantic models with
// extra="forbid" (DeepSpeedConfigModel, deepspeed/runtime/config_utils.py), so nothing else is
// added inside them.

namespace shardplan {

namespace detail::launch {

/// A JSON object of already-written values, `indent` spaces deep, keys quoted by
/// `double_quoted`.
inline std::string json_object(const std::vector<std::pair<std::string, std::string>>& members,
                               std::size_t indent) {
  const std::string pad(indent + 2, ' ');
  std::string s = "{\n";
  for (std::size_t i = 0; i < members.size(); ++i) {
    s += pad + double_quoted(members[i].first) + ": " + members[i].second;
    s += i + 1 < members.size() ? ",\n" : "\n";
  }
  return s + std::string(indent, ' ') + "}";
}

}  // namespace detail::launch

/// The plan as a DeepSpeed config: pure JSON (json.load and hjson read it), its first member
/// "_comment" an array of the notes (the format version, the plan, and what the JSON cannot
/// express). Data parallelism is train_batch_size / (train_micro_batch_size_per_gpu x
/// gradient_accumulation_steps); model-parallel degrees are not JSON keys, and the notes say
/// where they go.
inline std::string deepspeed_json(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  lines out = opening(p, f, "#",
                      "DeepSpeed config JSON: keys of deepspeed/runtime/config.py and constants.py "
                      "(deepspeedai/DeepSpeed edaa722, 2026); pure JSON, notes in \"_comment\", "
                      "a top-level key DeepSpeedConfig ignores");
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
      out.note("no equivalent: the " + std::string(launch_schedule_name(p.setup.degrees.schedule)) +
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
  // Context parallelism. DeepSpeedConfig.__init__ (config.py at edaa722) sets the data-parallel
  // world size that _batch_assertion checks (train_batch_size == micro x accumulation x world):
  // with an mpu, mpu.get_data_parallel_world_size() (or WORLD / its sequence-parallel size when
  // it has none, as Ulysses' mpu); without one, WORLD / sequence_parallel_size when the config
  // has that key, else WORLD. DeepSpeed's context parallelism is Ulysses (sequence_parallel_size,
  // an all-to-all over the heads); a data-parallel group of WORLD / (TP x PP), as a Megatron-style
  // mpu without context parallelism returns it, would count each CP group's ranks as replicas.
  if (f.context > 1) {
    out.note("approximation: DeepSpeed-Ulysses (sequence_parallel_size " + n(f.context) +
             ", all-to-all over the heads) in place of the plan's ring context parallelism" +
             (m.heads % f.context != 0
                  ? "; no equivalent: " + n(m.heads) + " heads do not divide over it"
                  : std::string{}));
    if (f.tensor == 1 && f.pipeline == 1)
      out.note(
          "batch: without an mpu (or with Ulysses' own) DeepSpeed's data-parallel world is "
          "WORLD / sequence_parallel_size = " +
          n(f.devices) + " / " + n(f.context) + " = " + n(f.data) +
          ", so train_batch_size = micro x accumulation x " + n(f.data) + " holds");
    else
      out.note(
          "warning: with TP or PP DeepSpeed takes the data-parallel world from the mpu: "
          "train_batch_size = micro x accumulation x " +
          n(f.data) + " holds only if mpu.get_data_parallel_world_size() returns " + n(f.data) +
          " = WORLD / (TP x PP x CP), the sequence-parallel ranks left out; WORLD / (TP x "
          "PP) = " +
          n(f.devices / (f.tensor * f.pipeline)) + " fails DeepSpeed's batch assertion");
  }
  if (f.expert > 1) {
    out.note("not in the JSON: expert parallelism " + n(f.expert) +
             ", deepspeed.moe.layer.MoE(ep_size=" + n(f.expert) + ") in the model code");
    if (m.moe.top_k > 2)
      out.note("no equivalent: top-" + n(m.moe.top_k) +
               " routing; deepspeed.moe.layer.MoE "
               "supports k = 1 or 2");
    if (f.zero_stage >= 3)
      out.note(
          "warning: DeepSpeed refuses its native MoE layers with ZeRO-3 (\"Native "
          "DeepSpeed MoE is not supported with ZeRO Stage 3\", deepspeed/runtime/engine.py)");
  }
  if (f.zero_stage >= 1 && f.zero_stage <= 2 && f.replicas > 1)
    out.note("no equivalent: ZeRO-" + n(f.zero_stage) + " over " + n(f.zero) + " of " + n(f.data) +
             " replicas; DeepSpeed partitions over the whole data-parallel group");
  const precision_policy& x = p.setup.precision;
  // No DeepSpeed config key selects an fp8 recipe: it is the model code's.
  if (x.compute == number_format::fp8)
    out.note("not in the JSON: fp8 GEMMs (" + std::string(scaling_name(x.scaling)) +
             " scaling) come from the model code (Transformer Engine); the config runs bf16");
  if (p.setup.attention != attention_kernel::automatic && !p.setup.eager_attention)
    out.note("not in the JSON: the " + std::string(kernel_name(p.setup.attention)) +
             " attention kernel is the model code's");
  if (x.compute == number_format::int8 || x.compute == number_format::int4 ||
      x.compute == number_format::fp4)
    out.note("no equivalent: " + std::string(name_of(x.compute)) + " training GEMMs");
  // Optimizer states: DeepSpeedBF16Config.bf16_optimizer_states keeps them in bf16, and
  // DeepSpeedConfig asserts it "requires bf16_master_weights_and_grads" and ZeRO stage 1 to 3
  // (precision_config.py, config.py at edaa722). Nothing keeps them in 8 bits.
  const bool bf16 = x.compute != number_format::fp16 && x.compute != number_format::fp32 &&
                    x.compute != number_format::tf32;
  const double state = x.optimizer_state_bytes;
  const bool bf16_states =
      bf16 && state == 2.0 && x.master_bytes == 2.0 && x.gradient_bytes == 2.0 && f.zero_stage >= 1;
  if (x.optimizer_states > 0 && state > 0.0 && state != 4.0 && !bf16_states)
    out.note("no equivalent: " + detail::significant(state, 3) + "-byte optimizer states" +
             (state == 1.0
                  ? std::string(" (8-bit Adam): no DeepSpeed config key keeps 8-bit states")
                  : ": bf16_optimizer_states needs bf16 master weights and gradients "
                    "(bf16_master_weights_and_grads) and ZeRO stage 1 to 3; the plan keeps " +
                        detail::significant(x.master_bytes, 3) + "-byte master weights, " +
                        detail::significant(x.gradient_bytes, 3) + "-byte gradients, ZeRO-" +
                        n(f.zero_stage)) +
             "; the optimizer keeps fp32 states");
  switch (p.setup.recompute.kind) {
    case recompute_kind::none:
      break;
    case recompute_kind::selective:
      if (p.setup.recompute.modules != 0)
        out.note("no equivalent: Megatron-Core's recompute modules; the model decides what "
                 "deepspeed.checkpointing.checkpoint wraps");
      out.note(
          "not in the JSON: selective recomputation (attention softmax) is the model's "
          "choice");
      break;
    case recompute_kind::full:
      out.note(
          "full recomputation: the config sets up deepspeed.checkpointing; the model "
          "checkpoints each layer with deepspeed.checkpointing.checkpoint");
      break;
    case recompute_kind::mlp:
      out.note(
          "not in the JSON: recomputing each MLP is the model's choice (its MLP called through "
          "deepspeed.checkpointing.checkpoint)");
      break;
    case recompute_kind::named:
      out.note("not in the JSON: MaxText's named remat policy; what the model checkpoints "
               "is the model's choice");
      break;
    case recompute_kind::checkpoints:
      out.note("no equivalent: " + n(p.setup.recompute.checkpoints_per_layer) +
               " checkpoints per layer; the model decides what deepspeed.checkpointing keeps");
      break;
  }
  if (p.assumptions.in_network_reduction)
    out.note("no equivalent: in-network reduction (SHARP) is NCCL's choice, not a config key");

  std::string comments = "[\n";
  for (std::size_t i = 0; i < out.notes.size(); ++i)
    comments += "    " + double_quoted(out.notes[i]) + (i + 1 < out.notes.size() ? ",\n" : "\n");
  comments += "  ]";
  std::vector<std::pair<std::string, std::string>> top = {
      {"_comment", comments},
      {"train_batch_size", n(f.sequences)},
      {"train_micro_batch_size_per_gpu", n(f.micro_batch)},
      {"gradient_accumulation_steps", n(f.micro_batches)}};
  if (f.context > 1) top.emplace_back("sequence_parallel_size", n(f.context));
  if (x.compute == number_format::fp16) {
    top.emplace_back("fp16", json_object({{"enabled", "true"}}, 2));
  } else if (bf16) {
    std::vector<std::pair<std::string, std::string>> b = {{"enabled", "true"}};
    if (bf16_states) {
      b.emplace_back("bf16_master_weights_and_grads", "true");
      b.emplace_back("bf16_optimizer_states", "true");
    }
    top.emplace_back("bf16", json_object(b, 2));
  }
  std::vector<std::pair<std::string, std::string>> zero = {{"stage", n(f.zero_stage)}};
  if (f.zero_stage >= 3 && f.replicas > 1) zero.emplace_back("mics_shard_size", n(f.zero));
  // DeepSpeed's default below stage 3 is false (overlap_comm_valid): written only when set.
  if (p.setup.overlap_comm && deepspeed_reads_overlap_comm(f.zero_stage))
    zero.emplace_back("overlap_comm", "true");
  const offload_policy& o = p.setup.offload;
  if (o.optimizer > 0.0) {
    zero.emplace_back("offload_optimizer", json_object({{"device", "\"cpu\""}}, 4));
    if (o.optimizer < 1.0)
      out.note("no equivalent: offloading " + detail::significant(100.0 * o.optimizer, 3) +
               "% of the optimizer (DeepSpeed's ratio is ZeRO-3's and splits by sub-group); "
               "all of it is offloaded");
  }
  if (o.parameters_on_host)
    zero.emplace_back("offload_param", json_object({{"device", "\"cpu\""}}, 4));
  top.emplace_back("zero_optimization", json_object(zero, 2));
  if (p.setup.recompute.kind == recompute_kind::full ||
      p.setup.recompute.kind == recompute_kind::checkpoints)
    top.emplace_back("activation_checkpointing",
                     json_object({{"partition_activations", f.sequence_parallel ? "true" : "false"},
                                  {"cpu_checkpointing", "false"},
                                  {"contiguous_memory_optimization", "false"}},
                                 2));
  return json_object(top, 0) + "\n";
}

}  // namespace shardplan
