// What a training plan sets besides its model: parallel degrees, batch, recomputation,
// precision, reserve, the framework that runs it (`framework_profile`) and that framework's
// flags as the plan gives them.
#pragma once

#include <cstdint>
#include <string_view>

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/models/activations.hpp>
#include <shardplan/training/framework.hpp>
#include <shardplan/training/precision.hpp>

namespace shardplan {
/// Pipeline schedules. Their in-flight micro-batches set the first stage's activation memory.
enum class pipeline_schedule : std::uint8_t {
  gpipe,  ///< all forwards, then all backwards (Huang et al. 2019): every micro-batch in flight
  one_f_one_b,  ///< PipeDream-Flush 1F1B (Narayanan et al. 2021): p micro-batches in flight
  interleaved,  ///< interleaved 1F1B with v virtual stages per device (Narayanan et al. 2021)
  zero_bubble,  ///< ZB-H1 (Qi et al. 2024): 1F1B's memory, a third of its bubble
};

/// The schedule's name in diagnostics and charts ("GPipe", "1F1B", "interleaved 1F1B", "ZB-H1").
constexpr std::string_view schedule_name(pipeline_schedule s) {
  switch (s) {
    case pipeline_schedule::gpipe: return "GPipe";
    case pipeline_schedule::one_f_one_b: return "1F1B";
    case pipeline_schedule::interleaved: return "interleaved 1F1B";
    case pipeline_schedule::zero_bubble: return "ZB-H1";
  }
  return "?";
}

/// The degree of each parallelism: products of the mesh axes each strategy uses.
struct parallel_degrees {
  std::int64_t data = 1;         ///< replicas of the batch (every data-parallel axis, ZeRO's too)
  std::int64_t zero_stage = 0;   ///< 0 (plain data parallel), 1, 2 or 3 (FSDP)
  std::int64_t zero = 1;         ///< devices that shard the dense model states under ZeRO
  std::int64_t zero_expert = 1;  ///< devices that shard expert states (ZeRO axes not used by EP)
  std::int64_t tensor = 1;
  bool sequence_parallel = false;
  std::int64_t context = 1;
  std::int64_t pipeline = 1;
  pipeline_schedule schedule = pipeline_schedule::one_f_one_b;
  std::int64_t virtual_stages = 1;  ///< model chunks per device (interleaved schedule)
  bool uneven_stages = false;       ///< stages may hold ceil or floor of layers / (p·v)
  /// Layers of the first and of the last pipeline stage, the other stages splitting the rest
  /// evenly (Megatron-Core's `--decoder-first-pipeline-num-layers` and
  /// `--decoder-last-pipeline-num-layers`); 0: the stage holds its share of the split
  /// (`layers_on_stage`, memory.hpp).
  std::int64_t first_stage_layers = 0;
  std::int64_t last_stage_layers = 0;
  std::int64_t expert = 1;
};

/// The batch of one optimizer step.
struct batch_settings {
  std::int64_t global_tokens = 0;  ///< tokens per step (64-bit: 16 M and more)
  std::int64_t seq_len = 0;        ///< tokens per sequence
  std::int64_t micro_batch = 1;    ///< sequences per micro-batch per data-parallel replica
};

/// Memory held back from the plan: framework workspace and allocator fragmentation.
/// `fixed` is charged once per device; `fraction` of every other term on top.
struct memory_reserve {
  bytes fixed{};
  double fraction = 0.0;
};

/// The default reserve, an assumption rather than a measurement: 2 GB for the CUDA context,
/// cuBLAS and NCCL workspaces and communication buffers, plus 5% of the rest for allocator
/// fragmentation (PyTorch's caching allocator rounds blocks up).
inline constexpr memory_reserve default_reserve{2.0 * giga * byte, 0.05};

/// Which transients a plan's memory charges on top of its model states, activations and buffers.
/// - `framework` (the default): the framework's. Under `profiles::generic` that is the
///   flat `reserve` (2 GB + 5% of everything planned unless `reserve<>` says otherwise), exactly as
///   before; under a named framework the named terms of `transient_memory` (CUDA context and
///   cuBLAS workspace, NCCL buffers, optimizer-step temporaries, allocator fragmentation) instead.
/// - `book`: nothing at all, How to Scale Your Model's convention (its memory sums count model
///   states and activations only), so that the book's answers reproduce.
/// - `reserve`: the flat `reserve` under every framework (what `reserve<>` asks for).
enum class training_memory_policy : std::uint8_t { framework, book, reserve };

/// The name a memory policy goes by in reports and plan files.
constexpr std::string_view memory_policy_name(training_memory_policy p) {
  switch (p) {
    case training_memory_policy::framework: return "framework";
    case training_memory_policy::book: return "book";
    case training_memory_policy::reserve: return "reserve";
  }
  return "?";
}

/// The memory model's measured error band (`fitted::memory_error_band`, hardware/fitted.hpp).
inline constexpr double memory_error_band = fitted::memory_error_band;

/// What a plan keeps in host memory instead of the device's, as the frameworks' offload options
/// place it (the importers set these from the options they read):
/// - DeepSpeed's `offload_optimizer` (ZeRO-Offload): the fp32 master weights and Adam's moments
///   (`optimizer` 1), the fp32 gradient partition (`host_gradient_bytes` 4) and a bf16 copy of
///   the parameter partition (`host_staging_bytes` 2) in pinned host memory; at ZeRO-2 and -3 the
///   device keeps no gradient partition (`gradients_on_host`), at ZeRO-1 its whole bf16
///   gradients until the backward ends (deepspeed/runtime/zero/stage_1_and_2.py and stage3.py at
///   deepspeedai/DeepSpeed edaa7221267243c7be7fb49c5d5f5c4fb97b4641); `offload_param` (ZeRO-3)
///   moves the parameter partition too (`parameters_on_host`);
/// - Megatron-Core's `--optimizer-cpu-offload` with `--optimizer-offload-fraction` φ (default
///   1.0): φ of the master weights and moments and their fp32 gradients (4·φ) on the host, the
///   device keeping its bf16 parameters and gradient buffer (megatron/core/optimizer/
///   hybrid_optimizer.py at NVIDIA/Megatron-LM d98e8a64);
/// - FSDP2's `CPUOffloadPolicy` (torchtitan's `enable_cpu_offload`): the sharded fp32 parameters,
///   gradients and optimizer states on the host, the device holding only what is gathered.
struct offload_policy {
  double optimizer = 0.0;           ///< share of master weights and optimizer states on the host
  bool gradients_on_host = false;   ///< the device holds no gradient shard
  bool parameters_on_host = false;  ///< the device holds no parameter shard (only gathered ones)
  double host_gradient_bytes = 0.0;  ///< bytes per parameter of the gradient shard on the host
  double host_staging_bytes = 0.0;   ///< bytes per parameter of another host copy of the shard

