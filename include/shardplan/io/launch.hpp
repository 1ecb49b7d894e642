// Launch configurations: a training plan exported as the settings real training systems take
// (Megatron-LM command-line arguments, a torchtitan TOML job config, a MaxText YAML config, a
// DeepSpeed config JSON), each naming the version of the format it targets and saying, in a
// comment line, what of the plan the format cannot express.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <shardplan/core/format.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/hardware/placement.hpp>
#include <shardplan/training/plan.hpp>

// What each exporter targets, and where its names were checked (stored copies of the projects'
// sources; commits abbreviated):
//   Megatron-LM  megatron/training/arguments.py at NVIDIA/Megatron-LM 000c4ac (main after
//                core_r0.14: it mentions "Megatron-Core v0.14"); the flag names, choices and the
//                validate_args rules quoted below. The layout grammar of
//                --pipeline-model-parallel-layout from megatron/core/transformer/
//                pipeline_parallel_layer_layout.py (parse_str_to_list); the embedding/loss
//                accounting from TransformerConfig.__post_init__.
//   torchtitan   torchtitan/config/job_config.py at pytorch/torchtitan 6404b93 (2025, the TOML
//                JobConfig); schedule names from torch.distributed.pipelining's
//                get_schedule_class; the stage count ceil((layers + first_less + last_less) /
//                layers_per_stage) from torchtitan's pipeline metadata; batch arithmetic from
//                torchtitan/train.py; llama3 flavors from torchtitan/models/llama3/__init__.py.
//   MaxText      src/MaxText/configs/base.yml at AI-Hypercomputer/maxtext 003b416 (early 2026:
//                it carries the DeepSeek mHC keys); the base_config directive and model keys as
//                in src/MaxText/configs/models/*.yml; global batch = per_device_batch_size x
//                devices x gradient_accumulation_steps from MaxText's pyconfig.
//   DeepSpeed    docs/_pages/config-json.md at deepspeedai/DeepSpeed 00376da (master, 2026);
//                DeepSpeedConfig reads a config file with hjson (deepspeed/runtime/config.py),
//                which accepts the // comment lines we write, and takes the data-parallel world
//                size from the model-parallel unit; PipelineEngine asserts ZeRO stage < 2;
//                mics_shard_size from the ZeRO config.

namespace shardplan {

namespace detail::launch {

/// The plan's degrees and batch as the exporters use them. Counts are 64-bit integers.
struct facts {
  std::int64_t devices = 1;
  std::int64_t data = 1;  ///< every data-parallel replica, ZeRO and expert axes included
  std::int64_t zero_stage = 0;
  std::int64_t zero = 1;      ///< devices that shard model states (1 without ZeRO)
  std::int64_t replicas = 1;  ///< data / zero: plain replicas beside the ZeRO group
  std::int64_t tensor = 1;
  bool sequence_parallel = false;
  std::int64_t pipeline = 1;
  std::int64_t virtual_stages = 1;
  std::int64_t context = 1;
  std::int64_t expert = 1;
  std::int64_t sequences = 0;  ///< global batch in sequences
  std::int64_t seq_len = 0;
  std::int64_t micro_batch = 1;    ///< sequences per micro-batch per replica
  std::int64_t micro_batches = 0;  ///< micro-batches per replica per step
};

inline facts facts_of(const training_plan_values& p) {
  const parallel_degrees& d = p.setup.degrees;
  const batch_settings& b = p.setup.batch;
  facts f;
  f.devices = mesh_devices(p);
  f.data = d.data;
  f.zero_stage = d.zero_stage;
  f.zero = d.zero_stage > 0 ? d.zero : 1;
  f.replicas = f.zero > 0 && f.data % f.zero == 0 ? f.data / f.zero : f.data;
  f.tensor = d.tensor;
  f.sequence_parallel = d.sequence_parallel && d.tensor > 1;
  f.pipeline = d.pipeline;
  f.virtual_stages = d.virtual_stages;
  f.context = d.context;
  f.expert = d.expert;
  f.seq_len = b.seq_len;
  f.micro_batch = b.micro_batch;
  f.sequences = b.seq_len > 0 ? b.global_tokens / b.seq_len : 0;
  f.micro_batches = d.data > 0 && b.micro_batch > 0 ? f.sequences / d.data / b.micro_batch : 0;
  return f;
}

inline std::string n(std::int64_t x) { return std::to_string(x); }

/// Text built line by line, with the target's comment marker ("#" or "//").
struct lines {
  std::string out;
  std::string_view marker = "#";

