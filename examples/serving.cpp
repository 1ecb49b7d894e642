// Serving LLaMA-3 70B: on a TPU v5e 4x4 with int8 weights and cache (the book's setting,
// applied-inference.md), on one 8-GPU H100 node in fp8, and from the DRAM of a dual-socket Xeon
// server. 64 sequences of 6144 prompt tokens and 2048 generated tokens each (8k context). Each
// plan prints the book's bound (the roofline: every read at the datasheet bandwidth, full-context
// caches beside a 2 GB + 5% reserve) and then the estimate of its engine (workload.hpp: the
// kernels' measured shares, fixed costs, continuous batching with prefill in the steps).
// Prices are examples that change (inference.hpp's example_prices): pass price<dollars_per_hour{}>.
#include <iostream>
#include <shardplan/core/format.hpp>
#include <shardplan/hardware/cpu.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>
#include <string>
#include <string_view>

using namespace shardplan;

using v5e = serving_plan<models::llama3_70b, systems::tpu_v5e_slice<4, 4>, mesh<axis<"tp", 16>>,
                         tensor<"tp">, weights<number_format::int8>, kv_cache<number_format::int8>,
                         serve_batch<64>, prompt_tokens<6144>, generated_tokens<2048>>;

using h100 = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>, mesh<axis<"tp", 8>>,
                          tensor<"tp">, weights<number_format::fp8>, kv_cache<number_format::fp8>,
                          compute_in<number_format::fp8>, serve_batch<64>, prompt_tokens<6144>,
                          generated_tokens<2048>, engine::vllm>;

using xeon = serving_plan<models::llama3_70b, systems::single_server<hardware::xeon_8480_2s>,
                          mesh<axis<"server", 1>>, data<"server">, weights<number_format::int8>,
                          kv_cache<number_format::int8>, serve_batch<64>, prompt_tokens<6144>,
                          generated_tokens<2048>>;

// The batch fits beside the weights and what the engine keeps for itself, every rule holds.
SHARDPLAN_REQUIRE_SERVABLE(v5e);
SHARDPLAN_REQUIRE_SERVABLE(h100);
SHARDPLAN_REQUIRE_SERVABLE(xeon);
// 64 tokens a step is below the critical batch: int8 weights with bf16 FLOPs on v5e turn
// compute-bound at (1/2) x 197/0.819 = 120 tokens, fp8 on H100 at (1/2) x 1979/3.35 = 295.
SHARDPLAN_REQUIRE_MEMORY_BOUND(v5e);
SHARDPLAN_REQUIRE_MEMORY_BOUND(h100);
static_assert(v5e::decode().critical_batch > 120 && v5e::decode().critical_batch < 121);
static_assert(h100::decode().critical_batch > 295 && h100::decode().critical_batch < 296);
// The book's smallest int8 slice at 8k is a 4x2 ("4x2 = 8 chips"); 70.6 GB of fp8 weights and
// one 1.3 GB cache fit one H100's 80 GB.
static_assert(smallest_slice(v5e::values, 1) == 8);
static_assert(smallest_slice(h100::values, 1) == 1);
// The batch's 64 caches of 1.34 GB (int8 or fp8) add 85.9 GB: (70.6 + 85.9) GB over the v5e's
// (16 - 2)/1.05 = 13.3 GB is 11.7 chips, a slice of 16; over the H100's (80 - 2)/1.05 = 74.3 GB,
// 2.1 GPUs, a slice of 4.
static_assert(smallest_slice(v5e::values) == 16);
static_assert(smallest_slice(h100::values) == 4);
// Decode reads every weight each step, so its speed is memory bandwidth: the GPU node's
// 8 x 3.35 TB/s against the server's 614 GB/s.
static_assert(xeon::decode().step.value() > 20 * h100::decode().step.value());

