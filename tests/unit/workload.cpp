// Tests of engine.hpp and workload.hpp: a serving step as operations under an engine, continuous
// and static batching under a workload, the largest concurrency, the latency-throughput curve.
// Each expectation is derived here from the model's stated rules and the published figures they
// cite, not read back from the code.
#include <doctest/doctest.h>

#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/serving/serving_plan.hpp>
#include <shardplan/serving/workload.hpp>

namespace {

using namespace shardplan;

serving_plan_values one_node(const model_shape& m, const chip_figures& chip, std::int64_t tensor,
                             serving_engine engine, number_format weights,
                             number_format compute = number_format::bf16) {
  serving_plan_values p;
  p.model = m;
  p.system = systems::nvlink_fat_tree<hardware::h100_sxm, 1>::figures;
  p.system.chip = chip;
  if (tensor > 1) p.axes[p.axis_count++] = {"tp", tensor, role_tensor, {}};
  p.setup.engine = engine;
  p.setup.weights = weights;
  p.setup.compute = compute;
  p.setup.kv = compute == number_format::fp8 ? number_format::fp8 : number_format::bf16;
  return p;
}

/// LLaMA-3 8B on one H100 in bf16 under engine `e`, a benchmark of `requests` requests of
/// `prompt` and `output` tokens.
serving_plan_values benchmark_of(serving_engine e, std::int64_t prompt, std::int64_t output,
                                 std::int64_t requests) {
  serving_plan_values p = one_node(models::llama3_8b::shape, hardware::h100_sxm::figures, 1, e,
                                   number_format::bf16);
  p.setup.prompt_tokens = prompt;
  p.setup.generated_tokens = output;
  p.setup.requests = requests;
  return p;
}

}  // namespace

TEST_CASE(
    "an engine's batch-1 decode step: weights at its share of bandwidth plus its fixed costs") {
  // LLaMA-2 7B in bf16 on one A100 80GB under a plain PyTorch loop, a 5-token prompt, 200 tokens.
  serving_plan_values p = one_node(models::llama2_7b::shape, hardware::a100_80gb::figures, 1,
                                   serving_engine::pytorch, number_format::bf16);
  p.setup.prompt_tokens = 5;
  p.setup.generated_tokens = 200;
  const serving_estimate e = estimate_serving_at(p, 1);
  // Read each step: every parameter but the input embedding (a lookup of one row), 2 bytes each,
  // at the fitted bf16 weight-read share of 2.039 TB/s; 32 layers of the fitted fixed cost; the
  // cache of 105 tokens on average (2 x 32 heads x 128 x 32 layers x 2 B a token) at the fitted
  // cache-read share; the activations and norms are
  // negligible (under 1%).
  const parameter_counts c = parameters(models::llama2_7b::shape);
  const double weights = static_cast<double>(c.total - 32000LL * 4096) * 2.0;
  const double read = weights / (2.039e12 * fitted::weight_read_16);
  const double fixed = 32 * fitted::layer_overhead.value();
  const double kv = 105.0 * 2 * 32 * 128 * 32 * 2 / (2.039e12 * fitted::kv_read);
  const double step = read + fixed + kv;
  CHECK(e.decode_step.total.value() == doctest::Approx(step).epsilon(0.01).scale(0.0));
  // gpt-fast's README measures 104.9 tokens/s for this setup (calibration half): 9.53 ms.
  CHECK(1.0 / e.decode_step.total.value() == doctest::Approx(104.9).epsilon(0.03).scale(0.0));
}

TEST_CASE("the roofline engine's decode is the book's step: weights and cache at peak bandwidth") {
  // LLaMA-3 70B in bf16 on 8 H100, one sequence at 1 token of context: the book's T = (weights +
  // KV)/W plus its collectives; the roofline engine reads the same bytes at the same bandwidth
  // and charges the same collectives.
  serving_plan_values p = one_node(models::llama3_70b::shape, hardware::h100_sxm::figures, 8,
                                   serving_engine::roofline, number_format::bf16);
  p.setup.prompt_tokens = 0;
  p.setup.generated_tokens = 1;
  p.setup.batch = 1;
  const decode_cost book = estimate_decode(p);
  const serving_estimate e = estimate_serving_at(p, 1);
  CHECK(e.decode_step.total.value() == doctest::Approx(book.step.value()).epsilon(0.02).scale(0.0));
}

