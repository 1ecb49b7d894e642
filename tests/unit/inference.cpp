// Tests of inference.hpp and serving_plan.hpp: the book's decode, prefill and cost answers
// (How to Scale Your Model, inference.md and applied-inference.md, quoted beside each check) and
// serving plans checked against derivations written out here. The plans serve on
// `engine::roofline`, the book's model; workload.cpp tests the engines' model.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <shardplan/hardware/cpu.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

namespace {

constexpr flop_rate v5e_book_flops = 1.97e14 * flop / second;
constexpr byte_rate v5e_book_hbm = 8.2e11 * byte / second;

const serving_traffic* find(const decode_cost& c, std::string_view what) {
  for (std::size_t i = 0; i < c.traffic_count; ++i)
    if (c.traffic[i].what == what) return &c.traffic[i];
  return nullptr;
}

/// Parameters a decode step reads in full: all but the input embedding, which is a lookup.
double read_parameters(const model_shape& m) {
  return static_cast<double>(parameters(m).total) - static_cast<double>(m.vocab * m.d_model);
}

/// LLaMA-2 13B on 8 v5e (2x4), 8-way tensor parallel, bf16, one 8192-token sequence, no reserve.
template <std::int64_t Batch>
using llama2_13b_v5e =
    serving_plan<models::llama2_13b, systems::tpu_v5e_slice<2, 4>, mesh<axis<"tp", 8>>,
                 tensor<"tp">, serve_batch<Batch>, prompt_tokens<8191>, generated_tokens<1>,
                 reserve<gigabytes{0.0}>, engine::roofline>;

/// LLaMA-3 70B on a v5e 4x4, 16-way tensor parallel at 8k context, no reserve.
template <number_format Weights, std::int64_t Batch = 1>
using llama3_70b_v5e =
    serving_plan<models::llama3_70b, systems::tpu_v5e_slice<4, 4>, mesh<axis<"tp", 16>>,
                 tensor<"tp">, weights<Weights>, serve_batch<Batch>, prompt_tokens<8191>,
                 generated_tokens<1>, reserve<gigabytes{0.0}>, engine::roofline>;

/// LLaMA-3 70B on one DGX H100 node, 8-way tensor parallel.
template <std::int64_t Batch, number_format Format = number_format::bf16>
using llama3_70b_h100 =
    serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>, mesh<axis<"tp", 8>>,
                 tensor<"tp">, weights<Format>, kv_cache<Format>, compute_in<Format>,
                 serve_batch<Batch>, prompt_tokens<1024>, generated_tokens<1024>, engine::roofline>;

}  // namespace

// --- the book's rules ----------------------------------------------------------------------------

TEST_CASE("the critical batch is 240 on v5e in bf16 and 120 with int8 weights") {
  // inference.md: "For bfloat16 activations on TPU v5e, this is 240 tokens." and "if we have int8
  // parameters but do our computation in bfloat16, the critical batch size drops to 120. With int8
  // activations and int8 params, it jumps back up to 240".
  CHECK(critical_batch(v5e_book_flops, v5e_book_hbm, 2.0) ==
        doctest::Approx(240.2).epsilon(0.001).scale(0.0));
  CHECK(critical_batch(v5e_book_flops, v5e_book_hbm, 1.0) ==
        doctest::Approx(120.1).epsilon(0.001).scale(0.0));
  CHECK(critical_batch(2.0 * v5e_book_flops, v5e_book_hbm, 1.0) ==
        doctest::Approx(240.2).epsilon(0.001).scale(0.0));
  // applied-inference.md: "If we quantize our weights to int8 or int4 but do bfloat16 matmuls, this
  // drops to 120 or 60".
  CHECK(critical_batch(v5e_book_flops, v5e_book_hbm, 0.5) ==
        doctest::Approx(60.0).epsilon(0.002).scale(0.0));
  // From the catalogue chip (197 TFLOP/s, 819 GB/s): 197/0.819 = 240.5; int8 x int8 at Google's
  // 393 TOP/s: 0.5 x 393/0.819 = 239.9.
  const chip_figures& v5e = hardware::tpu_v5e::figures;
  CHECK(critical_batch(v5e, number_format::bf16, number_format::bf16) ==
        doctest::Approx(197.0 / 0.819).scale(0.0));
  CHECK(critical_batch(v5e, number_format::int8, number_format::bf16) ==
        doctest::Approx(0.5 * 197.0 / 0.819).scale(0.0));
  CHECK(critical_batch(v5e, number_format::int8, number_format::int8) ==
        doctest::Approx(0.5 * 393.0 / 0.819).scale(0.0));
  // H100 SXM: 989.4 TFLOP/s over 3.35 TB/s = 295 in bf16; fp8 weights and FLOPs the same.
  const chip_figures& h100 = hardware::h100_sxm::figures;
  CHECK(critical_batch(h100, number_format::bf16, number_format::bf16) ==
        doctest::Approx(989.4 / 3.35).scale(0.0));
  CHECK(critical_batch(h100, number_format::fp8, number_format::fp8) ==
        doctest::Approx(0.5 * 1978.9 / 3.35).scale(0.0));
}

