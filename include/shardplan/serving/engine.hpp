// Serving engines as named behaviours: what each one's kernels reach of the chip (the share of
// HBM bandwidth a decode GEMM reads its weights at, per weight format; the share the paged
// attention kernel reads the cache at), its fixed costs per decode step and per layer, the latency
// of its small-message tensor-parallel all-reduce, how much memory it gives the cache, how many
// requests it batches, and whether it batches continuously. `roofline` is the book's model: peak
// bandwidth, no overhead. Every figure cites the measurement it comes from
// (tests/validation/SERVING.md has the calibration).
#pragma once

#include <cstdint>
#include <string_view>

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/fitted.hpp>

namespace shardplan {

/// The engines a serving plan can name. `generic` (the default) is what the measured engines
/// share; `roofline` is the book's bound (How to Scale Your Model, inference.md): every read at
/// the datasheet bandwidth, every FLOP at peak, nothing else.
enum class serving_engine : std::uint8_t { generic, roofline, pytorch, vllm, tensorrt_llm, sglang };

constexpr std::string_view name_of(serving_engine e) {
  switch (e) {
    case serving_engine::generic: return "generic";
    case serving_engine::roofline: return "roofline";
    case serving_engine::pytorch: return "pytorch";
    case serving_engine::vllm: return "vllm";
    case serving_engine::tensorrt_llm: return "tensorrt_llm";
    case serving_engine::sglang: return "sglang";
  }
  return "?";
}

/// What an engine does on a chip, as the serving model uses it.
struct engine_figures {
  serving_engine engine = serving_engine::generic;
  /// Share of the HBM bandwidth at which a decode-step GEMM reads its weights, by stored format:
  /// bf16/fp16, fp8 (multiplied in fp8 or converted), int8 and int4 weight-only (dequantised to
  /// the compute format inside the kernel). fp4 uses the int4 figure.
  double weight_read_16 = 1.0;
  double weight_read_8 = 1.0;
  double weight_read_int8 = 1.0;
  double weight_read_int4 = 1.0;
  double kv_read = 1.0;  ///< share of HBM bandwidth the decode attention kernel reads the cache at
  seconds layer_overhead{};     ///< per layer and step: kernel launches and their gaps
  seconds sequence_overhead{};  ///< per decoding sequence and step: sampling, bookkeeping
  seconds all_reduce_latency{};  ///< one small-message all-reduce over NVLink (its floor)
  /// Share of the link bandwidth the tensor all-reduce reaches on top of its latency.
  double all_reduce_share = 1.0;
  /// Tokens one step processes at most, decode and prefill chunks together (0: no limit):
  /// TensorRT-LLM's `max_num_tokens`, vLLM's `max_num_batched_tokens`, SGLang's
  /// `chunked_prefill_size`.
  std::int64_t max_step_tokens = 0;
  /// What holds the cache: this share of the memory left after the weights and `runtime`
  /// (`kv_share_of_free`, TensorRT-LLM's `free_gpu_memory_fraction`), or of the whole memory
  /// less the weights and `runtime` (vLLM's `gpu_memory_utilization`, SGLang's
  /// `mem_fraction_static`).
  double kv_memory_share = 1.0;
  bool kv_share_of_free = false;
  bytes runtime{};  ///< CUDA context, activations and workspace outside the cache
  std::int64_t max_batch = 0;    ///< requests batched at most (0: no limit but memory)
  bool continuous_batching = true;  ///< requests join and leave between steps, prefill chunked in
  bool cuda_graphs = true;          ///< the decode step is replayed as a graph
  /// What launching a decode step's kernels one by one adds per layer when they are not replayed
  /// as a graph: 47 us, vLLM's measurement on LLaMA-2 7B (PR #1440: a 5-in/100-out request
  /// took 1.2 s without and 1.05 s with CUDA graphs, 1.5 ms a step over 32 layers).
  seconds eager_layer_overhead = 47e-6 * second;
};

/// The share of HBM bandwidth `e` reads weights stored in `f` at.
constexpr double weight_read_share(const engine_figures& e, number_format f) {
  switch (f) {
    case number_format::int8: return e.weight_read_int8;
    case number_format::int4:
    case number_format::fp4: return e.weight_read_int4;
    case number_format::fp8: return e.weight_read_8;
    default: return e.weight_read_16;
  }
}

/// The kernels' figures every named engine shares, fitted on the serving validation's
/// calibration half (`fitted::weight_read_16` and the others, hardware/fitted.hpp).
constexpr engine_figures shared_engine_figures() {
  engine_figures f;
  f.weight_read_16 = fitted::weight_read_16;
  f.weight_read_8 = fitted::weight_read_8;
  f.weight_read_int8 = fitted::weight_read_int8;
  f.weight_read_int4 = fitted::weight_read_int4;
  f.kv_read = fitted::kv_read;
  f.layer_overhead = fitted::layer_overhead;
  f.sequence_overhead = fitted::sequence_overhead;
  f.all_reduce_latency = fitted::all_reduce_latency;
  f.all_reduce_share = fitted::all_reduce_share;
  f.runtime = 2.0 * giga * byte;  // memory.hpp's fixed reserve: context, activations, workspace
  return f;
}

/// The engine's figures: the shared kernel figures and each engine's own batching and memory
/// defaults, read from its source:
/// - `tensorrt_llm`: `BuildConfig` max_batch_size 2048 and max_num_tokens 8192
///   (NVIDIA/TensorRT-LLM tensorrt_llm/builder.py @008b2b8), the cache in 0.95 of the memory
///   left free (`--kv_cache_free_gpu_mem_fraction 0.95`, its perf-overview page @258c754);
/// - `vllm`: max_num_seqs 256 and max_num_batched_tokens 8192 (`SchedulerConfig`), cache and
///   weights in 0.9 of the memory (`gpu_memory_utilization`);
/// - `sglang`: chunked_prefill_size 8192, cache and weights in 0.88 of the memory
///   (`mem_fraction_static` on 80 GB parts, python/sglang/srt/server_args.py);
/// - `pytorch`: a plain loop (gpt-fast's generate.py): one static batch, prefill then decode, a
///   static cache in the memory after the reserve; CUDA graphs (torch.compile reduce-overhead);
/// - `generic`: continuous batching with vLLM's limits;
/// - `roofline`: the book's bound, every figure 1 and no overhead.
constexpr engine_figures engine_figures_of(serving_engine e) {
  if (e == serving_engine::roofline) {
    engine_figures f;
    f.engine = e;
    return f;
  }
  engine_figures f = shared_engine_figures();
  f.engine = e;
  f.kv_memory_share = 0.9;
  f.max_batch = 256;
  f.max_step_tokens = 8192;
  switch (e) {
    case serving_engine::tensorrt_llm:
      f.kv_memory_share = 0.95;
      f.kv_share_of_free = true;
      f.max_batch = 2048;
      break;
    case serving_engine::sglang:
      f.kv_memory_share = 0.88;
      f.max_batch = 0;
      break;
    case serving_engine::pytorch:
      f.continuous_batching = false;
      f.kv_memory_share = 1.0;
      f.max_batch = 0;
      f.max_step_tokens = 0;
      f.sequence_overhead = 0.0 * second;
      break;
    default: break;
  }
  return f;
}

}  // namespace shardplan
