// A training framework as one described value, the way `chip_figures` describes a chip: what its
// code does, as data. The memory, operation and step models read these fields; no other header
// asks which framework a plan names. A user describes a fork by copying a profile and changing
// what differs, in C++ (`framework::described<my_profile>`) or in a plan file
// (`"framework": {"base": "megatron_core", ...}`).
#pragma once

#include <cstdint>
#include <string_view>

namespace shardplan {

/// The framework families the profiles below describe. `generic` is the papers' accounting
/// (ZeRO's Table 1, Korthikanti et al.'s per-layer bytes) and the default.
enum class training_framework : std::uint8_t {
  generic,
  megatron_core,  ///< NVIDIA/Megatron-LM (Megatron-Core)
  torchtitan,     ///< pytorch/torchtitan (FSDP2, DTensor tensor parallelism)
  deepspeed,      ///< microsoft/DeepSpeed
  maxtext,        ///< AI-Hypercomputer/maxtext (JAX/XLA)
  torchtune,      ///< pytorch/torchtune recipes
};

/// How a plan's tensor-parallel collectives overlap the GEMMs next to them
/// (`training_setup::tp_comm_overlap`; `tp_overlap_of`):
/// - `userbuffers`: Megatron-Core's `--tp-comm-overlap`, Transformer Engine's userbuffers with
///   the defaults of `initialize_ub` (transformer_engine/pytorch/module/base.py at v1.9): the
///   forward all-gathers before the QKV and MLP-up GEMMs and the backward ones before the
///   output-projection and MLP-down data gradients `ring_exchange`, point to point, the GEMM in
///   `tp_size` chunks on 1 communication SM; the forward reduce-scatters after the output
///   projection and MLP down `pipeline`, the GEMM in 4 chunks (`num_splits`) each reduced on 16
///   SMs (`num_sm`) while the next computes; the backward reduce-scatters of the QKV and MLP-up
///   data gradients `bulk`, on 16 SMs beside the weight-gradient GEMM, which is not split;
/// - `symmetric_memory`: torchtitan's `enable_async_tensor_parallel`, PyTorch's micro-pipelined
///   `fused_all_gather_matmul` and `fused_matmul_reduce_scatter`
///   (torch/distributed/_symmetric_memory/__init__.py), which Inductor's `micro_pipeline_tp`
///   pass substitutes: the forward's GEMMs (and a recomputed forward's) in `tp_size` chunks, the
///   chunks copied between peers by the copy engines ("to minimize compute interference ... the
///   use of copy engines", docs/source/symmetric_memory.md), so no SMs are taken. The backward's
///   collectives stay exposed: its authors measured "up to ~29% forward pass speedup and ~8% E2E
///   speedup in Llama3 7B" (the forward a third of the step, 29% of it is 7% of the step, so
///   the backward gained nothing; "[Distributed w/ TorchTitan] Introducing Async Tensor
///   Parallelism in PyTorch", discuss.pytorch.org/t/209487, 2024).
/// - `windowed_einsum`: XLA's collective matmul on TPU (Wang et al., "Overlap Communication with
///   Dependent Computation via Decomposition in Large Deep Learning Models", ASPLOS 2023): the
///   SPMD partitioner turns an all-gather before an einsum, or a reduce-scatter after one, into
///   a loop of `tp_size` steps, each a collective permute to the next rank beside 1/tp of the
///   einsum, forward and backward, when the operand is over a size threshold
///   (`--xla_jf_spmd_threshold_for_windowed_einsum_mib`). It is on by default: MaxText's
///   benchmark library turns it off by raising that threshold to 1000000 MiB
///   (`DISABLE_COLLECTIVE_MATMUL`, benchmarks/xla_flags_library.py at e591f30). The threshold's
///   default is not published; every MaxText activation we model is hundreds of MiB a shard. A
///   TPU's collectives take no compute from the matrix units (`collective_overlap_contention`).
enum class tp_overlap_method : std::uint8_t {
  none,
  userbuffers,
  symmetric_memory,
  windowed_einsum
};

/// What a layer keeps under selective recomputation (`stored_layer_bytes`, memory.hpp):
/// `core_attention`, Korthikanti et al.'s (Megatron-LM's `--recompute-activations`: the
/// attention core recomputed); `op_level`, torchtitan's op-level SAC policy
/// (`torchtitan_selective_layer_bytes`); `minimal_with_context`, MaxText's remat policy of that
/// name (`named_layer_bytes`).
enum class selective_recompute : std::uint8_t { core_attention, op_level, minimal_with_context };

/// Bytes the loss keeps per logit at its peak (`logit_bytes`, memory.hpp): `korthikanti` (4, the
/// papers' count), `fp32_softmax` (8: fp32 logits and their gradient), `torchtitan` (eager
/// `cross_entropy` of `.float()` logits, `loss_parallel` with TP, or the compiled loss),
/// `torchtune` (fp32 output, optionally chunked and compiled).
enum class loss_memory : std::uint8_t { korthikanti, fp32_softmax, torchtitan, torchtune };

/// When the backward's tensor-parallel reduction of a column-parallel GEMM's input gradient runs
/// beside its weight gradient without a `tp_overlap_method` (`tp_backward_beside_weight_gradient`,
/// operations.hpp): `never`; `unless_synchronous` (Megatron-LM from 83b1e42f, 2022-02-13, unless
/// `sync_tp_backward` without sequence parallelism); `always` (XLA's latency-hiding scheduler).
enum class tp_backward_overlap : std::uint8_t { never, unless_synchronous, always };

/// Where a micro-batch's gradients are added to the step's (`autograd_accumulation_bytes_per_
/// parameter`, cost.hpp): `fused` (inside the weight-gradient GEMM, the reduce-scatter's output,
/// or a bucket copy: no pass of its own), `autograd_in_place` (autograd's `AccumulateGrad` adds
/// each micro-batch's gradient into `param.grad` where no hook takes it: DeepSpeed below ZeRO-2).
enum class gradient_accumulation : std::uint8_t { fused, autograd_in_place };

/// How large the last data-parallel gradient bucket is (`gradient_bucket_parameters`, cost.hpp):
/// `fixed_bytes` (`bucket_size` bytes), `elements` (`bucket_size` elements), `ranks_scaled` (the
/// larger of `bucket_size` elements and `bucket_per_rank` for each data-parallel rank), `layer`
/// (one transformer layer's parameters).
enum class bucket_rule : std::uint8_t { fixed_bytes, elements, ranks_scaled, layer };

/// PyTorch DDP's gradient bucket: `bucket_cap_mb` 25 MiB (torch/nn/parallel/distributed.py,
/// `DistributedDataParallel`: "bucket_cap_mb ... (default: 25)").
inline constexpr double ddp_bucket_bytes = 25.0 * 1048576.0;

/// The gradient bucket DeepSpeed reduces at a time by default, in elements
/// (`reduce_bucket_size=500000000`, deepspeed/runtime/zero/stage3.py at v0.3.16).
inline constexpr double deepspeed_reduce_bucket_elements = 5e8;

/// A training framework: its name, the source it was read from, and what its code does. Each
/// field is read by one rule of the model, named beside it; the values below cite the code.
struct framework_profile {
  /// The family whose plan-file flags, launch exporters and importers serve it.
  training_framework base = training_framework::generic;
  /// The name in reports and plan files.
  std::string_view name = "generic";
  /// The source and version its behaviour was read from.
  std::string_view source = "the papers' accounting";