namespace {

std::string number(double x) { return detail::significant(detail::round_significant(x, 3), 3); }

template <class Plan>
void report(std::string_view title) {
  const decode_cost d = Plan::decode();
  const prefill_cost p = Plan::prefill();
  const serving_estimate e = Plan::serving();
  const serving_cost c = estimate_cost(Plan::values, e);
  serving_plan_values book = Plan::values;
  book.setup.engine = serving_engine::roofline;
  const double chips = static_cast<double>(Plan::degrees().devices);
  std::cout << title << "\n"
            << "  the book's bound: smallest slice for one 8k sequence " << smallest_slice(book, 1)
            << (smallest_slice(book, 1) == 1 ? " chip" : " chips") << ", for the batch "
            << smallest_slice(book) << "; largest batch of full caches on " << chips << ": "
            << max_batch(book) << "\n"
            << "    batch " << Plan::values.setup.batch << ": step " << format(d.step)
            << " = weights " << format(d.time.weights) << " + kv " << format(d.time.kv)
            << " + collectives " << format(d.communication) << " (flops " << format(d.time.matmul)
            << ", " << (d.memory_bound ? "memory-bound" : "compute-bound") << " below "
            << number(d.critical_batch) << ")\n"
            << "    tokens/s: " << number(d.tokens_per_second_per_device) << " per chip, "
            << number(d.tokens_per_second_per_user) << " per user; first token in "
            << format(p.time_to_first_token) << "\n"
            << "  as " << name_of(Plan::values.setup.engine)
            << " runs it (estimate; measured " << number(serving_measured_error.batch_1_decode)
            << "-" << number(serving_measured_error.throughput) << "% off):\n"
            << "    first token in " << format(e.time_to_first_token) << ", then "
            << format(e.time_per_output_token) << " a token at " << e.concurrency
            << " requests (" << number(100.0 * e.prefill_share) << "% of each step's tokens prefill)\n"
            << "    tokens/s: " << number(e.output_tokens_per_second_per_device) << " per chip, "
            << number(e.output_tokens_per_second_per_user) << " per user; at most "
            << e.max_concurrency << " requests at once (cache at the mean context of "
            << number(e.average_context) << " tokens, engine limit)\n";
  if (c.dollars_per_chip_hour > 0.0)
    std::cout << "    at $" << number(c.dollars_per_chip_hour) << " per chip-hour: $"
              << number(c.per_million_output_tokens) << " per million output tokens, $"
              << number(c.per_query) << " per query\n";
  else
    std::cout << "    no example price for this chip: pass price<dollars_per_hour{...}>\n";
}

}  // namespace

int main() {
  report<v5e>("llama3-70b, int8, tpu v5e 4x4, 16-way tensor parallel");
  report<h100>("llama3-70b, fp8, dgx h100 node, 8-way tensor parallel");
  report<xeon>("llama3-70b, int8, 2x xeon platinum 8480+ from ddr5");
}
// Output:
// llama3-70b, int8, tpu v5e 4x4, 16-way tensor parallel
//   the book's bound: smallest slice for one 8k sequence 8 chips, for the batch 16; largest batch of full caches on 16: 106
//     batch 64: step 16.5 ms = weights 5.3 ms + kv 6.56 ms + collectives 4.69 ms (flops 2.82 ms, memory-bound below 120)
//     tokens/s: 242 per chip, 60.4 per user; first token in 573 ms
//   as generic runs it (estimate; measured 6-11.8% off):
//     first token in 1.07 s, then 56.9 ms a token at 64 requests (75% of each step's tokens prefill)
//     tokens/s: 70.3 per chip, 17.6 per user; at most 108 requests at once (cache at the mean context of 7170 tokens, engine limit)
//     at $1.2 per chip-hour: $4.74 per million output tokens, $0.0154 per query
// llama3-70b, fp8, dgx h100 node, 8-way tensor parallel
//   the book's bound: smallest slice for one 8k sequence 1 chip, for the batch 4; largest batch of full caches on 8: 390
//     batch 64: step 9.5 ms = weights 2.59 ms + kv 3.21 ms + collectives 3.7 ms (flops 562 us, memory-bound below 295)
//     tokens/s: 842 per chip, 105 per user; first token in 114 ms
//   as vllm runs it (estimate; measured 6-11.8% off):
//     first token in 232 ms, then 25.2 ms a token at 64 requests (75% of each step's tokens prefill)
//     tokens/s: 317 per chip, 39.6 per user; at most 256 requests at once (cache at the mean context of 7170 tokens, engine limit)
//     at $12.3 per chip-hour: $10.8 per million output tokens, $0.0284 per query
// llama3-70b, int8, 2x xeon platinum 8480+ from ddr5
//   the book's bound: smallest slice for one 8k sequence 1 chip, for the batch 1; largest batch of full caches on 1: 726
//     batch 64: step 253 ms = weights 113 ms + kv 140 ms + collectives 0 s (flops 38.8 ms, memory-bound below 187)
//     tokens/s: 253 per chip, 3.95 per user; first token in 7.88 s
//   as generic runs it (estimate; measured 6-11.8% off):
//     first token in 8.23 s, then 476 ms a token at 64 requests (75% of each step's tokens prefill)
//     tokens/s: 134 per chip, 2.1 per user; at most 256 requests at once (cache at the mean context of 7170 tokens, engine limit)
//     no example price for this chip: pass price<dollars_per_hour{...}>
