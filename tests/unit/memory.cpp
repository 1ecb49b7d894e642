// Tests of memory.hpp through training plans: the ZeRO paper, Korthikanti et al. and the book's
// LLaMA-3 70B accounting, reproduced from the types alone.
#include <doctest/doctest.h>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

namespace {

// The ZeRO paper's running example (Rajbhandari et al. 2020, Fig. 1): a 7.5 B-parameter model,
// mixed-precision Adam, N_d = 64 data-parallel GPUs. Megatron-LM's 7.5 B GPT (Narayanan et al.
// 2021, Table 1) has Ψ = 7.47 B, 0.4% below 7.5 B: the paper's figures must hold within 1%.
template <class Strategy>
using zero_plan = training_plan<models::megatron_gpt_7_5b, systems::dgx_a100_superpod<8>,
                                mesh<axis<"dp", 64>>, Strategy,
                                batch<global_tokens<64 * 2048>, seq_len<2048>, micro_batch<1>>,
                                precision::bf16_mixed_adam, reserve<gigabytes{0.0}>>;

double model_state_gigabytes(const memory_breakdown& m) { return m.model_states().value() / 1e9; }

}  // namespace

TEST_CASE("the zero paper's 7.5B model on 64 gpus: 120, 31.4, 16.6 and 1.88 GB of model states") {
  CHECK(model_state_gigabytes(zero_plan<data<"dp">>::memory_per_device()) ==
        doctest::Approx(120.0).epsilon(0.01));
  CHECK(model_state_gigabytes(zero_plan<zero<1, "dp">>::memory_per_device()) ==
        doctest::Approx(31.4).epsilon(0.01));
  CHECK(model_state_gigabytes(zero_plan<zero<2, "dp">>::memory_per_device()) ==
        doctest::Approx(16.6).epsilon(0.01));
  CHECK(model_state_gigabytes(zero_plan<fsdp<"dp">>::memory_per_device()) ==
        doctest::Approx(1.88).epsilon(0.01));
}

TEST_CASE("zero stages follow 2Ψ + 2Ψ + 12Ψ/N, 2Ψ + 14Ψ/N and 16Ψ/N exactly") {
  const double psi = static_cast<double>(parameters(models::megatron_gpt_7_5b::shape).total);
  const double n = 64;
  CHECK(zero_plan<zero<1, "dp">>::memory_per_device().model_states().value() ==
        doctest::Approx(4 * psi + 12 * psi / n));
  CHECK(zero_plan<zero<2, "dp">>::memory_per_device().model_states().value() ==
        doctest::Approx(2 * psi + 14 * psi / n));
  CHECK(zero_plan<fsdp<"dp">>::memory_per_device().model_states().value() ==
        doctest::Approx(16 * psi / n));
}

namespace {

// Korthikanti et al. 2022 (arXiv:2205.05198), Fig. 1 setting: GPT-3 175B shape (their Table 3:
// 96 layers, h 12288, a 96, s 2048), t = 8, p = 8, micro-batch 1, dropout, 16-bit activations;
// Megatron's 18 bytes per parameter divided by t·p.
template <class Recompute, class Schedule, bool Sp>
using megatron_plan = training_plan<
    models::megatron_gpt<96, 12288, 96>, systems::dgx_a100_superpod<64>,
    mesh<axis<"dp", 8>, axis<"pp", 8>, axis<"tp", 8>>, data<"dp">, pipeline<"pp", Schedule>,
    std::conditional_t<Sp, tensor<"tp", sequence_parallel>, tensor<"tp">>,
    batch<global_sequences<512>, seq_len<2048>, micro_batch<1>>, Recompute,
    precision::megatron_mixed_adam, with_dropout, eager_attention, reserve<gigabytes{0.0}>>;

constexpr double s = 2048, b = 1, h = 12288, a = 96, t = 8, p = 8, layers = 96;

}  // namespace

TEST_CASE("1f1b keeps L layers of activations on the first stage (Korthikanti Sec. 4.2.3)") {
  using plan = megatron_plan<recompute::selective, schedule::one_f_one_b, true>;
  // Selective recompute with sequence parallelism: 34·sbh/t per layer, p micro-batches of L/p
  // layers in flight.
  CHECK(plan::memory_per_device().activations.value() ==
        doctest::Approx(s * b * h * 34 / t * layers));
}

TEST_CASE("interleaving multiplies activations by 1 + (p-1)/(p·v) (Korthikanti Sec. 4.2.3)") {
  using plan = megatron_plan<recompute::none, schedule::interleaved<2>, false>;
  const double per_layer = s * b * h * (10 + 24 / t + 5 * a * s / (h * t));
  CHECK(plan::memory_per_device().activations.value() ==
        doctest::Approx(per_layer * layers * (1 + (p - 1) / (p * 2))));
}

TEST_CASE("full recomputation keeps 2sbh per layer on the first stage") {
  using plan = megatron_plan<recompute::full, schedule::one_f_one_b, false>;
  CHECK(plan::memory_per_device().activations.value() == doctest::Approx(2 * s * b * h * layers));
}

