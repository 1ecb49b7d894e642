// The published serving measurements of the serving validation runner (serving_validate.cpp).
// Each row is read from its source (tests/validation/SERVING_CANDIDATES_LATENCY.md and
// SERVING_CANDIDATES_THROUGHPUT.md hold the verbatim figures, their pins and what was derived);
// the split into calibration and held-out halves is by source and was fixed before calibrating
// (SERVING.md).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "shardplan/shardplan.hpp"

namespace validation {

using namespace shardplan;

enum class serving_half { calibration, held_out };

/// What the source measured.
enum class serving_metric : std::uint8_t {
  user_tokens_per_second,    ///< one request's output tokens/s (batch 1: wall time incl. prefill)
  time_to_first_token_ms,    ///< prefill of one prompt, milliseconds
  output_tokens_per_second,  ///< the whole group's output tokens/s at the stated load
};

constexpr const char* name_of(serving_metric m) {
  switch (m) {
    case serving_metric::user_tokens_per_second: return "tok/s/user";
    case serving_metric::time_to_first_token_ms: return "TTFT ms";
    case serving_metric::output_tokens_per_second: return "out tok/s";
  }
  return "?";
}

/// Models the catalogue lacks, from their Hugging Face configs.
namespace serving_models {
/// Mistral 7B v0.1 (`mistralai/Mistral-7B-v0.1` config.json): 32 layers, hidden 4096, 32 heads
/// of 128, 8 kv heads, intermediate 14336, vocab 32000, untied. Sliding-window attention (4096)
/// is ignored: every run here has contexts under 4096 tokens... or close to it.
inline constexpr model_shape mistral_7b = {.name = "mistral-7b",
                                           .layers = 32,
                                           .d_model = 4096,
                                           .d_ff = 14336,
                                           .heads = 32,
                                           .kv_heads = 8,
                                           .head_dim = 128,
                                           .vocab = 32000};
/// Mixtral 8x22B (`mistralai/Mixtral-8x22B-v0.1` config.json): 56 layers, hidden 6144, 48
/// heads of 128, 8 kv heads, 8 experts of 16384, top-2, vocab 32768.
inline constexpr model_shape mixtral_8x22b = {
    .name = "mixtral-8x22b",
    .layers = 56,
    .d_model = 6144,
    .d_ff = 0,
    .heads = 48,
    .kv_heads = 8,
    .head_dim = 128,
    .vocab = 32768,
    .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 16384}};
/// LLaMA-3.1 8B and 70B share LLaMA-3's shapes (vocab 128256, 8 kv heads).
}  // namespace serving_models

struct serving_run {
  std::string_view id;
  std::string_view source;
  serving_half half = serving_half::calibration;
  model_shape model{};
  chip_figures chip{};
  std::int64_t tensor = 1;
  serving_engine engine = serving_engine::generic;
  number_format weights = number_format::bf16;
  number_format kv = number_format::bf16;
  number_format compute = number_format::bf16;
  std::int64_t input = 0;
  std::int64_t output = 1;
  std::int64_t concurrency = 1;  ///< 0: maximum load
  serving_metric metric = serving_metric::user_tokens_per_second;
  double measured = 0.0;
  /// Expert parallelism with data-parallel attention over this many GPUs (0: none), and whether
  /// the GPUs are a disaggregated decode pool.
  std::int64_t expert_attention_data = 0;
  bool disaggregated = false;
  double per_node = 1.0;  ///< the measurement is per node of this many GPUs (1: per group)
  /// A finite benchmark: this many requests sent at once (0: a steady state), and whether their
  /// output lengths spread exponentially (capped at `longest_output`) about `output`.
  std::int64_t requests = 0;
  std::int64_t max_sequences = 0;  ///< the engine's request limit as the run set it (0: default)
  bool exponential_outputs = false;
  std::int64_t longest_output = 0;
  activation_scales scales = activation_scales::static_scales;  ///< 8-bit compute's scales
};