TEST_CASE("weight-only formats read fewer bytes at their own shares of bandwidth") {
  serving_plan_values p = one_node(models::llama3_8b::shape, hardware::a100_80gb::figures, 1,
                                   serving_engine::pytorch, number_format::bf16);
  p.setup.generated_tokens = 1;
  serving_plan_values q = p;
  q.setup.weights = number_format::int8;
  const double bf16 = estimate_serving_at(p, 1).decode_step.weight_read.value();
  const double int8 = estimate_serving_at(q, 1).decode_step.weight_read.value();
  // Half the bytes at the int8 weight-read share instead of bf16's: (1/2) x bf16's / int8's.
  CHECK(int8 / bf16 == doctest::Approx(0.5 * fitted::weight_read_16 / fitted::weight_read_int8)
                           .epsilon(1e-6)
                           .scale(0.0));
}

TEST_CASE("continuous batching carries input/output prompt tokens in every step") {
  serving_plan_values p = one_node(models::llama3_8b::shape, hardware::h100_sxm::figures, 1,
                                   serving_engine::vllm, number_format::bf16);
  p.setup.prompt_tokens = 512;
  p.setup.generated_tokens = 256;
  const serving_estimate e = estimate_serving_at(p, 64);
  // 64 requests decode; 64/256 of them finish a step and are replaced, each with 512 prompt
  // tokens: 128 prompt tokens a step, 2/3 of the step's 192 tokens.
  CHECK(e.step.tokens == doctest::Approx(64.0 + 128.0).scale(0.0));
  CHECK(e.prefill_share == doctest::Approx(128.0 / 192.0).scale(0.0));
  // The mean context of decoding requests: 512 + 256/2.
  CHECK(e.average_context == doctest::Approx(640.0).scale(0.0));
  // Each step gives each request one token: 64 tokens a step.
  CHECK(e.output_tokens_per_second == doctest::Approx(64.0 / e.step.total.value()).scale(0.0));
  CHECK(e.time_per_output_token.value() == doctest::Approx(e.step.total.value()).scale(0.0));
}

TEST_CASE("a step's token budget caps the requests that decode at once") {
  // TensorRT-LLM's max_num_tokens of 8192 at 2048 input and 128 output tokens: each decoding
  // request brings 16 prompt tokens a step, so at most 8192/17 = 481.9 of them fit in a step.
  serving_plan_values p = one_node(models::llama3_8b::shape, hardware::h200::figures, 1,
                                   serving_engine::tensorrt_llm, number_format::fp8,
                                   number_format::fp8);
  p.setup.prompt_tokens = 2048;
  p.setup.generated_tokens = 128;
  const serving_estimate e = estimate_serving_at(p, 1024);
  CHECK(e.step.tokens == doctest::Approx(8192.0).scale(0.0));
  CHECK(e.output_tokens_per_second ==
        doctest::Approx(8192.0 / 17.0 / e.step.total.value()).scale(0.0));
  // The 1024 requests take turns: each waits 1024/481.9 steps a token.
  CHECK(e.time_per_output_token.value() ==
        doctest::Approx(e.step.total.value() * 1024.0 / (8192.0 / 17.0)).scale(0.0));
}

TEST_CASE("a static batch prefills, then decodes: throughput is batch x output over both") {
  serving_plan_values p = one_node(models::llama3_8b::shape, hardware::h100_sxm::figures, 1,
                                   serving_engine::pytorch, number_format::bf16);
  p.setup.prompt_tokens = 1000;
  p.setup.generated_tokens = 100;
  const serving_estimate e = estimate_serving_at(p, 8);
  const engine_figures f = engine_figures_of(serving_engine::pytorch);
  const double prefill = serving_step(p, f, {0.0, 0.0, 8000.0, 1000.0}).total.value();
  const double decode = e.decode_step.total.value();
  CHECK(e.output_tokens_per_second ==
        doctest::Approx(8.0 * 100.0 / (prefill + 100.0 * decode)).scale(0.0));
  CHECK(e.prefill_share == 0.0);
}

