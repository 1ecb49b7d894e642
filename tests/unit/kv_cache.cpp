// Tests of kv_cache.hpp: bytes per token from the published shapes, written out here, and the
// book's KV-cache answers (How to Scale Your Model, inference.md, applied-inference.md,
// transformers.md), each quoted beside its check.
#include <doctest/doctest.h>

#include <shardplan/serving/kv_cache.hpp>
#include <shardplan/hardware/tpu.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>

using namespace shardplan;

namespace {

constexpr memory_reserve no_reserve{0.0 * byte, 0.0};

/// A multi-head model of the book's transformers.md Q1: D = 4096, N·H = D, L = 64.
constexpr model_shape book_q1_model = {.name = "book q1",
                                       .layers = 64,
                                       .d_model = 4096,
                                       .d_ff = 16384,
                                       .heads = 32,
                                       .kv_heads = 32,
                                       .head_dim = 128,
                                       .vocab = 32000};

/// The model inference.md's worked problems invent: L = 64, D = 4096, 32 heads, 8 kv heads,
/// head width 256 (their answers are not in the book); and its multi-query variant.
constexpr model_shape book_gqa_model = {.name = "book gqa",
                                        .layers = 64,
                                        .d_model = 4096,
                                        .d_ff = 16384,
                                        .heads = 32,
                                        .kv_heads = 8,
                                        .head_dim = 256,
                                        .vocab = 32128};
constexpr model_shape book_mqa_model = [] {
  model_shape m = book_gqa_model;
  m.kv_heads = 1;
  return m;
}();

}  // namespace

TEST_CASE("attention kinds follow the kv heads and the latent") {
  CHECK(attention_of(models::llama2_13b::shape) == attention_kind::mha);
  CHECK(attention_of(models::llama3_70b::shape) == attention_kind::gqa);
  CHECK(attention_of(book_mqa_model) == attention_kind::mqa);
  CHECK(attention_of(models::deepseek_v3::shape) == attention_kind::mla);
  CHECK(name_of(attention_kind::mla) == "mla");
}

TEST_CASE("LLaMA-2 13B (MHA) caches 2 x 40 heads x 128 x 40 layers per token") {
  // Touvron et al. 2023 / HF config: 40 layers, 40 heads, 40 kv heads, head_dim 5120/40 = 128.
  const double per_token_bf16 = 2.0 * 40 * 128 * 40 * 2;  // 819,200 bytes
  CHECK(kv_bytes_per_token(models::llama2_13b::shape, number_format::bf16).value() ==
        doctest::Approx(per_token_bf16).scale(0.0));
  // inference.md: "For LLaMA-13B, a KV cache for a single 8192 sequence at bf16 is
  // 8192 (T) x 40 (K) x 128 (H) x 40 (L) x 2 (bytes) x 2 = 6.7 GB".
  const bytes one_sequence =
      kv_bytes_per_sequence(models::llama2_13b::shape, number_format::bf16, 8192);
  CHECK(one_sequence.value() == doctest::Approx(8192 * per_token_bf16).scale(0.0));
  CHECK(one_sequence.value() == doctest::Approx(6.7e9).epsilon(0.01).scale(0.0));
}

TEST_CASE("LLaMA-3 70B (GQA) caches 160 KiB per token in int8") {
  // Dubey et al. 2024 Table 3: 80 layers, 8 kv heads, head_dim 8192/64 = 128.
  // applied-inference.md: "KV cache size per token in int8 = 2 * K * H * L = 2 * 8 * 128 * 80 =
  // 160kiB".
  const bytes int8 = kv_bytes_per_token(models::llama3_70b::shape, number_format::int8);
  CHECK(int8.value() == doctest::Approx(2.0 * 8 * 128 * 80).scale(0.0));
  CHECK(int8.value() == doctest::Approx(160.0 * 1024).scale(0.0));
  // "If we have a sequence length of 32k tokens (as is common), this uses
  // 162e3 * 32,768 = 5.3GB / sequence. For BS=240, this is 1.3TB!"
  const bytes sequence =
      kv_bytes_per_sequence(models::llama3_70b::shape, number_format::int8, 32768);
  CHECK(sequence.value() == doctest::Approx(5.3e9).epsilon(0.02).scale(0.0));
  CHECK(sequence.value() * 240 == doctest::Approx(1.3e12).epsilon(0.01).scale(0.0));
  // The table of the smallest slices: "KV size / token (bytes)" 324kB in bf16, 162kB in int8,
  // 81kB in int4 (the book's kB are 1000 bytes and rounded: 327,680, 163,840 and 81,920 B).
  CHECK(kv_bytes_per_token(models::llama3_70b::shape, number_format::bf16).value() ==
        doctest::Approx(324e3).epsilon(0.012).scale(0.0));
  CHECK(kv_bytes_per_token(models::llama3_70b::shape, number_format::int4).value() ==
        doctest::Approx(81e3).epsilon(0.012).scale(0.0));
}