TEST_CASE("an MoE needs E/k times the batch: 3840 tokens for DeepSeek in int8 on v5e") {
  // transformers.md Q8: "we need B > 120 · E / k to be compute bound. For DeepSeek, this gives us
  // B > 120 · 256 / 8 = 3840."
  CHECK(critical_batch(v5e_book_flops, v5e_book_hbm, 1.0, 256.0 / 8.0) ==
        doctest::Approx(3840).epsilon(0.002).scale(0.0));
}

TEST_CASE("the pop quiz: 30B int8 parameters on a v5e 4x4") {
  // inference.md: "since we have a small batch size, we expect our step time to be at least
  // (4 * 819e6 + 30e9) / (16 * 8.1e11) = 2.5 ms. At 256 tokens, we'll be well into the
  // compute-bound regime for our MLP blocks, so we have a step time of roughly
  // (256 * 819e6) / (16 * 8.1e11) + (2 * 256 * 30e9) / (16 * 1.97e14) = 21ms."
  const byte_rate hbm = 8.1e11 * byte / second;
  auto step = [&](double batch) {
    const decode_work per_chip{.weights = 30e9 / 16 * byte,
                               .kv = batch * 100e3 * 8192 / 16 * byte,
                               .matmul = 2 * batch * 30e9 / 16 * flop};
    return decode_step_time(per_chip, hbm, v5e_book_flops);
  };
  CHECK(step(4).step.value() == doctest::Approx(2.5e-3).epsilon(0.03).scale(0.0));
  CHECK(step(4).weights > step(4).matmul);  // memory-bound
  CHECK(step(256).step.value() == doctest::Approx(21e-3).epsilon(0.01).scale(0.0));
  CHECK(step(256).matmul > step(256).weights);  // compute-bound
}

TEST_CASE("LLaMA-2 13B on 8 v5e: the book's step times and throughputs") {
  // inference.md, "Modeling throughput and latency for LLaMA 2-13B", on "8x TPU v5es ...
  // 6.5TiB/s of HBM bandwidth (0.82TiB/s each) and 1600TF/s of compute": batch 1, 6.7 KV,
  // 32.7 total, "Theoretical Step Time (ms) 4.98", "Theoretical Throughput (tokens/s) 200.61";
  // batch 240: 1608 KV, 1634 total, 249.09 ms, 963.53 tokens/s. (The numbers work out in GB and
  // TB/s: 32.7e9 / 6.56e12 = 4.98 ms.)
  const byte_rate slice_hbm = 8 * 0.82e12 * byte / second;
  const flop_rate slice_flops = 8 * 1.97e14 * flop / second;
  auto step = [&](double batch, double kv_per_sequence) {
    const decode_work all{.weights = 26e9 * byte,
                          .kv = batch * kv_per_sequence * byte,
                          .matmul = 2 * batch * 13e9 * flop};
    return decode_step_time(all, slice_hbm, slice_flops).step;
  };
  CHECK(step(1, 6.7e9).value() == doctest::Approx(4.98e-3).epsilon(0.002).scale(0.0));
  CHECK(1 / step(1, 6.7e9).value() == doctest::Approx(200.61).epsilon(0.002).scale(0.0));
  CHECK(step(240, 6.7e9).value() == doctest::Approx(249.09e-3).epsilon(0.002).scale(0.0));
  CHECK(240 / step(240, 6.7e9).value() == doctest::Approx(963.53).epsilon(0.002).scale(0.0));
  // The 5x smaller cache ("1:5 GMQA"): batch 64, "17.04" ms and "3,756.62" tokens/s.
  CHECK(step(64, 1.34e9).value() == doctest::Approx(17.04e-3).epsilon(0.002).scale(0.0));
  CHECK(64 / step(64, 1.34e9).value() == doctest::Approx(3756.62).epsilon(0.002).scale(0.0));
}