TEST_CASE("the largest concurrency: TensorRT-LLM's cache in 0.95 of the memory left free") {
  // LLaMA-3 70B in fp8 on one H100 80GB: 70.55 GB of weights, 2 GB of runtime; the cache takes
  // 0.95 of the rest, 7.08 GB. A request at 128 in and 2048 out holds 128 + 1024 tokens on average,
  // 80 layers x 2 x 8 heads x 128 x 1 B = 163,840 B a token: 188.7 MB; 37 requests.
  serving_plan_values p = one_node(models::llama3_70b::shape, hardware::h100_sxm::figures, 1,
                                   serving_engine::tensorrt_llm, number_format::fp8,
                                   number_format::fp8);
  p.setup.prompt_tokens = 128;
  p.setup.generated_tokens = 2048;
  const parameter_counts c = parameters(models::llama3_70b::shape);
  const double free = (80e9 - static_cast<double>(c.total) - 2e9) * 0.95;
  const double per_request = 1152.0 * 80 * 2 * 8 * 128;
  const auto expected = static_cast<std::int64_t>(free / per_request);
  CHECK(estimate_serving_at(p, 1).max_concurrency == expected);
  CHECK(expected == 37);
  // At maximum load the plan's batch becomes that concurrency, and its caches fit.
  p.setup.max_load = true;
  const serving_plan_values loaded = with_max_load(p);
  CHECK(loaded.setup.batch == expected);
  CHECK(check(loaded).empty());
  CHECK(estimate_serving(loaded).fits);
}

TEST_CASE("the engines' own limits: vLLM batches at most 256 requests") {
  serving_plan_values p = one_node(models::llama3_8b::shape, hardware::h100_sxm::figures, 1,
                                   serving_engine::vllm, number_format::bf16);
  p.setup.prompt_tokens = 100;
  p.setup.generated_tokens = 100;
  CHECK(estimate_serving_at(p, 1).max_concurrency == 256);
  p.setup.engine = serving_engine::sglang;  // no request limit: the cache decides
  CHECK(estimate_serving_at(p, 1).max_concurrency > 256);
}

TEST_CASE("the latency-throughput curve doubles concurrency past the largest that fits") {
  serving_plan_values p = one_node(models::llama3_70b::shape, hardware::h100_sxm::figures, 1,
                                   serving_engine::tensorrt_llm, number_format::fp8,
                                   number_format::fp8);
  p.setup.prompt_tokens = 128;
  p.setup.generated_tokens = 2048;
  const latency_curve c = latency_curve_of(p);
  // 1, 2, 4, 8, 16, 32, the largest (37), 64: the last one does not fit.
  REQUIRE(c.count == 8);
  CHECK(c.points[0].concurrency == 1);
  CHECK(c.points[6].concurrency == 37);
  CHECK(c.points[6].estimate.fits);
  CHECK(c.points[7].concurrency == 64);
  CHECK_FALSE(c.points[7].estimate.fits);
  // More requests in flight: more tokens per second per device, fewer per user.
  for (std::size_t i = 1; i < c.count; ++i) {
    CHECK(c.points[i].estimate.output_tokens_per_second_per_device >
          c.points[i - 1].estimate.output_tokens_per_second_per_device);
    CHECK(c.points[i].estimate.output_tokens_per_second_per_user <
          c.points[i - 1].estimate.output_tokens_per_second_per_user);
  }
}

TEST_CASE("a serving plan type names its engine and serves at maximum load") {
  using plan = serving_plan<models::llama3_8b, systems::dgx_h100_superpod<1>, mesh<axis<"tp", 1>>,
                            tensor<"tp">, prompt_tokens<128>, generated_tokens<128>, engine::vllm,
                            max_load>;
  static_assert(plan::values.setup.engine == serving_engine::vllm);
  static_assert(plan::values.setup.max_load);
  static_assert(plan::values.setup.batch == 256);  // vLLM's max_num_seqs
  static_assert(plan::servable);
  CHECK(plan::serving().concurrency == 256);
}