TEST_CASE("LLaMA-3 405B (GQA) caches 2 x 8 x 128 x 126 elements per token") {
  // Dubey et al. 2024 Table 3 and HF config: 126 layers, 8 kv heads, head_dim 16384/128 = 128.
  CHECK(kv_bytes_per_token(models::llama3_405b::shape, number_format::bf16).value() ==
        doctest::Approx(2.0 * 8 * 128 * 126 * 2).scale(0.0));  // 516,096 bytes
  CHECK(kv_bytes_per_token(models::llama3_405b::shape, number_format::fp8).value() ==
        doctest::Approx(258048.0).scale(0.0));
}

TEST_CASE("DeepSeek-V3 (MLA) caches its 512-wide latent and 64-wide rope key once per layer") {
  // config_671B.json: kv_lora_rank 512, qk_rope_head_dim 64, 61 layers. DeepSeek-V2 Table 1: MLA
  // caches (d_c + d_h^R) * l elements per token, independent of the 128 heads.
  const double elements = (512.0 + 64.0) * 61;  // 35,136
  CHECK(kv_elements_per_token_per_layer(models::deepseek_v3::shape) == 576.0);
  CHECK(kv_bytes_per_token(models::deepseek_v3::shape, number_format::bf16).value() ==
        doctest::Approx(elements * 2).scale(0.0));  // 70,272 bytes
  // Multi-head attention with the same 128 heads of 192-wide keys and 128-wide values would cache
  // 128 x (192 + 128) x 61 elements: 71 times more. As a shape without MLA: 128 kv heads whose
  // key and value together are 2 x 160 wide.
  model_shape mha = models::deepseek_v3::shape;
  mha.mla = {};
  mha.kv_heads = 128;
  mha.head_dim = (192 + 128) / 2;
  CHECK(kv_elements_per_token_per_layer(mha) == 128.0 * (192 + 128));
  CHECK(kv_bytes_per_token(mha, number_format::bf16).value() /
            kv_bytes_per_token(models::deepseek_v3::shape, number_format::bf16).value() ==
        doctest::Approx(71.1).epsilon(0.001).scale(0.0));
  // The latent belongs to every head: tensor parallelism cannot split it.
  CHECK(kv_cache_heads(models::deepseek_v3::shape) == 1);
}

TEST_CASE("the book's multi-head examples from transformers.md") {
  // Q1: "Per token, our KV caches are 2 · L · N · H = 2 · 64 · 4096 in int8, which is
  // 512kB / token."
  CHECK(kv_bytes_per_token(book_q1_model, number_format::int8).value() ==
        doctest::Approx(2.0 * 64 * 4096).scale(0.0));
  CHECK(kv_bytes_per_token(book_q1_model, number_format::int8).value() ==
        doctest::Approx(512.0 * 1024).scale(0.0));
  // "For a moderately-sized model with 8k context length, 64 layers, and NH = D = 8192, this is
  // 2 · 8192 · 64 · 8192 = 8GiB."
  model_shape wide = book_q1_model;
  wide.d_model = 8192;
  wide.heads = wide.kv_heads = 64;
  CHECK(kv_bytes_per_sequence(wide, number_format::int8, 8192).value() ==
        doctest::Approx(8.0 * gibi).scale(0.0));
}

TEST_CASE("multi-query attention caches one kv head") {
  // inference.md Q2 asks what dropping the invented model's 8 kv heads to 1 does: 2·8·256·64 bytes
  // per int8 token become 2·1·256·64 (the book gives no answer; written out here).
  CHECK(kv_bytes_per_token(book_gqa_model, number_format::int8).value() ==
        doctest::Approx(2.0 * 8 * 256 * 64).scale(0.0));
  CHECK(kv_bytes_per_token(book_mqa_model, number_format::int8).value() ==
        doctest::Approx(2.0 * 1 * 256 * 64).scale(0.0));
}