TEST_CASE("LLaMA-2 13B as a serving plan: step = (batch x KV + parameters read) / bandwidth") {
  using plan = llama2_13b_v5e<1>;
  static_assert(plan::servable);
  // One 8192-token bf16 cache (2 x 40 x 128 x 40 x 2 bytes a token) and every weight but the
  // input embedding in bf16, over 8 chips of 819 GB/s.
  const double kv = 8192.0 * 2 * 40 * 128 * 40 * 2;
  const double weights = read_parameters(models::llama2_13b::shape) * 2;
  const decode_cost d = plan::decode();
  CHECK(d.memory_bound);
  CHECK(d.time.step.value() == doctest::Approx((kv + weights) / (8 * 819e9)).scale(0.0));
  // Within 1% of the book's 4.98 ms (it counts 26e9 bytes of weights at 0.82 TB/s).
  CHECK(d.time.step.value() == doctest::Approx(4.98e-3).epsilon(0.01).scale(0.0));
  // Tensor parallelism adds its all-reduces after the roofline.
  CHECK(d.communication.value() > 0.0);
  CHECK(d.step.value() ==
        doctest::Approx(d.time.step.value() + d.communication.value()).scale(0.0));
}

TEST_CASE("LLaMA-2 13B on 8 v5e holds 15 sequences of 8k, not 16") {
  // inference.md: "We OOM beyond batch size 16" (its table already needs 133 GiB of 128 at 16).
  // Each chip holds 1/8 of the 26.0 GB of weights and 1/8 of each 6.71 GB cache:
  // floor((16e9 - 26.03e9/8) / (6.71e9/8)) = 15.
  const double weights = static_cast<double>(parameters(models::llama2_13b::shape).total) * 2;
  const double cache = 8192.0 * 2 * 40 * 128 * 40 * 2;
  const auto expected = static_cast<std::int64_t>((16e9 - weights / 8) / (cache / 8));
  CHECK(expected == 15);
  CHECK(llama2_13b_v5e<1>::max_batch() == expected);
  CHECK(llama2_13b_v5e<15>::fits);
  CHECK_FALSE(llama2_13b_v5e<16>::fits);
}

TEST_CASE("LLaMA-3 70B on v5e: the smallest slices and a full 4x4's batch and step") {
  // applied-inference.md's table: bf16 "4x4 = 16 chips", int8 "4x2 = 8 chips", int4
  // "2x2 = 4 chips" (batch 1, 8k context).
  CHECK(smallest_slice(llama3_70b_v5e<number_format::bf16>::values, 1) == 16);
  CHECK(smallest_slice(llama3_70b_v5e<number_format::int8>::values, 1) == 8);
  CHECK(smallest_slice(llama3_70b_v5e<number_format::int4>::values, 1) == 4);
  // The 4x4 in bf16: the book's "remaining HBM for KV caches 116, num KV caches @ 8k 43" with
  // 140 GB of weights. With the exact 141.1 GB: each chip keeps 16e9 - 141.1e9/16 bytes for caches
  // of 2.68e9/8 bytes (8 kv heads), in 2 batch groups (16 tensor ranks over 8 kv heads).
  const double weights = static_cast<double>(parameters(models::llama3_70b::shape).total) * 2;
  const double cache = 8192.0 * 2 * 8 * 128 * 80 * 2;
  const auto per_group = static_cast<std::int64_t>((16e9 - weights / 16) / (cache / 8));
  CHECK(per_group == 21);
  using full = llama3_70b_v5e<number_format::bf16, 2 * 21>;
  CHECK(full::max_batch() == 42);
  CHECK(full::fits);
  // "This is just v5e HBM / v5e HBM memory bandwidth = 16GB / 8.2e11 = 19ms, so this is
  // 19ms / step." Our full chip reads its weights (less the embedding lookup) and 21 caches.
  const decode_cost d = full::decode();
  const double read = read_parameters(models::llama3_70b::shape) * 2 / 16 + 21 * cache / 8;
  CHECK(d.time.step.value() == doctest::Approx(read / 819e9).scale(0.0));
  CHECK(d.time.step.value() == doctest::Approx(19e-3).epsilon(0.03).scale(0.0));
}

TEST_CASE("the smallest slice holds the plan's batch: 64 int8 caches of 8k need 16 v5e, not 8") {
  // What `check` reports for a plan of 64 sequences: before, the book's batch-1 slice of 8 chips,
  // which cannot hold the plan's caches.
  using plan =
      serving_plan<models::llama3_70b, systems::tpu_v5e_slice<4, 4>, mesh<axis<"tp", 16>>,
                   tensor<"tp">, weights<number_format::int8>, kv_cache<number_format::int8>,
                   serve_batch<64>, prompt_tokens<6144>, generated_tokens<2048>, engine::roofline>;
  // 70,553,706,496 int8 weights (1 byte each) and 64 caches of 8192 tokens at 2 x 8 kv heads x
  // 128 x 80 layers = 163,840 bytes a token; each v5e keeps (16 GB - 2 GB) / 1.05 after the
  // default reserve of 2 GB + 5%.
  const double weights = 70'553'706'496.0;
  const double caches = 64.0 * 8192 * 163'840;
  const double usable = (16e9 - 2e9) / 1.05;
  const double chips = std::ceil((weights + caches) / usable);
  CHECK(chips == 12);  // (70.55 + 85.90) GB / 13.33 GB = 11.7
  CHECK(8 * usable < weights + caches);
  CHECK(16 * usable >= weights + caches);
  CHECK(smallest_slice(plan::values) == 16);  // 12 chips, a slice of 16
  CHECK(plan::fits);                          // and the plan's own 16 chips hold it
  // One sequence is the book's case: (70.55 + 1.34) GB / 13.33 GB = 5.4 chips, a slice of 8.
  CHECK(std::ceil((weights + caches / 64) / usable) == 6);
  CHECK(smallest_slice(plan::values, 1) == 8);
  // The slice grows with the batch: (8 x 13.33 - 70.55) GB / 1.34 GB = 26.9, so 26 caches still
  // fit 8 chips and 27 do not.
  CHECK(weights + 26 * caches / 64 <= 8 * usable);
  CHECK(weights + 27 * caches / 64 > 8 * usable);
  CHECK(smallest_slice(plan::values, 26) == 8);
  CHECK(smallest_slice(plan::values, 27) == 16);
}