  // --- memory (training/memory.hpp) -----------------------------------------------------------
  /// ZeRO shards the model states over the context-parallel ranks too (`sharding_of`).
  bool shards_states_over_context = false;
  /// Context parallelism turns FSDP on without a ZeRO axis (`sharding_of`).
  bool context_enables_fsdp = false;
  /// Main gradients in fp32 unless `grad_reduce_in_bf16` (`gradient_bytes_of`).
  bool fp32_main_gradients = false;
  /// What selective recomputation keeps (`stored_layer_bytes`).
  selective_recompute selective = selective_recompute::core_attention;
  /// Without recomputation a layer keeps what torchtune's eager modules save
  /// (`torchtune_layer_bytes`) rather than the papers' count.
  bool eager_module_storage = false;
  /// Full recomputation holds the rematerialised layer at the backward's peak
  /// (`rematerialised_layer_memory`).
  bool holds_rematerialised_layer = false;
  /// Bytes the loss keeps per logit (`logit_bytes`).
  loss_memory loss = loss_memory::korthikanti;
  /// FSDP keeps a pipelined stage's parameters gathered and its gradients unsharded across the
  /// micro-batches (`fsdp_keeps_stage_gathered`).
  bool fsdp_gathered_across_micro_batches = false;
  /// The named transients (CUDA context, NCCL buffers, fragmentation) are charged instead of
  /// the flat reserve (`charges_named_transients`).
  bool named_transients = false;
  /// Gradients are set to None after each optimizer step (`gradients_freed_between_steps`).
  bool frees_gradients_each_step = false;
  /// The step's buffers are assigned when it is compiled (XLA): no CUDA context, communication
  /// buffers or caching allocator, so neither the flat reserve nor the named transients are
  /// charged under the framework's memory policy (`charge_transients`).
  bool compiled_buffer_assignment = false;
  /// ZeRO-3/FSDP gathers each weight for its own use inside the layer: one layer's weights in the
  /// working format and the largest weight's unreduced gradient are live at a time, not two
  /// layers and a layer's gradients (`gathered_parameter_memory`).
  bool gathers_per_weight = false;
  /// The loss's logits are freed before the layers' backward begins, so they and the layers'
  /// gathered weights are never live together: the larger of the two is charged (`buffer_memory`).
  bool loss_apart_from_layer_buffers = false;
  /// Under an fp8 recipe its linear layers keep their own fp8 copy of their input for the weight
  /// gradient (`activation_inputs::linear_input_bytes`).
  bool fp8_linear_inputs = false;
  /// Layers the input embedding and the output (final norm, output projection and loss) count
  /// as when the layers are split over pipeline stages (`layers_on_stage`): the first and the
  /// last stage hold that many layers fewer.
  std::int64_t pipeline_embedding_weight = 0;
  std::int64_t pipeline_loss_weight = 0;
  /// It splits the layers over the chunks however they fall, the earliest chunks holding one
  /// more where they do not divide (a plan needs no `uneven_stages`); otherwise a ragged split,
  /// where the plan allows one, leaves the ends one short first: the last, the first, inward.
  bool pipeline_extra_layers_early = false;