TEST_CASE("tensor parallelism splits kv heads, then the batch or copies") {
  const model_shape& m = models::llama3_70b::shape;  // 8 kv heads
  const kv_split within = split_kv(m, 8, 1, 1, false);
  CHECK(within.heads == 8);
  CHECK(within.batch == 1);
  // 16-way: 8 ways over heads, the other 2 over the batch (the book's GMQA sharding) ...
  const kv_split beyond = split_kv(m, 16, 1, 1, false);
  CHECK(beyond.heads == 8);
  CHECK(beyond.batch == 2);
  CHECK(beyond.copies == 1);
  // ... or 2 copies (Megatron with replicated kv heads).
  const kv_split copied = split_kv(m, 16, 1, 1, true);
  CHECK(copied.batch == 1);
  CHECK(copied.copies == 2);
  // MLA: the single latent is never split by heads.
  const kv_split mla = split_kv(models::deepseek_v3::shape, 8, 1, 4, false);
  CHECK(mla.heads == 1);
  CHECK(mla.batch == 4 * 8);
  // Sequence sharding splits every sequence's tokens.
  CHECK(split_kv(m, 8, 4, 1, false).sequence == 4);
}

TEST_CASE("a device holds its share of whole sequences") {
  const model_shape& m = models::llama3_70b::shape;
  const kv_split s = split_kv(m, 16, 1, 1, false);   // heads 8, batch 2
  const double one = 2.0 * 8 * 128 * 80 * 2 * 8192;  // bf16, 8192 tokens
  CHECK(kv_bytes_per_sequence_on_device(m, number_format::bf16, 8192, s).value() ==
        doctest::Approx(one / 8).scale(0.0));
  // 5 sequences over 2 batch groups: the fuller holds 3.
  CHECK(kv_bytes_per_device(m, number_format::bf16, 8192, 5, s).value() ==
        doctest::Approx(3 * one / 8).scale(0.0));
}

TEST_CASE("the smallest v5e slices for LLaMA-3 70B at 8k context reproduce the book's table") {
  // applied-inference.md: "the only limit is fitting parameter memory in HBM, i.e. it is just
  // ceil(num_params * sizeof(dtype) / HBM per TPU) ... rounded to the nearest reasonable topology":
  // bf16 140GB, 8.75 chips, "4x4 = 16 chips"; int8 70GB, 4.38, "4x2 = 8 chips"; int4 45GB, 2.81,
  // "2x2 = 4 chips". The book's batch is 1 and the cache is left out of this count.
  const bytes hbm = hardware::tpu_v5e::figures.memory;  // the book's "HBM per TPU" 16 GB
  CHECK(fewest_devices(140e9 * byte, 0.0 * byte, hbm, no_reserve) == 9);  // 8.75 up
  CHECK(round_up_to_power_of_two(9) == 16);
  CHECK(round_up_to_power_of_two(fewest_devices(70e9 * byte, 0.0 * byte, hbm, no_reserve)) == 8);
  CHECK(round_up_to_power_of_two(fewest_devices(45e9 * byte, 0.0 * byte, hbm, no_reserve)) == 4);
  // "remaining HBM for KV caches 116 ... num KV caches @ 8k 43" (bf16 on 16 chips).
  const bytes free = 16.0 * hbm - 140e9 * byte;
  CHECK(free.value() == doctest::Approx(116e9).scale(0.0));
  CHECK(sequences_that_fit(free, models::llama3_70b::shape, number_format::bf16, 8192,
                           kv_split{}) == 43);
  // The int8 row's "68" and "52" do not follow from its own columns (8 x 16 - 70 = 58 GB, which
  // holds 43 int8 caches of 1.34 GB), so they are not checked.
}

TEST_CASE("fitting 240 sequences of 32k tokens takes 86 v5e chips") {
  // applied-inference.md: "we would need about (70e9 + 1.3e12) / 16e9 = 86 TPU v5e chips to even
  // fit this much memory."
  CHECK(fewest_devices(70e9 * byte, 1.3e12 * byte, 16e9 * byte, no_reserve) == 86);
}

TEST_CASE("the reserve takes a fixed part and a fraction of what is planned") {
  // 80 GB with 2 GB fixed and 5%: (80 - 2)/1.05 = 74.29 GB for weights and caches.
  const memory_reserve r{2.0 * giga * byte, 0.05};
  CHECK(usable_memory(80.0 * giga * byte, r).value() == doctest::Approx(78e9 / 1.05).scale(0.0));
  // 141.1 GB of bf16 LLaMA-3 70B: two H100s hold it with that reserve, not one.
  CHECK(fewest_devices(141.1e9 * byte, 0.0 * byte, 80.0 * giga * byte, r) == 2);
  // Whole sequences in groups: 10 GB free over sequences of 1 GB in 4 groups fits 40.
  CHECK(sequences_that_fit(10.0 * giga * byte, book_q1_model, number_format::int8, 1907,
                           kv_split{.batch = 4}) == 4 * 10);
}