TEST_CASE("queries per second per chip follow batch / (step x decode length x chips)") {
  // applied-inference.md: "our throughput is just B / (per-step latency · median steps · N) ≈
  // 43 / (0.019 * 512 * N)", giving "bfloat16 0.27" QPS / chip on 16 chips, "int8 0.66" (52
  // caches on 8) and "int4 1.72" (67 on 4).
  CHECK(queries_per_second_per_chip(43, 0.019 * second, 512, 16) ==
        doctest::Approx(0.27).epsilon(0.03).scale(0.0));
  CHECK(queries_per_second_per_chip(52, 0.019 * second, 512, 8) ==
        doctest::Approx(0.66).epsilon(0.02).scale(0.0));
  CHECK(queries_per_second_per_chip(67, 0.019 * second, 512, 4) ==
        doctest::Approx(1.72).epsilon(0.01).scale(0.0));
}

TEST_CASE("a serving plan's critical batch is the book's, and decode turns compute-bound there") {
  // bf16 weights on v5e: (2/2) x 197/0.819 = 240.5 tokens; int8: 120.3 (parameters read and
  // used differ only by the norms, 1.3 M of 70.6 B).
  CHECK(llama3_70b_v5e<number_format::bf16>::decode().critical_batch ==
        doctest::Approx(240.5).epsilon(0.001).scale(0.0));
  CHECK(llama3_70b_v5e<number_format::int8>::decode().critical_batch ==
        doctest::Approx(120.3).epsilon(0.001).scale(0.0));
  CHECK(llama3_70b_v5e<number_format::bf16>::memory_bound);
  // LLaMA-3 8B on a v5e 4x4 at 512 sequences of 1024 tokens: above 240, compute-bound. The step is
  // the cache read plus the matmul FLOPs: 512 x (2 x matmul weights + 2 x V x D) / 16 chips.
  using big =
      serving_plan<models::llama3_8b, systems::tpu_v5e_slice<4, 4>, mesh<axis<"tp", 16>>,
                   tensor<"tp">, serve_batch<512>, prompt_tokens<1000>, generated_tokens<24>, engine::roofline>;
  static_assert(big::servable);
  static_assert(big::compute_bound);
  const model_shape& m = models::llama3_8b::shape;
  const double cache_per_chip = 256.0 * 1024 * 2 * 8 * 128 * 32 * 2 / 8;  // 2 groups, 8 heads
  const double matmul = 512.0 * (2 * matmul_parameters_per_token(m) + 2.0 * 128256 * 4096) / 16;
  const decode_cost d = big::decode();
  CHECK_FALSE(d.memory_bound);
  CHECK(d.time.step.value() ==
        doctest::Approx(cache_per_chip / 819e9 + matmul / 197e12).scale(0.0));
  CHECK(d.tokens_per_second_per_user == doctest::Approx(1 / d.step.value()).scale(0.0));
  CHECK(d.tokens_per_second_per_device == doctest::Approx(512 / d.step.value() / 16).scale(0.0));
}

