// Static tests of kv_cache.hpp, inference.hpp and serving_plan.hpp: cache sizes from the published
// shapes, the book's decode rules and serving plans that compile because they fit, each worked out
// by hand. The plans serve on `engine::roofline`, the book's model (full-context caches beside a
// 2 GB + 5% reserve). Compiling is passing.
#include <shardplan/hardware/cpu.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/serving/kv_cache.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

namespace {

using namespace shardplan;

constexpr bool near(double a, double b, double tolerance = 1e-9) {
  const double d = a > b ? a - b : b - a;
  return d <= tolerance * (b > 0 ? b : -b);
}

// --- KV cache bytes per token: 2 x kv heads x head_dim x layers x bytes (MLA: latent + rope) ---

static_assert(kv_bytes_per_token(models::llama2_13b::shape, number_format::bf16).value() ==
              2.0 * 40 * 128 * 40 * 2);
static_assert(kv_bytes_per_token(models::llama3_70b::shape, number_format::int8).value() ==
              2.0 * 8 * 128 * 80);  // "160kiB" (applied-inference.md)
static_assert(kv_bytes_per_token(models::llama3_405b::shape, number_format::bf16).value() ==
              2.0 * 8 * 128 * 126 * 2);
static_assert(kv_bytes_per_token(models::deepseek_v3::shape, number_format::bf16).value() ==
              (512.0 + 64) * 61 * 2);
static_assert(attention_of(models::deepseek_v3::shape) == attention_kind::mla);
static_assert(attention_of(models::llama3_8b::shape) == attention_kind::gqa);

// The slice arithmetic saturates at 2^62 devices instead of overflowing 64 bits: 1e30 bytes on
// chips of 16 GB would be 6.25e19 of them.
static_assert(fewest_devices(1e30 * byte, 0.0 * byte, 16e9 * byte, {0.0 * byte, 0.0}) ==
              max_device_count);
static_assert(round_up_to_power_of_two(max_device_count) == max_device_count);
static_assert(round_up_to_power_of_two(max_device_count - 1) == max_device_count);

// --- the book's rules -------------------------------------------------------------------------

// B_crit = (bytes per weight / 2) x C / W: 240 in bf16 and 120 in int8 on the book's v5e.
static_assert(near(critical_batch(1.97e14 * flop / second, 8.2e11 * byte / second, 2.0),
                   1.97e14 / 8.2e11));
static_assert(near(critical_batch(1.97e14 * flop / second, 8.2e11 * byte / second, 1.0),
                   1.97e14 / 8.2e11 / 2));
// MHA prefill attention intensity T/2.
static_assert(attention_intensity(4096, 4096, 1) == 2048.0);

// --- LLaMA-3 70B on a v5e 4x4: int8 weights and cache, 64 sequences of 8k -------------------

using v5e_plan =
    serving_plan<models::llama3_70b, systems::tpu_v5e_slice<4, 4>, mesh<axis<"tp", 16>>,
                 tensor<"tp">, weights<number_format::int8>, kv_cache<number_format::int8>,
                 serve_batch<64>, prompt_tokens<6144>, generated_tokens<2048>, engine::roofline>;
static_assert(v5e_plan::servable);
SHARDPLAN_REQUIRE_SERVABLE(v5e_plan);
// 160 KiB a token in int8; 8192 tokens a sequence.
static_assert(v5e_plan::kv_bytes_per_token().value() == 2.0 * 8 * 128 * 80);
static_assert(v5e_plan::kv_bytes_per_sequence().value() == 8192.0 * 2 * 8 * 128 * 80);
// 16 tensor ranks over 8 kv heads: 8 ways by heads, 2 by the batch.
static_assert(v5e_plan::kv_sharding().heads == 8);
static_assert(v5e_plan::kv_sharding().batch == 2);
// Per chip: 70.55 B int8 parameters / 16 = 4.41 GB; 32 sequences x 8192 x 163,840 B / 8 = 5.37 GB.
static_assert(v5e_plan::memory().weights.value() > 4.40e9 &&
              v5e_plan::memory().weights.value() < 4.42e9);
static_assert(near(v5e_plan::memory().kv.value(), 32.0 * 8192 * 2 * 8 * 128 * 80 / 8));
// 64 tokens a step against int8's critical batch of 120: memory-bound.
static_assert(v5e_plan::memory_bound);
SHARDPLAN_REQUIRE_MEMORY_BOUND(v5e_plan);
// The book's smallest int8 slice at batch 1 and 8k ("4x2 = 8 chips"), here with the 2 GB + 5%
// reserve: (70.55 + 1.34) GB / ((16 - 2)/1.05 GB) = 5.4 chips, a slice of 8.
static_assert(smallest_slice(v5e_plan::values, 1) == 8);
// The plan's own 64 caches: (70.55 + 64 x 1.34) GB / 13.33 GB = 11.7 chips, a slice of 16.
static_assert(smallest_slice(v5e_plan::values) == 16);

// --- LLaMA-3 70B on one DGX H100 node in fp8 -------------------------------------------------

using h100_plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>,
                               mesh<axis<"tp", 8>>, tensor<"tp">, weights<number_format::fp8>,
                               kv_cache<number_format::fp8>, compute_in<number_format::fp8>,
                               serve_batch<64>, prompt_tokens<6144>, generated_tokens<2048>, engine::roofline>;
SHARDPLAN_REQUIRE_SERVABLE(h100_plan);
SHARDPLAN_REQUIRE_MEMORY_BOUND(h100_plan);
// Critical batch: (1/2) x 1978.9 / 3.35 = 295.4 tokens.
static_assert(near(h100_plan::decode().critical_batch, 0.5 * 1978.9 / 3.35, 1e-3));

// --- compute-bound: LLaMA-3 8B at 512 sequences of 1024 on a v5e 4x4 ------------------------

using busy_plan =
    serving_plan<models::llama3_8b, systems::tpu_v5e_slice<4, 4>, mesh<axis<"tp", 16>>,
                 tensor<"tp">, serve_batch<512>, prompt_tokens<1000>, generated_tokens<24>, engine::roofline>;
SHARDPLAN_REQUIRE_SERVABLE(busy_plan);
SHARDPLAN_REQUIRE_COMPUTE_BOUND(busy_plan);
static_assert(busy_plan::compute_bound);

// --- the book's smallest slices for LLaMA-3 70B at 8k, without a reserve ---------------------

template <number_format F>
using bare = serving_plan<models::llama3_70b, systems::tpu_v5e_slice<4, 4>, mesh<axis<"tp", 16>>,
                          tensor<"tp">, weights<F>, kv_cache<F>, prompt_tokens<8191>,
                          generated_tokens<1>, reserve<gigabytes{0.0}>, engine::roofline>;
static_assert(smallest_slice(bare<number_format::bf16>::values, 1) == 16);  // "4x4 = 16 chips"
static_assert(smallest_slice(bare<number_format::int8>::values, 1) == 8);   // "4x2 = 8 chips"
static_assert(smallest_slice(bare<number_format::int4>::values, 1) == 4);   // "2x2 = 4 chips"

// --- DeepSeek-V3: 32-way expert parallelism with data-parallel attention ---------------------

using deepseek_plan = serving_plan<models::deepseek_v3, systems::dgx_h100_superpod<4>,
                                   mesh<axis<"ep", 32>>, expert<"ep">, attention_data<"ep">,
                                   weights<number_format::fp8>, compute_in<number_format::fp8>,
                                   serve_batch<1024>, prompt_tokens<3072>, generated_tokens<1024>, engine::roofline>;
SHARDPLAN_REQUIRE_SERVABLE(deepseek_plan);
static_assert(deepseek_plan::degrees().expert == 32);
static_assert(deepseek_plan::degrees().attention_data == 32);
// The latent cannot be split by heads: the 1024 sequences split 32 ways, 32 a GPU.
static_assert(deepseek_plan::kv_sharding().heads == 1);
static_assert(deepseek_plan::kv_sharding().batch == 32);

// --- a CPU server ------------------------------------------------------------------------------

using cpu_plan = serving_plan<models::llama3_405b, systems::single_server<hardware::xeon_8480_2s>,
                              mesh<axis<"server", 1>>, data<"server">, weights<number_format::int8>,
                              kv_cache<number_format::int8>, compute_in<number_format::bf16>,
                              serve_batch<8>, prompt_tokens<4096>, generated_tokens<4096>, engine::roofline>;
// 405.9 GB of int8 weights in 1 TiB of DDR5.
SHARDPLAN_REQUIRE_SERVABLE(cpu_plan);
SHARDPLAN_REQUIRE_MEMORY_BOUND(cpu_plan);

}  // namespace