  // --- operations (training/operations.hpp) ---------------------------------------------------
  /// Norms, rotary embedding and activation run as eager modules unless `compiled_layers`
  /// (`eager_modules_of`).
  bool eager_modules = false;
  /// The tensor-parallel overlap `tp_comm_overlap` turns on (`tp_overlap_of`).
  tp_overlap_method tp_comm_overlap_method = tp_overlap_method::none;
  /// The tensor-parallel overlap on a TPU with sequence parallelism whatever the flags say.
  tp_overlap_method tpu_tp_overlap = tp_overlap_method::none;
  /// The backward's input-gradient reduction beside the weight gradient.
  tp_backward_overlap tp_backward = tp_backward_overlap::never;
  /// DTensor's sequence-parallel collectives copy the activation (`dtensor_collective_copies`).
  bool sequence_collectives_copy = false;
  /// Float8 tensorwise training all-gathers sequence-parallel inputs in fp8
  /// (`sequence_gather_bytes`).
  bool float8_sequence_gathers = false;
  /// K and V repeated to the query heads' width before attention (`repeats_kv`).
  bool repeats_kv = false;
  /// Context parallelism is PyTorch's ring attention (`runs_pytorch_ring`).
  bool pytorch_ring_attention = false;

  // --- the step (training/cost.hpp) -----------------------------------------------------------
  /// Bytes per element of the data-parallel gradient reduction; 0: the gradients' own
  /// (`gradient_reduce_bytes`).
  double reduce_bytes = 0.0;
  /// The last gradient bucket by its rule, size and per-rank growth (`gradient_bucket_parameters`).
  bucket_rule bucket = bucket_rule::fixed_bytes;
  double bucket_size = ddp_bucket_bytes;
  double bucket_per_rank = 0.0;
  /// Below ZeRO-3 the gradient reduction hides only with `overlap_comm`
  /// (`deepspeed_reduction_overlaps`).
  bool reduction_overlap_needs_flag = false;
  /// ZeRO-2 reduces every micro-batch's gradients (`deepspeed_reduces_each_micro_batch`).
  bool zero2_reduces_each_micro_batch = false;
  /// ZeRO-1 of bf16 with fp32 gradients runs DeepSpeed's BF16_Optimizer
  /// (`deepspeed_bf16_optimizer`).
  bool bf16_optimizer_at_zero1 = false;
  /// Where micro-batch gradients accumulate (`autograd_accumulation_bytes_per_parameter`).
  gradient_accumulation accumulation = gradient_accumulation::fused;
  /// FSDP2's copy-out and concatenation on the compute stream (`fsdp2_copy_bytes_per_parameter`).
  bool fsdp2_copies = false;
  /// `zero3_per_tensor` is read: ZeRO-3 as DeepSpeed v0.3.13 to v0.4.2 ran it
  /// (`deepspeed_zero3_per_tensor`).
  bool reads_zero3_per_tensor = false;
  /// With a pipeline, gradients are reduced only after the last micro-batch
  /// (`deepspeed_pipeline_reduces_after_backward`).
  bool pipeline_reduces_after_backward = false;