TEST_CASE(
    "tensor-parallel decode all-reduces [B, D] twice a layer, at least at the latency floor") {
  // Megatron: two all-reduces per layer of the batch's activations, 80 layers.
  const decode_cost d = llama3_70b_h100<64>::decode();
  const serving_traffic* x = find(d, "tensor all-reduce");
  REQUIRE(x != nullptr);
  CHECK(x->count == 160);
  CHECK(x->array.value() == doctest::Approx(64.0 * 8192 * 2).scale(0.0));
  CHECK(find(d, "kv batch all-to-all") == nullptr);  // 8 ranks, 8 kv heads: no batch split
  // One sequence: 16 KB all-reduces are latency-bound. NCCL runs them with LL (collectives.hpp,
  // `nccl_ring_protocols`): 6.6 us plus 2 x 7 NVLink steps of 0.6 us, plus 2 · 16384 · 7/8 bytes
  // at a quarter of the 450 GB/s link: 15.25 us each.
  const decode_cost one = llama3_70b_h100<1>::decode();
  CHECK(one.communication.value() * 1e6 ==
        doctest::Approx(160 * (6.6 + 14 * 0.6 + 4 * 2 * 16384 * 7.0 / 8.0 / 450e3)).scale(0.0));
  // On a v5e 4x4 with 16 ranks over 8 kv heads the batch is split, with two all-to-alls a layer.
  CHECK(find(llama3_70b_v5e<number_format::bf16, 2>::decode(), "kv batch all-to-all") != nullptr);
}

TEST_CASE("the decode tensor-parallel limit is F x W_axis / (B x W_hbm) in bf16") {
  // T_hbm = D·F·2/(Y·W_hbm) per matmul against T_axis = B·D·2/W_axis: Y < F·W_axis/(B·W_hbm),
  // the book's F/(B·β) with β = W_hbm/W_ici. LLaMA-3 70B (F = 28672) at 32 tokens with one
  // bidirectional v5e link (9e10) per 8.2e11 of HBM: 28672 / (32 x 9.1) = 98.
  CHECK(decode_tensor_parallel_limit(28672, 32, 2, 2, v5e_book_hbm, 9e10 * byte / second) ==
        doctest::Approx(28672.0 * 9e10 / (32 * 8.2e11)).scale(0.0));
  // int8 weights halve the bytes the device reads, and the limit.
  CHECK(decode_tensor_parallel_limit(28672, 32, 1, 2, v5e_book_hbm, 9e10 * byte / second) ==
        doctest::Approx(28672.0 * 9e10 / (32 * 8.2e11) / 2).scale(0.0));
  // The H100 node at 64 tokens: NVLink all-gathers at 450 GB/s x 8/7 (a ring of 8), HBM 3.35 TB/s.
  CHECK(llama3_70b_h100<64>::decode().tensor_parallel_limit ==
        doctest::Approx(28672.0 * (450e9 * 8 / 7) / (64 * 3.35e12)).scale(0.0));
}

TEST_CASE("prefill: the book's 8 ms at full utilisation and 16 ms at half") {
  // applied-inference.md: the MLPs "use batch · 2 · 3 · d_model² · ffw_multiplier · n_layers int8
  // OPs. Using BS=240, that is 26e12 FLOPs. On a TPU v5e 4x2, this is 8ms minimum at 100% MFU.
  // At best, we are probably getting half that, so 16ms is roughly reasonable."
  const flops mlp = 240.0 * 2 * 3 * 8192.0 * 8192 * 3.5 * 80 * flop;
  CHECK(mlp.value() == doctest::Approx(26e12).epsilon(0.05).scale(0.0));
  const flop_rate int8 = 3.94e14 * flop / second;
  // The time is the work over 8 chips' int8 peak at the MFU: 27.1e12 / (8 x 3.94e14) = 8.6 ms.
  CHECK(time_at_mfu(mlp, 8, int8, 1.0).value() ==
        doctest::Approx(mlp.value() / (8 * 3.94e14)).epsilon(1e-12).scale(0.0));
  CHECK(time_at_mfu(mlp, 8, int8, default_prefill_efficiency).value() ==
        doctest::Approx(mlp.value() / (8 * 3.94e14 * default_prefill_efficiency))
            .epsilon(1e-12)
            .scale(0.0));
  // The book's figures within 10%: it rounds the work down to 26e12 and the time to 8 ms.
  CHECK(time_at_mfu(mlp, 8, int8, 1.0).value() == doctest::Approx(8e-3).epsilon(0.10).scale(0.0));
  CHECK(time_at_mfu(mlp, 8, int8, default_prefill_efficiency).value() ==
        doctest::Approx(16e-3).epsilon(0.10).scale(0.0));
}

TEST_CASE("attention intensity: T/2 in MHA prefill, about G in generation") {
  // inference.md: "For prefill, S=T ... this simplifies to T^2 / 2T = T / 2", and "during prefill,
  // attention is usually compute bound for any reasonable sequence length (roughly > 480 tokens)"
  // on v5e (T/2 > 240).
  CHECK(attention_intensity(4096, 4096, 1) == doctest::Approx(2048).scale(0.0));
  CHECK(attention_intensity(480, 480, 1) == doctest::Approx(240).scale(0.0));
  // transformers.md Q4: prefill "TG/(G + 1)"; generation "SG / (G + S) -> G".
  CHECK(attention_intensity(4096, 4096, 8) == doctest::Approx(4096.0 * 8 / 9).scale(0.0));
  CHECK(attention_intensity(1e9, 1, 8) == doctest::Approx(8).epsilon(1e-6).scale(0.0));
  // An int8 cache halves the bytes of K and V: 2·S·G/(2·G + S) in generation.
  CHECK(attention_intensity(8192, 1, 8, 2, 1) ==
        doctest::Approx(2.0 * 8192 * 8 / (16 + 8192)).scale(0.0));
}

