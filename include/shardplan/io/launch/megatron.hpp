// Megatron-LM: a training plan as pretrain_gpt.py's command-line arguments (a bash array).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <shardplan/core/format.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/io/launch/common.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/training/plan.hpp>

// What this exporter targets, and where its names were checked (a git snapshot of the project,
// read with `git show`): NVIDIA/Megatron-LM 000c4ac24f61159c138b0975def722c65245983c (main after
// core_r0.14, 2025-10-27: it mentions "Megatron-Core v0.14"), where every flag is an argparse flag
// of megatron/training/arguments.py (tests/export/megatron_flags.txt lists them all); the
// validate_args rules quoted below; the layout grammar of --pipeline-model-parallel-layout from
// megatron/core/transformer/pipeline_parallel_layer_layout.py (parse_str_to_list); the
// embedding/loss accounting and the expert-bias rule from TransformerConfig.__post_init__
// (megatron/core/transformer/transformer_config.py); the MoE rule below (tensor parallelism needs
// sequence parallelism) from MoELayer.forward (megatron/core/transformer/moe/moe_layer.py); the
// precision-aware optimizer's rules from OptimizerConfig.__post_init__
// (megatron/core/optimizer/optimizer_config.py); --attention-backend from AttnBackend of
// megatron/core/transformer/enums.py. (At d98e8a64 on main, 2026, many flags have left
// arguments.py for dataclasses, so we stay at 000c4ac.)