  // --- limits (training/plan.hpp, `broken_framework_limit`) -----------------------------------
  /// Its pipeline engine takes ZeRO-0 or ZeRO-1 only.
  bool pipeline_zero_0_or_1_only = false;
  /// Its pipeline runs 1F1B only.
  bool pipeline_one_f_one_b_only = false;
  /// `optimizer_in_backward` needs one micro-batch per step and no pipeline.
  bool optimizer_in_backward_single_micro_batch = false;
  /// `tp_comm_overlap` needs `compiled_layers`.
  bool async_tp_needs_compile = false;

  friend constexpr bool operator==(const framework_profile&, const framework_profile&) = default;
};

/// Calls `visit(key, member, what)` for each behaviour of `framework_profile` (every member but
/// its base, name and source) with a pointer to the member, in declaration order: the one list
/// the plan-file reader and writer and the C++ header writer go through.
template <class Visit>
constexpr void for_each_behaviour(Visit&& visit) {
  using p = framework_profile;
  visit("shards_states_over_context", &p::shards_states_over_context,
        "ZeRO shards model states over the context-parallel ranks too");
  visit("context_enables_fsdp", &p::context_enables_fsdp,
        "context parallelism turns FSDP (ZeRO-3) on without a ZeRO axis");
  visit("fp32_main_gradients", &p::fp32_main_gradients,
        "main gradients in fp32 unless grad_reduce_in_bf16");
  visit("selective", &p::selective, "what selective recomputation keeps");
  visit("eager_module_storage", &p::eager_module_storage,
        "without recomputation a layer keeps what torchtune's eager modules save");
  visit("holds_rematerialised_layer", &p::holds_rematerialised_layer,
        "full recomputation holds the rematerialised layer at the backward's peak");
  visit("loss", &p::loss, "bytes the loss keeps per logit");
  visit("fsdp_gathered_across_micro_batches", &p::fsdp_gathered_across_micro_batches,
        "FSDP keeps a pipelined stage gathered across its micro-batches");
  visit("named_transients", &p::named_transients,
        "CUDA context, NCCL buffers and fragmentation charged instead of the flat reserve");
  visit("frees_gradients_each_step", &p::frees_gradients_each_step,
        "gradients set to None after each optimizer step");
  visit("compiled_buffer_assignment", &p::compiled_buffer_assignment,
        "buffers assigned when the step compiles (XLA): no reserve or transients");
  visit("gathers_per_weight", &p::gathers_per_weight,
        "ZeRO-3 gathers each weight where it is used: one layer and one weight's gradient live");
  visit("loss_apart_from_layer_buffers", &p::loss_apart_from_layer_buffers,
        "the loss's logits are freed before the layers' gathered weights are live");
  visit("fp8_linear_inputs", &p::fp8_linear_inputs,
        "under fp8 its linear layers keep an fp8 copy of their input for the weight gradient");
  visit("pipeline_embedding_weight", &p::pipeline_embedding_weight,
        "layers the input embedding counts as in the pipeline split");
  visit("pipeline_loss_weight", &p::pipeline_loss_weight,
        "layers the output and loss count as in the pipeline split");
  visit("pipeline_extra_layers_early", &p::pipeline_extra_layers_early,
        "splits the layers however they fall, the earliest chunks one more (else a ragged "
        "split, where allowed, shortens the ends)");
  visit("eager_modules", &p::eager_modules,
        "norms, rotary embedding and activation run eager unless compiled_layers");
  visit("tp_comm_overlap_method", &p::tp_comm_overlap_method,
        "the tensor-parallel overlap tp_comm_overlap turns on");
  visit("tpu_tp_overlap", &p::tpu_tp_overlap,
        "the tensor-parallel overlap on a TPU with sequence parallelism");
  visit("tp_backward", &p::tp_backward,
        "when the input-gradient reduction runs beside the weight gradient");
  visit("sequence_collectives_copy", &p::sequence_collectives_copy,
        "sequence-parallel collectives copy the activation (DTensor)");
  visit("float8_sequence_gathers", &p::float8_sequence_gathers,
        "fp8 tensorwise training all-gathers sequence-parallel inputs in fp8");
  visit("repeats_kv", &p::repeats_kv, "K and V repeated to the query heads' width");
  visit("pytorch_ring_attention", &p::pytorch_ring_attention,
        "context parallelism is PyTorch's ring attention");
  visit("reduce_bytes", &p::reduce_bytes,
        "bytes per element of the gradient reduction (0: the gradients' own)");
  visit("bucket", &p::bucket, "the rule sizing the last gradient bucket");
  visit("bucket_size", &p::bucket_size, "the bucket's size (bytes or elements, by its rule)");
  visit("bucket_per_rank", &p::bucket_per_rank, "elements the bucket grows by per rank");
  visit("reduction_overlap_needs_flag", &p::reduction_overlap_needs_flag,
        "below ZeRO-3 the gradient reduction hides only with overlap_comm");
  visit("zero2_reduces_each_micro_batch", &p::zero2_reduces_each_micro_batch,
        "ZeRO-2 reduces every micro-batch's gradients");
  visit("bf16_optimizer_at_zero1", &p::bf16_optimizer_at_zero1,
        "ZeRO-1 of bf16 with fp32 gradients runs DeepSpeed's BF16_Optimizer");
  visit("accumulation", &p::accumulation, "where micro-batch gradients accumulate");
  visit("fsdp2_copies", &p::fsdp2_copies, "FSDP2's copy-out and concatenation");
  visit("reads_zero3_per_tensor", &p::reads_zero3_per_tensor,
        "zero3_per_tensor is read (DeepSpeed's ZeRO-3 of v0.3.13 to v0.4.2)");
  visit("pipeline_reduces_after_backward", &p::pipeline_reduces_after_backward,
        "with a pipeline, gradients reduced only after the last micro-batch");
  visit("pipeline_zero_0_or_1_only", &p::pipeline_zero_0_or_1_only,
        "its pipeline engine takes ZeRO-0 or ZeRO-1 only");
  visit("pipeline_one_f_one_b_only", &p::pipeline_one_f_one_b_only, "its pipeline runs 1F1B only");
  visit("optimizer_in_backward_single_micro_batch", &p::optimizer_in_backward_single_micro_batch,
        "optimizer_in_backward needs one micro-batch per step and no pipeline");
  visit("async_tp_needs_compile", &p::async_tp_needs_compile,
        "tp_comm_overlap needs compiled_layers");
}

namespace profiles {

/// The papers' accounting: every collective exposed, the flat reserve, Korthikanti's bytes.
inline constexpr framework_profile generic{};

/// Megatron-Core (NVIDIA/Megatron-LM, core_r0.8.0 baf94af3 to d98e8a64): the distributed
/// optimizer and DDP shard over data x context (process_groups_config.py@d98e8a6); fp32 main
/// gradients (arguments.py@d98e8a6); the vocab-parallel cross-entropy's fp32 logits and softmax
/// (cross_entropy.py@d98e8a6); userbuffers with `--tp-comm-overlap`; the input-gradient
/// reduction launched before the weight gradient (layers.py@baf94af3); buckets of
/// max(4e7, 1e6·dp) parameters (distributed_data_parallel.py@baf94af3); Transformer Engine's
/// linear layers, which under fp8 keep an fp8 copy of their input (NVIDIA/TransformerEngine
/// linear.py and layernorm_linear.py at d0067d0d, v2.8 and v1.12 alike).
inline constexpr framework_profile megatron_core = [] {
  framework_profile p;
  p.base = training_framework::megatron_core;
  p.name = "megatron_core";
  p.source = "NVIDIA/Megatron-LM core_r0.8.0 (baf94af3) to d98e8a64";
  p.shards_states_over_context = true;
  p.fp32_main_gradients = true;
  p.holds_rematerialised_layer = true;
  p.loss = loss_memory::fp32_softmax;
  p.named_transients = true;
  p.tp_comm_overlap_method = tp_overlap_method::userbuffers;
  p.tp_backward = tp_backward_overlap::unless_synchronous;
  p.bucket = bucket_rule::ranks_scaled;
  p.bucket_size = 4e7;
  p.bucket_per_rank = 1e6;
  p.fp8_linear_inputs = true;
  return p;
}();

/// torchtitan (pytorch/torchtitan 9dec370 to b5bcd76): FSDP2 over data x context, on with
/// context parallelism (parallel_dims.py); op-level selective checkpointing; eager norms and
/// rotary unless compiled; DTensor's sequence-parallel copies and Float8 TP gathers
/// (parallelize.py); `repeat_kv` (llama/model.py@9dec370); PyTorch's ring attention; fp32
/// gradient reduction (config_manager.py@9dec370); FSDP2's copies
/// (_fsdp_collectives.py); no reshard after forward when pipelining (fsdp.py@b5bcd76);
/// async TP only compiled; the embedding and the output each counted as a layer when splitting
/// the pipeline (`pipeline_parallel_first_stage_less_layers` and `_last_stage_less_layers`, 1 by
/// default, configs.py@b5bcd76), a ragged split's extra layers on the earliest chunks
/// (`_generate_llm_fqn_per_model_part`, pipeline_parallel.py@b5bcd76; at 9dec370
/// `generate_split_points` gave them to the stages after the first, the same for two ends
/// counted as layers).
inline constexpr framework_profile torchtitan = [] {
  framework_profile p;
  p.base = training_framework::torchtitan;
  p.name = "torchtitan";
  p.source = "pytorch/torchtitan 9dec370 to b5bcd76";
  p.shards_states_over_context = true;
  p.context_enables_fsdp = true;
  p.selective = selective_recompute::op_level;
  p.holds_rematerialised_layer = true;
  p.loss = loss_memory::torchtitan;
  p.fsdp_gathered_across_micro_batches = true;
  p.named_transients = true;
  p.eager_modules = true;
  p.tp_comm_overlap_method = tp_overlap_method::symmetric_memory;
  p.sequence_collectives_copy = true;
  p.float8_sequence_gathers = true;
  p.repeats_kv = true;
  p.pytorch_ring_attention = true;
  p.reduce_bytes = 4.0;
  p.bucket = bucket_rule::layer;
  p.bucket_size = 0.0;
  p.fsdp2_copies = true;
  p.async_tp_needs_compile = true;
  p.pipeline_embedding_weight = 1;
  p.pipeline_loss_weight = 1;
  p.pipeline_extra_layers_early = true;
  return p;
}();

/// DeepSpeed (microsoft/DeepSpeed v0.3.16 to 38327e07): ZeRO as `generic` shards it, the flat
/// reserve; `overlap_comm` off below ZeRO-3 (zero/config.py@38327e07), ZeRO-2 reducing each
/// micro-batch and autograd accumulating below it (stage_1_and_2.py at v0.6.0), BF16_Optimizer
/// at ZeRO-1 (engine.py, bf16_optimizer.py@56c52238), 5e8-element buckets, the pipeline engine
/// reducing after the last micro-batch (pipe/engine.py) with 1F1B and ZeRO-1 at most.
inline constexpr framework_profile deepspeed = [] {
  framework_profile p;
  p.base = training_framework::deepspeed;
  p.name = "deepspeed";
  p.source = "microsoft/DeepSpeed v0.3.16 to 38327e07";
  p.holds_rematerialised_layer = true;
  p.loss = loss_memory::fp32_softmax;
  p.bucket = bucket_rule::elements;
  p.bucket_size = deepspeed_reduce_bucket_elements;
  p.reduction_overlap_needs_flag = true;
  p.zero2_reduces_each_micro_batch = true;
  p.bf16_optimizer_at_zero1 = true;
  p.accumulation = gradient_accumulation::autograd_in_place;
  p.reads_zero3_per_tensor = true;
  p.pipeline_reduces_after_backward = true;
  p.pipeline_zero_0_or_1_only = true;
  p.pipeline_one_f_one_b_only = true;
  return p;
}();

/// MaxText (AI-Hypercomputer/maxtext 76bd53b, memory read at e591f30): sharding as `generic`,
/// `minimal_with_context` as its selective policy, XLA's windowed einsum on TPU and its
/// latency-hiding scheduler beside the weight gradients, a layer's gradients at a time (an
/// assumption). Its memory is XLA's buffer assignment of the compiled step (MaxText prints the
/// executable's argument + output + temp - alias, `print_compiled_memory_stats`,
/// src/maxtext/utils/max_utils.py:805-826 at e591f30): no reserve. Each weight is cast to the
/// working dtype where it is used (`jnp.asarray(kernel, self.dtype)`, layers/linears.py:297) and
/// gathered for that einsum inside the scanned layer, whose rematerialisation shares the gathers
/// (`prevent_cse` off under `scan_layers`, maxtext_utils.py:199-200); the next layer's weights are
/// gathered early only under `--xla_tpu_enable_ag_backward_pipelining`, which is not modelled. The
/// cross-entropy's fp32 residuals and gradient (its custom VJP, max_utils.py:659-713) are dead
/// once the output head's backward has run, before the scanned layers' backward.
inline constexpr framework_profile maxtext = [] {
  framework_profile p;
  p.base = training_framework::maxtext;
  p.name = "maxtext";
  p.source = "AI-Hypercomputer/maxtext 76bd53b";
  p.selective = selective_recompute::minimal_with_context;
  p.holds_rematerialised_layer = true;
  p.loss = loss_memory::fp32_softmax;
  p.compiled_buffer_assignment = true;
  p.gathers_per_weight = true;
  p.loss_apart_from_layer_buffers = true;
  p.tpu_tp_overlap = tp_overlap_method::windowed_einsum;
  p.tp_backward = tp_backward_overlap::always;
  p.bucket = bucket_rule::layer;
  p.bucket_size = 0.0;
  return p;
}();

/// torchtune (pytorch/torchtune 1814feb17a): eager fp32 norms and modules unless compiled
/// (rms_norm.py), its fp32 output and losses (transformer.py, ce_chunked_output_loss.py),
/// gradients set to None each step and `optimizer_in_bwd` with one micro-batch
/// (full_finetune_single_device.py), FSDP2's layer-wise buckets.
inline constexpr framework_profile torchtune = [] {
  framework_profile p;
  p.base = training_framework::torchtune;
  p.name = "torchtune";
  p.source = "pytorch/torchtune 1814feb17a";
  p.eager_module_storage = true;
  p.holds_rematerialised_layer = true;
  p.loss = loss_memory::torchtune;
  p.named_transients = true;
  p.frees_gradients_each_step = true;
  p.eager_modules = true;
  p.bucket = bucket_rule::layer;
  p.bucket_size = 0.0;
  p.optimizer_in_backward_single_micro_batch = true;
  return p;
}();

}  // namespace profiles

/// The profile of a framework family as shipped.
constexpr const framework_profile& profile_of(training_framework f) {
  switch (f) {
    case training_framework::generic: return profiles::generic;
    case training_framework::megatron_core: return profiles::megatron_core;
    case training_framework::torchtitan: return profiles::torchtitan;
    case training_framework::deepspeed: return profiles::deepspeed;
    case training_framework::maxtext: return profiles::maxtext;
    case training_framework::torchtune: return profiles::torchtune;
  }
  return profiles::generic;
}

/// Whether the memory validation holds measured peaks of the family (tests/validation/
/// memory_runs_*.hpp): the papers' accounting, Megatron-Core, torchtitan and torchtune; none of
/// DeepSpeed or MaxText.
constexpr bool memory_measured_framework(training_framework f) {
  return f == training_framework::generic || f == training_framework::megatron_core ||
         f == training_framework::torchtitan || f == training_framework::torchtune;
}

/// The name a framework family goes by in reports and plan files.
constexpr std::string_view framework_name(training_framework f) { return profile_of(f).name; }

}  // namespace shardplan