TEST_CASE("without CUDA graphs a decode step pays vLLM's measured 47 us a layer more") {
  serving_plan_values p = one_node(models::llama2_7b::shape, hardware::a100_80gb::figures, 1,
                                   serving_engine::vllm, number_format::bf16);
  p.setup.prompt_tokens = 5;
  p.setup.generated_tokens = 100;
  serving_plan_values eager = p;
  eager.setup.cuda_graphs = false;
  const double graphs = estimate_serving_at(p, 1).decode_step.total.value();
  const double launched = estimate_serving_at(eager, 1).decode_step.total.value();
  // 32 layers x 47 us = 1.5 ms, the step vLLM's PR #1440 saved with graphs (12.0 -> 10.5 ms).
  CHECK((launched - graphs) * 1e6 ==
        doctest::Approx(32 * 47.0).scale(0.0));  // in us: Approx's floor
  // A prefill's kernels hide their launches: the time to first token does not change.
  CHECK(estimate_serving_at(eager, 1).time_to_first_token.value() ==
        doctest::Approx(estimate_serving_at(p, 1).time_to_first_token.value()).scale(0.0));
}

TEST_CASE("data-parallel attention: each rank runs its own share of the tokens and its own batch") {
  // DeepSeek-V3 decode on 72 H100, experts and attention both over "ep": a step of 72 x 256
  // requests puts 256 tokens through each rank's attention and dense layers, and each expert
  // gets 72 x 256 x 8 / 256 = 576 tokens. Against the same plan without data-parallel attention
  // (every rank would run all 18,432 tokens through attention), the dense GEMMs shrink 72-fold.
  serving_plan_values p;
  p.model = models::deepseek_v3::shape;
  p.system = systems::nvlink_fat_tree<hardware::h100_sxm, 9>::figures;
  p.axes[p.axis_count++] = {"ep", 72, static_cast<std::uint8_t>(role_expert | role_attention_data),
                            {}};
  p.setup.engine = serving_engine::sglang;
  p.setup.weights = number_format::fp8;
  p.setup.compute = number_format::fp8;
  p.setup.prompt_tokens = 1000;
  p.setup.generated_tokens = 2000;
  p.setup.disaggregated = true;
  const serving_estimate e = estimate_serving_at(p, 72 * 256);
  // A disaggregated decode pool prefills nothing.
  CHECK(e.prefill_share == 0.0);
  CHECK(e.step.tokens == doctest::Approx(72.0 * 256).scale(0.0));
  // Per-sequence costs are each rank's: 256 x 8.2 us, not 18,432 x 8.2 us.
  CHECK(e.step.overhead.value() == doctest::Approx(61 * fitted::layer_overhead.value() +
                                                   256 * fitted::sequence_overhead.value())
                                       .epsilon(1e-9)
                                       .scale(0.0));
  // The engine's limits hold per rank; SGLang has none but its cache.
  CHECK(e.max_concurrency >= 72 * 256);
}

TEST_CASE("2D weight-stationary plans read 1/tensor of the weights and pay the book's collectives") {
  // LLaMA-3 70B in int8 on a v5e 8x8, as inference.md Q7 lays it out: 4 ways over d_model (X)
  // and 16 over the heads and d_ff (YZ). Each chip holds 1/64 of every matrix, as a 1D plan of
  // tensor 64 does, so both read the same weight bytes in a decode step.
  using two_d = serving_plan<models::llama3_70b, systems::tpu_v5e_slice<8, 8>,
                             mesh<axis<"x", 4>, axis<"yz", 16>>, weight_stationary_2d<"x", "yz">,
                             weights<number_format::int8>, serve_batch<64>, prompt_tokens<2000>,
                             generated_tokens<48>, engine::named<serving_engine::generic>>;
  using one_d = serving_plan<models::llama3_70b, systems::tpu_v5e_slice<8, 8>,
                             mesh<axis<"tp", 64>>, tensor<"tp">, weights<number_format::int8>,
                             serve_batch<64>, prompt_tokens<2000>, generated_tokens<48>,
                             engine::named<serving_engine::generic>>;
  const serving_estimate a = estimate_serving_at(two_d::values, 64);
  const serving_estimate b = estimate_serving_at(one_d::values, 64);
  CHECK(a.decode_step.weight_read.value() ==
        doctest::Approx(b.decode_step.weight_read.value()).epsilon(1e-9).scale(0.0));
  // Its collectives are the four of Q7 (the roofline's list), each at the engine's link share
  // and latency: per layer two all-gathers and two reduce-scatters over YZ of [64, 8192/4] and
  // two all-reduces over X ([64, 28672/16] and [64, 8192/16]), 160 + 80 + 80 + 160 calls in all;
  // a 1D plan pays 160 all-reduces of [64, 8192] instead.
  const engine_figures e = engine_figures_of(serving_engine::generic);
  double expected = 0.0;
  for (const weight_stationary_collective& w :
       weight_stationary_collectives(two_d::values, 64.0, 2.0)) {
    collective_options bandwidth_only = two_d::values.setup.collectives;
    bandwidth_only.latency = false;
    expected += w.count * (collective_time(w.kind, w.array_bytes * byte, w.net, bandwidth_only) /
                               e.all_reduce_share +
                           e.all_reduce_latency)
                              .value();
  }
  CHECK(a.decode_step.communication.value() == doctest::Approx(expected).epsilon(1e-9).scale(0.0));
  CHECK(a.decode_step.communication.value() != b.decode_step.communication.value());
}

