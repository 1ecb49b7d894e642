// MaxText: a training plan as a YAML config over base.yml, its mesh split into ici_* and dcn_*.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <shardplan/core/format.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/hardware/placement.hpp>
#include <shardplan/io/launch/common.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>

// What this exporter targets, and where its names were checked (a git snapshot of the project,
// read with `git show`): AI-Hypercomputer/maxtext e591f30cbbf217ed67ef71263ec0538239f9c3b8
// (2026-08-22). Keys of src/maxtext/configs/base.yml (tests/export/maxtext_keys.txt), which the
// pydantic MaxTextConfig of src/maxtext/configs/types.py checks with extra="forbid"; the
// base_config directive of src/maxtext/configs/pyconfig.py; model files of
// src/maxtext/configs/models/; global batch = per_device_batch_size x devices x
// gradient_accumulation_steps; the quantization values (QuantizationType of types.py), the
// attention kernels (src/maxtext/layers/attention_op.py) and the context-parallelism rules of
// types.py quoted below.

namespace shardplan {

namespace detail::launch {

/// MaxText's own model file for a shardplan model name (src/maxtext/configs/models/), or "".
constexpr std::string_view maxtext_model_name(std::string_view name) {
  if (name == "llama3-8b") return "llama3-8b";
  if (name == "llama3-70b") return "llama3-70b";
  if (name == "llama3-405b") return "llama3.1-405b";
  if (name == "mixtral-8x7b") return "mixtral-8x7b";
  if (name == "deepseek-v3") return "deepseek3-671b";
  return {};
}

/// MaxText's mesh axes that a plan uses, in the order we print them.
enum class mesh_kind : std::uint8_t { data, fsdp, context, tensor, pipeline, expert };
inline constexpr std::array<std::string_view, 6> mesh_kind_names = {"data",   "fsdp",     "context",
                                                                    "tensor", "pipeline", "expert"};

/// Each MaxText axis split into its part within a slice (ici) and across slices (dcn).
struct maxtext_mesh {
  std::array<std::int64_t, 6> ici{1, 1, 1, 1, 1, 1};
  std::array<std::int64_t, 6> dcn{1, 1, 1, 1, 1, 1};
  std::int64_t slice_chips = 1;  ///< chips of one slice (a TPU ICI domain, a GPU node)
  std::int64_t slices = 1;
  bool straddles = false;  ///< an axis crosses slices without using whole slices
  bool idle_axis = false;  ///< an axis carries no parallelism
};

/// Which MaxText axis a plan axis becomes: expert axes stay expert (MaxText shards the batch
/// over them too), ZeRO-3 axes become fsdp, other data axes data.
constexpr mesh_kind mesh_kind_of(std::uint8_t roles, std::int64_t zero_stage) {
  if (roles & role_expert) return mesh_kind::expert;
  if (roles & role_tensor) return mesh_kind::tensor;
  if (roles & role_context) return mesh_kind::context;
  if (roles & role_pipeline) return mesh_kind::pipeline;
  if ((roles & role_zero) && zero_stage >= 3) return mesh_kind::fsdp;
  return mesh_kind::data;
}

/// Splits each axis at the slice boundary using the plan's placement: an axis whose placement
/// reaches past the ICI levels (the TPU torus axes, or a GPU system's innermost level) puts the
/// slices it spans on dcn_* and the rest on ici_*.
inline maxtext_mesh maxtext_mesh_of(const training_plan_values& p) {
  maxtext_mesh m;
  const placement_levels levels = levels_of(p.system);
  const std::int64_t ici_levels = p.system.torus.rank > 0 ? p.system.torus.rank : std::int64_t{1};
  m.slice_chips = capacity(levels, ici_levels - 1);
  m.slices = m.slice_chips > 0 ? p.system.chips / m.slice_chips : 1;
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    const mesh_axis& a = p.axes[i];
    if (a.roles == 0) {
      m.idle_axis = true;
      continue;
    }
    const auto k = static_cast<std::size_t>(mesh_kind_of(a.roles, p.setup.degrees.zero_stage));
    const axis_placement where = placement_of(p, i);
    std::int64_t across = 1;
    if (where.last_level >= ici_levels) {
      const std::int64_t outer = where.inner * a.size;
      if (where.inner >= m.slice_chips) {
        across = a.size;
      } else {
        if (outer % m.slice_chips != 0 || m.slice_chips % where.inner != 0) m.straddles = true;
        across = (outer + m.slice_chips - 1) / m.slice_chips;
      }
    }
    if (across <= 0 || a.size % across != 0) {
      m.straddles = true;
      across = 1;
    }
    m.dcn[k] *= across;
    m.ici[k] *= a.size / across;
  }
  return m;
}

}  // namespace detail::launch