  void note(std::string_view s) {
    out += marker;
    out += ' ';
    out += s;
    out += '\n';
  }
  void raw(std::string_view s) {
    out += s;
    out += '\n';
  }
};

/// "llama3-405b on dgx h100 superpod (16384 devices): DP 128 (ZeRO-1 over 128) x TP 8 (sequence
/// parallel) x PP 16 (2 virtual stages) x CP 1 x EP 1".
inline std::string plan_summary(const training_plan_values& p, const facts& f) {
  std::string s = std::string(p.model.name) + " on " + std::string(p.system.name) + " (" +
                  n(f.devices) + " devices): DP " + n(f.data);
  if (f.zero_stage > 0) s += " (ZeRO-" + n(f.zero_stage) + " over " + n(f.zero) + ")";
  s += " x TP " + n(f.tensor) + (f.sequence_parallel ? " (sequence parallel)" : "");
  s += " x PP " + n(f.pipeline);
  if (f.virtual_stages > 1) s += " (" + n(f.virtual_stages) + " virtual stages)";
  s += " x CP " + n(f.context) + " x EP " + n(f.expert);
  s += "; " + n(f.sequences) + " sequences of " + n(f.seq_len) + " tokens per step, micro-batch " +
       n(f.micro_batch);
  return s;
}

/// One warning line per rule the plan breaks: the export goes on, but says so.
inline void note_violations(lines& out, const training_plan_values& p) {
  const plan_violations v = check(p);
  for (std::size_t i = 0; i < v.count; ++i)
    out.note("warning: the plan breaks a rule: " + describe(v.items[i]));
}

inline std::string_view schedule_name(pipeline_schedule s) {
  switch (s) {
    case pipeline_schedule::gpipe:
      return "GPipe";
    case pipeline_schedule::one_f_one_b:
      return "1F1B";
    case pipeline_schedule::interleaved:
      return "interleaved 1F1B";
    case pipeline_schedule::zero_bubble:
      return "zero-bubble ZB-H1";
  }
  return "?";
}

/// Layers of pipeline chunk `k` of `chunks` when `layers` are split as evenly as possible, the
/// first chunks taking the remainder.
constexpr std::int64_t chunk_layers(std::int64_t layers, std::int64_t chunks, std::int64_t k) {
  return layers / chunks + (k < layers % chunks ? 1 : 0);
}

/// A --pipeline-model-parallel-layout string (E embedding, t decoder layer, L loss, | between
/// chunks, (x)*n and x*n repeat) for `layers` over `chunks` pipeline chunks.
inline std::string pipeline_layout(std::int64_t layers, std::int64_t chunks) {
  auto layer_run = [](std::int64_t k) { return k == 1 ? std::string("t") : "t*" + n(k); };
  std::string s = "E" + layer_run(chunk_layers(layers, chunks, 0)) + "|";
  std::int64_t k = 1;
  while (k < chunks - 1) {
    const std::int64_t here = chunk_layers(layers, chunks, k);
    std::int64_t run = 1;
    while (k + run < chunks - 1 && chunk_layers(layers, chunks, k + run) == here) ++run;
    s += run > 1 ? "(" + layer_run(here) + "|)*" + n(run) : layer_run(here) + "|";
    k += run;
  }
  return s + layer_run(chunk_layers(layers, chunks, chunks - 1)) + "L";
}

/// How Megatron-LM splits the layers over pipeline chunks.
struct megatron_split {
  bool embedding_as_layer = false;  ///< --account-for-embedding-in-pipeline-split
  bool loss_as_layer = false;       ///< --account-for-loss-in-pipeline-split
  std::string layout;               ///< --pipeline-model-parallel-layout when neither fits
};

/// Even split: nothing. Otherwise count the embedding and the loss as layers when that makes
/// the chunks even (TransformerConfig requires (layers + 2) % (pp·vp) == 0), else write the
/// layout out.
inline megatron_split megatron_layers(std::int64_t layers, std::int64_t pp, std::int64_t vp) {
  const std::int64_t chunks = pp * vp;
  if (pp <= 1 || chunks <= 0 || layers % chunks == 0) return {};
  if ((layers + 2) % chunks == 0) return {true, true, {}};
  if ((layers + 1) % chunks == 0) return {false, true, {}};
  if (layers < chunks) return {};
  return {false, false, pipeline_layout(layers, chunks)};
}

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

/// A non-negative rational as a decimal ("0.125", "2.0"); `exact` is false when it needs more
/// than 12 decimals.
struct decimal {
  std::string text;
  bool exact = true;
};

inline decimal decimal_of(std::int64_t num, std::int64_t den) {
  if (den <= 0) return {"0.0", false};
  std::string s = n(num / den) + ".";
  std::int64_t rem = num % den;
  if (rem == 0) return {s + "0", true};
  for (int i = 0; i < 12 && rem != 0; ++i) {
    rem *= 10;
    s += static_cast<char>('0' + rem / den);
    rem %= den;
  }
  return {s, rem == 0};
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

/// MaxText's own model file for a shardplan model name (src/MaxText/configs/models/), or "".
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

// ---------------------------------------------------------------------------------------------
// Megatron-LM

/// The plan as Megatron-LM arguments for pretrain_gpt.py: a bash array, one flag per line, with
/// `#` comment lines (bash allows comments inside a multi-line array). Data parallelism is not a
/// flag: Megatron derives it as WORLD_SIZE / (TP x PP x CP), and the comment gives WORLD_SIZE.
inline std::string megatron_arguments(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  const parallel_degrees& d = p.setup.degrees;
  lines out{{}, "#"};
  out.note(
      "Megatron-LM arguments for pretrain_gpt.py: flags of megatron/training/arguments.py on "
      "main after core_r0.14 (NVIDIA/Megatron-LM 000c4ac); a bash array, one flag per line");
  out.note("plan: " + plan_summary(p, f));
  note_violations(out, p);
  out.note("launch on WORLD_SIZE=" + n(f.devices) +
           " ranks (torchrun); Megatron derives the data-parallel size " +
           n(f.devices / std::max<std::int64_t>(1, f.tensor * f.pipeline * f.context)) +
           " = WORLD_SIZE / (TP x PP x CP)");
  if (p.system.chip.kind != chip_kind::gpu)
    out.note("no equivalent: Megatron-LM runs on NVIDIA GPUs; this plan's system is " +
             std::string(p.system.name));
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
  auto flag = [&out](std::string_view name, const std::string& value = {}) {
    out.raw("  " + std::string(name) + (value.empty() ? "" : " " + value));
  };
  auto note = [&out](const std::string& s) { out.raw("  # " + s); };

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
           "\"([0]*" + n(m.moe.dense_layers) + "+[1]*" + n(m.layers - m.moe.dense_layers) + ")\"");
    if (m.moe.router_bias) flag("--moe-router-enable-expert-bias");
    if (f.expert > 1) flag("--moe-token-dispatcher-type", "alltoall");
  }
  if (p.setup.dropout) {
    note("dropout: the plan stores dropout masks; Megatron's default rates are 0.1");
  } else {
    flag("--attention-dropout", "0.0");
    flag("--hidden-dropout", "0.0");
  }
  if (p.setup.eager_attention) flag("--attention-backend", "unfused");