TEST_CASE("a finite benchmark is served to its end: waves of requests, their prefill and decode") {
  // Four requests of 10 prompt and 3 output tokens, two at a time, under the roofline engine
  // (no step budget): step 0 prefills two prompts (20 tokens) and yields their first tokens;
  // steps 1-2 decode both (contexts 11, then 12); step 3 admits and prefills the other two;
  // steps 4-5 decode them. Six steps, 12 output tokens; the drain starts at step 3.
  serving_plan_values p = benchmark_of(serving_engine::roofline, 10, 3, 4);
  const engine_figures f = engine_figures_of(serving_engine::roofline);
  const benchmark_run b = simulate_benchmark(p, f, 2);
  const double prefill = serving_step(p, f, {0.0, 0.0, 20.0, 10.0}).total.value();
  // Two decode steps at contexts 11 and 12: one step at their mean, twice.
  const double decode = serving_step(p, f, {2.0, 11.5, 0.0, 0.0}).total.value();
  CHECK(b.duration.value() == doctest::Approx(2.0 * prefill + 4.0 * decode).scale(0.0));
  CHECK(b.drain.value() == doctest::Approx(prefill + 2.0 * decode).scale(0.0));
  CHECK(b.output_tokens == 12.0);
  CHECK(b.steps == 6.0);
  CHECK(b.mean_decoding == doctest::Approx(8.0 / 6.0).scale(0.0));
  CHECK(b.longest == 3);
  // The estimate's throughput is the benchmark's: 12 tokens over its duration.
  const serving_estimate e = estimate_serving_at(p, 2, f);
  CHECK(e.output_tokens_per_second == doctest::Approx(12.0 / b.duration.value()).scale(0.0));
  CHECK(e.requests_per_second == doctest::Approx(4.0 / b.duration.value()).scale(0.0));
}

TEST_CASE("a step's token budget spreads a wave's prompts over steps, first come first served") {
  // vLLM's budget of 8192 tokens a step: 64 prompts of 512 tokens (32,768) take four steps, the
  // first 16 prompts starting to decode after the first, so step 1 carries 16 decoding
  // sequences and 8176 prompt tokens.
  serving_plan_values p = benchmark_of(serving_engine::vllm, 512, 64, 64);
  const engine_figures f = engine_figures_of(serving_engine::vllm);
  const benchmark_run b = simulate_benchmark(p, f, 64);
  // Prompt tokens total 32,768 = 8192 + 8176 + 8160 + 8144 + 96 more: five steps with prefill,
  // then decode until the last request's 63rd decode step: 63 after the fifth step's start.
  CHECK(b.output_tokens == 64.0 * 64.0);
  CHECK(b.steps == doctest::Approx(5.0 + 63.0).epsilon(0.02).scale(0.0));
  CHECK(b.longest == 64);
}