namespace shardplan {

namespace detail::launch {

/// A --pipeline-model-parallel-layout string (E embedding, t decoder layer, L loss, | between
/// chunks, (x)*n and x*n repeat, an empty chunk "|") for the plan's chunks (`chunk_layers_of`).
inline std::string pipeline_layout(const training_plan_values& p) {
  const std::int64_t chunks = p.setup.degrees.pipeline * virtual_stages_of(p.setup.degrees);
  auto layers = [&](std::int64_t k) { return chunk_layers_of(p.model, p.setup, k); };
  auto layer_run = [](std::int64_t k) {
    return k == 0 ? std::string() : k == 1 ? std::string("t") : "t*" + n(k);
  };
  std::string s = "E" + layer_run(layers(0)) + "|";
  std::int64_t k = 1;
  while (k < chunks - 1) {
    const std::int64_t here = layers(k);
    std::int64_t run = 1;
    while (k + run < chunks - 1 && layers(k + run) == here) ++run;
    if (run > 1) s.append("(").append(layer_run(here)).append("|)*").append(n(run));
    else s.append(layer_run(here)).append("|");
    k += run;
  }
  return s + layer_run(layers(chunks - 1)) + "L";
}

/// How Megatron-LM splits the layers over pipeline chunks.
struct megatron_split {
  bool embedding_as_layer = false;  ///< --account-for-embedding-in-pipeline-split
  bool loss_as_layer = false;       ///< --account-for-loss-in-pipeline-split
  std::int64_t first = 0;           ///< --decoder-first-pipeline-num-layers
  std::int64_t last = 0;            ///< --decoder-last-pipeline-num-layers
  std::string layout;               ///< --pipeline-model-parallel-layout when nothing else fits
};

/// The plan's split (`layers_on_stage`) in Megatron's words: nothing for an even split; the
/// ends' layers as given; the embedding and the loss counted as layers where that gives every
/// chunk the plan's layers (TransformerConfig requires (layers + 1 or 2) % (pp·vp) == 0); else
/// the layout written out, chunk by chunk.
inline megatron_split megatron_layers(const training_plan_values& p) {
  const parallel_degrees& d = p.setup.degrees;
  if (d.pipeline <= 1 || !split_within_layers(p.model, p.setup)) return {};
  if (d.first_stage_layers > 0 || d.last_stage_layers > 0)
    return {false, false, d.first_stage_layers, d.last_stage_layers, {}};
  const std::int64_t chunks = d.pipeline * virtual_stages_of(d);
  constexpr std::pair<std::int64_t, std::int64_t> weights[] = {{0, 0}, {1, 1}, {0, 1}, {1, 0}};
  for (const auto& [w_in, w_out] : weights) {
    training_setup megatron = p.setup;
    megatron.framework.pipeline_embedding_weight = w_in;
    megatron.framework.pipeline_loss_weight = w_out;
    if (!split_divides_layers(p.model, megatron)) continue;
    bool same = true;
    for (std::int64_t k = 0; k < chunks && same; ++k)
      same = chunk_layers_of(p.model, megatron, k) == chunk_layers_of(p.model, p.setup, k);
    if (same) return {w_in == 1, w_out == 1, 0, 0, {}};
  }
  return {false, false, 0, 0, pipeline_layout(p)};
}

}  // namespace detail::launch

/// The plan as Megatron-LM arguments for pretrain_gpt.py: a bash array, one flag per line, with
/// `#` comment lines (bash allows comments inside a multi-line array). Data parallelism is not a
/// flag: Megatron derives it as WORLD_SIZE / (TP x PP x CP), and the comment gives WORLD_SIZE.
inline std::string megatron_arguments(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  const parallel_degrees& d = p.setup.degrees;
  lines out = opening(
      p, f, "#",
      "Megatron-LM arguments for pretrain_gpt.py: flags of megatron/training/arguments.py on "
      "main after core_r0.14 (NVIDIA/Megatron-LM 000c4ac); a bash array, one flag per line");
  out.note("launch on WORLD_SIZE=" + n(f.devices) +
           " ranks (torchrun); Megatron derives the data-parallel size " +
           n(f.devices / std::max<std::int64_t>(1, f.tensor * f.pipeline * f.context)) +
           " = WORLD_SIZE / (TP x PP x CP)");
  if (p.system.chip.kind != chip_kind::gpu)
    out.note("no equivalent: Megatron-LM runs on NVIDIA GPUs; this plan's system is " +
             std::string(p.system.name));
  // MoELayer.forward (megatron/core/transformer/moe/moe_layer.py, d98e8a6): `if self.training
  // and self.attn_tp_group.size() > 1 and not self.config.sequence_parallel: raise ValueError(
  // "During training, performance may degrade if MoE and tensor parallelism are enabled without
  // also enabling sequence parallelism.")`. Check and this export accept the plan; Megatron
  // stops at its first forward pass.
  if (is_moe(m) && f.tensor > 1 && !f.sequence_parallel)
    out.note("warning: Megatron-LM refuses a mixture of experts with tensor parallelism (" +
             n(f.tensor) +
             ") and no sequence parallelism: MoELayer.forward raises ValueError at the first "
             "training step (megatron/core/transformer/moe/moe_layer.py); plan with "
             "sequence_parallel (--sequence-parallel)");
  const bool fsdp = f.zero_stage >= 2;
  if (fsdp)
    out.note(
        "environment: leave CUDA_DEVICE_MAX_CONNECTIONS unset (validate_args: FSDP requires "
        "it larger than one)");
  else if (f.tensor > 1 || f.context > 1)
    out.note(
        "environment: CUDA_DEVICE_MAX_CONNECTIONS=1 (validate_args requires it with TP or CP "
        "before Blackwell)");
  out.note(
      "not in the plan, add them: tokenizer and data (--tokenizer-type, --data-path), "
      "--train-iters, learning rate, --rotary-base");
  out.raw("MEGATRON_ARGS=(");
  // Each value is one bash word (`bash_word`): numbers and plain names bare, anything else in
  // single quotes, which bash never expands.
  auto flag = [&out](std::string_view name, const std::string& value = {}) {
    out.raw("  " + std::string(name) + (value.empty() ? "" : " " + bash_word(value)));
  };
  auto note = [&out](const std::string& s) {
    out.notes.push_back(s);
    out.raw("  # " + comment_text(s));
  };

  note("model");
  flag("--num-layers", n(m.layers));
  flag("--hidden-size", n(m.d_model));
  flag("--ffn-hidden-size", n(m.d_ff > 0 ? m.d_ff : m.moe.expert_d_ff));
  flag("--num-attention-heads", n(m.heads));
  if (m.mla.kv_lora_rank > 0) {
    flag("--multi-latent-attention");
    if (m.mla.q_lora_rank > 0) flag("--q-lora-rank", n(m.mla.q_lora_rank));
    flag("--kv-lora-rank", n(m.mla.kv_lora_rank));
    flag("--qk-head-dim", n(m.mla.qk_nope_head_dim));
    flag("--qk-pos-emb-head-dim", n(m.mla.qk_rope_head_dim));
    flag("--v-head-dim", n(m.mla.v_head_dim));
  } else {
    flag("--kv-channels", n(m.head_dim));
    if (m.kv_heads != m.heads) {
      flag("--group-query-attention");
      flag("--num-query-groups", n(m.kv_heads));
    }
  }
  if (m.position_embeddings > 0) {
    flag("--position-embedding-type", "learned_absolute");
    flag("--max-position-embeddings", n(m.position_embeddings));
  } else {
    flag("--position-embedding-type", "rope");
    flag("--max-position-embeddings", n(f.seq_len));
  }
  if (m.gated_mlp) flag("--swiglu");
  flag("--normalization", m.norm == norm_kind::rms_norm ? "RMSNorm" : "LayerNorm");
  if (!m.biases) flag("--disable-bias-linear");
  if (!m.tied_embeddings) flag("--untie-embeddings-and-output-weights");
  note("vocabulary " + n(m.vocab) +
       ": from the tokenizer; Megatron pads it to a multiple of "
       "--make-vocab-size-divisible-by (128) x TP");
  if (is_moe(m)) {
    flag("--num-experts", n(m.moe.experts));
    flag("--moe-router-topk", n(m.moe.top_k));
    flag("--moe-ffn-hidden-size", n(m.moe.expert_d_ff));
    if (m.moe.shared_experts > 0)
      flag("--moe-shared-expert-intermediate-size", n(m.moe.shared_experts * m.moe.expert_d_ff));
    if (m.moe.dense_layers > 0)
      flag("--moe-layer-freq",
           "([0]*" + n(m.moe.dense_layers) + "+[1]*" + n(m.layers - m.moe.dense_layers) + ")");
    if (m.moe.router_bias) {
      // TransformerConfig.__post_init__ (transformer_config.py:1330 at 000c4ac): "Expert bias for
      // aux-loss-free routing only supports sigmoid score function." (the default is softmax);
      // DeepSeek-V3 scores with a sigmoid (arXiv:2412.19437, Sec. 2.1.2).
      flag("--moe-router-score-function", "sigmoid");
      flag("--moe-router-enable-expert-bias");
    }
    if (f.expert > 1) flag("--moe-token-dispatcher-type", "alltoall");
  }
  if (p.setup.dropout) {
    note("dropout: the plan stores dropout masks; Megatron's default rates are 0.1");
  } else {
    flag("--attention-dropout", "0.0");
    flag("--hidden-dropout", "0.0");
  }
  // --attention-backend: AttnBackend of megatron/core/transformer/enums.py at 000c4ac (flash,
  // fused, unfused, local, auto; default auto). "flash" is the flash-attn package through
  // Transformer Engine, "fused" TE's cuDNN fused attention.
  if (p.setup.eager_attention) {
    flag("--attention-backend", "unfused");
  } else {
    switch (p.setup.attention) {
      case attention_kernel::automatic:
        break;  // auto: Transformer Engine picks
      case attention_kernel::flash1:
        note("approximation: FlashAttention 1; Megatron's flash backend is the installed "
             "flash-attn package through Transformer Engine, with no choice of version");
        flag("--attention-backend", "flash");
        break;
      case attention_kernel::flash2:
        flag("--attention-backend", "flash");
        break;
      case attention_kernel::flash3:
        note("flash: the installed flash-attn package through Transformer Engine; that it is "
             "FlashAttention-3 depends on the installation (no flag picks the version)");
        flag("--attention-backend", "flash");
        break;
      case attention_kernel::cudnn:
        flag("--attention-backend", "fused");
        break;
      case attention_kernel::splash:
        note("no equivalent: splash attention is a TPU kernel; Megatron-LM's backends are "
             "flash, fused, unfused, local and auto");
        break;
      case attention_kernel::eager:
        flag("--attention-backend", "unfused");
        break;
    }
  }

  note("parallelism");
  flag("--tensor-model-parallel-size", n(f.tensor));
  if (f.sequence_parallel) flag("--sequence-parallel");
  // validate_args (megatron/training/arguments.py) asserts --sequence-parallel with it, and
  // switches sequence parallelism off at TP 1 first, so TP 1 gets neither.
  if (p.setup.tp_comm_overlap && f.tensor > 1 && f.sequence_parallel) flag("--tp-comm-overlap");
  // arguments.py at 000c4ac has the switch; with --sequence-parallel validate_args turns the
  // all-reduce off anyway (the reduce-scatter stays asynchronous), so only without it.
  if (p.setup.sync_tp_backward && f.tensor > 1 && !f.sequence_parallel)
    flag("--no-async-tensor-model-parallel-allreduce");
  flag("--pipeline-model-parallel-size", n(f.pipeline));
  const megatron_split split = megatron_layers(p);
  if (f.pipeline > 1 && !split.layout.empty()) {
    note(n(m.layers) + " layers over " + n(f.pipeline * f.virtual_stages) +
         " pipeline chunks, written out" +
         (f.virtual_stages > 1
              ? " (the layout also fixes " + n(f.virtual_stages) + " virtual stages per rank)"
              : std::string{}));
    flag("--pipeline-model-parallel-layout", split.layout);
  } else {
    if (f.virtual_stages > 1) flag("--num-virtual-stages-per-pipeline-rank", n(f.virtual_stages));
    if (split.embedding_as_layer || split.loss_as_layer) {
      const std::int64_t chunks = f.pipeline * f.virtual_stages;
      const std::int64_t units =
          m.layers + (split.embedding_as_layer ? 1 : 0) + (split.loss_as_layer ? 1 : 0);
      note(n(m.layers) + " layers over " + n(chunks) +
           " pipeline chunks: counting the embedding and the loss as layers gives " +
           n(units / chunks) + " per chunk, one fewer where they sit");
      if (split.embedding_as_layer) flag("--account-for-embedding-in-pipeline-split");
      if (split.loss_as_layer) flag("--account-for-loss-in-pipeline-split");
    }
    if (split.first > 0) flag("--decoder-first-pipeline-num-layers", n(split.first));
    if (split.last > 0) flag("--decoder-last-pipeline-num-layers", n(split.last));
  }
  if (f.pipeline > 1) {
    if (d.schedule == pipeline_schedule::gpipe)
      note(
          "no equivalent: the GPipe schedule; Megatron-LM runs 1F1B (interleaved with virtual "
          "stages)");
    if (d.schedule == pipeline_schedule::zero_bubble)
      note(
          "no equivalent: the zero-bubble ZB-H1 schedule; arguments.py has no flag for it, "
          "Megatron-LM runs 1F1B");
    if (d.schedule == pipeline_schedule::interleaved && f.virtual_stages <= 1)
      note("no equivalent: an interleaved schedule with one virtual stage is plain 1F1B");
  }
  flag("--context-parallel-size", n(f.context));
  flag("--expert-model-parallel-size", n(f.expert));
  if (f.zero_stage == 1) {
    flag("--use-distributed-optimizer");
    if (f.replicas > 1) flag("--num-distributed-optimizer-instances", n(f.replicas));
  } else if (fsdp) {
    note("ZeRO-" + n(f.zero_stage) +
         ": Megatron-FSDP (validate_args requires the fsdp_dtensor "
         "checkpoint format); --use-torch-fsdp2 is the alternative without PP or EP");
    // docs/source/api-guide/custom_fsdp.md at 000c4ac lists --use-distributed-optimizer with
    // --use-megatron-fsdp, as Megatron's own FSDP test does (tests/functional_tests/test_cases/
    // gpt/gpt3_mcore_te_tp2_zp_z3_resume_fsdp_dtensor/model_config.yaml).
    flag("--use-megatron-fsdp");
    flag("--use-distributed-optimizer");
    flag("--data-parallel-sharding-strategy",
         f.zero_stage >= 3 ? "optim_grads_params" : "optim_grads");
    flag("--ckpt-format", "fsdp_dtensor");
    if (f.replicas > 1)
      note("no equivalent: the plan replicates over " + n(f.replicas) +
           " plain data-parallel groups beside FSDP over " + n(f.zero) +
           "; we found no Megatron-LM flag that bounds the FSDP group");
  }
  if (p.assumptions.overlap_data_parallel && f.data > 1) {
    flag("--overlap-grad-reduce");
    if (f.zero_stage >= 1) flag("--overlap-param-gather");
  }
  if (p.assumptions.in_network_reduction) flag("--use-sharp");
  if (p.setup.offload.optimizer > 0.0) {
    // arguments.py at d98e8a64: the hybrid optimizer needs the precision-aware optimizer.
    flag("--optimizer-cpu-offload");
    flag("--use-precision-aware-optimizer");
    flag("--optimizer-offload-fraction", detail::significant(p.setup.offload.optimizer, 6));
  }
  if (p.setup.offload.parameters_on_host)
    note("no equivalent: Megatron-LM offloads no parameter shard to the host");

  note("batch");
  flag("--micro-batch-size", n(f.micro_batch));
  flag("--global-batch-size", n(f.sequences));
  flag("--seq-length", n(f.seq_len));

  note("recomputation");
  switch (p.setup.recompute.kind) {
    case recompute_kind::none:
      note("none: Megatron's default");
      break;
    case recompute_kind::selective:
      flag("--recompute-granularity", "selective");
      if (p.setup.recompute.modules != 0) {
        std::string list;
        for (unsigned i = 0; i < std::size(recompute_module_names); ++i)
          if ((p.setup.recompute.modules & module_bit(static_cast<recompute_module>(i))) != 0)
            list.append(list.empty() ? "" : " ").append(recompute_module_names[i]);
        flag("--recompute-modules", list);
      }
      break;
    case recompute_kind::full:
      flag("--recompute-granularity", "full");
      flag("--recompute-method", "uniform");
      flag("--recompute-num-layers", "1");
      break;
    case recompute_kind::mlp:
      // arguments.py at 000c4ac: --recompute-modules, nargs '*', choices include "mlp" (the
      // dense MLP submodule), read with --recompute-granularity selective.
      flag("--recompute-granularity", "selective");
      flag("--recompute-modules", "mlp");
      break;
    case recompute_kind::named:
      note("no equivalent: MaxText's named remat policy; the attention core's selective "
           "recomputation is the nearest");
      flag("--recompute-granularity", "selective");
      break;
    case recompute_kind::checkpoints:
      note("no equivalent: " + n(p.setup.recompute.checkpoints_per_layer) +
           " checkpoints per layer; full recomputation of each layer is the nearest");
      flag("--recompute-granularity", "full");
      flag("--recompute-method", "uniform");
      flag("--recompute-num-layers", "1");
      break;
  }

  note("precision");
  const precision_policy& x = p.setup.precision;
  // fp8 and fp4 recipes: --fp8-format (e4m3, hybrid), --fp8-recipe (tensorwise, delayed, mxfp8,
  // blockwise, custom; default delayed), --fp4-format (e2m1), --fp4-recipe (nvfp4, custom) of
  // megatron/training/arguments.py at NVIDIA/Megatron-LM 000c4ac24f61159c138b0975def722c65245983c;
  // get_fp8_recipe (megatron/core/fp8_utils.py) makes them TE's DelayedScaling,
  // Float8CurrentScaling, Float8BlockScaling and MXFP8BlockScaling, get_fp4_recipe
  // (fp4_utils.py) NVFP4BlockScaling. "hybrid" is E4M3 forward, E5M2 gradients, as Megatron's
  // own tensorwise and mxfp8 test configs run (tests/functional_tests/test_cases/gpt/
  // gpt3_weekly_dgx_*_mcore_*_{current_scaling_native_fp8,mxfp8}_*/model_config.yaml).
  auto fp8 = [&](std::string_view format, std::string_view recipe) {
    flag("--bf16");
    flag("--fp8-format", std::string(format));
    flag("--fp8-recipe", std::string(recipe));
  };
  switch (x.compute) {
    case number_format::bf16:
      flag("--bf16");
      break;
    case number_format::fp16:
      flag("--fp16");
      break;
    case number_format::fp8:
      switch (x.scaling) {
        case low_precision_scaling::delayed_tensorwise:
          fp8("hybrid", "delayed");
          break;
        case low_precision_scaling::tensorwise:
          fp8("hybrid", "tensorwise");
          break;
        case low_precision_scaling::rowwise:
          note("approximation: rowwise scaling; Megatron-LM's recipes are delayed, tensorwise, "
               "blockwise and mxfp8, blockwise (1x128 activation tiles) the nearest");
          fp8("e4m3", "blockwise");
          break;
        case low_precision_scaling::mx_block32:
          note("mxfp8: Transformer Engine's MXFP8BlockScaling, for Blackwell tensor cores");
          fp8("hybrid", "mxfp8");
          break;
        case low_precision_scaling::nv_block16:
        case low_precision_scaling::none:
        case low_precision_scaling::blockwise:
          note("fp8 GEMMs as in DeepSeek-V3: E4M3 with 1x128 / 128x128 block scaling");
          fp8("e4m3", "blockwise");
          break;
      }
      break;
    case number_format::fp4:
      if (x.scaling != low_precision_scaling::nv_block16)
        note("approximation: the plan's fp4 scaling is " + std::string(scaling_name(x.scaling)) +
             "; Megatron-LM's fp4 recipe is NVFP4 (16-element blocks, fp8 scales)");
      flag("--bf16");
      flag("--fp4-format", "e2m1");
      flag("--fp4-recipe", "nvfp4");
      break;
    case number_format::fp32:
    case number_format::tf32:
      note("fp32: Megatron's default without --bf16 or --fp16");
      break;
    case number_format::int8:
    case number_format::int4:
      note("no equivalent: " + std::string(name_of(x.compute)) + " training GEMMs");
      break;
  }
  if (x.low_precision_attention)
    note("no equivalent: attention in " + std::string(name_of(x.compute)) +
         "; TransformerConfig.fp8_dot_product_attention has no flag in arguments.py at 000c4ac");
  // Main gradients: the plan's bytes per gradient as its framework charges them
  // (`gradient_bytes_of`: the precision policy's, or under megatron_core 4 unless
  // grad_reduce_in_bf16). validate_args (arguments.py at 000c4ac): with --bf16, "if
  // args.grad_reduce_in_bf16: args.accumulate_allreduce_grads_in_fp32 = False", otherwise
  // gradients accumulate and all-reduce in fp32; with --fp16 they stay fp16 unless
  // --accumulate-allreduce-grads-in-fp32.
  const bool bf16 = x.compute == number_format::bf16 || x.compute == number_format::fp8 ||
                    x.compute == number_format::fp4;
  const double grads = gradient_bytes_of(p.setup);
  if (bf16 && grads == 2.0) {
    flag("--grad-reduce-in-bf16");
  } else if (x.compute == number_format::fp16 && grads == 4.0) {
    flag("--accumulate-allreduce-grads-in-fp32");
  } else if ((bf16 && grads != 4.0) || (x.compute == number_format::fp16 && grads != 2.0)) {
    note("difference: the plan counts " + detail::significant(grads, 3) +
         "-byte gradients; Megatron's main gradients are fp32, or 16-bit with " +
         (bf16 ? "--grad-reduce-in-bf16" : "--fp16 alone"));
  }
  // Adam's moments: --use-precision-aware-optimizer with --exp-avg-dtype / --exp-avg-sq-dtype
  // (choices fp32, fp16, bf16, fp8; "fp8" is torch.uint8, arguments.py at 000c4ac).
  // OptimizerConfig.__post_init__ (optimizer_config.py): "--use-precision-aware-optimizer only
  // supported with distributed optimizer" and only with adam, through Transformer Engine's
  // FusedAdam, which keeps a uint8 state as fp8 E4M3 with one scale per tensor
  // (transformer_engine/pytorch/optimizers/fused_adam.py, NVIDIA/TransformerEngine, stored copy,
  // commit not pinned).
  const double state = x.optimizer_state_bytes;
  if (x.optimizer_states > 0 && state > 0.0 && state != 4.0) {
    const std::string what = detail::significant(state, 3) + "-byte optimizer states";
    const std::string_view dtype = state == 2.0 ? "bf16" : state == 1.0 ? "fp8" : "";
    if (dtype.empty()) {
      note("no equivalent: " + what + "; --exp-avg-dtype and --exp-avg-sq-dtype take fp32, fp16, "
           "bf16 or fp8 (the states stay fp32)");
    } else if (f.zero_stage == 0) {
      note("no equivalent: " + what + " without ZeRO; --use-precision-aware-optimizer, which "
           "sets them, needs the distributed optimizer (optimizer_config.py) and the plan has "
           "none: the states stay fp32");
    } else {
      if (state == 1.0)
        note("approximation: 8-bit Adam (block-wise quantised moments, Dettmers et al. 2022); "
             "Megatron's precision-aware optimizer keeps both moments in fp8 E4M3 with one "
             "scale per tensor (Transformer Engine's FusedAdam)");
      flag("--use-precision-aware-optimizer");
      flag("--exp-avg-dtype", std::string(dtype));
      flag("--exp-avg-sq-dtype", std::string(dtype));
    }
  }
  out.raw(")");
  return out.out;
}

}  // namespace shardplan
