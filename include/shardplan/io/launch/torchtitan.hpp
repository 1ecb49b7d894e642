// torchtitan: a training plan as command-line arguments over a config function (torchtitan
// at HEAD, 2026), or as a TOML job config (torchtitan v0.2.2 and earlier, --job.config_file).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <shardplan/core/format.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/io/launch/common.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>

// What this exporter targets, and where its names were checked (git snapshots of
// pytorch/torchtitan, read with `git show`):
//   HEAD    b5bcd76c66d0acb1a08b176d9639425bc55e0b2a (2026-08-21). Since "[BC Breaking] Config
//           System Refactor: TOML to Python Dataclass Registry" (9810191, 2026-02-23) torchtitan
//           reads no config file: ConfigManager.parse_args (torchtitan/config/manager.py) loads
//           the config function named by --module and --config (a config_registry.py of
//           torchtitan/models/<module>/) and lets tyro apply `--section.option value` arguments
//           over it. Those options are frozen (_FROZEN_CLI_OPTIONS of
//           tests/unit_tests/test_no_new_cli_options.py, our tests/export/
//           torchtitan_cli_options.txt); the model, its converters (fp8) and the dataloader are
//           fields of the config function, off the command line. debug.save_config_file only
//           writes the resolved config as JSON (Trainer.Config.maybe_log, torchtitan/trainer.py);
//           nothing reads it back. Batch keys (training.num_tokens_per_*) from
//           torchtitan/config/configs.py and torchtitan/trainer.py; EP borrowing dp_shard, cp
//           and tp ranks from ParallelDims._validate (torchtitan/distributed/parallel_dims.py);
//           the activation-checkpointing subcommands from ActivationCheckpointingConfig
//           (torchtitan/distributed/activation_checkpoint.py).
//   v0.2.2  73a0e6979dd10b6b1904098eb3c8f62c18ab87ce (2026-02-20), the last release that reads
//           TOML: ConfigManager._maybe_load_toml (torchtitan/config/manager.py) loads
//           --job.config_file with tomllib and _dict_to_dataclass rejects unknown keys; the keys
//           are JobConfig's (torchtitan/config/job_config.py, our tests/export/
//           torchtitan_toml_keys.txt). Since v0.2.0 the fp8 converters are registered as
//           "quantize.linear.float8" and "quantize.linear.mx" with their [quantize.linear.*]
//           tables (torchtitan/components/quantization/{float8,mx}.py); v0.1.0 called them
//           "float8" and "mx" with [float8] and [mx].
// Both: the stage count ceil((layers + first_less + last_less) / layers_per_stage) and the split
// of generate_llm_fqn_per_model_part (torchtitan/distributed/pipeline_parallel.py), whose
// first_stage_less_layers and last_stage_less_layers default to 1; schedule names from
// torch.distributed.pipelining's get_schedule_class; SDPA's backend order (CUDNN_ATTENTION,
// FLASH_ATTENTION, MATH) from ScaledDotProductAttention (v0.2.2 torchtitan/models/attention.py,
// HEAD torchtitan/models/common/attention.py).