TEST_CASE("exponential output lengths keep their mean, respect their cap and mix in the order sent") {
  serving_setup s;
  s.outputs = output_lengths::exponential;
  s.generated_tokens = 179;
  // Uncapped: the quantiles of an exponential of mean 179; median 179 ln 2 = 124.
  double sum = 0.0;
  std::int64_t below_median = 0;
  const int n = 10000;
  for (int i = 0; i < n; ++i) {
    const std::int64_t l = benchmark_output_tokens(s, i, 179.0);
    sum += static_cast<double>(l);
    below_median += l <= 124 ? 1 : 0;
  }
  CHECK(sum / n == doctest::Approx(179.0).epsilon(0.01).scale(0.0));
  CHECK(static_cast<double>(below_median) / n == doctest::Approx(0.5).epsilon(0.02).scale(0.0));
  // Capped at 1846 (vLLM's ShareGPT filter with 202-token prompts): the scale s solves
  // s - 1846 e^(-1846/s) / (1 - e^(-1846/s)) = 179; e^(-1846/179) = 3.3e-5, so s = 179.06.
  s.longest_output = 1846;
  const double scale = detail::exponential_scale(179.0, 1846.0);
  CHECK(scale == doctest::Approx(179.06).epsilon(0.001).scale(0.0));
  // A tighter cap of 400: s solves s - 400 e^(-400/s)/(1 - e^(-400/s)) = 179 (s = 464.6 by
  // bisection written out: at 464.6, e^(-0.861) = 0.4228, 400 x 0.4228/0.5772 = 293.0, and
  // 464.6 - 293.0 = 171.6... so s is larger); check the defining equation instead.
  const double s400 = detail::exponential_scale(179.0, 400.0);
  const double tail = std::exp(-400.0 / s400);
  CHECK(s400 - 400.0 * tail / (1.0 - tail) == doctest::Approx(179.0).epsilon(1e-6).scale(0.0));
  s.longest_output = 400;
  sum = 0.0;
  std::int64_t longest = 0;
  for (int i = 0; i < n; ++i) {
    const std::int64_t l = benchmark_output_tokens(s, i, s400);
    sum += static_cast<double>(l);
    longest = std::max(longest, l);
  }
  CHECK(sum / n == doctest::Approx(179.0).epsilon(0.01).scale(0.0));
  CHECK(longest == 400);
  // In the order sent, the first and second halves hold long and short requests alike.
  s.longest_output = 0;
  double first = 0.0, second_half = 0.0;
  for (int i = 0; i < 500; ++i)
    (i < 250 ? first : second_half) += static_cast<double>(benchmark_output_tokens(s, i, 179.0));
  CHECK(first / second_half == doctest::Approx(1.0).epsilon(0.08).scale(0.0));
}

TEST_CASE("the drain: long-tailed requests finish alone and cut a finite benchmark's throughput") {
  // 500 requests of 202 prompt tokens, vLLM on one H100, LLaMA-3 8B: with every output 179
  // tokens the two waves (256, then 244) decode at full batches; exponential lengths of the same
  // mean leave the longest few decoding alone at the end, at the weight-read time of a step for
  // one token each. Fixed lengths keep close to the steady state; the spread costs throughput.
  serving_plan_values p = benchmark_of(serving_engine::vllm, 202, 179, 500);
  const serving_estimate steady = [&] {
    serving_plan_values q = p;
    q.setup.requests = 0;
    return estimate_serving_at(q, 256);
  }();
  const serving_estimate fixed = estimate_serving_at(p, 256);
  p.setup.outputs = output_lengths::exponential;
  const serving_estimate spread = estimate_serving_at(p, 256);
  CHECK(fixed.output_tokens_per_second ==
        doctest::Approx(steady.output_tokens_per_second).epsilon(0.15).scale(0.0));
  CHECK(spread.output_tokens_per_second < 0.75 * fixed.output_tokens_per_second);
  // The longest of 500 exponential lengths of mean 179 is about 179 x ln(500/0.5) = 1237.
  CHECK(static_cast<double>(spread.benchmark.longest) ==
        doctest::Approx(1237.0).epsilon(0.1).scale(0.0));
  // During the drain no request waits: it lasts at least the longest request's decode steps at
  // the one-sequence step time.
  const double alone =
      serving_step(p, engine_figures_of(serving_engine::vllm), {1.0, 800.0, 0.0, 0.0})
          .total.value();
  CHECK(spread.benchmark.drain.value() > 0.5 * 1237.0 * alone);
}