TEST_CASE("megatron's model states are 18 bytes per parameter over t·p (Korthikanti Fig. 1)") {
  using plan = megatron_plan<recompute::selective, schedule::one_f_one_b, true>;
  // Per device on the first stage: 12 of 96 layers split 8 ways, plus the vocab-parallel
  // embedding; the 18 bytes are 2 (weights) + 4 (fp32 gradients) + 4 (master) + 8 (Adam).
  const double layer = 12 * h * h + 13 * h;  // Megatron's per-layer count with biases and norms
  const double stage = (layers / p) * (12 * h * h / t + (13 * h - 4 * h) / t + 4 * h) +
                       51200 * h / t + 2048 * h;
  const parameter_counts c = parameters(models::megatron_gpt<96, 12288, 96>::shape);
  CHECK(static_cast<double>(c.attention_per_layer + c.dense_mlp_per_layer + c.norms_per_layer) ==
        layer);
  CHECK(plan::memory_per_device().model_states().value() == doctest::Approx(18 * stage));
}

namespace {

// How to Scale Your Model, applied-training.md, LLaMA-3 70B: bf16 parameters and fp32 Adam
// (10 bytes/param, the book leaves gradients and master weights out), "4 checkpoints per layer"
// at a 4 M-token batch: 140 GB + 560 GB + 2·8192·4e6·4·80 = 20.9 TB, 21.6 TB in all.
// Fully sharded over 1024 v5p chips (an 8x8x16 slice), one sequence of 3906 tokens each:
// 3,999,744 tokens, the book's 4e6 within 0.01%.
constexpr double chips = 1024;
constexpr double tokens = 1024 * 3906;
using book_plan =
    training_plan<models::llama3_70b, systems::tpu_v5p_slice<8, 8, 16>, mesh<axis<"dp", 1024>>,
                  fsdp<"dp">, batch<global_tokens<1024 * 3906>, seq_len<3906>, micro_batch<1>>,
                  recompute::checkpoints<4>, precision::scaling_book_adam, reserve<gigabytes{0.0}>>;

}  // namespace

TEST_CASE("the book's llama-3 70b needs 140 GB of parameters and 560 GB of adam state") {
  const memory_breakdown m = book_plan::memory_per_device();
  CHECK(m.parameters.value() * chips / 1e9 == doctest::Approx(140.0).epsilon(0.01));
  CHECK(m.optimizer.value() * chips / 1e9 == doctest::Approx(560.0).epsilon(0.01));
  CHECK(m.gradients.value() == 0.0);
  CHECK(m.master_weights.value() == 0.0);
}

TEST_CASE("the book's 4 checkpoints per layer at 4M tokens total 21.6 TB") {
  const memory_breakdown m = book_plan::memory_per_device();
  CHECK(m.activations.value() * chips == doctest::Approx(2.0 * 8192 * tokens * 4 * 80));
  CHECK((m.model_states() + m.activations).value() * chips / 1e12 ==
        doctest::Approx(21.6).epsilon(0.01));
}

TEST_CASE("spread over a full 8960-chip v5p pod that is about 2.4 GB per chip") {
  // 8960 sequences of 448 tokens: 4.01 M tokens, one sequence per chip.
  using pod_plan = training_plan<models::llama3_70b, systems::tpu_v5p_slice<16, 20, 28>,
                                 mesh<axis<"dp", 8960>>, fsdp<"dp">,
                                 batch<global_tokens<8960 * 448>, seq_len<448>, micro_batch<1>>,
                                 recompute::checkpoints<4>, precision::scaling_book_adam,
                                 reserve<gigabytes{0.0}>>;
  const memory_breakdown m = pod_plan::memory_per_device();
  CHECK((m.model_states() + m.activations).value() / 1e9 == doctest::Approx(2.4).epsilon(0.02));
}

TEST_CASE("the reserve adds its fixed part and its fraction of everything planned") {
  using plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<1>,
                             mesh<axis<"dp", 8>>, fsdp<"dp">,
                             batch<global_tokens<8 * 8192>, seq_len<8192>, micro_batch<1>>,
                             precision::bf16_mixed_adam, reserve<gigabytes{2.0}, percent{10.0}>>;
  const memory_breakdown m = plan::memory_per_device();
  const double planned = (m.model_states() + m.activations + m.buffers).value();
  CHECK(m.reserve.value() == doctest::Approx(2e9 + 0.10 * planned));
  CHECK(m.total.value() == doctest::Approx(planned + 2e9 + 0.10 * planned));
}

TEST_CASE("multi-query attention keeps its one kv head's projections on every tensor rank") {
  // A 2-layer MQA model: Q and O are d·a·h each and split 4 ways; K and V, d·1·h each, are
  // replicated (PaLM's layout).
  constexpr model_shape mqa{.name = "mqa", .layers = 2, .d_model = 1024, .d_ff = 4096,
                            .heads = 8, .kv_heads = 1, .head_dim = 128, .vocab = 1000};
  parallel_degrees d;
  d.tensor = 4;
  const device_parameters held = parameters_on_device(mqa, d, stage_position::first);
  const double q_and_o = 2.0 * 1024 * 8 * 128;
  const double k_and_v = 2.0 * 1024 * 1 * 128;
  const double mlp = 3.0 * 1024 * 4096;
  const double norms = 2.0 * 1024;
  const double per_layer = q_and_o / 4 + k_and_v + mlp / 4 + norms;
  CHECK(held.dense == doctest::Approx(2 * per_layer + 2.0 * 1000 * 1024 / 4 + 1024));
}