inline std::vector<serving_run> serving_runs() {
  using hardware::a100_80gb;
  using hardware::h100_sxm;
  using hardware::h200;
  using hardware::b200;
  using models::llama2_7b;
  using models::llama2_13b;
  using models::llama2_70b;
  using models::llama3_8b;
  using models::llama3_70b;
  using models::llama3_405b;
  using models::mixtral_8x7b;
  constexpr auto bf16 = number_format::bf16;
  constexpr auto fp8 = number_format::fp8;
  constexpr auto int8 = number_format::int8;
  constexpr auto int4 = number_format::int4;
  constexpr auto fp4 = number_format::fp4;
  constexpr auto cal = serving_half::calibration;
  constexpr auto held = serving_half::held_out;
  constexpr auto user = serving_metric::user_tokens_per_second;
  constexpr auto ttft = serving_metric::time_to_first_token_ms;
  constexpr auto out = serving_metric::output_tokens_per_second;
  constexpr auto pt = serving_engine::pytorch;
  constexpr auto trt = serving_engine::tensorrt_llm;
  constexpr auto vllm = serving_engine::vllm;
  constexpr auto sgl = serving_engine::sglang;
  const chip_figures a100 = a100_80gb::figures;
  const chip_figures h100 = h100_sxm::figures;
  const chip_figures h200c = h200::figures;
  const chip_figures b200c = b200::figures;
  const model_shape mistral = serving_models::mistral_7b;
  const model_shape m8x22 = serving_models::mixtral_8x22b;
  // gpt-fast: batch 1, a 5-token prompt, 200 generated tokens (generate.py's default), tokens/s
  // over the whole generate() call.
  const char* gf = "gpt-fast@32971d3";
  // clang-format off
  std::vector<serving_run> r = {
      // --- gpt-fast README @32971d3 (calibration): batch-1 decode on A100 80GB ------------------
      {"GF-01", gf, cal, llama2_7b::shape, a100, 1, pt, bf16, bf16, bf16, 5, 200, 1, user, 104.9},
      {"GF-02", gf, cal, llama2_7b::shape, a100, 1, pt, int8, bf16, bf16, 5, 200, 1, user, 155.58},
      {"GF-03", gf, cal, llama2_7b::shape, a100, 1, pt, int4, bf16, bf16, 5, 200, 1, user, 196.8},
      {"GF-04", gf, cal, llama2_70b::shape, a100, 1, pt, int8, bf16, bf16, 5, 200, 1, user, 19.13},
      {"GF-05", gf, cal, llama2_70b::shape, a100, 1, pt, int4, bf16, bf16, 5, 200, 1, user, 25.25},
      {"GF-06", gf, cal, llama3_8b::shape, a100, 1, pt, bf16, bf16, bf16, 5, 200, 1, user, 93.89},
      {"GF-07", gf, cal, llama3_8b::shape, a100, 1, pt, int8, bf16, bf16, 5, 200, 1, user, 137.64},
      {"GF-08", gf, cal, llama3_70b::shape, a100, 1, pt, int8, bf16, bf16, 5, 200, 1, user, 18.04},
      {"GF-11", gf, cal, llama2_7b::shape, a100, 2, pt, bf16, bf16, bf16, 5, 200, 1, user, 168.84},
      {"GF-12", gf, cal, llama2_7b::shape, a100, 4, pt, bf16, bf16, bf16, 5, 200, 1, user, 254.02},
      {"GF-13", gf, cal, llama2_7b::shape, a100, 8, pt, bf16, bf16, bf16, 5, 200, 1, user, 328.43},
      {"GF-14", gf, cal, llama2_70b::shape, a100, 2, pt, bf16, bf16, bf16, 5, 200, 1, user, 21.32},
      {"GF-15", gf, cal, llama2_70b::shape, a100, 4, pt, bf16, bf16, bf16, 5, 200, 1, user, 38.01},
      {"GF-16", gf, cal, llama2_70b::shape, a100, 8, pt, bf16, bf16, bf16, 5, 200, 1, user, 62.5},
      {"GF-18", gf, cal, llama3_8b::shape, a100, 2, pt, bf16, bf16, bf16, 5, 200, 1, user, 149.1},
      {"GF-19", gf, cal, llama3_8b::shape, a100, 4, pt, bf16, bf16, bf16, 5, 200, 1, user, 217.21},
      {"GF-20", gf, cal, llama3_8b::shape, a100, 8, pt, bf16, bf16, bf16, 5, 200, 1, user, 276.01},
      {"GF-21", gf, cal, llama3_70b::shape, a100, 2, pt, bf16, bf16, bf16, 5, 200, 1, user, 16.03},
      {"GF-22", gf, cal, llama3_70b::shape, a100, 4, pt, bf16, bf16, bf16, 5, 200, 1, user, 37.45},
      {"GF-23", gf, cal, llama3_70b::shape, a100, 8, pt, bf16, bf16, bf16, 5, 200, 1, user, 58.78},
      {"GF-27", gf, cal, llama2_70b::shape, a100, 8, pt, int8, bf16, bf16, 5, 200, 1, user, 80.44},
      {"GF-28", gf, cal, llama2_70b::shape, a100, 8, pt, int4, bf16, bf16, 5, 200, 1, user, 90.77},
      {"GF-29", gf, cal, llama3_70b::shape, a100, 8, pt, int8, bf16, bf16, 5, 200, 1, user, 75.58},
      {"GF-30", gf, cal, llama3_405b::shape, a100, 8, pt, int8, bf16, bf16, 5, 200, 1, user, 15.6},
      {"GF-39", gf, cal, mixtral_8x7b::shape, a100, 2, pt, bf16, bf16, bf16, 5, 200, 1, user, 96.67},
      {"GF-41", gf, cal, mixtral_8x7b::shape, a100, 8, pt, bf16, bf16, bf16, 5, 200, 1, user, 227.82},
      {"GF-42", gf, cal, mixtral_8x7b::shape, a100, 1, pt, int8, bf16, bf16, 5, 200, 1, user, 97.92},
      {"GF-45", gf, cal, mixtral_8x7b::shape, a100, 8, pt, int8, bf16, bf16, 5, 200, 1, user, 279.35},

      // --- TensorRT-LLM perf-overview @258c754, v0.17 (calibration): maximum load, FP8 ---------
      {"T01", "trtllm-perf@258c754", cal, llama3_8b::shape, h200c, 1, trt, fp8, fp8, fp8, 128, 128, 0, out, 29526.04},
      {"T02", "trtllm-perf@258c754", cal, llama3_8b::shape, h100, 1, trt, fp8, fp8, fp8, 128, 128, 0, out, 28836.77},
      {"T04", "trtllm-perf@258c754", cal, llama3_8b::shape, h100, 1, trt, fp8, fp8, fp8, 2048, 2048, 0, out, 9488.42},
      {"T05", "trtllm-perf@258c754", cal, llama3_8b::shape, h100, 1, trt, fp8, fp8, fp8, 5000, 500, 0, out, 3559.36},
      {"T06", "trtllm-perf@258c754", cal, llama3_8b::shape, h200c, 1, trt, fp8, fp8, fp8, 20000, 2000, 0, out, 1804.1},
      {"T07", "trtllm-perf@258c754", cal, llama3_8b::shape, a100, 1, trt, bf16, bf16, bf16, 128, 2048, 0, out, 5255.99},
      {"T08", "trtllm-perf@258c754", cal, llama3_70b::shape, h200c, 1, trt, fp8, fp8, fp8, 128, 2048, 0, out, 4165.68},
      {"T09", "trtllm-perf@258c754", cal, llama3_70b::shape, h100, 1, trt, fp8, fp8, fp8, 128, 2048, 0, out, 911.62},
      {"T10", "trtllm-perf@258c754", cal, llama3_70b::shape, h100, 2, trt, fp8, fp8, fp8, 1000, 1000, 0, out, 4390.53},
      {"T11", "trtllm-perf@258c754", cal, llama3_70b::shape, h100, 4, trt, fp8, fp8, fp8, 128, 2048, 0, out, 11511.93},
      {"T12", "trtllm-perf@258c754", cal, llama3_70b::shape, h200c, 4, trt, fp8, fp8, fp8, 500, 2000, 0, out, 12452.79},
      {"T13", "trtllm-perf@258c754", cal, llama3_70b::shape, h100, 8, trt, fp8, fp8, fp8, 2048, 128, 0, out, 1923.41},
      {"T14", "trtllm-perf@258c754", cal, llama3_70b::shape, h200c, 8, trt, fp8, fp8, fp8, 2048, 2048, 0, out, 11142.47},
      {"T15", "trtllm-perf@258c754", cal, llama3_70b::shape, h100, 8, trt, fp8, fp8, fp8, 20000, 2000, 0, out, 1512.6},
      {"T16", "trtllm-perf@258c754", cal, llama3_405b::shape, h200c, 8, trt, fp8, fp8, fp8, 128, 2048, 0, out, 5938.09},
      {"T17", "trtllm-perf@258c754", cal, llama3_405b::shape, h200c, 8, trt, fp8, fp8, fp8, 1000, 1000, 0, out, 3399.69},
      {"T18", "trtllm-perf@258c754", cal, mixtral_8x7b::shape, h200c, 1, trt, fp8, fp8, fp8, 5000, 500, 0, out, 2309.1},
      {"T19", "trtllm-perf@258c754", cal, mixtral_8x7b::shape, h100, 2, trt, fp8, fp8, fp8, 128, 2048, 0, out, 22830.08},
      {"T20", "trtllm-perf@258c754", cal, mixtral_8x7b::shape, h100, 8, trt, fp8, fp8, fp8, 1000, 1000, 0, out, 40631.71},
      {"T21", "trtllm-perf@258c754", cal, m8x22, h100, 8, trt, fp8, fp8, fp8, 128, 2048, 0, out, 25150.03},
      {"T22", "trtllm-perf@258c754", cal, m8x22, h200c, 8, trt, fp8, fp8, fp8, 2048, 2048, 0, out, 15798.59},
      {"T23", "trtllm-perf@258c754", cal, mistral, h100, 1, trt, fp8, fp8, fp8, 1000, 1000, 0, out, 16035.66},

      // --- TensorRT-LLM perf-overview @00f3768, v1.0-era PyTorch backend (held-out) -----------
      {"T24", "trtllm-perf@00f3768", held, llama3_70b::shape, b200c, 1, trt, fp4, fp8, fp4, 1000, 1000, 0, out, 7007},
      {"T25", "trtllm-perf@00f3768", held, llama3_70b::shape, h200c, 1, trt, fp8, fp8, fp8, 1000, 1000, 0, out, 2909},
      {"T26", "trtllm-perf@00f3768", held, llama3_70b::shape, h100, 2, trt, fp8, fp8, fp8, 128, 2048, 0, out, 6651},
      {"T30", "trtllm-perf@00f3768", held, llama3_405b::shape, b200c, 4, trt, fp4, fp8, fp4, 128, 2048, 0, out, 8020},
      {"T31", "trtllm-perf@00f3768", held, llama3_405b::shape, h200c, 8, trt, fp8, fp8, fp8, 2048, 2048, 0, out, 2948},
      {"T32", "trtllm-perf@00f3768", held, llama3_405b::shape, h100, 8, trt, fp8, fp8, fp8, 5000, 500, 0, out, 610},
      {"T33", "trtllm-perf@00f3768", held, llama3_8b::shape, h200c, 1, trt, fp8, fp8, fp8, 1000, 1000, 0, out, 17744},
      {"T34", "trtllm-perf@00f3768", held, llama3_8b::shape, h100, 1, trt, fp8, fp8, fp8, 2048, 128, 0, out, 3450},

      // --- TensorRT-LLM "Low Latency" tables, v0.9.0 (held-out): time to first token, batch 1 --
      {"TR-07", "trtllm-lowlat-v0.9", held, llama2_7b::shape, h200c, 1, trt, fp8, fp8, fp8, 128, 1, 1, ttft, 5.7},
      {"TR-08", "trtllm-lowlat-v0.9", held, llama2_7b::shape, h200c, 1, trt, fp8, fp8, fp8, 2048, 1, 1, ttft, 30.2},
      {"TR-09", "trtllm-lowlat-v0.9", held, llama2_70b::shape, h200c, 4, trt, fp8, fp8, fp8, 128, 1, 1, ttft, 17.8},
      {"TR-10", "trtllm-lowlat-v0.9", held, llama2_70b::shape, h200c, 4, trt, fp8, fp8, fp8, 2048, 1, 1, ttft, 103.0},
      {"TR-15", "trtllm-lowlat-v0.9", held, mistral, h100, 1, trt, fp8, fp8, fp8, 128, 1, 1, ttft, 6.5},
      {"TR-16", "trtllm-lowlat-v0.9", held, mistral, h100, 1, trt, fp8, fp8, fp8, 2048, 1, 1, ttft, 32.4},
      {"TR-17", "trtllm-lowlat-v0.9", held, mixtral_8x7b::shape, h100, 2, trt, fp8, fp8, fp8, 128, 1, 1, ttft, 13.4},
      {"TR-18", "trtllm-lowlat-v0.9", held, mixtral_8x7b::shape, h100, 2, trt, fp8, fp8, fp8, 2048, 1, 1, ttft, 89.5},
      {"TR-19", "trtllm-lowlat-v0.9", held, llama2_7b::shape, h100, 1, trt, fp8, fp8, fp8, 128, 1, 1, ttft, 6.3},
      {"TR-20", "trtllm-lowlat-v0.9", held, llama2_7b::shape, h100, 1, trt, fp8, fp8, fp8, 2048, 1, 1, ttft, 30.8},
      {"TR-21", "trtllm-lowlat-v0.9", held, llama2_70b::shape, h100, 4, trt, fp8, fp8, fp8, 128, 1, 1, ttft, 19.6},
      {"TR-22", "trtllm-lowlat-v0.9", held, llama2_70b::shape, h100, 8, trt, fp8, fp8, fp8, 2048, 1, 1, ttft, 85.1},
      {"TR-39", "trtllm-lowlat-v0.9", held, mistral, a100, 1, trt, bf16, bf16, bf16, 128, 1, 1, ttft, 16.3},
      {"TR-40", "trtllm-lowlat-v0.9", held, mistral, a100, 1, trt, bf16, bf16, bf16, 2048, 1, 1, ttft, 139.6},
      {"TR-43", "trtllm-lowlat-v0.9", held, llama2_7b::shape, a100, 1, trt, bf16, bf16, bf16, 128, 1, 1, ttft, 16.2},
      {"TR-44", "trtllm-lowlat-v0.9", held, llama2_7b::shape, a100, 1, trt, bf16, bf16, bf16, 2048, 1, 1, ttft, 132.4},
      {"TR-45", "trtllm-lowlat-v0.9", held, llama2_70b::shape, a100, 4, trt, bf16, bf16, bf16, 128, 1, 1, ttft, 45.6},
      {"TR-46", "trtllm-lowlat-v0.9", held, llama2_70b::shape, a100, 8, trt, bf16, bf16, bf16, 2048, 1, 1, ttft, 249.2},

      // --- H200 launch blog @1555478, TensorRT-LLM v0.5.0 (held-out): fixed batch, FP8 --------
      {"H01", "trtllm-h200launch@1555478", held, llama2_13b::shape, h200c, 1, trt, fp8, fp8, fp8, 128, 128, 1024, out, 11819},
      {"H02", "trtllm-h200launch@1555478", held, llama2_70b::shape, h200c, 1, trt, fp8, fp8, fp8, 128, 128, 512, out, 3014},
      {"H04", "trtllm-h200launch@1555478", held, llama2_70b::shape, h200c, 1, trt, fp8, fp8, fp8, 2048, 128, 64, out, 341},

      // --- vLLM v0.6.0 blog @c3a01c4 (held-out): requests/s read off its chart x output length -
      {"V01", "vllm-blog@c3a01c4", held, llama3_8b::shape, h100, 1, vllm, bf16, bf16, bf16, 202, 179, 0, out, 37.0 * 179},
      {"V04", "vllm-blog@c3a01c4", held, llama3_8b::shape, h100, 1, vllm, bf16, bf16, bf16, 462, 256, 0, out, 31.0 * 256},
      {"V07", "vllm-blog@c3a01c4", held, llama3_70b::shape, h100, 4, vllm, bf16, bf16, bf16, 202, 179, 0, out, 17.3 * 179},
      {"V09", "vllm-blog@c3a01c4", held, llama3_70b::shape, h100, 4, vllm, bf16, bf16, bf16, 462, 256, 0, out, 15.4 * 256},
      {"V02", "vllm-blog@c3a01c4", held, llama3_8b::shape, h100, 1, sgl, bf16, bf16, bf16, 202, 179, 0, out, 33.5 * 179},
  };
  // --- torchao quantization README @92dd5f5 (held-out): batch-1 decode with gpt-fast's method
  // (a 5-token prompt, 100 tokens, torch.compile reduce-overhead); H100 taken as the SXM part
  // (rule S8). fp8 "dq" rows quantise the activations dynamically at every linear layer.
  const char* ao = "torchao@92dd5f5";
  std::vector<serving_run> more = {
      {"AO-01", ao, held, llama3_8b::shape, h100, 1, pt, bf16, bf16, bf16, 5, 100, 1, user, 126.9},
      {"AO-02", ao, held, llama3_8b::shape, h100, 1, pt, int8, bf16, bf16, 5, 100, 1, user, 198.85},
      {"AO-03", ao, held, llama3_8b::shape, h100, 1, pt, int4, bf16, bf16, 5, 100, 1, user, 241.39},
      {"AO-04", ao, held, llama3_8b::shape, h100, 1, pt, fp8, bf16, bf16, 5, 100, 1, user, 178.46},
      {"AO-05", ao, held, llama3_8b::shape, h100, 1, pt, fp8, bf16, fp8, 5, 100, 1, user, 116.4},
      {"AO-06", ao, held, llama3_8b::shape, h100, 1, pt, fp8, bf16, fp8, 5, 100, 1, user, 154.63},
      {"AO-07", ao, held, llama2_7b::shape, a100, 1, pt, bf16, bf16, bf16, 5, 100, 1, user, 107.38},
      {"AO-09", ao, held, llama2_7b::shape, a100, 1, pt, int8, bf16, bf16, 5, 100, 1, user, 170.83},
      {"AO-11", ao, held, llama2_7b::shape, a100, 1, pt, int4, bf16, bf16, 5, 100, 1, user, 201.14},
      {"AO-12", ao, held, llama3_8b::shape, a100, 1, pt, bf16, bf16, bf16, 5, 100, 1, user, 95.64},
      {"AO-14", ao, held, llama3_8b::shape, a100, 1, pt, int8, bf16, bf16, 5, 100, 1, user, 153.03},
      {"AO-16", ao, held, llama3_8b::shape, a100, 1, pt, int4, bf16, bf16, 5, 100, 1, user, 180.8},
  };
  r.insert(r.end(), more.begin(), more.end());
  // --- LMSYS blog @2db4e40, SGLang with large-scale expert parallelism (held-out): the decode
  // pool of DeepSeek-V3 on 9 nodes of 8 H100 (EP72, data-parallel attention), 256 requests a GPU
  // at 2000 tokens of cache, 22,282 output tokens/s per node. Rule S7: fp8 weights and GEMMs,
  // bf16 cache (MLA), the 2000 tokens as the mean context (1000 in + 2000 out).
  serving_run s06{"S06", "lmsys-sglang-ep@2db4e40", held, models::deepseek_v3::shape, h100, 1,
                  sgl, fp8, bf16, fp8, 1000, 2000, 256 * 72, out, 22282.0};
  s06.expert_attention_data = 72;
  s06.disaggregated = true;
  s06.per_node = 8.0;
  r.push_back(s06);
  // Rule S9: the vLLM blog's benchmark sends its 500 prompts at once and ends when the last
  // is served; ShareGPT's output lengths spread exponentially about their mean (179), capped
  // where the benchmark drops samples (prompt + output over 2048 tokens: 2048 - 202); the
  // decode-heavy set's are fixed.
  for (serving_run& v : r)
    if (v.source == "vllm-blog@c3a01c4") {
      v.requests = 500;
      if (v.engine == vllm) v.max_sequences = 512;
      if (v.output == 179) {
        v.exponential_outputs = true;
        v.longest_output = 2048 - 202;
      }
    }
  // Rule S8: torchao's float8dq rows compute their activation scales at run time, AO-05 per
  // tensor (PerTensor), AO-06 per row (PerRow).
  for (serving_run& v : r) {
    if (v.id == "AO-05") v.scales = activation_scales::dynamic_tensor;
    if (v.id == "AO-06") v.scales = activation_scales::dynamic_row;
  }
  // clang-format on
  (void)fp4;
  return r;
}