TEST_CASE("a plan's time to first token is its prompt's FLOPs at peak x efficiency") {
  // LLaMA-3 70B, 1024-token prompt on 8 H100 in bf16 at the default one half: the forward pass
  // of 2 FLOP per matmul weight, 2·V·D logits and causal attention (half of 2·s·N·(H+H)·L) per
  // token.
  const model_shape& m = models::llama3_70b::shape;
  const double per_token = 2 * matmul_parameters_per_token(m) + 2.0 * 128256 * 8192 +
                           0.5 * 2 * 1024.0 * 64 * (128 + 128) * 80;
  const prefill_cost p = llama3_70b_h100<64>::prefill();
  CHECK(p.work.value() == doctest::Approx(1024 * per_token).scale(0.0));
  CHECK(p.time_to_first_token.value() ==
        doctest::Approx(1024 * per_token / (8 * 989.4e12 * 0.5)).scale(0.0));
  CHECK(p.attention_compute_bound);  // 1024 x 8/9 = 910 FLOP/B against 295
}

TEST_CASE("the prefill:decode ratio of disaggregated serving") {
  // applied-inference.md: "With a generate batch size of 240 and a median decode length of 512,
  // that means roughly every 2 decode steps, one prefill finishes, so we could do 1:1
  // prefill:generate since prefill takes roughly 2 * generate".
  CHECK(prefill_servers_per_decode_server(240, 512, 19e-3 * second, 2 * 19e-3 * second) ==
        doctest::Approx(240.0 * 2 / 512).scale(0.0));
  CHECK(prefill_servers_per_decode_server(240, 512, 19e-3 * second, 38e-3 * second) ==
        doctest::Approx(1.0).epsilon(0.07).scale(0.0));
  // A plan: batch 64 decoding 1024 tokens, prefill servers = 64/(1024·step)·TTFT.
  const decode_cost d = llama3_70b_h100<64>::decode();
  const prefill_cost p = llama3_70b_h100<64>::prefill();
  CHECK(p.prefill_servers_per_decode_server ==
        doctest::Approx(64.0 / (1024 * d.step.value()) * p.time_to_first_token.value()).scale(0.0));
}

TEST_CASE("cost: the book's FLOPs per dollar and a plan's price per million tokens") {
  // applied-inference.md's table: v5e "1.97e14" FLOP/s at "$1.2" an hour, "FLOPs / $ 1.64e14";
  // v5p "4.59e14" at "$4.2", "1.09e14".
  CHECK(peak_per_dollar(v5e_book_flops, example_prices::tpu_v5e) ==
        doctest::Approx(1.64e14).epsilon(0.002).scale(0.0));
  CHECK(peak_per_dollar(4.59e14 * flop / second, example_prices::tpu_v5p) ==
        doctest::Approx(1.09e14).epsilon(0.003).scale(0.0));
  // $1 per chip-hour on 3600 chips producing 1000 tokens/s: $1 per 1000 tokens, $1000 per million.
  CHECK(dollars_per_million_tokens(1.0, 3600, 1000) == doctest::Approx(1000).scale(0.0));
  CHECK(tokens_per_dollar(1.0, 3.6) == doctest::Approx(1000).scale(0.0));
  // A plan at the example H100 price ($98.32 / 8 an hour per GPU).
  const decode_cost d = llama3_70b_h100<64>::decode();
  const prefill_cost p = llama3_70b_h100<64>::prefill();
  const serving_cost c = llama3_70b_h100<64>::cost();
  CHECK(c.dollars_per_chip_hour == doctest::Approx(12.29).scale(0.0));
  CHECK(c.dollars_per_hour == doctest::Approx(98.32).scale(0.0));
  CHECK(c.per_million_output_tokens ==
        doctest::Approx(98.32 / 3600 / d.tokens_per_second * 1e6).scale(0.0));
  CHECK(c.per_query ==
        doctest::Approx(98.32 / 3600 * (1024 / d.tokens_per_second + p.time_to_first_token.value()))
            .scale(0.0));
  // Priced explicitly.
  using priced =
      serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>, mesh<axis<"tp", 8>>,
                   tensor<"tp">, serve_batch<64>, prompt_tokens<1024>, generated_tokens<1024>,
                   price<dollars_per_hour{2.5}>, engine::roofline>;
  CHECK(priced::cost().dollars_per_hour == doctest::Approx(20.0).scale(0.0));
  // No example price for a CPU server: zero, not a guess.
  CHECK(example_price_per_chip_hour(hardware::xeon_8480_2s::figures) == 0.0);
}