namespace shardplan {

namespace detail::launch {

/// torchtitan's stage split: pipeline_parallel_layers_per_stage (0: not written) with the first
/// and last stage `first_less` and `last_less` layers lighter (torchtitan counts the embedding and
/// the output as that many layers); `found` is false when no layers_per_stage gives the plan's
/// stage count, `same` false when torchtitan would split the layers otherwise than the plan.
struct titan_split {
  std::int64_t layers_per_stage = 0;
  std::int64_t first_less = 0;
  std::int64_t last_less = 0;
  bool found = true;
  bool same = true;
};

/// The lightening that gives torchtitan's split (`pipeline_extra_layers_early`, the ends as
/// layers) the plan's layers on every chunk (`chunk_layers_of`): the plan's own weights where
/// its framework splits as torchtitan does, else 0 when the layers divide evenly into the chunks
/// (the default of 1 would make 80 layers over 8 stages 10, 11, 10, ..., 9), 1 when counting the
/// ends as a layer each makes the split even (126 + 2 = 128 over 32), else whichever matches;
/// the first when none does (`same` false).
inline titan_split titan_layers(const training_plan_values& p) {
  const parallel_degrees& d = p.setup.degrees;
  const std::int64_t vp = virtual_stages_of(d);
  const std::int64_t chunks = d.pipeline * vp;
  if (d.pipeline <= 1 || chunks <= 0) return {};
  const std::int64_t layers = p.model.layers;
  const std::int64_t preferred = layers % chunks != 0 && (layers + 2) % chunks == 0 ? 1 : 0;
  const framework_profile& f = p.setup.framework;
  std::pair<std::int64_t, std::int64_t> candidates[] = {
      {preferred, preferred}, {1 - preferred, 1 - preferred}, {preferred, preferred}};
  if (f.pipeline_extra_layers_early)
    candidates[0] = {f.pipeline_embedding_weight, f.pipeline_loss_weight};
  auto matches = [&](std::int64_t first, std::int64_t last) {
    training_setup titan = p.setup;
    titan.degrees.first_stage_layers = 0;
    titan.degrees.last_stage_layers = 0;
    titan.framework.pipeline_embedding_weight = first;
    titan.framework.pipeline_loss_weight = last;
    titan.framework.pipeline_extra_layers_early = true;
    for (std::int64_t k = 0; k < chunks; ++k)
      if (chunk_layers_of(p.model, titan, k) != chunk_layers_of(p.model, p.setup, k)) return false;
    return true;
  };
  auto stage_size = [&](std::int64_t first, std::int64_t last) -> std::int64_t {
    if (vp <= 1) return 0;
    const std::int64_t units = layers + first + last;
    const std::int64_t per = (units + chunks - 1) / chunks;
    return per > 0 && (units + per - 1) / per == chunks ? per : -1;
  };
  for (const auto& [first, last] : candidates) {
    const std::int64_t per = stage_size(first, last);
    if (per >= 0 && matches(first, last)) return {per, first, last, true, true};
  }
  for (const auto& [first, last] : candidates) {
    const std::int64_t per = stage_size(first, last);
    if (per >= 0) return {per, first, last, true, false};
  }
  return {0, candidates[0].first, candidates[0].second, false, false};
}

/// torchtitan's model for this shape: its module (model.name) and flavor ("" when none): llama3
/// flavors of torchtitan/models/llama3/__init__.py at v0.2.2 (the FFN width follows from
/// ffn_dim_multiplier and multiple_of there; the LLaMA-3 tokenizer's vocabulary), and DeepSeek-V3
/// 671B of torchtitan/models/deepseek_v3/__init__.py (deepseekv3_args["671B"]: dim 7168,
/// inter_dim 18432, moe_inter_dim 2048, 61 layers, 3 dense, 128 heads, 256 experts, 1 shared,
/// top 8, q_lora_rank 1536, kv_lora_rank 512, qk dims 128 + 64, v_head_dim 128, vocabulary
/// 129280). The same flavors exist at HEAD (model_registry of each config_registry.py).
struct titan_model {
  std::string_view name;
  std::string_view flavor;
};

constexpr titan_model titan_model_of(const model_shape& m) {
  const bool llama3 = m.vocab == 128256 && m.kv_heads == 8 && m.head_dim == 128 && m.gated_mlp &&
                      !m.tied_embeddings && !m.biases && m.norm == norm_kind::rms_norm &&
                      m.moe.experts == 0 && m.mla.kv_lora_rank == 0 && m.position_embeddings == 0;
  if (llama3) {
    if (m.d_model == 4096 && m.layers == 32 && m.heads == 32 && m.d_ff == 14336)
      return {"llama3", "8B"};
    if (m.d_model == 8192 && m.layers == 80 && m.heads == 64 && m.d_ff == 28672)
      return {"llama3", "70B"};
    if (m.d_model == 16384 && m.layers == 126 && m.heads == 128 && m.d_ff == 53248)
      return {"llama3", "405B"};
  }
  const bool v3 = m.vocab == 129280 && m.d_model == 7168 && m.d_ff == 18432 && m.layers == 61 &&
                  m.heads == 128 && m.moe.experts == 256 && m.moe.top_k == 8 &&
                  m.moe.shared_experts == 1 && m.moe.expert_d_ff == 2048 &&
                  m.moe.dense_layers == 3 && m.mla.q_lora_rank == 1536 &&
                  m.mla.kv_lora_rank == 512 && m.mla.qk_nope_head_dim == 128 &&
                  m.mla.qk_rope_head_dim == 64 && m.mla.v_head_dim == 128 && m.gated_mlp &&
                  !m.tied_embeddings && !m.biases && m.norm == norm_kind::rms_norm;
  if (v3) return {"deepseek_v3", "671B"};
  return {};
}

/// What both torchtitan exports hold: the values torchtitan's keys take, computed once.
struct titan_values {
  std::int64_t replicate = 1;  ///< data_parallel_replicate_degree
  std::int64_t shard = 1;      ///< data_parallel_shard_degree
  bool reshard_never = false;  ///< fsdp_reshard_after_forward = never (ZeRO-1/2)
  std::string schedule;        ///< pipeline_parallel_schedule ("" without PP)
  titan_split split;
  std::string_view param_dtype = "bfloat16";  ///< training.mixed_precision_param
  std::string_view ac = "none";               ///< none, selective or full
};

/// The values, and the comment lines both exports share.
inline titan_values titan_common(lines& out, const training_plan_values& p, const facts& f) {
  titan_values v;
  const model_shape& m = p.model;
  const parallel_degrees& d = p.setup.degrees;
  if (p.system.chip.kind != chip_kind::gpu)
    out.note("no equivalent: torchtitan targets GPUs; this plan's system is " +
             std::string(p.system.name));
  v.replicate = f.data;
  if (f.zero_stage > 0) {
    v.replicate = f.replicas;
    v.shard = f.zero;
  }
  if (f.zero_stage == 1 || f.zero_stage == 2) {
    out.note("approximation: torchtitan has no ZeRO-" + n(f.zero_stage) +
             "; its sharded data parallelism is FSDP2 (ZeRO-3), here keeping parameters "
             "gathered from forward to backward");
    v.reshard_never = true;
  }
  if (f.pipeline > 1) {
    v.schedule = "1F1B";
    if (f.virtual_stages > 1) {
      v.schedule = "Interleaved1F1B";
    } else if (d.schedule == pipeline_schedule::gpipe) {
      v.schedule = "GPipe";
    } else if (d.schedule == pipeline_schedule::zero_bubble) {
      out.note(
          "no equivalent: single-stage ZB-H1; PyTorch's zero-bubble schedules "
          "(InterleavedZeroBubble, ZBVZeroBubble) run several stages per rank");
    }
    v.split = titan_layers(p);
    const std::int64_t chunks = f.pipeline * f.virtual_stages;
    if (v.split.layers_per_stage > 0) {
      out.note(n(chunks) + " stages = ceil((" + n(m.layers) + " + " + n(v.split.first_less) +
               " + " + n(v.split.last_less) + ") / " + n(v.split.layers_per_stage) + "), " +
               n(f.virtual_stages) + " per rank");
    } else if (!v.split.found) {
      out.note("no equivalent: " + n(f.virtual_stages) + " virtual stages of " + n(m.layers) +
               " layers; no layers_per_stage gives " + n(chunks) +
               " stages (list them in module_fqns_per_model_part)");
    }
    out.note(n(m.layers) + " layers over " + n(chunks) + " stages: first and last stage " +
             n(v.split.first_less) + " and " + n(v.split.last_less) +
             " layer(s) lighter, written out (torchtitan's default is 1)");
    if (!v.split.same)
      out.note("no equivalent: torchtitan gives a ragged split's extra layers to the first "
               "stages; the plan's stages hold their layers otherwise");
  }
  if (f.context > 1)
    out.note(
        "approximation: torchtitan's context parallelism (PyTorch's context_parallel with the "
        "headtail load balancer) exchanges KV shards by all-gather; the plan costs a ring");
  if (p.assumptions.in_network_reduction)
    out.note("no equivalent: in-network reduction (SHARP) is NCCL's choice, not a config key");
  if (p.setup.dropout) out.note("no equivalent: dropout (torchtitan's llama3 has none)");
  // Attention: ScaledDotProductAttention tries SDPA's CUDNN_ATTENTION, FLASH_ATTENTION, MATH in
  // that order; FlexAttention and varlen are the model's attn_backend. No option picks the SDPA
  // backend.
  if (p.setup.eager_attention) {
    out.note("no equivalent: eager attention; torchtitan's attention is a fused kernel");
  } else {
    switch (p.setup.attention) {
      case attention_kernel::automatic:
      case attention_kernel::eager:
        break;
      case attention_kernel::cudnn:
        out.note("attention: SDPA's cuDNN backend, torchtitan's first choice");
        break;
      case attention_kernel::flash2:
        out.note(
            "approximation: FlashAttention-2 is SDPA's second choice; torchtitan tries cuDNN "
            "attention first and no option picks flash");
        break;
      case attention_kernel::flash1:
      case attention_kernel::flash3:
      case attention_kernel::splash:
        out.note("no equivalent: the " + std::string(kernel_name(p.setup.attention)) +
                 " attention kernel; torchtitan calls SDPA (cuDNN, flash, math), FlexAttention "
                 "or varlen attention");
        break;
    }
  }
  const precision_policy& x = p.setup.precision;
  switch (x.compute) {
    case number_format::fp32:
    case number_format::tf32:
      v.param_dtype = "float32";
      break;
    case number_format::fp16:
      out.note("no equivalent: fp16 parameters (mixed_precision_param is bfloat16 or float32)");
      break;
    case number_format::int8:
    case number_format::int4:
      out.note("no equivalent: " + std::string(name_of(x.compute)) + " training GEMMs");
      break;
    default:
      break;
  }
  // mixed_precision_reduce: Literal["float32"] (job_config.py at v0.2.2, configs.py at HEAD):
  // FSDP2 reduces and keeps the sharded gradients in fp32.
  const double grads = gradient_bytes_of(p.setup);
  if (grads > 0.0 && grads != 4.0)
    out.note("difference: the plan counts " + detail::significant(grads, 3) +
             "-byte gradients; FSDP2 reduces them in float32 (mixed_precision_reduce takes only "
             "float32)");
  if (x.optimizer_states > 0 && x.optimizer_state_bytes > 0.0 && x.optimizer_state_bytes != 4.0)
    out.note("no equivalent: " + detail::significant(x.optimizer_state_bytes, 3) +
             "-byte optimizer states" +
             (x.optimizer_state_bytes == 1.0 ? " (8-bit Adam)" : std::string{}) +
             "; torchtitan's AdamW keeps its moments in the sharded parameters' dtype (float32)");
  switch (p.setup.recompute.kind) {
    case recompute_kind::none:
      break;
    case recompute_kind::selective:
      // Under the torchtitan framework the plan's selective is torchtitan's own op-level policy
      // (training/memory.hpp, `torchtitan_selective_layer_bytes`), what an import of its
      // `mode = "selective"` gives; under another framework it is Megatron's (attention core).
      if (p.setup.framework.selective == selective_recompute::op_level) {
        v.ac = "selective";
        break;
      }
      if (p.setup.recompute.modules != 0) {
        out.note(
            "no equivalent: Megatron-Core's recompute modules; torchtitan's op-level selective "
            "is the nearest");
        v.ac = "selective";
        break;
      }
      out.note(
          "the plan's selective recomputation (attention softmax) is what a fused attention "
          "kernel already avoids storing; torchtitan's selective recomputes more, so none");
      break;
    case recompute_kind::full:
      v.ac = "full";
      break;
    case recompute_kind::checkpoints:
      out.note("no equivalent: " + n(p.setup.recompute.checkpoints_per_layer) +
               " checkpoints per layer; full is the nearest");
      v.ac = "full";
      break;
    case recompute_kind::named:
      out.note("no equivalent: MaxText's named remat policy; torchtitan's op-level selective is "
               "the nearest");
      v.ac = "selective";
      break;
    case recompute_kind::mlp:
      out.note(
          "no equivalent: torchtitan checkpoints whole blocks or ops, not the MLP alone; its "
          "op-level selective, which recomputes every second matmul, is the nearest");
      v.ac = "selective";
      break;
  }
  return v;
}

/// torchtitan's float8 recipe nearest the plan's fp8 scaling ("" for MXFP8 or no fp8), with
/// the approximation line it needs. `rowwise_only`: HEAD's Float8LinearConverter offers only
/// rowwise and rowwise_with_gw_hp (torchtitan/components/quantization/float8.py at b5bcd76).
inline std::string_view titan_float8_recipe(lines& out, const precision_policy& x,
                                            bool rowwise_only) {
  if (x.compute != number_format::fp8 || x.scaling == low_precision_scaling::mx_block32) return {};
  switch (x.scaling) {
    case low_precision_scaling::tensorwise:
      if (!rowwise_only) return "tensorwise";
      out.note(
          "approximation: tensorwise scaling; torchtitan's float8 recipes are rowwise and "
          "rowwise_with_gw_hp, rowwise the nearest");
      return "rowwise";
    case low_precision_scaling::rowwise:
      return "rowwise";
    case low_precision_scaling::delayed_tensorwise:
      out.note(std::string("approximation: delayed scaling (an amax history); torchtitan's "
                           "float8 recipes scale from this step's amax, ") +
               (rowwise_only ? "rowwise" : "tensorwise") + " the nearest");
      return rowwise_only ? "rowwise" : "tensorwise";
    default:
      out.note(
          "approximation: the plan's fp8 follows DeepSeek-V3's block scaling; torchao's "
          "rowwise recipe is the nearest");
      return "rowwise";
  }
}

}  // namespace detail::launch

/// What the export compiles (`compile.components`): under `framework::torchtitan` (or
/// torchtune) what the plan's `compiled_layers` and `compiled_loss` say, nothing when neither;
/// for a plan of another framework, whose norms and activations are costed as fused kernels, the
/// model and the loss.
struct titan_compile {
  bool model = false;
  bool loss = false;
  /// The plan is of another framework: the export says why it compiles (`note`).
  bool assumed = false;
  static constexpr std::string_view note =
      "compile: the model and the loss, as the plan's fused norms and activation assume";
};
inline titan_compile titan_compile_of(const training_plan_values& p) {
  const training_setup& t = p.setup;
  const bool own = t.framework.eager_modules;
  if (!own) return {true, true, true};
  return {t.compiled_layers, t.compiled_loss, false};
}

/// Whether the export turns on async TP: the plan overlaps its tensor-parallel collectives
/// (`tp_comm_overlap`, with tensor and sequence parallelism) and the export compiles the model,
/// which torchtitan requires of it.
inline bool titan_async_tp(const training_plan_values& p, const titan_compile& compile) {
  const parallel_degrees& d = p.setup.degrees;
  return p.setup.tp_comm_overlap && d.tensor > 1 && d.sequence_parallel && compile.model;
}

/// The plan as torchtitan command-line arguments at HEAD (b5bcd76): a bash array,
/// `TORCHTITAN_ARGS=( ... )` with one `--section.option value` per line and `#` comment lines,
/// for `torchrun ... -m torchtitan.train "${TORCHTITAN_ARGS[@]}"`. --module and --config name
/// the config function of the plan's model where torchtitan has one; every degree, the batch
/// and the recomputation are written as options over it, and what only a config function can
/// set (the model, fp8 converters) is said in comment lines. Data parallelism is
/// data_parallel_replicate_degree x data_parallel_shard_degree.
inline std::string torchtitan_arguments(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  lines out = opening(p, f, "#",
                      "torchtitan command-line arguments at HEAD (pytorch/torchtitan b5bcd76, "
                      "2026): the frozen --section.option options of ConfigManager over the "
                      "config function of --module/--config; a bash array, one option per line");
  out.note(
      "launch: torchrun --nproc_per_node=... -m torchtitan.train \"${TORCHTITAN_ARGS[@]}\" "
      "on " +
      n(f.devices) + " ranks");
  const titan_values v = titan_common(out, p, f);
  const precision_policy& x = p.setup.precision;
  const std::string_view float8 = titan_float8_recipe(out, x, true);
  const bool mx = x.compute == number_format::fp8 && x.scaling == low_precision_scaling::mx_block32;

  // The config function: the plan's model and, where one exists, its fp8 converters. What each
  // sets off the command line, from torchtitan/models/{llama3,deepseek_v3}/config_registry.py:
  // llama3_405b converts its linear layers with Float8LinearConverter (recipe rowwise, the
  // default); deepseek_v3_671b_float8 its linear layers and grouped experts; llama3_8b_mxfp8
  // with MXFP8LinearConverter; the others convert nothing.
  const titan_model model = titan_model_of(m);
  std::string config;
  std::string converters_note;
  if (model.name == "llama3") {
    config = "llama3_" + std::string(model.flavor == "8B"    ? "8b"
                                     : model.flavor == "70B" ? "70b"
                                                             : "405b");
    if (mx && model.flavor == "8B") config = "llama3_8b_mxfp8";
    const bool has_float8 = model.flavor == "405B";
    if (has_float8 && float8.empty())
      converters_note =
          "warning: llama3_405b converts the linear layers to float8 (rowwise) and the plan's "
          "are " +
          (mx ? std::string("MXFP8") : std::string(name_of(x.compute))) +
          ": use a config function with model_registry(\"405B\") and " +
          (mx ? "MXFP8LinearConverter.Config() as its converter" : "no converters");
    else if (!float8.empty() && !has_float8)
      converters_note = "not on the command line: " + config +
                        " has no fp8; add "
                        "Float8LinearConverter.Config(recipe_name=\"" +
                        std::string(float8) +
                        "\") to model_registry's converters in a config function";
    else if (mx && config != "llama3_8b_mxfp8")
      converters_note =
          "not on the command line: MXFP8; add MXFP8LinearConverter.Config() to "
          "model_registry's converters in a config function";
  } else if (model.name == "deepseek_v3") {
    config = float8.empty() ? "deepseek_v3_671b" : "deepseek_v3_671b_float8";
    if (mx)
      converters_note =
          "not on the command line: MXFP8; add MXFP8LinearConverter.Config() to "
          "model_registry's converters in a config function";
  } else {
    out.note(
        "no equivalent: torchtitan builds models from the config function of --module and "
        "--config, off the command line; we map llama3 8B, 70B, 405B and DeepSeek-V3 671B. Add "
        "--module and --config of one with dim " +
        n(m.d_model) + ", n_layers " + n(m.layers) + ", n_heads " + n(m.heads) + ", n_kv_heads " +
        n(m.kv_heads) + ", vocabulary " + n(m.vocab));
  }
  if (config.empty() && (mx || !float8.empty()))
    converters_note = std::string("not on the command line: ") +
                      (mx ? "MXFP8 (MXFP8LinearConverter)"
                          : "float8 (Float8LinearConverter, recipe " + std::string(float8) + ")") +
                      " is a converter of the config function's model_registry";
  if (!converters_note.empty()) out.note(converters_note);
  if (x.compute == number_format::fp4)
    out.note(
        "no equivalent: fp4 training GEMMs of every layer; torchtitan's NVFP4 config "
        "functions convert only the leading 85% of the layers");
  if (x.low_precision_attention)
    out.note("no equivalent: attention in fp8; torchtitan's converters swap the linear layers");
  out.note(
      "not in the plan, add them: the dataloader (in the config function), "
      "--hf_assets_path, --training.steps, the optimizer");

  out.raw("TORCHTITAN_ARGS=(");
  auto option = [&out](std::string_view name, const std::string& value = {}) {
    out.raw("  --" + std::string(name) + (value.empty() ? "" : " " + bash_word(value)));
  };
  auto note = [&out](const std::string& s) {
    out.notes.push_back(s);
    out.raw("  # " + comment_text(s));
  };
  if (!config.empty()) {
    option("module", std::string(model.name));
    option("config", config);
  }
  note("parallelism");
  option("parallelism.data_parallel_replicate_degree", n(v.replicate));
  option("parallelism.data_parallel_shard_degree", n(v.shard));
  if (v.reshard_never) option("parallelism.fsdp_reshard_after_forward", "never");
  option("parallelism.tensor_parallel_degree", n(f.tensor));
  // enable_sequence_parallel: bool = True (configs.py at b5bcd76): a flag, negated with no_.
  if (f.tensor > 1 && !f.sequence_parallel) option("parallelism.no_enable_sequence_parallel");
  option("parallelism.pipeline_parallel_degree", n(f.pipeline));
  if (f.pipeline > 1) {
    option("parallelism.pipeline_parallel_schedule", v.schedule);
    if (v.split.layers_per_stage > 0)
      option("parallelism.pipeline_parallel_layers_per_stage", n(v.split.layers_per_stage));
    option("parallelism.pipeline_parallel_first_stage_less_layers", n(v.split.first_less));
    option("parallelism.pipeline_parallel_last_stage_less_layers", n(v.split.last_less));
    // num_pp_microbatches: "pipeline microbatches per data-parallel rank and gradient
    // accumulation iteration": all of the step's micro-batches, no accumulation.
    option("parallelism.num_pp_microbatches", n(f.micro_batches));
  }
  option("parallelism.context_parallel_degree", n(f.context));
  // EP at HEAD borrows ranks from dp_shard x cp x tp (ParallelDims._validate: "expert_parallel_
  // degree ... must divide dp_shard * cp * tp"; efsdp = dp_shard * cp * tp / ep) and has no
  // expert tensor parallelism: the plan's experts over EP x TP devices are EP x TP here.
  std::int64_t ep = f.expert;
  if (is_moe(m) && f.expert > 1 && f.tensor > 1) {
    ep = f.expert * f.tensor;
    note("experts over EP " + n(f.expert) + " x TP " + n(f.tensor) +
         ": torchtitan has no expert tensor parallelism, its EP borrows the TP ranks, so "
         "expert_parallel_degree " +
         n(ep) + " holds " +
         (m.moe.experts % ep == 0
              ? n(m.moe.experts / ep) + " of the " + n(m.moe.experts) + " experts per device"
              : std::string("a fraction of an expert (no equivalent)")));
  }
  if (ep > 1 && (v.shard * f.context * f.tensor) % ep != 0)
    note("no equivalent: expert_parallel_degree " + n(ep) +
         " does not divide data_parallel_shard_degree x context_parallel_degree x "
         "tensor_parallel_degree = " +
         n(v.shard * f.context * f.tensor) +
         " (ParallelDims._validate); shard the expert axis (ZeRO) in the plan");
  option("parallelism.expert_parallel_degree", n(ep));

  note(
      "batch: num_tokens_per_train_step / (num_tokens_per_microbatch_per_dp_rank x "
      "num_pp_microbatches x DP) = " +
      n(f.pipeline > 1 ? 1 : f.micro_batches) + " gradient accumulation steps");
  // Trainer.__init__ (trainer.py at b5bcd76): the tokens of a pipeline micro-batch must divide by
  // TP (with sequence parallelism) x 2 CP (with context parallelism).
  const std::int64_t divisor =
      (f.tensor > 1 && f.sequence_parallel ? f.tensor : 1) * (f.context > 1 ? 2 * f.context : 1);
  if ((f.micro_batch * f.seq_len) % divisor != 0)
    note("warning: torchtitan refuses " + n(f.micro_batch * f.seq_len) +
         " tokens per micro-batch: they must divide by " + n(divisor) +
         " (TP with sequence parallelism x 2 CP)");
  option("training.num_tokens_per_microbatch_per_dp_rank", n(f.micro_batch * f.seq_len));
  option("training.num_tokens_per_train_step", n(f.sequences * f.seq_len));
  option("training.max_context_length", n(f.seq_len));
  // Trainer.Config._validate_cuda_graphs (trainer.py at b5bcd76): "CUDA graphs do not support
  // pipeline parallelism yet. Set --training.disable_cuda_graphs.", and with EP only some token
  // dispatchers of the config function run under CUDA graphs.
  if (f.pipeline > 1 || ep > 1) option("training.disable_cuda_graphs");
  option("training.mixed_precision_param", std::string(v.param_dtype));
  option("training.mixed_precision_reduce", "float32");
  // CompileConfig (configs.py at b5bcd76: enable False, components ["model", "loss"]), written
  // either way: config functions set it (llama3_405b enables it, deepseek_v3_671b compiles the
  // loss).
  const titan_compile compile = titan_compile_of(p);
  if (compile.assumed) note(std::string(titan_compile::note));
  if (!compile.model && !compile.loss) {
    option("compile.no_enable");
  } else {
    option("compile.enable");
    out.raw(std::string("  --compile.components") + (compile.model ? " model" : "") +
            (compile.loss ? " loss" : ""));
  }
  // CompileConfig.enable_async_tensor_parallel, which needs the model compiled (its
  // __post_init__ at b5bcd76); the plan's tensor-parallel overlap.
  if (titan_async_tp(p, compile)) option("compile.enable_async_tensor_parallel");
  // The activation-checkpointing policy is a tyro subcommand, written last.
  note("recomputation (a subcommand, last)");
  out.raw("  " + bash_word("activation-checkpoint:" + std::string(v.ac)));
  out.raw(")");
  return out.out;
}

/// The plan as a torchtitan v0.2.2 job config (TOML, `#` comments): the sections and keys of
/// JobConfig, to pass with --job.config_file. Data parallelism is
/// data_parallel_replicate_degree x data_parallel_shard_degree.
inline std::string torchtitan_toml(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  lines out = opening(p, f, "#",
                      "torchtitan v0.2.2 job config (TOML): JobConfig of "
                      "torchtitan/config/job_config.py (pytorch/torchtitan 73a0e69), for "
                      "--job.config_file; torchtitan after v0.2.2 reads no TOML");
  const titan_values v = titan_common(out, p, f);
  if (f.zero_stage == 0 && f.data > 1 &&
      (f.tensor > 1 || f.pipeline > 1 || f.context > 1 || f.expert > 1))
    out.note(
        "no equivalent: plain replicas with other parallelisms; torchtitan's DDP path "
        "refuses them (\"DDP has not supported > 1D parallelism\"), use FSDP");
  if (f.tensor > 1 && !f.sequence_parallel)
    out.note(
        "no equivalent: TP without sequence parallelism; torchtitan v0.2.2's TP plan always "
        "shards the norms along the sequence (SequenceParallel)");
  const precision_policy& x = p.setup.precision;
  const std::string_view float8 = titan_float8_recipe(out, x, false);
  const bool mx = x.compute == number_format::fp8 && x.scaling == low_precision_scaling::mx_block32;
  if (mx)
    out.note(
        "MXFP8: MXLinearConverter asserts compute capability 10.0 (Blackwell) and a torchao "
        "nightly build");
  if (x.compute == number_format::fp4)
    out.note("no equivalent: fp4 training GEMMs (v0.2.2's converters are float8 and mx)");
  if (x.low_precision_attention)
    out.note("no equivalent: attention in fp8; torchtitan's converters swap the linear layers");
  out.note(
      "not in the plan, add them: model.hf_assets_path, training.dataset, training.steps, the "
      "optimizer");
  auto key = [&out](std::string_view name, const std::string& value) {
    out.raw(std::string(name) + " = " + value);
  };
  auto text = [](std::string_view s) { return double_quoted(s); };

  out.raw("");
  out.raw("[job]");
  key("description", text("shardplan: " + plan_summary(p, f)));

  out.raw("");
  out.raw("[model]");
  const titan_model model = titan_model_of(m);
  if (!model.name.empty()) {
    key("name", text(model.name));
    key("flavor", text(model.flavor));
  } else {
    out.note(
        "no equivalent: torchtitan builds models from its registry (model.name, model.flavor); "
        "we map llama3 8B, 70B, 405B and deepseek_v3 671B. Pick or register one with dim " +
        n(m.d_model) + ", n_layers " + n(m.layers) + ", n_heads " + n(m.heads) + ", n_kv_heads " +
        n(m.kv_heads) + ", vocabulary " + n(m.vocab));
  }
  // Converters (register_model_converter names at v0.2.2): quantize.linear.float8 (recipe_name
  // tensorwise, rowwise or rowwise_with_gw_hp), quantize.linear.mx (recipe_name, default
  // mxfp8_cublas); a mixture of experts also converts its grouped GEMMs (quantize.grouped_mm.*,
  // fqns = ["experts"] as torchtitan's deepseek_v3_671b.toml writes it).
  const bool grouped = is_moe(m) && (mx || !float8.empty());
  if (grouped)
    out.note(
        "the experts' grouped GEMMs too (quantize.grouped_mm, a prototype that job_config.py "
        "says needs a torchao nightly build)");
  if (!float8.empty())
    key("converters", grouped ? "[\"quantize.linear.float8\", \"quantize.grouped_mm.float8\"]"
                              : "[\"quantize.linear.float8\"]");
  if (mx)
    key("converters", grouped ? "[\"quantize.linear.mx\", \"quantize.grouped_mm.mx\"]"
                              : "[\"quantize.linear.mx\"]");

  out.raw("");
  out.raw("[training]");
  if (f.pipeline > 1) {
    out.note(
        "with PP, local_batch_size is split into pipeline micro-batches of "
        "parallelism.pipeline_parallel_microbatch_size");
    key("local_batch_size", n(f.micro_batch * f.micro_batches));
  } else {
    out.note("gradient accumulation steps = global_batch_size / (local_batch_size x DP) = " +
             n(f.micro_batches));
    key("local_batch_size", n(f.micro_batch));
  }
  key("global_batch_size", n(f.sequences));
  key("seq_len", n(f.seq_len));
  key("mixed_precision_param", text(v.param_dtype));
  key("mixed_precision_reduce", text("float32"));

  out.raw("");
  out.raw("[parallelism]");
  key("data_parallel_replicate_degree", n(v.replicate));
  key("data_parallel_shard_degree", n(v.shard));
  if (v.reshard_never) key("fsdp_reshard_after_forward", text("never"));
  key("tensor_parallel_degree", n(f.tensor));
  // enable_async_tensor_parallel of Parallelism (job_config.py at v0.2.2), which needs the
  // model compiled (tensor_parallel.py's maybe_enable_async_tp).
  if (titan_async_tp(p, titan_compile_of(p))) key("enable_async_tensor_parallel", "true");
  key("pipeline_parallel_degree", n(f.pipeline));
  if (f.pipeline > 1) {
    key("pipeline_parallel_schedule", text(v.schedule));
    if (v.split.layers_per_stage > 0)
      key("pipeline_parallel_layers_per_stage", n(v.split.layers_per_stage));
    key("pipeline_parallel_first_stage_less_layers", n(v.split.first_less));
    key("pipeline_parallel_last_stage_less_layers", n(v.split.last_less));
    key("pipeline_parallel_microbatch_size", n(f.micro_batch));
  }
  key("context_parallel_degree", n(f.context));
  key("expert_parallel_degree", n(f.expert));
  if (is_moe(m)) {
    // expert_tensor_parallel_degree defaults to 1 (experts replicated over TP, twice the plan's
    // expert memory at TP 2); v0.2.2 takes ETP = TP or 1 (ParallelDims._validate: "Currently we
    // only support ETP=TP or ETP=1"); the plan splits each expert over TP, so ETP = TP.
    key("expert_tensor_parallel_degree", n(f.tensor));
    // efsdp = dp_shard * cp * tp / (etp * ep) (ParallelDims.build_mesh at v0.2.2) is whole only
    // when EP divides dp_shard x cp.
    if (f.expert > 1 && (v.shard * f.context) % f.expert != 0)
      out.note("no equivalent: EP " + n(f.expert) +
               " does not divide data_parallel_shard_degree x context_parallel_degree = " +
               n(v.shard * f.context) + " (torchtitan's efsdp = dp_shard x cp x tp / (etp x ep))");
  }

  // Compile of job_config.py at v0.2.2: enable False, components ["model", "loss"].
  const titan_compile compile = titan_compile_of(p);
  out.raw("");
  out.raw("[compile]");
  if (compile.assumed) out.note(std::string(titan_compile::note));
  key("enable", compile.model || compile.loss ? "true" : "false");
  if (compile.model || compile.loss)
    key("components", compile.model && compile.loss ? "[\"model\", \"loss\"]"
                      : compile.model               ? "[\"model\"]"
                                                    : "[\"loss\"]");

  out.raw("");
  out.raw("[activation_checkpoint]");
  key("mode", text(v.ac));
  // v0.2.2's selective defaults to every second layer (selective_ac_option "2", job_config.py);
  // the plan's is the op-level policy.
  if (std::string_view(v.ac) == "selective") key("selective_ac_option", text("op"));
  if (!float8.empty()) {
    out.raw("");
    out.raw("[quantize.linear.float8]");
    key("recipe_name", text(float8));
    if (grouped) {
      out.raw("");
      out.raw("[quantize.grouped_mm.float8]");
      key("fqns", "[\"experts\"]");
    }
  }
  if (mx) {
    out.raw("");
    out.raw("[quantize.linear.mx]");
    key("recipe_name", text("mxfp8_cublas"));
    if (grouped) {
      out.raw("");
      out.raw("[quantize.grouped_mm.mx]");
      key("fqns", "[\"experts\"]");
    }
  }
  return out.out;
}

}  // namespace shardplan
