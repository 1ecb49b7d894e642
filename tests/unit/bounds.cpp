// Tests of bounds.hpp: How to Scale Your Model's training rooflines, reproduced from the types.
#include <doctest/doctest.h>

#include <cmath>

#include <shardplan/training/bounds.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

namespace {

byte_rate bandwidth(const system_figures& s, std::int64_t inner, std::int64_t size) {
  return axis_bandwidth(network_of(levels_of(s), inner, size));
}

}  // namespace

TEST_CASE("data parallelism on v5p needs 2550 tokens a chip on one axis and 850 on three") {
  // training.md: C/W_ici = 4.59e14/1.8e11 = 2550; over 3 axes 850 (7.6 M tokens a pod).
  const auto& pod = systems::tpu_v5p_slice<16, 20, 28>::figures;
  const flop_rate c = pod.chip.peak_bf16;
  CHECK(data_parallel_critical_tokens(c, bandwidth(pod, 1, 16)) == doctest::Approx(2550).epsilon(0.001));
  CHECK(data_parallel_critical_tokens(c, bandwidth(pod, 1, 8960)) == doctest::Approx(850).epsilon(0.001));
  CHECK(850 * 8960 == doctest::Approx(7.6e6).epsilon(0.01));
}

TEST_CASE("the fsdp and tensor-parallel bound is about 100 tokens a chip for F = 32768") {
  // training.md: α²/(M_X·M_Y·F) with α = 2550, M_X·M_Y = 2: 2550²/(2·32768) ≈ 99.
  const auto& s = systems::tpu_v5p_slice<4, 4, 4>::figures;
  const flop_rate c = s.chip.peak_bf16;
  // Mesh {X: 16, Y: 4}: Y innermost on one physical axis, X on the other two.
  const byte_rate w_x = bandwidth(s, 4, 16);
  const byte_rate w_y = bandwidth(s, 1, 4);
  CHECK(fsdp_tensor_critical_tokens(32768, c, w_x, w_y) == doctest::Approx(2550.0 * 2550 / (2 * 32768)).epsilon(0.001));
  CHECK(fsdp_tensor_critical_tokens(32768, c, w_x, w_y) == doctest::Approx(99).epsilon(0.01));
}

TEST_CASE("x_opt is about 13.9 for the 4x4x4 example") {
  // training.md: N = 64, B = 48,000, F = 32768, M_X/M_Y = 2: sqrt((B/F)·2·N) ≈ 13.9 → X = 16.
  const auto& s = systems::tpu_v5p_slice<4, 4, 4>::figures;
  // sqrt(48000/32768 · 2 · 64) = 13.69; the book's 13.9 rounds B/F to 1.5 (1.5% apart).
  CHECK(optimal_fsdp_degree(48000, 64, 32768, bandwidth(s, 4, 16), bandwidth(s, 1, 4)) ==
        doctest::Approx(sqrt(48000.0 / 32768 * 2 * 64)));
  CHECK(optimal_fsdp_degree(48000, 64, 32768, bandwidth(s, 4, 16), bandwidth(s, 1, 4)) ==
        doctest::Approx(13.9).epsilon(0.02));
}

TEST_CASE("pure data parallelism across v5p pods needs 73,440 tokens a pod") {
  // training.md: 4.59e14 / 6.25e9 = 73,440.
  const auto& chip = hardware::tpu_v5p::figures;
  CHECK(dcn_critical_tokens_per_slice(chip.peak_bf16, chip.scale_out_bandwidth) ==
        doctest::Approx(73440).epsilon(0.001));
}

TEST_CASE("tensor parallelism for llama-3 70b: 8-way is fine, 16-way is communication-bound") {
  // training.md: Y < M_Y·F/2550 with F = 28,672 on one v5p axis: 11.2.
  const auto& s = systems::tpu_v5p_slice<16, 16, 16>::figures;
  const double limit = tensor_parallel_limit(28672, s.chip.peak_bf16, bandwidth(s, 1, 16));
  CHECK(limit == doctest::Approx(28672.0 / 2550).epsilon(0.001));
  CHECK(8 < limit);
  CHECK(16 > limit);
}