/// The plan as a MaxText config: YAML `key: value` lines with `#` comments, inheriting base.yml
/// through base_config. Each parallelism is split between ici_* (within a slice: the TPU torus,
/// or a GPU node) and dcn_* (across slices) by the plan's placement.
inline std::string maxtext_config(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  const maxtext_mesh mesh = maxtext_mesh_of(p);
  lines out = opening(p, f, "#",
                      "MaxText config (YAML): keys of src/maxtext/configs/base.yml "
                      "(AI-Hypercomputer/maxtext e591f30, 2026)");
  out.note(
      "not in the plan, add them: run_name, tokenizer_path, the dataset, steps, "
      "rope_max_timescale");
  out.raw("base_config: \"base.yml\"");
  switch (p.system.chip.kind) {
    case chip_kind::tpu:
      out.raw("hardware: \"tpu\"");
      break;
    case chip_kind::gpu:
      out.raw("hardware: \"gpu\"");
      break;
    case chip_kind::cpu:
      out.raw("hardware: \"cpu\"");
      break;
  }

  out.note("model");
  const std::string_view preset = maxtext_model_name(m.name);
  if (!preset.empty())
    out.note("MaxText's own file for this model: model_name: \"" + std::string(preset) + "\"");
  const bool mla = m.mla.kv_lora_rank > 0;
  std::string block = "llama2";
  if (mla) {
    block = "deepseek";
  } else if (is_moe(m)) {
    block = "mixtral";
  } else if (m.position_embeddings > 0 || m.norm == norm_kind::layer_norm) {
    block = "gpt3";
  }
  out.raw("decoder_block: \"" + block + "\"");
  out.raw("base_emb_dim: " + n(m.d_model));
  out.raw("base_num_query_heads: " + n(m.heads));
  out.raw("base_num_kv_heads: " + n(m.kv_heads));
  out.raw("base_mlp_dim: " + n(m.d_ff > 0 ? m.d_ff : m.moe.expert_d_ff));
  out.raw("base_num_decoder_layers: " + n(m.layers));
  if (!mla) out.raw("head_dim: " + n(m.head_dim));
  out.raw("vocab_size: " + n(m.vocab));
  out.raw(m.gated_mlp ? "mlp_activations: [\"silu\", \"linear\"]" : "mlp_activations: [\"gelu\"]");
  out.raw(std::string("logits_via_embedding: ") + (m.tied_embeddings ? "True" : "False"));
  if (m.position_embeddings > 0) out.raw("trainable_position_size: " + n(m.position_embeddings));
  if (is_moe(m)) {
    out.raw("num_experts: " + n(m.moe.experts));
    out.raw("num_experts_per_tok: " + n(m.moe.top_k));
    out.raw("base_moe_mlp_dim: " + n(m.moe.expert_d_ff));
    if (mla) {
      out.raw("shared_experts: " + n(m.moe.shared_experts));
      out.raw("first_num_dense_layers: " + n(m.moe.dense_layers));
      if (m.moe.router_bias) {
        // DeepSeek-V3 scores with a sigmoid beside its balance bias (arXiv:2412.19437,
        // Sec. 2.1.2), as configs/models/deepseek3-671b.yml writes it; base.yml's
        // routed_score_func is "" (softmax).
        out.raw("routed_score_func: \"sigmoid\"");
        out.raw("routed_bias: True");
      }
    } else if (m.moe.shared_experts > 0 || m.moe.dense_layers > 0) {
      out.note("no equivalent: shared experts or leading dense layers in the mixtral block");
    }
  }
  if (mla) {
    out.raw("attention_type: \"mla\"");
    out.raw("q_lora_rank: " + n(m.mla.q_lora_rank));
    out.raw("kv_lora_rank: " + n(m.mla.kv_lora_rank));
    out.raw("qk_nope_head_dim: " + n(m.mla.qk_nope_head_dim));
    out.raw("qk_rope_head_dim: " + n(m.mla.qk_rope_head_dim));
    out.raw("v_head_dim: " + n(m.mla.v_head_dim));
  }
  if (p.setup.dropout)
    out.note("the plan stores dropout masks: set dropout_rate (base.yml: 0.0)");
  else
    out.raw("enable_dropout: False");
  // attention: "autoselected" (default), "dot_product", "flash" (TPU: the Pallas splash kernel,
  // tpu_flash_attention; GPU: tokamax's Pallas Triton flash attention), "cudnn_flash_te"
  // (Transformer Engine's cuDNN fused attention), "cudnn_flash_jax": base.yml and
  // src/maxtext/layers/attention_op.py at AI-Hypercomputer/maxtext e591f30.
  const bool tpu = p.system.chip.kind == chip_kind::tpu;
  const bool gpu = p.system.chip.kind == chip_kind::gpu;
  std::string_view attention;  // the attention key's value, written below ("": not written)
  if (p.setup.eager_attention) {
    attention = "dot_product";
  } else {
    const std::string kernel(kernel_name(p.setup.attention));
    switch (p.setup.attention) {
      case attention_kernel::automatic:
        break;
      case attention_kernel::eager:
        attention = "dot_product";
        break;
      case attention_kernel::splash:
        if (tpu) attention = "flash";
        else out.note("no equivalent: splash attention is MaxText's TPU kernel (attention: flash)");
        break;
      case attention_kernel::cudnn:
        if (gpu) attention = "cudnn_flash_te";
        else out.note("no equivalent: cuDNN attention on this system (cudnn_flash_te is for GPUs)");
        break;
      case attention_kernel::flash1:
      case attention_kernel::flash2:
      case attention_kernel::flash3:
        if (gpu) {
          out.note("approximation: " + kernel +
                   "; MaxText's GPU \"flash\" is tokamax's Pallas Triton flash attention");
          attention = "flash";
        } else {
          out.note("no equivalent: the " + kernel + " kernel on this system");
        }
        break;
    }
  }
  // Context parallelism, as MaxTextConfig's validator (types.py at e591f30) accepts it:
  // context_parallel_strategy is all_gather (the default), ring, ulysses or usp. Ring on a GPU
  // runs in Transformer Engine's cuDNN attention (AttentionOp.cudnn_flash_attention of
  // attention_op.py takes the strategy and the load balance). Ring on a TPU is Tokamax's ring
  // attention and wants attention=flash, use_tokamax_splash=True, use_jax_splash=False,
  // context_sharding='context' (the defaults but the first two), max_target_length divisible
  // by the context size squared, attention_type global or mla, an even context size with
  // context_parallel_load_balance, no packing with MLA, no dropout. Where the plan's ring cannot
  // meet them, the export falls back to all_gather and says so.
  bool ring = false;
  bool load_balance = true;
  bool no_packing = false;
  if (f.context > 1) {
    const std::int64_t cp = f.context;
    if (gpu) {
      if (attention.empty() || attention == "cudnn_flash_te") {
        attention = "cudnn_flash_te";
        ring = true;
      } else {
        out.note("approximation: all-gather context parallelism; MaxText's ring runs in "
                 "cudnn_flash_te and the plan's attention is " + std::string(attention));
      }
    } else if (tpu) {
      std::string why;
      if (!attention.empty() && attention != "flash")
        why = "the plan's attention is " + std::string(attention) + ", ring needs flash";
      else if (f.seq_len % (cp * cp) != 0)
        why = "max_target_length " + n(f.seq_len) + " is not a multiple of the context size " +
              n(cp) + " squared";
      else if (p.setup.dropout)
        why = "Tokamax ring attention does not support dropout";
      if (why.empty()) {
        ring = true;
        attention = "flash";
        load_balance = cp % 2 == 0;
        if (!load_balance)
          out.note("context_parallel_load_balance: False: Tokamax ring load balancing requires "
                   "an even context size");
        if (mla) {
          no_packing = true;
          out.note("packing: False: Tokamax ring attention with MLA does not support packing");
        }
      } else {
        out.note("approximation: all-gather context parallelism (MaxText's default); the plan "
                 "costs a ring, which on a TPU MaxText refuses here: " + why);
      }
    } else {
      out.note("approximation: all-gather context parallelism; MaxText's ring runs on GPUs and "
               "TPUs");
    }
  }
  if (!attention.empty()) out.raw("attention: " + double_quoted(attention));

  out.note("batch: global batch = per_device_batch_size x " + n(f.devices) +
           " devices x gradient_accumulation_steps = " + n(f.sequences) + " sequences");
  out.raw("max_target_length: " + n(f.seq_len));
  const std::int64_t accumulation = f.pipeline > 1 ? 1 : f.micro_batches;
  const decimal per_device =
      decimal_of(f.sequences, f.devices * std::max<std::int64_t>(1, accumulation));
  if (!per_device.exact)
    out.note("no equivalent: " + n(f.sequences) + " sequences over " + n(f.devices) +
             " devices is not a short decimal per device");
  out.raw("per_device_batch_size: " + per_device.text);
  out.raw("gradient_accumulation_steps: " + n(accumulation));

  out.note("mesh: ici_* within a slice of " + n(mesh.slice_chips) + " chips, dcn_* across " +
           n(mesh.slices) +
           " slices (the plan's placement decides which part of an axis "
           "crosses slices)");
  if (p.system.chip.kind == chip_kind::gpu)
    out.note(
        "a slice here is the system's innermost level; MaxText's GPU configs put "
        "cross-node parallelism on dcn_*");
  for (std::size_t k = 0; k < mesh_kind_names.size(); ++k)
    out.raw("ici_" + std::string(mesh_kind_names[k]) + "_parallelism: " + n(mesh.ici[k]));
  for (std::size_t k = 0; k < mesh_kind_names.size(); ++k)
    out.raw("dcn_" + std::string(mesh_kind_names[k]) + "_parallelism: " + n(mesh.dcn[k]));
  std::int64_t ici_product = 1;
  std::int64_t dcn_product = 1;
  for (std::size_t k = 0; k < mesh_kind_names.size(); ++k) {
    ici_product *= mesh.ici[k];
    dcn_product *= mesh.dcn[k];
  }
  if (ici_product != mesh.slice_chips || dcn_product != mesh.slices || mesh.straddles)
    out.note("no equivalent: MaxText wants the product of ici_* to be the " + n(mesh.slice_chips) +
             " chips of a slice and of dcn_* the " + n(mesh.slices) + " slices; this mesh gives " +
             n(ici_product) + " and " + n(dcn_product) +
             (mesh.straddles ? ", an axis straddling slices" : ""));
  if (mesh.idle_axis) out.note("no equivalent: a mesh axis that carries no parallelism");
  if (f.zero_stage == 1 || f.zero_stage == 2) {
    out.raw("shard_optimizer_over_data: True");
    if (f.replicas > 1)
      out.note(
          "approximation: shard_optimizer_over_data shards over every data axis; the plan "
          "shards over " +
          n(f.zero) + " of " + n(f.data) + " replicas");
    if (f.zero_stage == 2)
      out.note(
          "approximation: ZeRO-2; base.yml offers ZeRO-1 (shard_optimizer_over_data), "
          "gradients stay replicated");
  }
  if (f.expert > 1 && f.zero_stage < 3)
    out.note(
        "difference: MaxText's expert axis also shards the attention weights "
        "(expert_shard_attention_option: fsdp); the plan replicates them");
  if (f.tensor > 1)
    out.note(f.sequence_parallel
                 ? "sequence parallelism: MaxText's rules shard the activations between "
                   "matmuls over tensor along the embedding, not the sequence"
                 : "no equivalent: TP without sequence parallelism; MaxText's rules shard the "
                   "activations between matmuls over tensor");
  if (ring) {
    out.raw("context_parallel_strategy: \"ring\"");
    out.raw(load_balance ? "context_parallel_load_balance: True"
                         : "context_parallel_load_balance: False");
    if (tpu) out.raw("use_tokamax_splash: True");
    if (no_packing) out.raw("packing: False");
  }

  if (f.pipeline > 1) {
    out.note(
        "pipeline: num_stages x num_layers_per_pipeline_stage x num_pipeline_repeats = "
        "the pipelined layers; repeats are the virtual stages");
    const std::int64_t chunks = f.pipeline * f.virtual_stages;
    const std::int64_t per_stage = m.layers / chunks;
    if (m.layers % chunks != 0) {
      out.note("no equivalent: " + n(m.layers) + " layers do not divide into " + n(chunks) +
               " chunks; MaxText pipelines " + n(per_stage * chunks) + " and runs the other " +
               n(m.layers - per_stage * chunks) + " with the stage axis as data parallelism");
      out.raw("pipeline_parallel_layers: " + n(per_stage * chunks));
    }
    out.raw("num_layers_per_pipeline_stage: " + n(per_stage));
    out.raw("num_pipeline_repeats: " + n(f.virtual_stages));
    out.raw("num_pipeline_microbatches: " + n(f.micro_batches));
    if (f.micro_batches % f.pipeline != 0)
      out.note("no equivalent: " + n(f.micro_batches) +
               " micro-batches; base.yml requires a "
               "multiple of the " +
               n(f.pipeline) + " stages");
    out.note(
        "approximation: MaxText runs its own circular pipeline (bubble (stages - 1) / "
        "(repeats x microbatches + stages - 1)); the plan models " +
        std::string(launch_schedule_name(p.setup.degrees.schedule)));
    out.raw("scan_layers: False");
  }

  out.note("recomputation");
  switch (p.setup.recompute.kind) {
    case recompute_kind::none:
    case recompute_kind::selective:
      if (p.setup.recompute.modules != 0)
        out.note("no equivalent: Megatron-Core's recompute modules (a custom policy names "
                 "tensors, not modules)");
      out.note(
          "approximation: base.yml lists remat policies from most HBM to least; every one "
          "recomputes something, minimal_with_context keeps the most");
      out.raw("remat_policy: \"minimal_with_context\"");
      break;
    case recompute_kind::full:
      out.raw("remat_policy: \"full\"");
      break;
    case recompute_kind::checkpoints:
      out.note("no equivalent: " + n(p.setup.recompute.checkpoints_per_layer) +
               " checkpoints per layer (a custom policy names tensors); full is the nearest");
      out.raw("remat_policy: \"full\"");
      break;
    case recompute_kind::mlp:
      // RematPolicy.SAVE_DOT_EXCEPT_MLP, src/maxtext/configs/types.py at e591f30: every matmul
      // output saved but the MLP's.
      out.raw("remat_policy: \"save_dot_except_mlp\"");
      break;
    case recompute_kind::named: {
      const recompute_policy& r = p.setup.recompute;
      if (const std::string_view name = maxtext_remat_name(r); !name.empty()) {
        out.raw("remat_policy: \"" + std::string(name) + "\"");
        break;
      }
      // custom: each named tensor 'device', 'offload' or 'remat' (base.yml at e591f30).
      out.raw("remat_policy: \"custom\"");
      for (unsigned i = 0; i < std::size(layer_tensor_names); ++i) {
        const auto bit = tensor_bit(static_cast<layer_tensor>(i));
        const bool remat = rematerialisable(static_cast<layer_tensor>(i));
        const char* place = (r.offloaded & bit) != 0          ? "offload"
                            : (r.saved & bit) != 0 || !remat ? "device"
                                                             : "remat";
        out.raw(std::string(layer_tensor_names[i]) + ": \"" + place + "\"");
      }
      break;
    }
  }
  if (p.setup.offload.any())
    out.note("no equivalent: the plan's optimizer offload (MaxText's optimizer_memory_host_offload "
             "moves the states back to the device for the update)");

  out.note("precision");
  const precision_policy& x = p.setup.precision;
  switch (x.compute) {
    case number_format::fp32:
    case number_format::tf32:
      out.raw("dtype: \"float32\"");
      break;
    case number_format::fp16:
      out.raw("dtype: \"float16\"");
      break;
    default:
      out.raw("dtype: \"bfloat16\"");
      break;
  }
  const bool fp32_weights = x.master_bytes >= 4.0 || x.parameter_bytes >= 4.0;
  out.raw(fp32_weights ? "weight_dtype: \"float32\"" : "weight_dtype: \"bfloat16\"");
  // Gradients take the weights' dtype (JAX differentiates the weight_dtype parameters).
  const double weight_bytes = fp32_weights ? 4.0 : 2.0;
  const double grads = gradient_bytes_of(p.setup);
  if (grads > 0.0 && grads != weight_bytes)
    out.note("difference: the plan counts " + detail::significant(grads, 3) +
             "-byte gradients; MaxText's are weight_dtype, " +
             detail::significant(weight_bytes, 3) + " bytes");
  // Adam's moments: base.yml at e591f30, "mu_dtype: ... Inherits from weight_dtype if unset.
  // Setting nu_dtype is not yet supported by optax, instead nu_dtype is always inherited from
  // weights."
  const double state = x.optimizer_state_bytes;
  if (x.optimizer_states > 0 && state > 0.0 && state != weight_bytes) {
    if (state == 2.0 && fp32_weights) {
      out.note("approximation: 2-byte optimizer states; mu_dtype sets the first moment, the "
               "second (nu) stays weight_dtype (float32)");
      out.raw("mu_dtype: \"bfloat16\"");
    } else {
      out.note("no equivalent: " + detail::significant(state, 3) + "-byte optimizer states" +
               (state == 1.0 ? " (8-bit Adam)" : std::string{}) +
               "; MaxText's AdamW keeps mu in mu_dtype and nu in weight_dtype, " +
               detail::significant(weight_bytes, 3) + " bytes");
    }
  }
  // fp8 and fp4 recipes: QuantizationType of src/maxtext/configs/types.py at
  // AI-Hypercomputer/maxtext e591f30cbbf217ed67ef71263ec0538239f9c3b8; the te_* values are
  // Transformer Engine recipes (src/maxtext/layers/quantizations.py: te_fp8_delayedscaling
  // DelayedScaling, te_fp8_currentscaling Float8CurrentScaling, te_mxfp8 MXFP8BlockScaling,
  // te_nvfp4 NVFP4BlockScaling), for NVIDIA GPUs. None of them scales by rows or by 128 blocks.
  std::string_view quantization;
  if (x.compute == number_format::fp8 || x.compute == number_format::fp4) {
    switch (x.scaling) {
      case low_precision_scaling::delayed_tensorwise:
        quantization = "te_fp8_delayedscaling";
        break;
      case low_precision_scaling::tensorwise:
        quantization = "te_fp8_currentscaling";
        break;
      case low_precision_scaling::mx_block32:
        quantization = "te_mxfp8";
        break;
      case low_precision_scaling::nv_block16:
        quantization = "te_nvfp4";
        break;
      case low_precision_scaling::none:
      case low_precision_scaling::rowwise:
      case low_precision_scaling::blockwise:
        break;
    }
    if (quantization.empty()) {
      out.note("no equivalent: " + std::string(name_of(x.compute)) + " with " +
               std::string(scaling_name(x.scaling)) +
               " scaling; MaxText's quantization recipes are te_fp8_delayedscaling, "
               "te_fp8_currentscaling, te_mxfp8 and te_nvfp4 (Transformer Engine); the config "
               "runs bf16");
    } else if (!gpu) {
      out.note("no equivalent: quantization " + std::string(quantization) +
               " is a Transformer Engine recipe for NVIDIA GPUs; this plan's system is " +
               std::string(p.system.name) + ", the config runs bf16");
      quantization = {};
    }
  }
  if (!quantization.empty()) {
    if (quantization == "te_fp8_delayedscaling" && accumulation > 1)
      out.note("warning: MaxText refuses te_fp8_delayedscaling with gradient_accumulation_steps "
               "above 1 (\"FP8 quantization is not compatible with gradient accumulation\", "
               "src/maxtext/configs/types.py); plan a larger micro-batch or more replicas");
    out.raw("quantization: \"" + std::string(quantization) + "\"");
  } else if (x.compute == number_format::int8) {
    out.raw("quantization: \"int8\"");
  } else if (x.compute == number_format::int4) {
    out.note("no equivalent: int4 training GEMMs");
  }
  if (x.low_precision_attention)
    out.note("no equivalent: attention in " + std::string(name_of(x.compute)) +
             "; MaxText's quantization covers the dense layers");
  if (p.assumptions.in_network_reduction)
    out.note("no equivalent: in-network reduction (SHARP) is not a MaxText key");
  return out.out;
}

}  // namespace shardplan