TEST_CASE("a CPU server decodes from DRAM with the same arithmetic") {
  // LLaMA-3 70B in int8 on a dual Xeon 8480+ (614.4 GB/s of DDR5) against 8 H100 (8 x 3.35 TB/s):
  // both read all weights a step; the CPU's step is the bandwidth ratio, 43.6x, longer.
  using cpu = serving_plan<models::llama3_70b, systems::single_server<hardware::xeon_8480_2s>,
                           mesh<axis<"server", 1>>, data<"server">, weights<number_format::int8>,
                           kv_cache<number_format::int8>, serve_batch<1>, prompt_tokens<1024>,
                           generated_tokens<1024>, engine::roofline>;
  using gpu =
      serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>, mesh<axis<"tp", 8>>,
                   tensor<"tp">, weights<number_format::int8>, kv_cache<number_format::int8>,
                   serve_batch<1>, prompt_tokens<1024>, generated_tokens<1024>, engine::roofline>;
  static_assert(cpu::servable && gpu::servable);
  const double read = read_parameters(models::llama3_70b::shape) + 2048.0 * 2 * 8 * 128 * 80;
  CHECK(cpu::decode().time.step.value() == doctest::Approx(read / 614.4e9).scale(0.0));
  CHECK(gpu::decode().time.step.value() == doctest::Approx(read / (8 * 3.35e12)).scale(0.0));
  CHECK(cpu::decode().communication.value() == 0.0);
  // The server's terabyte of DRAM holds far more sequences than one H100's 80 GB would.
  CHECK(cpu::max_batch() > 100);
}

TEST_CASE("DeepSeek-V3 with expert parallelism and data-parallel attention") {
  // 4 DGX H100 nodes, 32-way expert parallel; attention data-parallel over the same axis.
  using plan = serving_plan<models::deepseek_v3, systems::dgx_h100_superpod<4>,
                            mesh<axis<"ep", 32>>, expert<"ep">, attention_data<"ep">,
                            weights<number_format::fp8>, compute_in<number_format::fp8>,
                            serve_batch<1024>, prompt_tokens<3072>, generated_tokens<1024>, engine::roofline>;
  static_assert(plan::servable);
  const model_shape& m = models::deepseek_v3::shape;
  const parameter_counts c = parameters(m);
  // Routed experts: 58 MoE layers x 256 x (3 x 7168 x 2048); split 32 ways; the rest replicated.
  const double routed = 58.0 * 256 * 3 * 7168 * 2048;
  CHECK(static_cast<double>(c.moe_layers * m.moe.experts * c.expert) ==
        doctest::Approx(routed).scale(0.0));
  const serving_memory mem = plan::memory();
  CHECK(mem.weights.value() ==
        doctest::Approx(static_cast<double>(c.total) - routed + routed / 32).scale(0.0));
  // Each GPU holds 32 of the 1024 sequences' latent caches at 4096 tokens, bf16.
  CHECK(mem.kv.value() == doctest::Approx(32.0 * 4096 * 576 * 61 * 2).scale(0.0));
  // 1024 tokens touch nearly every expert: 1 - (1 - 8/256)^1024.
  const decode_cost d = plan::decode();
  CHECK(d.experts_read == doctest::Approx(1 - std::pow(1 - 8.0 / 256, 1024)).scale(0.0));
  // Dispatch and combine for each of the 58 MoE layers, each token to its expected distinct
  // devices of 32 (collectives.hpp), 7168 fp8 activations each.
  const serving_traffic* x = find(d, "expert all-to-all");
  REQUIRE(x != nullptr);
  CHECK(x->count == 116);
  CHECK(x->array.value() ==
        doctest::Approx(1024 * expected_destinations(8, 32) * 7168.0).scale(0.0));
  CHECK(find(d, "tensor all-reduce") == nullptr);
}

TEST_CASE("one token touches top_k of E experts; many tokens touch them all") {
  CHECK(experts_touched(256, 8, 1) == doctest::Approx(8.0 / 256).scale(0.0));
  CHECK(experts_touched(256, 8, 64) == doctest::Approx(1 - std::pow(248.0 / 256, 64)).scale(0.0));
  CHECK(experts_touched(8, 2, 4096) == doctest::Approx(1.0).scale(0.0));
  // A small batch reads a fraction of DeepSeek-V3's routed experts.
  using small = serving_plan<models::deepseek_v3, systems::dgx_h100_superpod<2>,
                             mesh<axis<"ep", 16>>, expert<"ep">, attention_data<"ep">,
                             weights<number_format::fp8>, compute_in<number_format::fp8>,
                             serve_batch<16>, prompt_tokens<1000>, generated_tokens<24>, engine::roofline>;
  CHECK(small::decode().experts_read == doctest::Approx(1 - std::pow(248.0 / 256, 16)).scale(0.0));
}