TEST_CASE("an h100's data-parallel threshold is 2200 in a node and 2475 across nodes") {
  // gpus.md: 990e12/450e9 = 2200 and 990e12/400e9 = 2475; our all-gather keeps the (N−1)/N of
  // an 8-GPU node (450e9·8/7) and of a 32-node leaf (400e9·32/31).
  const auto& s = systems::dgx_h100_superpod<32>::figures;
  const flop_rate c = 990e12 * flop / second;
  CHECK(data_parallel_critical_tokens(c, bandwidth(s, 1, 8)) == doctest::Approx(2200.0 * 7 / 8));
  CHECK(data_parallel_critical_tokens(c, bandwidth(s, 1, 256)) ==
        doctest::Approx(990e12 / (400e9 * 32 / 31)));
}

TEST_CASE("an outer data axis over tensor-parallel nodes keeps the 2475 threshold per device") {
  // gpus.md: the cost of the outer reduction falls by the nodes the inner axis spans; with
  // 8-way tensor parallelism in each node the data-parallel threshold per GPU is still
  // C/W_node egress (·31/32 for the 32-node ring).
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<32>,
                             mesh<axis<"dp", 32>, axis<"tp", 8>>, data<"dp">, tensor<"tp">,
                             batch<global_sequences<256>, seq_len<4096>, micro_batch<1>>>;
  const plan_bounds b = bounds_of(plan::values);
  REQUIRE(b.count == 2);
  CHECK(b.items[0].critical == doctest::Approx(989.4e12 / (400e9 * 32 / 31)));
}

TEST_CASE("llama-3 70b on a full v5p pod at 40% mfu takes 44 days") {
  // applied-training.md: 6 · 70e9 · 15e12 = 6.3e24 FLOP; 8960 chips at 40% of 4.59e14:
  // 3.8e6 s = 44 days. The book counts 6·N·D and ignores attention.
  const flops work =
      model_flops_per_token(models::llama3_70b::shape, 8192, attention_flops::ignored) * 15e12;
  const seconds t = time_at_mfu(work, 8960, hardware::tpu_v5p::figures.peak_bf16, 0.4);
  CHECK(t.value() / 86400 == doctest::Approx(44).epsilon(0.02));
}

TEST_CASE("the book's llama-2 13b step on 4096 v5p at 40% mfu is about 300 ms") {
  // training.md Q3: 6 · 3e6 · 13e9 / (4096 · 4.6e14 · 0.4) = 0.31 s, "300ms".
  const flops work =
      model_flops_per_token(models::llama2_13b::shape, 32768, attention_flops::ignored) * 3e6;
  const seconds t = time_at_mfu(work, 4096, hardware::tpu_v5p::figures.peak_bf16, 0.4);
  CHECK(t.value() == doctest::Approx(6 * 3e6 * 13e9 / (4096 * 4.59e14 * 0.4)).epsilon(0.02));
  CHECK(t.value() == doctest::Approx(0.3).epsilon(0.05));
}

TEST_CASE("expert parallelism conditions of gpus.md") {
  // α = C/W_node = 2475 for H100; k = 8 experts of F = 2048 over Z = 64 GPUs (8 nodes):
  // k > Z/8 fails (8 = 8), so F > 8α = 19,800 is needed: communication-bound.
  CHECK_FALSE(expert_parallel_compute_bound(2048, 8, 64, 2475));
  CHECK(expert_parallel_compute_bound(2048, 8, 8, 2475));
  CHECK(expert_parallel_compute_bound(30000, 8, 16, 2475));  // k > 2 and F > 2475·8/8
}

TEST_CASE("a plan's bounds compare each axis with its threshold") {
  using plan = training_plan<models::llama3_70b, systems::tpu_v5p_slice<8, 8, 16>,
                             mesh<axis<"fsdp", 256>, axis<"tp", 4>>, fsdp<"fsdp">, tensor<"tp">,
                             batch<global_tokens<2048 * 4096>, seq_len<4096>, micro_batch<1>>>;
  const plan_bounds b = bounds_of(plan::values);
  REQUIRE(b.count == 2);
  // 8 M tokens over 1024 chips: 8192 a chip; FSDP over 256 with 4-way tensor parallelism.
  CHECK(b.items[0].actual == doctest::Approx(2048.0 * 4096 / 1024));
  CHECK(b.items[1].actual == 4);
}