  note("parallelism");
  flag("--tensor-model-parallel-size", n(f.tensor));
  if (f.sequence_parallel) flag("--sequence-parallel");
  flag("--pipeline-model-parallel-size", n(f.pipeline));
  const megatron_split split = megatron_layers(m.layers, f.pipeline, f.virtual_stages);
  if (f.pipeline > 1 && !split.layout.empty()) {
    note(n(m.layers) + " layers over " + n(f.pipeline * f.virtual_stages) +
         " pipeline chunks, written out" +
         (f.virtual_stages > 1
              ? " (the layout also fixes " + n(f.virtual_stages) + " virtual stages per rank)"
              : std::string{}));
    flag("--pipeline-model-parallel-layout", "\"" + split.layout + "\"");
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
    flag("--use-megatron-fsdp");
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
      break;
    case recompute_kind::full:
      flag("--recompute-granularity", "full");
      flag("--recompute-method", "uniform");
      flag("--recompute-num-layers", "1");
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
  switch (x.compute) {
    case number_format::bf16:
      flag("--bf16");
      break;
    case number_format::fp16:
      flag("--fp16");
      break;
    case number_format::fp8:
      note("fp8 GEMMs as in DeepSeek-V3: E4M3 with 1x128 / 128x128 block scaling");
      flag("--bf16");
      flag("--fp8-format", "e4m3");
      flag("--fp8-recipe", "blockwise");
      break;
    case number_format::fp4:
      flag("--bf16");
      flag("--fp4-format", "e2m1");
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
  if (x.compute == number_format::bf16 || x.compute == number_format::fp8 ||
      x.compute == number_format::fp4) {
    if (x.gradient_bytes < 4.0)
      note("difference: the plan counts " + detail::significant(x.gradient_bytes, 3) +
           "-byte gradients; with --bf16 Megatron keeps fp32 main gradients (validate_args)");
    if (x.optimizer_state_bytes == 2.0) {
      flag("--use-precision-aware-optimizer");
      flag("--exp-avg-dtype", "bf16");
      flag("--exp-avg-sq-dtype", "bf16");
    }
  }
  out.raw(")");
  return out.out;
}

// ---------------------------------------------------------------------------------------------
// torchtitan

/// The plan as a torchtitan job config (TOML, `#` comments): the sections and keys of JobConfig,
/// to pass with --job.config_file. Data parallelism is data_parallel_replicate_degree x
/// data_parallel_shard_degree.
inline std::string torchtitan_toml(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  const parallel_degrees& d = p.setup.degrees;
  lines out{{}, "#"};
  out.note(
      "torchtitan job config (TOML): JobConfig of torchtitan/config/job_config.py "
      "(pytorch/torchtitan 6404b93, 2025)");
  out.note("plan: " + plan_summary(p, f));
  note_violations(out, p);
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
  if (x.compute == number_format::fp8) {
    out.raw("converters = [\"float8\"]");
    out.note(
        "approximation: the plan's fp8 follows DeepSeek-V3's block scaling; torchao's "
        "rowwise recipe is the nearest of tensorwise, rowwise, rowwise_with_gw_hp");
  }

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
  if (p.setup.eager_attention)
    out.note("no equivalent: eager attention; torchtitan's attention is a fused kernel");

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
  if (x.compute == number_format::fp8) {
    out.raw("");
    out.raw("[float8]");
    out.raw("recipe_name = \"rowwise\"");
  }
  return out.out;
}

// ---------------------------------------------------------------------------------------------
// MaxText

/// The plan as a MaxText config: YAML `key: value` lines with `#` comments, inheriting base.yml
/// through base_config. Each parallelism is split between ici_* (within a slice: the TPU torus,
/// or a GPU node) and dcn_* (across slices) by the plan's placement.
inline std::string maxtext_config(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  const maxtext_mesh mesh = maxtext_mesh_of(p);
  lines out{{}, "#"};
  out.note(
      "MaxText config (YAML): keys of src/MaxText/configs/base.yml "
      "(AI-Hypercomputer/maxtext 003b416, early 2026)");
  out.note("plan: " + plan_summary(p, f));
  note_violations(out, p);
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
      if (m.moe.router_bias) out.raw("routed_bias: True");
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
  if (p.setup.eager_attention) out.raw("attention: \"dot_product\"");

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
  if (f.context > 1) {
    out.raw("context_parallel_strategy: \"ring\"");
    out.raw("context_parallel_load_balance: True");
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
        std::string(schedule_name(p.setup.degrees.schedule)));
    out.raw("scan_layers: False");
  }

  out.note("recomputation");
  switch (p.setup.recompute.kind) {
    case recompute_kind::none:
    case recompute_kind::selective:
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
  }

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
  out.raw(x.master_bytes >= 4.0 || x.parameter_bytes >= 4.0 ? "weight_dtype: \"float32\""
                                                            : "weight_dtype: \"bfloat16\"");
  if (x.compute == number_format::fp8) {
    out.note("fp8 GEMMs: base.yml documents quantization 'fp8' for NVIDIA GPUs");
    out.raw("quantization: \"fp8\"");
  } else if (x.compute == number_format::int8) {
    out.raw("quantization: \"int8\"");
  } else if (x.compute == number_format::int4 || x.compute == number_format::fp4) {
    out.note("no equivalent: " + std::string(name_of(x.compute)) + " training GEMMs");
  }
  if (p.assumptions.in_network_reduction)
    out.note("no equivalent: in-network reduction (SHARP) is not a MaxText key");
  return out.out;
}

// ---------------------------------------------------------------------------------------------
// DeepSpeed

/// The plan as a DeepSpeed config: JSON written by hand, preceded by `//` comment lines that
/// DeepSpeed's hjson reader accepts (strip them for a strict JSON reader). Data parallelism is
/// train_batch_size / (train_micro_batch_size_per_gpu x gradient_accumulation_steps); model
/// parallel degrees are not JSON keys, and comment lines say where they go.
inline std::string deepspeed_json(const training_plan_values& p) {
  using namespace detail::launch;
  const facts f = facts_of(p);
  const model_shape& m = p.model;
  lines out{{}, "//"};
  out.note(
      "DeepSpeed config JSON: keys of docs/_pages/config-json.md (deepspeedai/DeepSpeed "
      "00376da, 2026); DeepSpeedConfig reads the file with hjson, which accepts these // "
      "lines");
  out.note("plan: " + plan_summary(p, f));
  note_violations(out, p);
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
  if (x.compute == number_format::fp8)
    out.note(
        "not in the JSON: fp8 GEMMs come from the model code (Transformer Engine); the "
        "config runs bf16");
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