TEST_CASE("a static-batching benchmark decodes each batch until its longest request ends") {
  serving_plan_values p = benchmark_of(serving_engine::pytorch, 100, 50, 8);
  p.setup.outputs = output_lengths::exponential;
  const engine_figures f = engine_figures_of(serving_engine::pytorch);
  const benchmark_run b = simulate_benchmark(p, f, 8);
  // One batch of eight: a prefill of 800 tokens, then longest - 1 steps at batch 8.
  std::int64_t longest = 0;
  double tokens = 0.0;
  for (int i = 0; i < 8; ++i) {
    longest = std::max(longest, benchmark_output_tokens(p.setup, i, 50.0));
    tokens += static_cast<double>(benchmark_output_tokens(p.setup, i, 50.0));
  }
  const auto rest = static_cast<double>(longest - 1);
  const double expected = serving_step(p, f, {0.0, 0.0, 800.0, 100.0}).total.value() +
                          rest * serving_step(p, f, {8.0, 101.0 + (rest - 1.0) / 2.0, 0.0, 0.0})
                                     .total.value();
  CHECK(b.duration.value() == doctest::Approx(expected).scale(0.0));
  CHECK(b.output_tokens == tokens);
  CHECK(b.steps == 1.0 + rest);
}

TEST_CASE("a serving plan type states a benchmark and its spread") {
  using plan = serving_plan<models::llama3_8b, systems::dgx_h100_superpod<1>,
                            mesh<axis<"dp", 8>>, data<"dp">, max_load, prompt_tokens<202>,
                            generated_tokens<179>, benchmark_requests<4000>,
                            exponential_outputs<1846>>;
  static_assert(plan::values.setup.requests == 4000);
  static_assert(plan::values.setup.outputs == output_lengths::exponential);
  static_assert(plan::values.setup.longest_output == 1846);
  // Eight replicas of 500 requests each, at most 256 in flight each (vLLM's default is not this
  // plan's engine; the generic engine's limit is memory): the benchmark's throughput over the mesh.
  const serving_estimate e = plan::serving();
  CHECK(e.benchmark.output_tokens == doctest::Approx(8.0 * 500.0 * 179.0).epsilon(0.02).scale(0.0));
  CHECK(e.requests_per_second == doctest::Approx(4000.0 / e.benchmark.duration.value()).scale(0.0));
}

TEST_CASE("a prompt longer than the step budget is prefilled in budget-sized chunks") {
  // One request of 100,000 prompt tokens and 2 output tokens under vLLM's 8192-token budget:
  // 12 full chunks (98,304 tokens), a 13th of 1,696 that yields the first token, then one decode
  // step at a context of 100,001.
  serving_plan_values p = benchmark_of(serving_engine::vllm, 100000, 2, 1);
  const engine_figures f = engine_figures_of(serving_engine::vllm);
  const benchmark_run b = simulate_benchmark(p, f, 1);
  const double chunk = serving_step(p, f, {0.0, 0.0, 8192.0, 100000.0}).total.value();
  const double last = serving_step(p, f, {0.0, 0.0, 1696.0, 100000.0}).total.value();
  const double decode = serving_step(p, f, {1.0, 100001.0, 0.0, 0.0}).total.value();
  CHECK(b.steps == 14.0);
  CHECK(b.duration.value() == doctest::Approx(12.0 * chunk + last + decode).scale(0.0));
  CHECK(b.output_tokens == 2.0);
}

TEST_CASE("a benchmark of fewer requests than replicas counts only the requests it sends") {
  // Three requests of 100 tokens over eight data-parallel replicas: each busy replica serves one,
  // and the mesh's output is 300 tokens, not eight replicas' worth.
  serving_plan_values p = benchmark_of(serving_engine::vllm, 50, 100, 3);
  p.system = systems::dgx_h100_superpod<1>::figures;
  p.axes[p.axis_count++] = {"dp", 8, role_data, {}};
  const benchmark_run b = simulate_benchmark(p, engine_figures_of(serving_engine::vllm), 8);
  CHECK(b.output_tokens == 300.0);
}