TEST_CASE("2D weight-stationary sharding gathers [B, D/X] over YZ and reduces [B, F/YZ] over X") {
  // inference.md Q7: In[B, D_X] = AllGather_YZ(In[B, D_XYZ]); AllReduce_X(Tmp[B, F_YZ]);
  // ReduceScatter_YZ(Out[B, D_X]); for the MLP (F = 28672) and the attention (N·H = 8192).
  using plan = serving_plan<models::llama3_70b, systems::tpu_v5e_slice<8, 8>,
                            mesh<axis<"x", 4>, axis<"yz", 16>>, weight_stationary_2d<"x", "yz">,
                            weights<number_format::int8>, serve_batch<64>, prompt_tokens<2000>,
                            generated_tokens<48>, engine::roofline>;
  static_assert(plan::servable);
  CHECK(plan::degrees().tensor == 64);
  CHECK(plan::degrees().tensor_x == 4);
  const decode_cost d = plan::decode();
  const serving_traffic* gather = find(d, "2d all-gather");
  const serving_traffic* mlp = find(d, "2d mlp all-reduce");
  const serving_traffic* attention = find(d, "2d attention all-reduce");
  REQUIRE(gather != nullptr);
  REQUIRE(mlp != nullptr);
  REQUIRE(attention != nullptr);
  CHECK(gather->count == 160);
  CHECK(gather->array.value() == doctest::Approx(64.0 * 8192 / 4 * 2).scale(0.0));
  CHECK(mlp->array.value() == doctest::Approx(64.0 * 28672 / 16 * 2).scale(0.0));
  CHECK(attention->array.value() == doctest::Approx(64.0 * 8192 / 16 * 2).scale(0.0));
  CHECK(find(d, "tensor all-reduce") == nullptr);
}

TEST_CASE("sequence sharding splits each sequence's cache") {
  using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<4>,
                            mesh<axis<"sp", 4>, axis<"tp", 8>>, context<"sp">, tensor<"tp">,
                            serve_batch<2>, prompt_tokens<131072 - 64>, generated_tokens<64>, engine::roofline>;
  static_assert(plan::servable);
  // 2 sequences of 128K tokens, 8 ways by heads and 4 by tokens.
  CHECK(plan::memory().kv.value() ==
        doctest::Approx(2.0 * 131072 * 2 * 8 * 128 * 80 * 2 / 32).scale(0.0));
  CHECK(find(plan::decode(), "sequence query gather") != nullptr);
}

TEST_CASE("the rules of a serving plan, as values") {
  using ok = llama3_70b_h100<64>;
  CHECK(ok::violations.empty());
  // bf16 LLaMA-3 70B on a 2x2 v5e: 141 GB of weights on 64 GB.
  using too_small =
      serving_plan<models::llama3_70b, systems::tpu_v5e_slice<2, 2>, mesh<axis<"tp", 4>>,
                   tensor<"tp">, serve_batch<1>, prompt_tokens<1000>, generated_tokens<24>, engine::roofline>;
  CHECK(too_small::violations.has(serving_rule::fits_in_memory));
  CHECK_FALSE(too_small::fits);
  // int4 compute on an H100, which has no int4 tensor cores.
  using int4 = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>, mesh<axis<"tp", 8>>,
                            tensor<"tp">, compute_in<number_format::int4>, engine::roofline>;
  CHECK(int4::violations.has(serving_rule::compute_format_supported));
  CHECK(int4::fits);
  CHECK(rule_text(serving_rule::fits_in_memory).starts_with("shardplan: "));
}

TEST_CASE("a serving mesh of four axes of 65536 is too large for the system, not an overflow") {
  // 65536^4 = 2^64 devices overflow a 64-bit integer; the degrees saturate at 2^63 - 1, which
  // mesh_within_system reports against the 16 chips of a v5e 4x4. In a constant expression an
  // overflow would not compile, so the static_assert proves none happens.
  constexpr auto huge = [] {
    serving_plan_values p = llama3_70b_v5e<number_format::bf16>::values;
    p.axis_count = 4;
    for (std::size_t i = 0; i < 4; ++i) p.axes[i] = {"ax", 65536, role_data, {}};
    return p;
  }();
  static_assert(degrees_of(huge).devices == std::numeric_limits<std::int64_t>::max());
  // (Under UBSan this also runs the cache split with saturated degrees: no overflow there.)
  const serving_violations v = check(huge);
  CHECK(v.has(serving_rule::mesh_within_system));
  CHECK_FALSE(costable(v));
}
