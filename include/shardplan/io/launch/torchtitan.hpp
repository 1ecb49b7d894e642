// torchtitan: a training plan as a TOML job config (JobConfig, passed with --job.config_file).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/io/launch/common.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/training/plan.hpp>

// What this exporter targets, and where its names were checked (a stored copy of the project's
// sources; commit abbreviated):
//   torchtitan   torchtitan/config/job_config.py at pytorch/torchtitan 6404b93 (2025, the TOML
//                JobConfig); schedule names from torch.distributed.pipelining's
//                get_schedule_class; the stage count ceil((layers + first_less + last_less) /
//                layers_per_stage) from torchtitan's pipeline metadata; batch arithmetic from
//                torchtitan/train.py; llama3 flavors from torchtitan/models/llama3/__init__.py;
//                the float8 and mx converters and their recipe_name keys, and the SDPA backend
//                order of torchtitan/models/attention.py (6404b932421f5ce382e7dac5ad381b2c17b1373c).

namespace shardplan {

namespace detail::launch {

/// torchtitan's stage split: pipeline_parallel_layers_per_stage with the first and last stage
/// `less` layers lighter (torchtitan counts embedding and output as that many layers).
struct titan_split {
  std::int64_t layers_per_stage = 0;  ///< 0: leave torchtitan's default
  std::int64_t less = 1;
  bool found = true;
};

inline titan_split titan_layers(std::int64_t layers, std::int64_t pp, std::int64_t vp) {
  const std::int64_t chunks = pp * vp;
  if (pp <= 1 || vp <= 1) return {};
  for (const std::int64_t less : {std::int64_t{1}, std::int64_t{0}}) {
    const std::int64_t units = layers + 2 * less;
    const std::int64_t per = (units + chunks - 1) / chunks;
    if (per > 0 && (units + per - 1) / per == chunks) return {per, less, true};
  }
  return {0, 1, false};
}

/// The torchtitan llama3 flavor with this shape ("" when none): dims of llama3_configs in
/// torchtitan/models/llama3/__init__.py (the FFN width follows from ffn_dim_multiplier and
/// multiple_of there), vocabulary of the LLaMA-3 tokenizer.
constexpr std::string_view titan_llama3_flavor(const model_shape& m) {
  if (m.vocab != 128256 || m.kv_heads != 8 || m.head_dim != 128 || !m.gated_mlp ||
      m.tied_embeddings || m.biases || m.norm != norm_kind::rms_norm || m.moe.experts != 0 ||
      m.mla.kv_lora_rank != 0 || m.position_embeddings != 0)
    return {};
  if (m.d_model == 4096 && m.layers == 32 && m.heads == 32 && m.d_ff == 14336) return "8B";
  if (m.d_model == 8192 && m.layers == 80 && m.heads == 64 && m.d_ff == 28672) return "70B";
  if (m.d_model == 16384 && m.layers == 126 && m.heads == 128 && m.d_ff == 53248) return "405B";
  return {};
}

}  // namespace detail::launch

/// The plan as a torchtitan job config (TOML, `#` comments): the sections and keys of JobConfig,
/// to pass with --job.config_file. Data parallelism is data_parallel_replicate_degree x
/// data_parallel_shard_degree.
inline std::string torchtitan_toml(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  const parallel_degrees& d = p.setup.degrees;
  lines out = opening(p, f, "#",
                      "torchtitan job config (TOML): JobConfig of torchtitan/config/job_config.py "
                      "(pytorch/torchtitan 6404b93, 2025)");
  if (p.system.chip.kind != chip_kind::gpu)
    out.note("no equivalent: torchtitan targets GPUs; this plan's system is " +
             std::string(p.system.name));
  out.note(
      "not in the plan, add them: model.tokenizer_path, training.dataset, training.steps, the "
      "optimizer");

  out.raw("");
  out.raw("[model]");
  const std::string_view flavor = titan_llama3_flavor(m);
  if (!flavor.empty()) {
    out.raw("name = \"llama3\"");
    out.raw("flavor = \"" + std::string(flavor) + "\"");
  } else {
    out.note(
        "no equivalent: torchtitan builds models from its registry (model.name, "
        "model.flavor); we map only its llama3 flavors 8B, 70B and 405B. Pick or register "
        "one with dim " +
        n(m.d_model) + ", n_layers " + n(m.layers) + ", n_heads " + n(m.heads) + ", n_kv_heads " +
        n(m.kv_heads) + ", vocabulary " + n(m.vocab));
  }
  const precision_policy& x = p.setup.precision;
  // fp8: model.converters "float8" (Float8Converter) with float8.recipe_name "tensorwise",
  // "rowwise" or "rowwise_with_gw_hp" (class Float8 of torchtitan/config/job_config.py;
  // torchtitan/components/quantization/float8.py); MXFP8: converter "mx" with mx.recipe_name,
  // default "mxfp8_cublas" (class MX; components/quantization/mx.py), all at 6404b93.
  std::string_view float8_recipe;
  const bool mx = x.compute == number_format::fp8 && x.scaling == low_precision_scaling::mx_block32;
  if (x.compute == number_format::fp8 && !mx) {
    out.raw("converters = [\"float8\"]");
    switch (x.scaling) {
      case low_precision_scaling::tensorwise:
        float8_recipe = "tensorwise";
        break;
      case low_precision_scaling::rowwise:
        float8_recipe = "rowwise";
        break;
      case low_precision_scaling::delayed_tensorwise:
        out.note(
            "approximation: delayed scaling (an amax history); torchtitan's float8 recipes "
            "(tensorwise, rowwise, rowwise_with_gw_hp) scale from this step's amax, tensorwise "
            "the nearest");
        float8_recipe = "tensorwise";
        break;
      default:
        out.note(
            "approximation: the plan's fp8 follows DeepSeek-V3's block scaling; torchao's "
            "rowwise recipe is the nearest of tensorwise, rowwise, rowwise_with_gw_hp");
        float8_recipe = "rowwise";
        break;
    }
  }
  if (mx) {
    out.note("MXFP8: MXConverter asserts compute capability 10.0 (Blackwell) and a torchao "
             "nightly build");
    out.raw("converters = [\"mx\"]");
  }
  if (x.low_precision_attention)
    out.note("no equivalent: attention in fp8; torchtitan's converters swap the linear layers");

  out.raw("");
  out.raw("[training]");
  if (f.pipeline > 1) {
    out.note(
        "with PP, local_batch_size is split into pipeline micro-batches of "
        "parallelism.pipeline_parallel_microbatch_size");
    out.raw("local_batch_size = " + n(f.micro_batch * f.micro_batches));
  } else {
    out.note("gradient accumulation steps = global_batch_size / (local_batch_size x DP) = " +
             n(f.micro_batches));
    out.raw("local_batch_size = " + n(f.micro_batch));
  }
  out.raw("global_batch_size = " + n(f.sequences));
  out.raw("seq_len = " + n(f.seq_len));
  switch (x.compute) {
    case number_format::fp32:
    case number_format::tf32:
      out.raw("mixed_precision_param = \"float32\"");
      break;
    case number_format::fp16:
      out.note("no equivalent: fp16 parameters (mixed_precision_param is bfloat16 or float32)");
      out.raw("mixed_precision_param = \"bfloat16\"");
      break;
    case number_format::int8:
    case number_format::int4:
    case number_format::fp4:
      out.note("no equivalent: " + std::string(name_of(x.compute)) + " training GEMMs");
      out.raw("mixed_precision_param = \"bfloat16\"");
      break;
    default:
      out.raw("mixed_precision_param = \"bfloat16\"");
      break;
  }
  out.raw("mixed_precision_reduce = \"float32\"");
  if (p.setup.dropout) out.note("no equivalent: dropout (torchtitan's llama3 has none)");

  out.raw("");
  out.raw("[parallelism]");
  std::int64_t replicate = f.data;
  std::int64_t shard = 1;
  if (f.zero_stage > 0) {
    replicate = f.replicas;
    shard = f.zero;
  }
  if (f.zero_stage == 1 || f.zero_stage == 2) {
    out.note("approximation: torchtitan has no ZeRO-" + n(f.zero_stage) +
             "; its sharded data parallelism is FSDP2 (ZeRO-3), here keeping parameters "
             "gathered from forward to backward");
  }
  if (f.zero_stage == 0 && f.data > 1 &&
      (f.tensor > 1 || f.pipeline > 1 || f.context > 1 || f.expert > 1))
    out.note(
        "no equivalent: plain replicas with other parallelisms; torchtitan's DDP path "
        "refuses them (\"DDP has not supported > 1D parallelism\"), use FSDP");
  out.raw("data_parallel_replicate_degree = " + n(replicate));
  out.raw("data_parallel_shard_degree = " + n(shard));
  if (f.zero_stage == 1 || f.zero_stage == 2) out.raw("fsdp_reshard_after_forward = \"never\"");
  out.raw("tensor_parallel_degree = " + n(f.tensor));
  if (f.tensor > 1 && !f.sequence_parallel)
    out.note(
        "no equivalent: TP without sequence parallelism; torchtitan's TP plan always shards "
        "the norms along the sequence (SequenceParallel)");
  out.raw("pipeline_parallel_degree = " + n(f.pipeline));
  if (f.pipeline > 1) {
    std::string schedule = "1F1B";
    if (f.virtual_stages > 1) {
      schedule = "Interleaved1F1B";
    } else if (d.schedule == pipeline_schedule::gpipe) {
      schedule = "GPipe";
    } else if (d.schedule == pipeline_schedule::zero_bubble) {
      out.note(
          "no equivalent: single-stage ZB-H1; PyTorch's zero-bubble schedules "
          "(InterleavedZeroBubble, ZBVZeroBubble) run several stages per rank");
    }
    out.raw("pipeline_parallel_schedule = \"" + schedule + "\"");
    const titan_split split = titan_layers(m.layers, f.pipeline, f.virtual_stages);
    if (split.layers_per_stage > 0) {
      out.note(n(f.pipeline * f.virtual_stages) + " stages = ceil((" + n(m.layers) + " + " +
               n(split.less) + " + " + n(split.less) + ") / " + n(split.layers_per_stage) + "), " +
               n(f.virtual_stages) + " per rank");
      out.raw("pipeline_parallel_layers_per_stage = " + n(split.layers_per_stage));
      out.raw("pipeline_parallel_first_stage_less_layers = " + n(split.less));
      out.raw("pipeline_parallel_last_stage_less_layers = " + n(split.less));
    } else if (!split.found) {
      out.note("no equivalent: " + n(f.virtual_stages) + " virtual stages of " + n(m.layers) +
               " layers; no layers_per_stage gives " + n(f.pipeline * f.virtual_stages) +
               " stages (list them in module_fqns_per_model_part)");
    }
    out.raw("pipeline_parallel_microbatch_size = " + n(f.micro_batch));
  }
  out.raw("context_parallel_degree = " + n(f.context));
  if (f.context > 1)
    out.note(
        "approximation: torchtitan's context parallelism exchanges KV shards by all-gather "
        "or all-to-all (context_parallel_rotate_method); the plan costs a ring");
  out.raw("expert_parallel_degree = " + n(f.expert));
  if (f.expert > 1 && f.expert > shard * f.context)
    out.note("no equivalent: EP " + n(f.expert) +
             " beyond data_parallel_shard_degree x "
             "context_parallel_degree (torchtitan's dp2ep constraint)");
  if (p.assumptions.in_network_reduction)
    out.note("no equivalent: in-network reduction (SHARP) is NCCL's choice, not a JobConfig key");
  // Attention: ScaledDotProductAttention of torchtitan/models/attention.py at 6404b93 tries the
  // SDPA backends FLASH_ATTENTION, EFFICIENT_ATTENTION, MATH in that order, CUDNN_ATTENTION first
  // on compute capability 10.0; FlexAttention with the model's use_flex_attn. No JobConfig key
  // picks the backend.
  if (p.setup.eager_attention) {
    out.note("no equivalent: eager attention; torchtitan's attention is a fused kernel");
  } else {
    switch (p.setup.attention) {
      case attention_kernel::automatic:
      case attention_kernel::eager:
        break;
      case attention_kernel::flash2:
        out.note(
            "attention: SDPA's flash backend (FlashAttention-2), torchtitan's first choice "
            "before Blackwell (torchtitan/models/attention.py)");
        break;
      case attention_kernel::cudnn:
        out.note(
            "attention: SDPA's cuDNN backend, which torchtitan puts first only on compute "
            "capability 10.0 (Blackwell); no JobConfig key picks it elsewhere");
        break;
      case attention_kernel::flash1:
      case attention_kernel::flash3:
      case attention_kernel::splash:
        out.note("no equivalent: the " + std::string(kernel_name(p.setup.attention)) +
                 " attention kernel; torchtitan calls SDPA (flash, efficient, math, cuDNN on "
                 "Blackwell) or FlexAttention");
        break;
    }
  }

  out.raw("");
  out.raw("[activation_checkpoint]");
  switch (p.setup.recompute.kind) {
    case recompute_kind::none:
      out.raw("mode = \"none\"");
      break;
    case recompute_kind::selective:
      out.note(
          "the plan's selective recomputation (attention softmax) is what a fused "
          "attention kernel already avoids storing; torchtitan's \"selective\" recomputes "
          "more");
      out.raw("mode = \"none\"");
      break;
    case recompute_kind::full:
      out.raw("mode = \"full\"");
      break;
    case recompute_kind::checkpoints:
      out.note("no equivalent: " + n(p.setup.recompute.checkpoints_per_layer) +
               " checkpoints per layer; full is the nearest");
      out.raw("mode = \"full\"");
      break;
  }
  if (!float8_recipe.empty()) {
    out.raw("");
    out.raw("[float8]");
    out.raw("recipe_name = \"" + std::string(float8_recipe) + "\"");
  }
  if (mx) {
    out.raw("");
    out.raw("[mx]");
    out.raw("recipe_name = \"mxfp8_cublas\"");
  }
  return out.out;
}

}  // namespace shardplan