  /// Whether anything is offloaded.
  constexpr bool any() const {
    return optimizer > 0.0 || gradients_on_host || parameters_on_host ||
           host_gradient_bytes > 0.0 || host_staging_bytes > 0.0;
  }
  friend constexpr bool operator==(const offload_policy&, const offload_policy&) = default;
};

/// The offload options of the frameworks as `offload_policy` describes them.
namespace offloads {
/// DeepSpeed's `offload_optimizer` at ZeRO-2: master weights, moments, the fp32 gradient partition
/// and a bf16 copy of the parameters on the host, no gradient partition on the device.
inline constexpr offload_policy zero_offload{1.0, true, false, 4.0, 2.0};
/// DeepSpeed's `offload_optimizer` at ZeRO-1: as `zero_offload`, but the device keeps its whole
/// bf16 gradients until the backward pass ends (ZeRO-1 reduces then).
inline constexpr offload_policy zero1_offload{1.0, false, false, 4.0, 2.0};
/// DeepSpeed's `offload_optimizer` at ZeRO-3: master weights, moments, the fp32 gradients and
/// the bf16 gradient partition (`grad_partitions_flat_buffer`, on the host when offloading).
inline constexpr offload_policy zero3_offload{1.0, true, false, 6.0, 0.0};
/// DeepSpeed's ZeRO-Infinity on the CPU: `zero3_offload` with `offload_param`.
inline constexpr offload_policy zero3_offload_parameters{1.0, true, true, 6.0, 0.0};
/// Megatron-Core's `--optimizer-cpu-offload` with `--optimizer-offload-fraction 1.0` (its
/// default): master weights, moments and their fp32 gradients on the host.
inline constexpr offload_policy megatron_optimizer_offload{1.0, false, false, 4.0, 0.0};
}  // namespace offloads

/// Everything the memory model needs besides the model: degrees, batch, recomputation,
/// precision, reserve and whether dropout masks are stored.
struct training_setup {
  parallel_degrees degrees{};
  batch_settings batch{};
  recompute_policy recompute{};
  precision_policy precision{};
  offload_policy offload{};
  memory_reserve reserve = default_reserve;
  bool dropout = false;
  bool eager_attention = false;  ///< s x s scores materialised (no flash-attention kernel)
  /// The fused attention kernel (ignored with `eager_attention`); `automatic`: the chip's usual.
  attention_kernel attention = attention_kernel::automatic;
  /// The framework whose allocations are charged (`generic`: the papers' accounting).
  framework_profile framework = profiles::generic;
  /// Megatron-Core's `--grad-reduce-in-bf16`: main gradients in the parameters' format instead
  /// of fp32 (read where the profile has `fp32_main_gradients`).
  bool grad_reduce_in_bf16 = false;
  /// torchtitan's loss under `torch.compile` (`--training.compile`, which compiles the loss from
  /// torchtitan bbb1b616e, 2025-04-02, on; only read under torchtitan's `loss_memory`):
  /// the fused cross-entropy keeps the bf16 logits and writes a bf16 gradient (`logit_bytes`).
  bool compiled_loss = false;
  /// The transformer layers under `torch.compile`: torchtitan's `--training.compile` (which
  /// compiles each `TransformerBlock`) or torchtune's `compile: True` (`training.compile_model`
  /// compiles each `TransformerSelfAttentionLayer`; the same flag compiles the loss,
  /// `compiled_loss`). Read under those two frameworks: their norms, rotary embedding and
  /// activation run fused rather than as eager modules (`eager_modules_of`, operations.hpp); under
  /// torchtune the compiled norms also keep their bf16 input instead of an fp32 copy
  /// (`torchtune_layer_bytes`; torchtitan's compiled memory is not modelled).
  bool compiled_layers = false;
  /// torchtune's `CEWithChunkedOutputLoss` (8 chunks, its default): the output projection and
  /// the fp32 cross-entropy run chunk by chunk (`logit_bytes`; only read under torchtune).
  bool chunked_loss = false;
  /// torchtune's `optimizer_in_bwd: True`: each parameter's optimizer step runs in a hook as soon
  /// as its gradient is accumulated, and the gradient is freed, so no moment holds every gradient
  /// (`peak_phases`; only read under torchtune, which requires one micro-batch per step).
  bool optimizer_in_backward = false;
  /// DeepSpeed's ZeRO-3 as v0.3.13 (its first, 2021-03-16) to v0.4.2 (2021-06-28) ran it with
  /// its default configuration: each parameter tensor gathered by a collective of its own after
  /// a `torch.cuda.synchronize()`, through PyTorch's list API, so nothing overlaps and each
  /// gather pays a host loop over the ranks; the fp16 gradients all-reduced bucket by bucket
  /// (`zero3_per_tensor_traffic`, cost.hpp). v0.4.3 reduce-scattered contiguous gradients by
  /// default and v0.5.5 coalesced the gathers. Only read under `deepspeed` with ZeRO-3.
  bool zero3_per_tensor = false;
  /// DeepSpeed's `zero_optimization.overlap_comm` at ZeRO-1 and -2: the gradient reduction runs
  /// on a side stream as the backward pass frees each bucket. Its default is false below stage 3
  /// (`overlap_comm_valid`, deepspeed/runtime/zero/config.py at 38327e07: `self.stage ==
  /// ZeroStageEnum.weights`), and then the reduction runs on the compute stream, hidden under
  /// nothing (`deepspeed_reduction_overlaps`, cost.hpp). Only read under `deepspeed` at ZeRO-1
  /// or -2.
  bool overlap_comm = false;
  /// Tensor-parallel collectives overlapped with the GEMMs they feed or drain, each GEMM split
  /// into chunks along its tokens (`tp_overlap_of`, operations.hpp): Megatron-Core's
  /// `--tp-comm-overlap` (Transformer Engine's userbuffers) or torchtitan's
  /// `enable_async_tensor_parallel` (PyTorch's symmetric-memory async TP). Read under those two
  /// frameworks with tensor and sequence parallelism.
  bool tp_comm_overlap = false;
  /// Megatron-LM's `--no-async-tensor-model-parallel-allreduce`: without sequence parallelism,
  /// each column-parallel GEMM's input-gradient all-reduce finishes before its weight gradient
  /// starts, as all Megatron-LM before 83b1e42f (2022-02-13, which made it asynchronous) ran it
  /// (`tp_backward_beside_weight_gradient`, operations.hpp). Read only under `megatron_core`
  /// without sequence parallelism: with it Megatron-LM reduce-scatters asynchronously whatever
  /// the flag says (`LinearWithGradAccumulationAndAsyncCommunication.backward`).
  bool sync_tp_backward = false;
  /// Which transients are charged (`training_memory_policy`).
  training_memory_policy memory_policy = training_memory_policy::framework;
  /// The margin the memory verdict asks of the headroom, a fraction of the need (default: the
  /// measured error band, `memory_error_band`); `fits` stays strict whatever it is.
  double memory_margin = memory_error_band;
};

/// Whether DeepSpeed reads `overlap_comm` at this ZeRO stage: stages 1 and 2 (stage 3 overlaps
/// by default, stage 0 never; `training_setup::overlap_comm`).
constexpr bool deepspeed_reads_overlap_comm(std::int64_t zero_stage) {
  return zero_stage == 1 || zero_stage == 2;
}

}  // namespace shardplan