/// The run as a serving plan: one node of its chip (eight of them on an NVLink switch), the run's
/// tensor parallelism on one axis. The runner and the calibration fit (serving_fit.cpp) share it.
inline serving_plan_values plan_of(const serving_run& r) {
  serving_plan_values p;
  p.model = r.model;
  system_figures s = systems::nvlink_fat_tree<hardware::h100_sxm, 16>::figures;
  s.chip = r.chip;
  s.name = "one node";
  p.system = s;
  if (r.expert_attention_data > 1)
    p.axes[p.axis_count++] = {"ep", r.expert_attention_data,
                              static_cast<std::uint8_t>(role_expert | role_attention_data), {}};
  if (r.tensor > 1) p.axes[p.axis_count++] = {"tp", r.tensor, role_tensor, {}};
  serving_setup& u = p.setup;
  u.engine = r.engine;
  u.weights = r.weights;
  u.kv = r.kv;
  u.compute = r.compute;
  u.prompt_tokens = r.input;
  u.generated_tokens = r.output;
  u.batch = r.concurrency > 0 ? r.concurrency : 1;
  u.max_load = r.concurrency == 0;
  u.disaggregated = r.disaggregated;
  u.requests = r.requests;
  u.max_sequences = r.max_sequences;
  u.scales = r.scales;
  u.outputs = r.exponential_outputs ? output_lengths::exponential : output_lengths::fixed;
  u.longest_output = r.longest_output;
  return with_max_load(p);
}

/// The run's metric as the plan `p` under the engine figures `e` predicts it (`out`: the
/// estimate it was read from).
inline double predicted(const serving_run& r, const serving_plan_values& p, const engine_figures& e,
                        serving_estimate& out) {
  out = estimate_serving_at(p, p.setup.batch, e);
  switch (r.metric) {
    case serving_metric::user_tokens_per_second:
      return out.output_tokens_per_second / static_cast<double>(p.setup.batch);
    case serving_metric::time_to_first_token_ms:
      return out.time_to_first_token.value() * 1e3;
    case serving_metric::output_tokens_per_second:
      return r.per_node > 1.0 ? out.output_tokens_per_second_per_device * r.per_node
                              : out.output_tokens_per_second;
  }
  return 0.0;
}

}  // namespace validation
