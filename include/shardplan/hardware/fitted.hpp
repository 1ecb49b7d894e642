// Every figure of the model that was fitted on published runs, and every measured error the
// reports print, in one place: each is named once with the runs it comes from and the runner
// that fits or checks it. A refit edits this file; the tests read these names and check what
// follows from them. How each is fitted, and both halves' errors: tests/validation/RUNS.md,
// MEMORY.md and SERVING.md.
#pragma once

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

namespace shardplan::fitted {

// --- the training step (tests/validation/validate.cpp, RUNS.md) --------------------------------

/// The sustained share of a training step by chip family: what a step's GEMMs and memory-bound
/// kernels keep of their published fractions (`kernel_fractions::sustained`). Each is the value,
/// on a grid of 0.01 and capped at 1, that minimises the mean absolute error of the compute-bound
/// runs (exposed communication under 10%) of the validation's calibration half, refitted with
/// `flash1_backward` until neither moves.
/// Ampere: 25 runs (Narayanan et al. 2021 Table 1, BLOOM, llm-foundry).
inline constexpr double sustained_ampere = 0.81;
/// Hopper: 18 runs (llm-foundry, Megatron-Bridge). Part of it is the clock: a power-limited
/// H100-class GPU holds "from 1980MHz to 1575 MHz" under load against the 1.83 GHz its matrix
/// peak is stated at (deepseek-ai/DeepGEMM issue 120; 1575 / 1830 = 0.86).
inline constexpr double sustained_hopper = 0.76;
/// Blackwell: 5 runs (Megatron-Bridge).
inline constexpr double sustained_blackwell = 0.68;
/// TPU: 12 runs (PaLM, MaxText v4 and v5e).
inline constexpr double sustained_tpu = 0.91;
/// CPU: no training run was found; 1, nothing taken off.
inline constexpr double sustained_cpu = 1.0;

/// FlashAttention 1.x's backward fraction of the bf16 peak on Ampere, within the "25-40% of the
/// theoretical maximum FLOPs/s" the FlashAttention-2 paper gives FlashAttention (Dao 2023): the
/// value on a grid of 0.05 that leaves the 21 FlashAttention-1 runs of the calibration half
/// (llm-foundry's tables before 2024, A100 and H100) least biased (mean error -0.8%, mean
/// absolute 3.7%).
inline constexpr double flash1_backward = 0.30;

/// The step model's mean absolute error over every run of the validation on the family (both
/// halves), a fraction: what the reports print beside a step (`measured_step_error`). The
/// runner fails when one is more than half a point off what it measures. Ampere 80 runs, Hopper
/// 75, Blackwell 5 (all in the calibration half), TPU 23; CPUs never measured (-1).
inline constexpr double step_error_ampere = 0.051;
inline constexpr double step_error_hopper = 0.076;
inline constexpr double step_error_blackwell = 0.030;
inline constexpr double step_error_tpu = 0.061;
inline constexpr double step_error_cpu = -1.0;

// --- memory (tests/validation/memory_validate.cpp, MEMORY.md) ----------------------------------

/// The memory model's measured error band: the mean absolute error of `memory_per_device().total`
/// over the memory validation's published peaks with each run's framework, rounded up to a whole
/// percent (the runner fails unless it is its figure so rounded). A plan whose headroom is
/// smaller than this share of its need is `tight`.
inline constexpr double memory_error_band = 0.08;

// --- serving (tests/validation/serving_fit.cpp and serving_validate.cpp, SERVING.md) ------------

/// The kernel figures every named serving engine shares, fitted together by one coordinate
/// descent on the serving validation's calibration half (gpt-fast's batch-1 decode tables on
/// A100 and TensorRT-LLM 0.17's maximum-throughput tables on A100, H100 and H200, 50
/// measurements; mean absolute error 6.1% on them). serving_fit.cpp reruns the fit and fails
/// unless these are its optimum.
/// Weights read at these fractions of HBM bandwidth in bf16, fp8, int8 and int4 weight-only
/// (gpt-fast's own bandwidth columns give 69%, 52% and 42% for the whole step of Llama-2-7B,
/// which includes the fixed costs below).
inline constexpr double weight_read_16 = 0.825;
inline constexpr double weight_read_8 = 0.622;
inline constexpr double weight_read_int8 = 0.664;
inline constexpr double weight_read_int4 = 0.472;
/// The cache read (paged decode attention at large batch).
inline constexpr double kv_read = 0.944;
/// Kernel tails and gaps per layer and step, and per decoding sequence and step (sampling and
/// the batch manager's bookkeeping, continuous batching only).
inline constexpr seconds layer_overhead = 48e-6 * second;
inline constexpr seconds sequence_overhead = 8.2e-6 * second;
/// A tensor all-reduce's latency, and the share of the link bandwidth its bytes move at (the
/// custom one-shot kernels measure 4-12 us at 8-64 KB on H100: sglang PR #2904's tables).
inline constexpr seconds all_reduce_latency = 13e-6 * second;
inline constexpr double all_reduce_share = 0.584;

/// How far the serving estimate has measured from published runs: the mean absolute error (%)
/// of serving_validate.cpp per metric, over both halves. The runner fails when one is stale by
/// more than half a point.
struct serving_error_figures {
  double batch_1_decode = 0.0;
  double time_to_first_token = 0.0;
  double throughput = 0.0;
};
inline constexpr serving_error_figures serving_error{6.0, 14.0, 11.8};

/// True for the chips whose family the memory validation's peaks were measured on: NVIDIA's
/// NVLink-switched data-centre GPUs (its A100 and H100 runs, tests/validation/MEMORY.md).
constexpr bool memory_measured_family(const chip_figures& chip) {
  return chip.kind == chip_kind::gpu && chip.scale_up == scale_up_kind::switched;
}

/// True for the chips whose family the serving runs measured: NVIDIA's NVLink-switched data-centre
/// GPUs (the runs' A100, H100, H200 and B200). Elsewhere (CPU servers, TPUs, AMD's and Intel's
/// fully meshed parts, PCIe cards) the serving estimate is not validated.
constexpr bool serving_measured_family(const chip_figures& chip) {
  return chip.kind == chip_kind::gpu && chip.scale_up == scale_up_kind::switched;
}

}  // namespace shardplan::fitted
