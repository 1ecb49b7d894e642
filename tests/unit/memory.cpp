// Tests of memory.hpp through training plans: the ZeRO paper, Korthikanti et al. and the book's
// LLaMA-3 70B accounting, reproduced from the types alone.
#include <doctest/doctest.h>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/models/torchtitan.hpp>
#include <shardplan/training/plan_builder.hpp>
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
        doctest::Approx(120.0).epsilon(0.01).scale(0.0));
  CHECK(model_state_gigabytes(zero_plan<zero<1, "dp">>::memory_per_device()) ==
        doctest::Approx(31.4).epsilon(0.01).scale(0.0));
  CHECK(model_state_gigabytes(zero_plan<zero<2, "dp">>::memory_per_device()) ==
        doctest::Approx(16.6).epsilon(0.01).scale(0.0));
  CHECK(model_state_gigabytes(zero_plan<fsdp<"dp">>::memory_per_device()) ==
        doctest::Approx(1.88).epsilon(0.01).scale(0.0));
}

TEST_CASE("zero stages follow 2Ψ + 2Ψ + 12Ψ/N, 2Ψ + 14Ψ/N and 16Ψ/N exactly") {
  const double psi = static_cast<double>(parameters(models::megatron_gpt_7_5b::shape).total);
  const double n = 64;
  CHECK(zero_plan<zero<1, "dp">>::memory_per_device().model_states().value() ==
        doctest::Approx(4 * psi + 12 * psi / n).scale(0.0));
  CHECK(zero_plan<zero<2, "dp">>::memory_per_device().model_states().value() ==
        doctest::Approx(2 * psi + 14 * psi / n).scale(0.0));
  CHECK(zero_plan<fsdp<"dp">>::memory_per_device().model_states().value() ==
        doctest::Approx(16 * psi / n).scale(0.0));
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
        doctest::Approx(s * b * h * 34 / t * layers).scale(0.0));
}

TEST_CASE("interleaving multiplies activations by 1 + (p-1)/(p·v) (Korthikanti Sec. 4.2.3)") {
  using plan = megatron_plan<recompute::none, schedule::interleaved<2>, false>;
  const double per_layer = s * b * h * (10 + 24 / t + 5 * a * s / (h * t));
  CHECK(plan::memory_per_device().activations.value() ==
        doctest::Approx(per_layer * layers * (1 + (p - 1) / (p * 2))).scale(0.0));
}

TEST_CASE("full recomputation keeps 2sbh per layer on the first stage") {
  using plan = megatron_plan<recompute::full, schedule::one_f_one_b, false>;
  CHECK(plan::memory_per_device().activations.value() ==
        doctest::Approx(2 * s * b * h * layers).scale(0.0));
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
  CHECK(plan::memory_per_device().model_states().value() == doctest::Approx(18 * stage).scale(0.0));
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
                  recompute::checkpoints<4>, precision::scaling_book_adam, memory_policy::book>;

}  // namespace

TEST_CASE("the book's llama-3 70b needs 140 GB of parameters and 560 GB of adam state") {
  const memory_breakdown m = book_plan::memory_per_device();
  CHECK(m.parameters.value() * chips / 1e9 == doctest::Approx(140.0).epsilon(0.01).scale(0.0));
  CHECK(m.optimizer.value() * chips / 1e9 == doctest::Approx(560.0).epsilon(0.01).scale(0.0));
  CHECK(m.gradients.value() == 0.0);
  CHECK(m.master_weights.value() == 0.0);
}

TEST_CASE("the book's 4 checkpoints per layer at 4M tokens total 21.6 TB") {
  const memory_breakdown m = book_plan::memory_per_device();
  CHECK(m.activations.value() * chips == doctest::Approx(2.0 * 8192 * tokens * 4 * 80).scale(0.0));
  CHECK((m.model_states() + m.activations).value() * chips / 1e12 ==
        doctest::Approx(21.6).epsilon(0.01).scale(0.0));
}

TEST_CASE("spread over a full 8960-chip v5p pod that is about 2.4 GB per chip") {
  // 8960 sequences of 448 tokens: 4.01 M tokens, one sequence per chip.
  using pod_plan = training_plan<models::llama3_70b, systems::tpu_v5p_slice<16, 20, 28>,
                                 mesh<axis<"dp", 8960>>, fsdp<"dp">,
                                 batch<global_tokens<8960 * 448>, seq_len<448>, micro_batch<1>>,
                                 recompute::checkpoints<4>, precision::scaling_book_adam,
                                 memory_policy::book>;
  const memory_breakdown m = pod_plan::memory_per_device();
  CHECK((m.model_states() + m.activations).value() / 1e9 ==
        doctest::Approx(2.4).epsilon(0.02).scale(0.0));
}

TEST_CASE("the reserve adds its fixed part and its fraction of everything planned") {
  using plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<1>,
                             mesh<axis<"dp", 8>>, fsdp<"dp">,
                             batch<global_tokens<8 * 8192>, seq_len<8192>, micro_batch<1>>,
                             precision::bf16_mixed_adam, reserve<gigabytes{2.0}, percent{10.0}>>;
  const memory_breakdown m = plan::memory_per_device();
  const double planned = (m.model_states() + m.activations + m.buffers).value();
  CHECK(m.reserve.value() == doctest::Approx(2e9 + 0.10 * planned).scale(0.0));
  CHECK(m.total.value() == doctest::Approx(planned + 2e9 + 0.10 * planned).scale(0.0));
}

TEST_CASE("multi-query attention keeps its one kv head's projections on every tensor rank") {
  // A 2-layer MQA model: Q and O are d·a·h each and split 4 ways; K and V, d·1·h each, are
  // replicated (PaLM's layout).
  constexpr model_shape mqa{.name = "mqa", .layers = 2, .d_model = 1024, .d_ff = 4096,
                            .heads = 8, .kv_heads = 1, .head_dim = 128, .vocab = 1000};
  training_setup split4;
  split4.degrees.tensor = 4;
  const device_parameters held = parameters_on_device(mqa, split4, stage_position::first);
  const double q_and_o = 2.0 * 1024 * 8 * 128;
  const double k_and_v = 2.0 * 1024 * 1 * 128;
  const double mlp = 3.0 * 1024 * 4096;
  const double norms = 2.0 * 1024;
  const double per_layer = q_and_o / 4 + k_and_v + mlp / 4 + norms;
  CHECK(held.dense == doctest::Approx(2 * per_layer + 2.0 * 1000 * 1024 / 4 + 1024).scale(0.0));
}

// --- frameworks (issue 13): what each framework's code allocates --------------------------------
// Each expected figure is derived here from LLaMA-3 8B's shape (32 layers, h 4096, f 14336, 32
// heads, 8 kv heads of 128, vocabulary 128256); each behaviour's source is cited at its case and,
// in full, where training/memory.hpp charges it. A namespace of their own keeps these shape
// constants apart from the GPT-3 ones above.
namespace frameworks_tests {

using llama = models::llama3_8b;
constexpr double h = 4096, f = 14336, heads = 32, kv = 8, dh = 128, vocab = 128256, layers = 32;
constexpr double seq = 8192;  // tokens per sequence in these plans
constexpr double e = 2;       // bytes of a bf16 activation
// One layer's parameters: q and o (h x a·d_h), k and v (h x kv·d_h), a gated MLP (3·h·f) and
// two RMSNorm weights.
constexpr double layer_params = 2 * h * heads * dh + 2 * h * kv * dh + 3 * h * f + 2 * h;

template <class... Options>
using llama_plan =
    training_plan<llama, systems::dgx_h100_superpod<4>, Options..., precision::bf16_mixed_adam,
                  reserve<gigabytes{0.0}>>;

TEST_CASE("generic is the default framework and changes nothing") {
  CHECK(training_setup{}.framework == profiles::generic);
  using without = llama_plan<mesh<axis<"dp", 8>, axis<"cp", 4>>, fsdp<"dp">, context<"cp">,
                             batch<global_sequences<32>, seq_len<8192>>, recompute::full>;
  using with = llama_plan<mesh<axis<"dp", 8>, axis<"cp", 4>>, fsdp<"dp">, context<"cp">,
                          batch<global_sequences<32>, seq_len<8192>>, recompute::full,
                          framework::generic>;
  CHECK(without::memory_per_device().total.value() == with::memory_per_device().total.value());
  CHECK(framework_name(training_framework::torchtitan) == "torchtitan");
}

// torchtitan shards FSDP over dp_shard x cp ("fsdp = self.dp_shard * self.cp",
// torchtitan/distributed/parallel_dims.py@b5bcd76c66d0acb1a08b176d9639425bc55e0b2a).
TEST_CASE("torchtitan's fsdp2 shards the model states over dp_shard x cp: 16Ψ/(8·4)") {
  const double psi = static_cast<double>(parameters(llama::shape).total);
  using generic = llama_plan<mesh<axis<"dp", 8>, axis<"cp", 4>>, fsdp<"dp">, context<"cp">,
                             batch<global_sequences<32>, seq_len<8192>>>;
  using titan = llama_plan<mesh<axis<"dp", 8>, axis<"cp", 4>>, fsdp<"dp">, context<"cp">,
                           batch<global_sequences<32>, seq_len<8192>>, framework::torchtitan>;
  CHECK(generic::memory_per_device().model_states().value() ==
        doctest::Approx(16 * psi / 8).scale(0.0));
  CHECK(titan::memory_per_device().model_states().value() ==
        doctest::Approx(16 * psi / 32).scale(0.0));
  // With cp > 1 torchtitan shards even without a dp_shard axis (`fsdp_enabled = dp_shard_enabled
  // or cp_enabled`, parallel_dims.py): a replicated data axis of 2 and cp 4 hold 16Ψ/4.
  using replicated = llama_plan<mesh<axis<"dp", 2>, axis<"cp", 4>>, data<"dp">, context<"cp">,
                                batch<global_sequences<32>, seq_len<8192>>, framework::torchtitan>;
  CHECK(replicated::memory_per_device().model_states().value() ==
        doctest::Approx(16 * psi / 4).scale(0.0));
}

// torchtitan: "For PP, by default do not reshard after forward" (`return not pp_enabled`,
// torchtitan/distributed/fsdp.py@b5bcd76c66d0acb1a08b176d9639425bc55e0b2a); PyTorch's pipeline
// schedules skip the gradient reduce-scatter until the last micro-batch, so gradients accumulate
// unsharded in the fp32 reduce dtype (`mixed_precision_reduce = "float32"`, configs.py).
TEST_CASE("fsdp with a pipeline keeps the stage gathered in bf16 and its gradients in fp32") {
  using titan = llama_plan<mesh<axis<"dp", 8>, axis<"pp", 4>>, fsdp<"dp">, pipeline<"pp">,
                           batch<global_sequences<64>, seq_len<8192>>, recompute::full,
                           framework::torchtitan>;
  using generic = llama_plan<mesh<axis<"dp", 8>, axis<"pp", 4>>, fsdp<"dp">, pipeline<"pp">,
                             batch<global_sequences<64>, seq_len<8192>>, recompute::full>;
  // The first stage: 8 of the 32 layers and the input embedding (V x h).
  const double stage_params = 8 * layer_params + vocab * h;
  const double send_receive = 2 * seq * h * e;  // one micro-batch's boundary, in and out
  CHECK(stage_memory(titan::values.model, titan::values.setup, stage_position::first)
            .buffers.value() == doctest::Approx(stage_params * (2 + 4) + send_receive).scale(0.0));
  // The generic model: two gathered layers (bf16) and one layer's bf16 gradients.
  const double largest_layer = 2 * h * heads * dh + 2 * h * kv * dh + 3 * h * f;
  CHECK(stage_memory(generic::values.model, generic::values.setup, stage_position::first)
            .buffers.value() ==
        doctest::Approx(largest_layer * (2 * 2 + 2) + send_receive).scale(0.0));
}

// torch.utils.checkpoint reruns a block's forward inside its backward (torchtitan `FullAC`,
// torchtitan/distributed/activation_checkpoint.py@b5bcd76c66d0acb1a08b176d9639425bc55e0b2a), and
// the loss casts the logits to fp32 (`pred.float()`, torchtitan/components/loss.py@b5bcd76).
TEST_CASE("full recomputation holds one rematerialised layer and the loss's fp32 logits") {
  using titan = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                           batch<global_sequences<8>, seq_len<8192>>, recompute::full,
                           framework::torchtitan>;
  using generic = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                             batch<global_sequences<8>, seq_len<8192>>, recompute::full>;
  const double checkpoints = layers * e * seq * h;  // every layer's input
  // The rematerialised layer with a flash kernel, per token: two norm inputs and the attention
  // and MLP inputs (4·e·h), Q and the attention output (2·e·a·d_h), K and V (2·e·kv·d_h), gate,
  // up and their product (3·e·f).
  const double layer = seq * (4 * e * h + 2 * e * heads * dh + 2 * e * kv * dh + 3 * e * f);
  CHECK(generic::memory_per_device().activations.value() ==
        doctest::Approx(checkpoints).scale(0.0));
  CHECK(titan::memory_per_device().activations.value() ==
        doctest::Approx(checkpoints + layer).scale(0.0));
  // Logits: generic 4·s·V. torchtitan's eager loss at the backward's start: log_softmax's saved
  // fp32 output, nll_loss's fp32 gradient and log_softmax's fp32 input gradient, 3 x 4·s·V.
  CHECK(generic::memory_per_device().buffers.value() ==
        doctest::Approx(4 * seq * vocab).scale(0.0));
  CHECK(titan::memory_per_device().buffers.value() ==
        doctest::Approx(3 * 4 * seq * vocab).scale(0.0));
  // The compiled loss keeps the bf16 logits and writes their bf16 gradient: 2 x 2·s·V.
  using compiled = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                              batch<global_sequences<8>, seq_len<8192>>, recompute::full,
                              framework::torchtitan, compiled_loss>;
  CHECK(compiled::memory_per_device().buffers.value() ==
        doctest::Approx(2 * e * seq * vocab).scale(0.0));
  // With TP, loss_parallel's fused backward, (grad_input + exp(x)) * grad_output: the saved fp32
  // log-softmax x, the zeros_like(x) gradient, exp(x) and the sum, 4 x 4·s·V/t on each device.
  using titan_tp = llama_plan<mesh<axis<"dp", 2>, axis<"tp", 4>>, data<"dp">, tensor<"tp">,
                              batch<global_sequences<2>, seq_len<8192>>, recompute::full,
                              framework::torchtitan>;
  CHECK(logit_bytes(titan_tp::values.setup) == 16.0);
  CHECK(logit_bytes(titan::values.setup) == 12.0);
  CHECK(logit_bytes(compiled::values.setup) == 2 * e);
}

// Megatron-Core's `--recompute-modules mlp` recomputes the dense MLP submodule
// (transformer_layer.py@d98e8a64ddf34856e74b24714e3bedb2f5a39553: `recompute_mlp` when "mlp" is
// listed and the layer is not MoE): a layer keeps everything but the MLP's gate, up and product,
// and the backward rematerialises one layer's MLP at a time.
TEST_CASE("recomputing the MLP keeps a layer without its MLP and rematerialises one MLP") {
  using kept = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                          batch<global_sequences<8>, seq_len<8192>>, recompute::none,
                          framework::megatron_core>;
  using mlp = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                         batch<global_sequences<8>, seq_len<8192>>, recompute::mlp,
                         framework::megatron_core>;
  // Per token, without recomputation: two norm inputs and the attention and MLP inputs (4·e·h),
  // Q and the attention output (2·e·a·d_h), K and V (2·e·kv·d_h), gate, up and product (3·e·f).
  const double attention_and_inputs = 4 * e * h + 2 * e * heads * dh + 2 * e * kv * dh;
  const double mlp_terms = 3 * e * f;
  CHECK(kept::memory_per_device().activations.value() ==
        doctest::Approx(layers * seq * (attention_and_inputs + mlp_terms)).scale(0.0));
  CHECK(mlp::memory_per_device().activations.value() ==
        doctest::Approx(layers * seq * attention_and_inputs + seq * mlp_terms).scale(0.0));
  // The MLP's forward runs again: its matmuls, 2·3·h·f FLOPs per token and layer, on top of 3x.
  const token_flops tf = forward_flops_per_token(llama::shape, 8192, attention_flops::causal);
  CHECK(tf.dense_mlp == doctest::Approx(2 * 3 * h * f * layers).scale(0.0));
  CHECK(hardware_flops_per_token(tf, {recompute_kind::mlp}).value() ==
        doctest::Approx(3 * tf.total() + 2 * 3 * h * f * layers).scale(0.0));
}

// torchtitan's SelectiveAC saves the outputs of its save set "except every second mm/linear"
// (torchtitan/distributed/activation_checkpoint.py@b5bcd76c66d0acb1a08b176d9639425bc55e0b2a):
// of wq, wk, wv, wo, w1, w3, w2 it saves wq, wv, w1 and w2, and the SDPA output and logsumexp.
TEST_CASE("torchtitan's op-level selective checkpointing keeps wq, wv, sdpa, w1 and w2") {
  using titan = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                           batch<global_sequences<8>, seq_len<8192>>, recompute::selective,
                           framework::torchtitan>;
  // Per token: the block input e·h, wq's e·a·d_h and wv's e·kv·d_h, the SDPA output e·a·d_h and
  // its fp32 logsumexp 4·a, w1's e·f and w2's e·h.
  const double per_token =
      e * h + e * heads * dh + e * kv * dh + e * heads * dh + 4 * heads + e * f + e * h;
  CHECK(titan::memory_per_device().activations.value() ==
        doctest::Approx(layers * seq * per_token).scale(0.0));
  // Tensor parallelism 8 with sequence parallelism (micro-batches of one sequence): the block input
  // and the column-parallel outputs are split by t, w2's partial sum is whole, and the two
  // reduce-scatter outputs (after wo and w2) are e·h/t each.
  using titan_tp = llama_plan<mesh<axis<"dp", 4>, axis<"tp", 8>>, data<"dp">,
                              tensor<"tp", sequence_parallel>,
                              batch<global_sequences<8>, seq_len<8192>>, recompute::selective,
                              framework::torchtitan>;
  constexpr double tp = 8;
  const double per_token_tp = e * h / tp + (e * heads * dh + e * kv * dh) / tp +
                              (e * heads * dh + 4 * heads) / tp + e * f / tp + e * h +
                              2 * e * h / tp;
  CHECK(titan_tp::memory_per_device().activations.value() ==
        doctest::Approx(layers * seq * per_token_tp).scale(0.0));
}

// Megatron-Core's distributed optimizer: "bf16 parameters, fp32 gradients: 6 + 12/d" bytes per
// parameter (docs/user-guide/features/dist_optimizer.md@d98e8a64ddf34856e74b24714e3bedb2f5a39553),
// d the data-parallel group with context parallelism (process_groups_config.py, same commit).
// MaxText's minimal_with_context (src/maxtext/layers/decoders.py at e591f30): the named
// projection outputs query_proj, key_proj, value_proj, out_proj, mlpwi_0, mlpwi_1, mlpwo and the
// attention's context, and the scanned layer's input; everything else is recomputed.
TEST_CASE("maxtext's selective is minimal_with_context: the named projections and the context") {
  using plan = llama_plan<mesh<axis<"dp", 8>>, fsdp<"dp">,
                          batch<global_sequences<8>, seq_len<8192>>, recompute::selective,
                          framework::maxtext>;
  // mlpwo feeds only the residual add, whose backward reads no input: not a residual, not kept.
  const double per_token = e * (h + h)                         // carry, out_proj
                           + e * (heads + 2 * kv) * dh         // q, k, v
                           + e * heads * dh + 4 * heads        // context: output, fp32 logsumexp
                           + 2 * e * f;                        // mlpwi_0, mlpwi_1
  CHECK(plan::memory_per_device().activations.value() ==
        doctest::Approx(layers * seq * per_token).scale(0.0));
}

// MaxText's qkv_proj_offloaded (src/maxtext/layers/nnx_decoders.py at e591f30, lines 1226-1237):
// q, k and v to pinned host memory, nothing named kept on the device but the scan's carry.
TEST_CASE("maxtext's offloaded remat policies keep the carry on the device, q, k, v on the host") {
  using plan = llama_plan<mesh<axis<"dp", 8>>, fsdp<"dp">,
                          batch<global_sequences<8>, seq_len<8192>>,
                          recompute::maxtext<"qkv_proj_offloaded">, framework::maxtext>;
  const memory_breakdown m = plan::memory_per_device();
  CHECK(m.host.value() == doctest::Approx(layers * seq * e * (heads + 2 * kv) * dh).scale(0.0));
  // On the device each layer's carry, and during one layer's backward what it recomputes: the
  // whole layer as the papers count it without recomputation (4·e·h, Q and output 2·e·a·d_h, K
  // and V 2·e·kv·d_h, 3·e·f) less the carry.
  const double whole = 4 * e * h + 2 * e * heads * dh + 2 * e * kv * dh + 3 * e * f;
  CHECK(m.activations.value() ==
        doctest::Approx(layers * seq * e * h + seq * (whole - e * h)).scale(0.0));
  // The same tensors on the device instead (save_qkv_proj): nothing on the host.
  using kept = llama_plan<mesh<axis<"dp", 8>>, fsdp<"dp">,
                          batch<global_sequences<8>, seq_len<8192>>,
                          recompute::maxtext<"save_qkv_proj">, framework::maxtext>;
  CHECK(kept::memory_per_device().host.value() == 0.0);
  CHECK(kept::memory_per_device().activations.value() - m.activations.value() ==
        doctest::Approx(m.host.value() * (1.0 - 1.0 / layers)).scale(0.0));
}

/// Mixtral 8x7B under MaxText, FSDP over one DGX H100, 8 sequences of 4096: `Recompute` varies.
template <class Recompute>
using mixtral_maxtext =
    training_plan<models::mixtral_8x7b, systems::dgx_h100_superpod<1>, mesh<axis<"dp", 8>>,
                  fsdp<"dp">, batch<global_sequences<8>, seq_len<4096>, micro_batch<1>>, Recompute,
                  precision::bf16_mixed_adam, framework::maxtext>;

// An MoE layer's experts carry MaxText's MLP names (moe.py at e591f30: checkpoint_name(...,
// "mlpwi_0"), "mlpwi_1", "mlpwo"): minimal keeps the k routed experts' up-projections and their
// outputs, which the combine's backward reads for the router weights' gradient. Mixtral 8x7B:
// h 4096, 32 heads and 8 kv heads of 128, 2 of 8 experts of width 14336 a token, bf16.
TEST_CASE("maxtext's remat policies name an moe layer's experts as its mlp") {
  using lt = layer_tensor;
  constexpr recompute_module_set minimal =
      tensor_bit(lt::query_proj) | tensor_bit(lt::key_proj) | tensor_bit(lt::value_proj) |
      tensor_bit(lt::out_proj) | tensor_bit(lt::mlpwi_0) | tensor_bit(lt::mlpwi_1) |
      tensor_bit(lt::mlpwo);
  using kept = mixtral_maxtext<recompute::named<minimal>>;
  using nothing = mixtral_maxtext<recompute::named<0>>;
  // Per token: q 2·32·128, k and v 2·8·128 each, out_proj 2·4096, mlpwi_0 and mlpwi_1
  // 2·2·14336 each, mlpwo 2·2·4096.
  const double named = 2.0 * 32 * 128 + 2 * (2.0 * 8 * 128) + 2.0 * 4096 + 2 * (2.0 * 2 * 14336) +
                       2.0 * 2 * 4096;
  CHECK(named == 151552.0);
  // Each of the 32 layers keeps them, less the one being rematerialised, which is back whole.
  const double tokens = 4096;
  CHECK(kept::memory_per_device().activations.value() -
            nothing::memory_per_device().activations.value() ==
        doctest::Approx(31 * tokens * named).scale(0.0));
  // A custom policy that offloads the carry (MaxText's Trillium recipes, decoder_layer_input
  // "offload") moves each layer's 2·4096 bytes a token to the host, but the one the layer being
  // rematerialised reads back.
  using offloaded = mixtral_maxtext<recompute::named<0, tensor_bit(lt::decoder_layer_input)>>;
  CHECK(offloaded::memory_per_device().host.value() ==
        doctest::Approx(32 * tokens * 2 * 4096).scale(0.0));
  CHECK(nothing::memory_per_device().activations.value() -
            offloaded::memory_per_device().activations.value() ==
        doctest::Approx(31 * tokens * 2 * 4096).scale(0.0));
}

// MaxText's own Llama 2 70B config for a v5e-256 (src/maxtext/configs/tpu/v5e/llama2_70b.sh at
// e591f30: per_device_batch_size=2, remat_policy=qkv_proj_offloaded, and base.yml's FSDP over the
// whole slice, 2048-token sequences, one micro-batch a step), published as one that "will work
// out of the box". XLA assigns the step's buffers when it compiles: no reserve; each weight is
// gathered in bf16 where it is used, so one layer's weights and the largest weight's gradient are
// live, and the loss's logits are dead before the layers' backward.
TEST_CASE("maxtext's llama 2 70b config for a v5e-256 fits: the buffers as xla assigns them") {
  using plan = training_plan<models::llama2_70b, systems::tpu_v5e_slice<16, 16>,
                             mesh<axis<"fsdp", 256>>, fsdp<"fsdp">,
                             batch<global_sequences<512>, seq_len<2048>, micro_batch<2>>,
                             recompute::maxtext<"qkv_proj_offloaded">, precision::bf16_mixed_adam,
                             framework::maxtext>;
  const memory_breakdown m = plan::memory_per_device();
  // Llama 2 70B: 80 layers of q and o (8192 x 8192 each), k and v (8192 x 1024 each), a gated
  // MLP (3 x 8192 x 28672) and two norms (8192 each); untied 32000 x 8192 token table and output;
  // a final norm: 68,976,648,192 parameters, 16 bytes each (bf16 parameter and gradient, fp32
  // master and two moments) over 256 chips.
  const double attention = 2 * 8192.0 * 8192 + 2 * 8192.0 * 1024;
  const double mlp = 3 * 8192.0 * 28672;
  const double params = 80 * (attention + mlp + 2 * 8192) + 2 * 32000.0 * 8192 + 8192;
  CHECK(params == 68'976'648'192.0);
  CHECK(m.model_states().value() == doctest::Approx(16 * params / 256).scale(0.0));
  // 2 sequences of 2048 tokens a chip: each layer's carry (4096 x 8192 bf16) on the device, its
  // q, k, v (4096 x (8192 + 2 x 1024) bf16) on the host, and one layer rematerialised: the whole
  // layer (4·h + 2·a·d_h + 2·kv·d_h + 3·f, 2 bytes each, per token) less its carry.
  const double tokens = 2 * 2048;
  const double whole = 2 * (4 * 8192.0 + 2 * 8192 + 2 * 1024 + 3 * 28672);
  CHECK(m.activations.value() ==
        doctest::Approx(80 * tokens * 2 * 8192 + tokens * (whole - 2 * 8192)).scale(0.0));
  CHECK(m.host.value() == doctest::Approx(80 * tokens * 2 * (8192 + 2 * 1024)).scale(0.0));
  // One layer's weights gathered in bf16 and the largest weight's unsharded bf16 gradient (the
  // gated MLP's up-projections, 2 x 8192 x 28672, counted as one tensor): 2.65 GB, more than the
  // loss's fp32 logits and gradient (8 x 4096 x 32000 = 1.05 GB), which are not live with them.
  const double gathered = 2 * (attention + mlp) + 2 * (2 * 8192.0 * 28672);
  CHECK(m.buffers.value() == doctest::Approx(gathered).scale(0.0));
  CHECK(8 * tokens * 32000 < gathered);
  CHECK(m.reserve.value() == 0.0);
  CHECK(m.transients().value() == 0.0);
  // 13.4 GB of a v5e's 16 GB.
  CHECK(m.total.value() ==
        doctest::Approx(16 * params / 256 + 80 * tokens * 2 * 8192 + tokens * (whole - 2 * 8192) +
                        gathered)
            .scale(0.0));
  CHECK(plan::memory_per_device().total < hardware::tpu_v5e::figures.memory);
}

// DeepSpeed's offload_optimizer at ZeRO-2 (stage_1_and_2.py at deepspeedai/DeepSpeed edaa7221):
// the fp32 master weights, moments and gradient partition and a bf16 copy of the parameters on
// the host, 4 + 8 + 4 + 2 = 18 bytes per parameter of the shard; on the device the bf16
// parameters (2 per parameter) and no gradient partition.
TEST_CASE("zero-offload keeps 18 bytes per parameter of the shard on the host, 2 per parameter on the device") {
  const double psi = static_cast<double>(parameters(models::megatron_gpt_7_5b::shape).total);
  const double n = 64;
  using plan = zero_plan<zero<2, "dp">>;
  using offloaded = training_plan<
      models::megatron_gpt_7_5b, systems::dgx_a100_superpod<8>, mesh<axis<"dp", 64>>,
      zero<2, "dp">, batch<global_tokens<64 * 2048>, seq_len<2048>, micro_batch<1>>,
      precision::bf16_mixed_adam, reserve<gigabytes{0.0}>, offload<offloads::zero_offload>>;
  const memory_breakdown m = offloaded::memory_per_device();
  CHECK(m.host.value() == doctest::Approx(18 * psi / n).scale(0.0));
  CHECK(m.model_states().value() == doctest::Approx(2 * psi).scale(0.0));
  CHECK(plan::memory_per_device().host.value() == 0.0);
  // Megatron-Core's hybrid optimizer with half offloaded: 6 of the 12 optimizer bytes and 2 of
  // the 4 gradient bytes per parameter of the shard on the host.
  constexpr offload_policy half{0.5, false, false, 2.0, 0.0};
  using megatron = training_plan<
      models::megatron_gpt_7_5b, systems::dgx_a100_superpod<8>, mesh<axis<"dp", 64>>,
      zero<1, "dp">, batch<global_tokens<64 * 2048>, seq_len<2048>, micro_batch<1>>,
      precision::bf16_mixed_adam, reserve<gigabytes{0.0}>, offload<half>>;
  CHECK(megatron::memory_per_device().host.value() ==
        doctest::Approx((6 + 2) * psi / n).scale(0.0));
  CHECK(megatron::memory_per_device().model_states().value() ==
        doctest::Approx(4 * psi + 6 * psi / n).scale(0.0));
}

// torchtune's eager modules (torchtune at 1814feb17a9038e1a8053ce93111bd26774a8db6): RMSNorm saves
// its fp32 copy x.float() (pow, and the product with rsqrt), x_normed (the product with scale)
// and its output (the projections); attention saves the rotated q, k and v expanded to every
// query head, the kernel's output and fp32 logsumexp and the contiguous() copy output_proj
// takes; the gated MLP saves w1's, SiLU's and w3's outputs and their product.
TEST_CASE("torchtune's eager layer: fp32 norm copies, expanded k and v, four mlp intermediates") {
  using eager = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                           batch<global_sequences<8>, seq_len<8192>>, recompute::none,
                           framework::torchtune>;
  using compiled = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                              batch<global_sequences<8>, seq_len<8192>>, recompute::none,
                              framework::torchtune, compiled_layers>;
  const double norm = 4 * h + e * h + e * h;                   // x_fp32, x_normed, output
  const double attention = 5 * e * heads * dh + 4 * heads;     // q, k, v, out, copy; logsumexp
  const double mlp = 4 * e * f;                                // w1, silu, w3, product
  CHECK(eager::memory_per_device().activations.value() ==
        doctest::Approx(layers * seq * (2 * norm + attention + mlp)).scale(0.0));
  // Compiled, each norm keeps its bf16 input and output, e·h each, instead of 4h + 2e·h.
  const double compiled_norm = 2 * e * h;
  CHECK(compiled::memory_per_device().activations.value() ==
        doctest::Approx(layers * seq * (2 * compiled_norm + attention + mlp)).scale(0.0));
}

// The loss: the model's output cast to fp32 (`F.linear(...).float()`), deleted by the recipe
// after the loss; eager cross-entropy then holds log_softmax's saved output, nll_loss's gradient
// and log_softmax's input gradient. CEWithChunkedOutputLoss runs 8 chunks on their own.
TEST_CASE("torchtune's logits: 12, compiled 8, chunked 4 + 8/8, chunked and compiled e + e/8") {
  auto setup = [](bool compiled, bool chunked) {
    training_setup t;
    t.framework = profiles::torchtune;
    t.compiled_loss = compiled;
    t.chunked_loss = chunked;
    return t;
  };
  CHECK(logit_bytes(setup(false, false)) == 3 * 4.0);
  CHECK(logit_bytes(setup(true, false)) == 4.0 + 4.0);   // the fp32 input it saves, its gradient
  CHECK(logit_bytes(setup(false, true)) == 4.0 + 2 * 4.0 / 8);  // every chunk's saved output
  CHECK(logit_bytes(setup(true, true)) == e + e / 8);   // every chunk's bf16 logits, one gradient
  using plan = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                          batch<global_sequences<8>, seq_len<8192>>, recompute::full,
                          framework::torchtune, compiled_loss, chunked_loss>;
  CHECK(plan::memory_per_device().buffers.value() ==
        doctest::Approx((e + e / 8) * seq * vocab).scale(0.0));
}

// torchtune frees the gradients after each step (`zero_grad(set_to_none=True)`,
// recipes/full_finetune_single_device.py at 1814feb): with one micro-batch the forward runs with
// no gradient allocated, and the peak is the larger of the backward's start (activations and
// logits, no gradients) and its end (every gradient, the rematerialised layer, no activations).
TEST_CASE("with gradients freed between steps the peak is the larger of two moments") {
  // No recomputation: the activations outweigh the gradients, the start is the peak.
  using none = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                          batch<global_sequences<8>, seq_len<8192>>, recompute::none,
                          framework::torchtune>;
  const memory_breakdown n = none::memory_per_device();
  CHECK(n.moment == peak_moment::backward_start);
  CHECK(n.not_live_at_peak.value() == n.gradients.value());
  CHECK(n.total.value() ==
        doctest::Approx((n.model_states() - n.gradients + n.activations + n.buffers).value())
            .scale(0.0));
  // Full recomputation and the chunked, compiled loss: the end holds more.
  using full = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                          batch<global_sequences<8>, seq_len<8192>>, recompute::full,
                          framework::torchtune, compiled_layers, compiled_loss, chunked_loss>;
  const memory_breakdown m = full::memory_per_device();
  // The rematerialised layer, compiled: two norms at 2e·h, attention and the MLP as above.
  const double layer = seq * (2 * 2 * e * h + 5 * e * heads * dh + 4 * heads + 4 * e * f);
  const double checkpoints = layers * seq * e * h;
  CHECK(m.activations.value() == doctest::Approx(checkpoints + layer).scale(0.0));
  CHECK(m.moment == peak_moment::backward_end);
  CHECK(m.total.value() == doctest::Approx(m.model_states().value() + layer).scale(0.0));
  // With two micro-batches the gradients accumulate across them: everything is live at once.
  using accumulating =
      llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                 batch<global_sequences<16>, seq_len<8192>, micro_batch<1>>, recompute::full,
                 framework::torchtune, compiled_layers, compiled_loss, chunked_loss>;
  const memory_breakdown a = accumulating::memory_per_device();
  CHECK(a.not_live_at_peak.value() == 0.0);
  CHECK(a.total.value() ==
        doctest::Approx((a.model_states() + a.activations + a.buffers).value()).scale(0.0));
  // The optimizer in the backward frees each gradient as it steps: the end holds one layer's
  // (its matrices, 2·h·a·d_h + 2·h·kv·d_h + 3·h·f, in bf16), and the start is the peak again.
  using in_backward =
      llama_plan<mesh<axis<"dp", 8>>, data<"dp">, batch<global_sequences<8>, seq_len<8192>>,
                 recompute::full, framework::torchtune, compiled_layers, compiled_loss,
                 chunked_loss, optimizer_in_backward>;
  const memory_breakdown b = in_backward::memory_per_device();
  const double layer_gradients = (2 * h * heads * dh + 2 * h * kv * dh + 3 * h * f) * 2;
  const double start = (b.model_states() - b.gradients + b.activations + b.buffers).value();
  const double end = (b.model_states() - b.gradients).value() + layer_gradients + layer;
  CHECK(start > end);
  CHECK(b.total.value() == doctest::Approx(start).scale(0.0));
  CHECK(b.moment == peak_moment::backward_start);
  // Other frameworks keep their gradients live: the sum, as before.
  using titan = llama_plan<mesh<axis<"dp", 8>>, data<"dp">,
                           batch<global_sequences<8>, seq_len<8192>>, recompute::full,
                           framework::torchtitan>;
  CHECK(titan::memory_per_device().not_live_at_peak.value() == 0.0);
}

TEST_CASE("megatron-core's distributed optimizer holds 6 + 12/d bytes, d = dp x cp") {
  const double psi = static_cast<double>(parameters(llama::shape).total);
  using megatron = llama_plan<mesh<axis<"dp", 8>, axis<"cp", 4>>, zero<1, "dp">, context<"cp">,
                              batch<global_sequences<32>, seq_len<8192>>,
                              framework::megatron_core>;
  CHECK(megatron::memory_per_device().model_states().value() ==
        doctest::Approx(psi * (6 + 12.0 / 32)).scale(0.0));
  CHECK(megatron::memory_per_device().gradients.value() == doctest::Approx(4 * psi).scale(0.0));
  // `--grad-reduce-in-bf16`: main gradients in bf16, 4 + 12/d.
  using bf16_reduce = llama_plan<mesh<axis<"dp", 8>, axis<"cp", 4>>, zero<1, "dp">, context<"cp">,
                                 batch<global_sequences<32>, seq_len<8192>>,
                                 framework::megatron_core, grad_reduce_in_bf16>;
  CHECK(bf16_reduce::memory_per_device().model_states().value() ==
        doctest::Approx(psi * (4 + 12.0 / 32)).scale(0.0));
  // The generic model shards over the zero axis only and keeps the policy's bf16 gradients.
  using generic = llama_plan<mesh<axis<"dp", 8>, axis<"cp", 4>>, zero<1, "dp">, context<"cp">,
                             batch<global_sequences<32>, seq_len<8192>>>;
  CHECK(generic::memory_per_device().model_states().value() ==
        doctest::Approx(psi * (4 + 12.0 / 8)).scale(0.0));
}

}  // namespace frameworks_tests

// --- transients, verdict and policies (issue 13, items 3-5) --------------------------------------
namespace transients_tests {

using llama = models::llama3_8b;

template <class... Options>
using plan = training_plan<llama, systems::dgx_h100_superpod<1>, mesh<axis<"dp", 2>, axis<"tp", 4>>,
                           fsdp<"dp">, tensor<"tp">, batch<global_sequences<8>, seq_len<8192>>,
                           recompute::full, precision::bf16_mixed_adam, Options...>;

TEST_CASE("generic keeps the flat reserve of 2 GB and 5% of everything planned, exactly") {
  const memory_breakdown m = plan<>::memory_per_device();
  const double planned = (m.model_states() + m.activations + m.buffers).value();
  CHECK(m.reserve.value() == doctest::Approx(2e9 + 0.05 * planned).scale(0.0));
  CHECK(m.transients().value() == 0.0);
  CHECK(m.total.value() == doctest::Approx(planned + m.reserve.value()).scale(0.0));
  // `memory_policy::framework` is the default and changes nothing under generic.
  CHECK(plan<memory_policy::framework>::memory_per_device().total.value() == m.total.value());
}

TEST_CASE("a named framework charges its transients instead of the flat reserve") {
  using titan = plan<framework::torchtitan>;
  const memory_breakdown m = titan::memory_per_device();
  CHECK(m.reserve.value() == 0.0);
  // The CUDA context with lazy loading (PR #86509: 287,047,680 bytes) and cuBLAS's 32 MiB
  // Hopper workspace.
  CHECK(m.cuda_context.value() == doctest::Approx(287'047'680.0 + 32.0 * 1024 * 1024).scale(0.0));
  // Two communicators (dp 2, tp 4), 32 channels each of NCCL's 4 MiB Simple buffer.
  CHECK(m.nccl_buffers.value() == doctest::Approx(2 * 32 * 4194304.0).scale(0.0));
  // torchtitan's fused AdamW allocates no state-sized temporary.
  CHECK(m.optimizer_temporaries.value() == 0.0);
  CHECK(m.fragmentation.value() ==
        doctest::Approx(0.05 * (m.activations + m.buffers).value()).scale(0.0));
  CHECK(m.total.value() == doctest::Approx((m.model_states() + m.activations + m.buffers).value() +
                                           m.transients().value())
                               .scale(0.0));
  // Megatron-Core charges the same terms; DeepSpeed (allocated as generic) keeps the flat
  // reserve; MaxText's buffers are assigned by XLA when the step compiles: neither.
  CHECK(plan<framework::megatron_core>::memory_per_device().nccl_buffers.value() ==
        m.nccl_buffers.value());
  CHECK(plan<framework::deepspeed>::memory_per_device().reserve.value() > 0.0);
  CHECK(plan<framework::deepspeed>::memory_per_device().transients().value() == 0.0);
  CHECK(plan<framework::maxtext>::memory_per_device().reserve.value() == 0.0);
  CHECK(plan<framework::maxtext>::memory_per_device().transients().value() == 0.0);
}

TEST_CASE("a foreach optimizer's step needs one state's size of temporaries, a fused one none") {
  memory_breakdown states;
  states.optimizer = 8e9 * byte;  // two fp32 moments of 1e9 parameters
  CHECK(optimizer_step_temporaries(states, precision::bf16_mixed_adam::policy, false).value() ==
        doctest::Approx(4e9).scale(0.0));
  CHECK(optimizer_step_temporaries(states, precision::bf16_mixed_adam::policy, true).value() ==
        0.0);
}

TEST_CASE("the book's policy charges no reserve and no transients under any framework") {
  const memory_breakdown generic = plan<memory_policy::book>::memory_per_device();
  const memory_breakdown titan = plan<framework::torchtitan, memory_policy::book>::memory_per_device();
  for (const memory_breakdown& m : {generic, titan}) {
    CHECK(m.reserve.value() == 0.0);
    CHECK(m.transients().value() == 0.0);
    CHECK(m.total.value() ==
          doctest::Approx((m.model_states() + m.activations + m.buffers).value()).scale(0.0));
  }
}

TEST_CASE("reserve<> charges the flat reserve under a named framework too") {
  using titan = plan<framework::torchtitan, reserve<gigabytes{3.0}>>;
  CHECK(titan::values.setup.memory_policy == training_memory_policy::reserve);
  const memory_breakdown m = titan::memory_per_device();
  CHECK(m.reserve.value() == doctest::Approx(3e9).scale(0.0));
  CHECK(m.transients().value() == 0.0);
  // A policy option after it wins.
  using back = plan<framework::torchtitan, reserve<gigabytes{3.0}>, memory_policy::framework>;
  CHECK(back::memory_per_device().reserve.value() == 0.0);
  CHECK(back::memory_per_device().nccl_buffers.value() > 0.0);
}

TEST_CASE("the verdict: fits, tight inside the margin, does not fit above the capacity") {
  const bytes cap = 80e9 * byte;
  // The default margin is the measured error band.
  const memory_assessment roomy = assess_memory(50e9 * byte, cap, 0.40);  // 30 GB over 40% of 50
  CHECK(roomy.verdict == memory_verdict::fits);
  CHECK(roomy.headroom_gb == doctest::Approx(30.0).scale(0.0));
  CHECK(assess_memory(50e9 * byte, cap).margin == memory_error_band);
  const memory_assessment tight = assess_memory(60e9 * byte, cap, 0.40);  // 20 GB under 40% of 60
  CHECK(tight.verdict == memory_verdict::tight);
  // 5 GB of headroom is less than the band's share of 75 GB (8%: 6 GB): tight by default.
  CHECK(assess_memory(75e9 * byte, cap).verdict == memory_verdict::tight);
  const memory_assessment over = assess_memory(81e9 * byte, cap);
  CHECK(over.verdict == memory_verdict::does_not_fit);
  CHECK(over.headroom_gb == doctest::Approx(-1.0).scale(0.0));
  CHECK(assess_memory(cap, cap).verdict == memory_verdict::tight);  // exactly full still fits
  CHECK(assess_memory(60e9 * byte, cap, 0.10).verdict == memory_verdict::fits);
  CHECK(verdict_name(memory_verdict::does_not_fit) == "does_not_fit");
}

TEST_CASE("a plan answers its verdict and headroom at compile time; fits stays strict") {
  using default_margin = plan<>;
  using no_margin = plan<memory_margin<percent{0.0}>>;
  constexpr double need = default_margin::memory_per_device().total.value();
  static_assert(default_margin::fits);
  CHECK(default_margin::headroom_gb() == doctest::Approx(80.0 - need / 1e9).scale(0.0));
  CHECK(no_margin::values.setup.memory_margin == 0.0);
  static_assert(no_margin::memory_verdict() == memory_verdict::fits);
  static_assert(no_margin::fits == default_margin::fits);
  // Where the band's share of the need is more than the headroom, the default margin calls it
  // tight.
  if (80e9 - need < memory_error_band * need)
    CHECK(default_margin::memory_verdict() == memory_verdict::tight);
  else
    CHECK(default_margin::memory_verdict() == memory_verdict::fits);
}

TEST_CASE("a verdict is validated only where measured peaks exist: NVIDIA's switched GPUs") {
  // tests/validation/memory_runs_*.hpp measured the papers' accounting, Megatron-Core, torchtitan
  // and torchtune on A100 and H100 nodes; nothing under DeepSpeed or MaxText, nothing on a TPU.
  static_assert(plan<>::memory_validated());
  static_assert(plan<framework::megatron_core>::memory_validated());
  static_assert(!plan<framework::deepspeed>::memory_validated());
  static_assert(!plan<framework::maxtext>::memory_validated());
  using tpu = training_plan<models::llama3_8b, systems::tpu_v5p_slice<2, 2, 2>,
                            mesh<axis<"dp", 8>>, fsdp<"dp">,
                            batch<global_sequences<8>, seq_len<4096>>, precision::bf16_mixed_adam>;
  static_assert(!tpu::memory_validated());
  CHECK(memory_validated(systems::dgx_h100_superpod<1>::figures.chip, profiles::torchtitan));
}

}  // namespace transients_tests

// --- the layers each pipeline stage holds (issue 42 item 4) -----------------------------------

namespace stage_split_tests {

training_setup pipelined(std::int64_t stages, std::int64_t chunks = 1) {
  training_setup split;
  split.degrees.pipeline = stages;
  split.degrees.uneven_stages = true;
  if (chunks > 1) {
    split.degrees.schedule = pipeline_schedule::interleaved;
    split.degrees.virtual_stages = chunks;
  }
  return split;
}

model_shape with_layers(std::int64_t count) {
  model_shape m = models::llama3_405b::shape;
  m.layers = count;
  return m;
}

}  // namespace stage_split_tests

TEST_CASE("torchtitan's split counts the embedding and output as layers") {
  using namespace stage_split_tests;
  // The example of `_generate_llm_fqn_per_model_part` (torchtitan pipeline_parallel.py at
  // b5bcd76): 2 stages, 3 layers, input and output weights 2 each: 7 units, 4 and 3, so the
  // first stage holds 4 - 2 = 2 layers and the last 3 - 2 = 1.
  training_setup split = pipelined(2);
  split.framework = profiles::torchtitan;
  split.framework.pipeline_embedding_weight = 2;
  split.framework.pipeline_loss_weight = 2;
  CHECK(layers_on_stage(with_layers(3), split, 0) == 2);
  CHECK(layers_on_stage(with_layers(3), split, 1) == 1);
  // Its defaults, 1 and 1: LLaMA 3 405B's 126 layers on 16 stages are 128 units of 8, the
  // first and last stage 7 (Dubey et al. 2024, Sec. 3.3.2).
  split = pipelined(16);
  split.framework = profiles::torchtitan;
  const model_shape m = with_layers(126);
  CHECK(layers_on_stage(m, split, 0) == 7);
  CHECK(layers_on_stage(m, split, 1) == 8);
  CHECK(layers_on_stage(m, split, 14) == 8);
  CHECK(layers_on_stage(m, split, 15) == 7);
  CHECK(layers_per_stage(m, split) == 8);
  // 125 layers: 127 units over 16, 7 each and the first 15 chunks one more: the first stage
  // 8 - 1 = 7, the last 7 - 1 = 6.
  CHECK(layers_on_stage(with_layers(125), split, 0) == 7);
  CHECK(layers_on_stage(with_layers(125), split, 15) == 6);
}

TEST_CASE("a ragged split without weights shortens the ends first") {
  using namespace stage_split_tests;
  // 126 layers on 16 stages: 7 each and 14 one more; the two short are the last and the first.
  const training_setup split = pipelined(16);
  CHECK(layers_on_stage(with_layers(126), split, 0) == 7);
  CHECK(layers_on_stage(with_layers(126), split, 1) == 8);
  CHECK(layers_on_stage(with_layers(126), split, 15) == 7);
  // 125: three short, the last, the first and the second last.
  CHECK(layers_on_stage(with_layers(125), split, 0) == 7);
  CHECK(layers_on_stage(with_layers(125), split, 14) == 7);
  CHECK(layers_on_stage(with_layers(125), split, 13) == 8);
  // Interleaved, 126 over 16 x 2 = 32 chunks of 3 and 30 of them one more: the short chunks are
  // chunk 31 (stage 15) and chunk 0 (stage 0), so both ends hold 3 + 4 = 7.
  const training_setup inter = pipelined(16, 2);
  CHECK(layers_on_stage(with_layers(126), inter, 0) == 7);
  CHECK(layers_on_stage(with_layers(126), inter, 7) == 8);
  CHECK(layers_on_stage(with_layers(126), inter, 15) == 7);
  // Every split places every layer.
  for (const training_setup& each : {split, inter}) {
    std::int64_t total = 0;
    for (std::int64_t k = 0; k < 16; ++k) total += layers_on_stage(with_layers(125), each, k);
    CHECK(total == 125);
  }
}

TEST_CASE("megatron's first and last stage layers leave the rest to the stages between") {
  using namespace stage_split_tests;
  // --decoder-first-pipeline-num-layers 3 --decoder-last-pipeline-num-layers 2 for 61 layers on
  // 16 stages (TransformerConfig.__post_init__ at d98e8a64): 56 left for 14 stages, 4 each.
  training_setup split = pipelined(16);
  split.degrees.uneven_stages = false;
  split.degrees.first_stage_layers = 3;
  split.degrees.last_stage_layers = 2;
  const model_shape m = with_layers(61);
  CHECK(layers_on_stage(m, split, 0) == 3);
  CHECK(layers_on_stage(m, split, 1) == 4);
  CHECK(layers_on_stage(m, split, 15) == 2);
  CHECK(split_divides_layers(m, split));
  CHECK(split_within_layers(m, split));
}

TEST_CASE("llama 3 405b in meta's layout fits, held by the second stage") {
  // Dubey et al. 2024, Sec. 3.3.2: TP 8, PP 16, DP 128 on 16,384 H100s, 8K sequences, 16
  // micro-batches per replica, "we reduce one Transformer layer each from the first and the
  // last stages", no activation checkpointing, states sharded over DP (ZeRO-2-like).
  training_setup split = stage_split_tests::pipelined(16);
  split.framework.pipeline_embedding_weight = 1;
  split.framework.pipeline_loss_weight = 1;
  split.degrees.data = 128;
  split.degrees.tensor = 8;
  split.degrees.sequence_parallel = true;
  split.degrees.zero_stage = 2;
  split.degrees.zero = 128;
  split.degrees.uneven_stages = false;
  split.batch = {.global_tokens = 2048 * 8192, .seq_len = 8192, .micro_batch = 1};
  split.recompute = {recompute_kind::none};
  const model_shape& m = models::llama3_405b::shape;
  // One layer, one micro-batch, per token on one GPU (bf16, flash attention, TP 8 with sequence
  // parallelism): the two norm inputs and the attention and MLP inputs, 4·2·16384 / 8; Q and the
  // attention output 2·2·16384, K and V 2·2·1024, the gated MLP's three 53248-wide tensors
  // 3·2·53248, all split 8 ways: 16384 + 48640 = 65024 bytes; 8192 tokens: 532,676,608.
  const double layer = 65024.0 * 8192.0;
  // The first stage: 7 layers x 16 micro-batches in flight = 112; the second: 8 x 15 = 120.
  CHECK(activation_memory(m, split, 0).value() == doctest::Approx(112.0 * layer).scale(0.0));
  CHECK(activation_memory(m, split, 1).value() == doctest::Approx(120.0 * layer).scale(0.0));
  const memory_breakdown peak = memory_per_device(m, split);
  CHECK(peak.stage == stage_position::middle);
  CHECK(peak.activations.value() == doctest::Approx(120.0 * layer).scale(0.0));
  CHECK(peak.total.value() < 80e9);
}

TEST_CASE("deepspeed's zero-3 of 2021 gathers two tensors at a time, not two layers") {
  // DeepSpeed v0.3.16 (stage3.py: fetch_sub_module gathers one module's tensors, the prefetch
  // adds the next ones until stage3_prefetch_bucket_size, 5e7 elements; gradients wait in the
  // 5e8-element reduce bucket, which buffered_reduce_fallback flattens into a copy). Megatron's
  // 530B (h 20480, GeLU MLP of 4h): the largest tensor is the MLP's up-projection,
  // 20480 x 81920 = 1,677,721,600 elements (the fused QKV is 20480 x 61440, the token table
  // 51200 x 20480); two of them gathered and twice the one gradient that outgrows the bucket,
  // 2 bytes each: 8 x 1,677,721,600 bytes.
  training_setup ds;
  ds.framework = profiles::deepspeed;
  ds.zero3_per_tensor = true;
  ds.degrees.data = 640;
  ds.degrees.zero = 640;
  ds.degrees.zero_stage = 3;
  const model_shape& m = models::megatron_gpt_530b::shape;
  CHECK(largest_parameter_tensor(m) == 1677721600.0);
  CHECK(gathered_parameter_memory(m, parameters(m), ds, stage_position::first).value() ==
        doctest::Approx(8.0 * 1677721600.0).scale(0.0));
  // Without the per-tensor ZeRO-3, two whole layers (12·h², 4h² of attention and 8h² of MLP, and
  // their biases and norms, under a thousandth more) and one layer's gradients, 2 bytes each.
  ds.zero3_per_tensor = false;
  CHECK(gathered_parameter_memory(m, parameters(m), ds, stage_position::first).value() ==
        doctest::Approx(3.0 * 2.0 * 12.0 * 20480.0 * 20480.0).epsilon(1e-3).scale(0.0));
}

// --- a configuration reported out of memory, and its fix (issue 42) ---------------------------

namespace {

// torchtitan's DeepSeek-V3 16B flavor (models/deepseek_v3/__init__.py at v0.2.2, :78-102): dim
// 2048, 27 layers (1 dense), 16 heads, MLA kv_lora_rank 512 (no q_lora), 128 + 64 and 128 head
// dims, 64 routed experts of 1408 (top 6) and 2 shared, dense MLP 10944, vocabulary 102400.
constexpr model_shape flavor_16b = models::torchtitan::find_flavor("deepseek_v3", "16B")->shape;

}  // namespace

TEST_CASE("torchtitan's deepseek-v3 16b toml runs out of memory at local batch 8, not at 4") {
  // pytorch/torchtitan#1789: "we run into OOM with the default command" on 8 x H100 80GB HBM3,
  // with train_configs/deepseek_v3_16b.toml at 8a2686c4a: FSDP over the 8 GPUs, expert
  // parallelism 8, local_batch_size 8, seq_len 4096, selective op AC, the loss compiled. The fix,
  // 82a9530f6, "make the 16B default toml config safe for 80GB H100": local_batch_size 4.
  auto peak = [&](std::int64_t local_batch) {
    training_setup setup;
    setup.framework = profiles::torchtitan;
    setup.compiled_loss = true;
    setup.recompute = {recompute_kind::selective};
    setup.precision = precision::bf16_mixed_adam::policy;
    setup.batch = {.global_tokens = 8 * local_batch * 4096, .seq_len = 4096,
                   .micro_batch = local_batch};
    const training_plan_values plan =
        make_training_plan(flavor_16b, systems::dgx_h100_superpod<1>::figures,
                           {.data = 8, .expert = 8, .zero_stage = 3}, setup);
    return memory_per_device(plan.model, plan.setup).total;
  };
  const bytes capacity = 80e9 * byte;
  CHECK(assess_memory(peak(8), capacity).verdict == memory_verdict::does_not_fit);
  CHECK(assess_memory(peak(4), capacity).verdict != memory_verdict::does_not_fit);
  // What one of its MoE layers keeps per token under the op-level policy (bf16): the block input
  // 2·2048; wq's output 2·16·192 (the first mm), wkv_b's 2·16·256 (the third); the attention
  // output 2·16·128 and its fp32 logsumexp 4·16; the shared experts' w1 2·2816 (the fifth) and
  // w2 2·2048 (the seventh); topk's values and indices 12·6: 32,392 bytes. With the experts over
  // 8 GPUs the dispatched and combined tokens too, 2·6·2·2048: 81,544.
  activation_inputs one_token{.micro_batch = 1, .seq_len = 1};
  one_token.recompute = {recompute_kind::selective};
  CHECK(torchtitan_selective_layer_bytes(flavor_16b, layer_kind::moe, one_token).value() ==
        doctest::Approx(32392.0).scale(0.0));
  one_token.expert_parallel = 8;
  CHECK(torchtitan_selective_layer_bytes(flavor_16b, layer_kind::moe, one_token).value() ==
        doctest::Approx(81544.0).scale(0.0));
}

TEST_CASE("torchtitan's deepseek-v3 16b on 8 b200 without checkpointing: the tuning notes' limits") {
  // pytorch/torchtitan#1993 (2025-11-05), notes of tuning the 16B toml on 8 x B200: activation
  // checkpointing disabled, the model compiled with the loss, expert parallelism 1 (FSDP over
  // the 8 GPUs, the toml's default). "local batch size of 8 creates OOM, and doubling seq len to
  // 8192 also creates OOM with local batch size of 4"; "re-enabling EP=8 to achieve local batch
  // size of 8, however we still OOMed"; local batch 6 at 4096 ran, and "seq len = 6144 and local
  // batch size of 4 ... created 88% mem ut".
  auto peak = [&](std::int64_t local_batch, std::int64_t seq, std::int64_t ep) {
    training_setup setup;
    setup.framework = profiles::torchtitan;
    setup.compiled_loss = true;
    setup.compiled_layers = true;
    setup.recompute = {recompute_kind::none};
    setup.precision = precision::bf16_mixed_adam::policy;
    setup.batch = {.global_tokens = 8 * local_batch * seq, .seq_len = seq,
                   .micro_batch = local_batch};
    const training_plan_values plan =
        make_training_plan(flavor_16b, systems::dgx_b200_superpod<1>::figures,
                           {.data = 8, .expert = ep, .zero_stage = 3}, setup);
    return memory_per_device(plan.model, plan.setup).total;
  };
  // The three that ran out of memory (32,768 tokens a GPU) do not fit; the two that ran (24,576
  // tokens) are not called does-not-fit.
  const bytes capacity = systems::dgx_b200_superpod<1>::figures.chip.memory;
  CHECK(assess_memory(peak(8, 4096, 1), capacity).verdict == memory_verdict::does_not_fit);
  CHECK(assess_memory(peak(4, 8192, 1), capacity).verdict == memory_verdict::does_not_fit);
  CHECK(assess_memory(peak(8, 4096, 8), capacity).verdict == memory_verdict::does_not_fit);
  CHECK(assess_memory(peak(6, 4096, 1), capacity).verdict != memory_verdict::does_not_fit);
  CHECK(assess_memory(peak(4, 6144, 1), capacity).verdict != memory_verdict::does_not_fit);
}

TEST_CASE("stanford alpaca's fsdp fine-tune of llama 13b does not fit 2 a100 80gb") {
  // tatsu-lab/stanford_alpaca#86: train.py under torchrun --nproc_per_node=2 on 2 x A100-80GB,
  // --fsdp "full_shard auto_wrap", --fp16, per-device batch 1 (gradient accumulation 8), the
  // default model_max_length 512: "Tried to allocate 606.00 MiB (GPU 1; 79.18 GiB total
  // capacity; 77.07 GiB already allocated". LLaMA-13B has LLaMA-2 13B's shape (40 x 5120,
  // 13824, 40 heads, vocabulary 32000). Sharded over two, its mixed-precision Adam states alone
  // are 16 bytes x 13.0 B / 2 = 104 GB.
  training_setup setup;
  setup.precision = precision::bf16_mixed_adam::policy;
  setup.batch = {.global_tokens = 2 * 512, .seq_len = 512, .micro_batch = 1};
  const training_plan_values plan =
      make_training_plan(models::llama2_13b::shape, systems::dgx_a100_superpod<1>::figures,
                         {.data = 2, .zero_stage = 3}, setup);
  const memory_breakdown m = memory_per_device(plan.model, plan.setup);
  const double psi = static_cast<double>(parameters(models::llama2_13b::shape).total);
  CHECK(m.model_states().value() >= 16.0 * psi / 2.0);
  CHECK(assess_memory(m.total, 80e9 * byte).verdict == memory_verdict::does_not_fit);
}

TEST_CASE("s1's fsdp fine-tune of qwen2.5 32b at 32k does not fit 8 h100") {
  // simplescaling/s1#13: train/sft.py (TRL on the Hugging Face Trainer) with FSDP full_shard
  // over 8 H100, micro-batch 1, --block_size=32768, --gradient_checkpointing, --bf16: OOM on 8
  // ("We used 16 H100 and got OOM with 8", the authors). Qwen2.5-32B-Instruct's config.json: 64
  // layers, hidden 5120, intermediate 27648, 40 heads, 8 kv heads, vocabulary 152064, biases on
  // q, k and v, untied embeddings.
  constexpr model_shape qwen2_5_32b = {
      .name = "qwen2.5-32b",
      .layers = 64,
      .d_model = 5120,
      .d_ff = 27648,
      .heads = 40,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 152064,
      .qkv_bias = true,
  };
  training_setup setup;
  setup.precision = precision::bf16_mixed_adam::policy;
  setup.recompute = {recompute_kind::full};
  setup.batch = {.global_tokens = 8 * 32768, .seq_len = 32768, .micro_batch = 1};
  const training_plan_values plan = make_training_plan(
      qwen2_5_32b, systems::dgx_h100_superpod<1>::figures, {.data = 8, .zero_stage = 3}, setup);
  const memory_breakdown m = memory_per_device(plan.model, plan.setup);
  // The model states sharded over 8 (16 bytes x 32.8 B / 8, 65.5 GB) and each layer's input
  // kept for the recomputation (64 x 32768 x 5120 x 2 bytes, 21.5 GB) already pass 80 GB.
  CHECK(m.model_states().value() + 64.0 * 32768.0 * 5120.0 * 2.0 > 80e9);
  CHECK(assess_memory(m.total, 80e9 * byte).verdict == memory_verdict::does_not_fit);
}

TEST_CASE("megatron-lm's gpt of 774m at micro-batch 4 does not fit a v100 32gb") {
  // NVIDIA/Megatron-LM#525: debug/gpt2_755.sh on 1 x V100-32GB: 36 layers, hidden 1280, 20
  // heads, --seq-length 1024, --micro-batch-size 4, --fp16, --swiglu, --use-distributed-optimizer
  // (one GPU: nothing to shard), no recomputation: "Tried to allocate 786.00 MiB (GPU 0; 31.74
  // GiB total capacity; 28.82 GiB already allocated". Megatron's SwiGLU width without
  // --ffn-hidden-size is int(4h · 2/3 / 64) · 64 = 3392 (arguments.py); GPT-2's vocabulary
  // 50257 padded to 50304; learned positions for 1024; biases on the linear layers. A V100 has
  // no FlashAttention: the softmax's inputs and outputs are kept.
  constexpr model_shape gpt_774m = {
      .name = "gpt-774m-swiglu",
      .layers = 36,
      .d_model = 1280,
      .d_ff = 3392,
      .heads = 20,
      .kv_heads = 20,
      .head_dim = 64,
      .vocab = 50304,
      .biases = true,
      .position_embeddings = 1024,
  };
  training_setup setup;
  setup.framework = profiles::megatron_core;
  setup.eager_attention = true;  // Megatron's unfused attention without --use-flash-attn
  setup.dropout = true;          // its default attention and hidden dropout, 0.1
  setup.recompute = {recompute_kind::none};
  setup.precision = precision_policy{.name = "fp16 Megatron mixed-precision Adam",
                                     .gradient_bytes = 4.0,
                                     .compute = number_format::fp16};
  setup.batch = {.global_tokens = 16 * 1024, .seq_len = 1024, .micro_batch = 4};
  const training_plan_values plan = make_training_plan(
      gpt_774m, systems::nvlink_fat_tree<hardware::v100, 1, 1>::figures, {.zero_stage = 1}, setup);
  const memory_breakdown m = memory_per_device(plan.model, plan.setup);
  // Korthikanti et al.'s activations of one layer without recomputation, s·b·h·(34 + 5·a·s/h)
  // bytes, for 36 layers: 36 x 1024·4·1280 x (34 + 80) = 21.5 GB, before the model states
  // (18 bytes a parameter, 15 GB) and the logits.
  CHECK(m.activations.value() ==
        doctest::Approx(36.0 * 1024.0 * 4.0 * 1280.0 * (34.0 + 80.0)).epsilon(0.01).scale(0.0));
  CHECK(assess_memory(m.total, 32e9 * byte).verdict == memory_verdict::does_not_fit);
}

TEST_CASE("automodel's llama 3.3 70b squad recipe on 32 h100: pipeline micro-batches of 4 and 2") {
  // NVIDIA-NeMo/Automodel#2673 (fix d73caeb89): llama_3_3_70b_instruct_squad.yaml at its parent,
  // "configured for PP=8 / dp=4 (32 GPUs), packed_sequence_size=1024, pp_microbatch_size=4" with
  // interleaved 1F1B, FSDP2 over the 4 replicas, local batch 32, bf16, Adam, no activation
  // checkpointing, tuned for H200, "fails with CUDA out of memory on every rank during the
  // first backward" on 80 GB H100s; the fix's notes record pp_microbatch_size 2 failing too
  // ("the warmup retains ~57GB of block activations"). Llama-3.3-70B has Llama 3 70B's shape.
  // The recipe does not say how many chunks a stage holds: both one and two are checked.
  for (const std::int64_t chunks : {1, 2}) {
    for (const std::int64_t sequences : {4, 2}) {
      training_setup setup;
      setup.recompute = {recompute_kind::none};
      setup.precision = precision::bf16_mixed_adam::policy;
      setup.batch = {.global_tokens = 4 * 32 * 1024, .seq_len = 1024, .micro_batch = sequences};
      const training_plan_values plan = make_training_plan(
          models::llama3_70b::shape, systems::dgx_h100_superpod<4>::figures,
          {.data = 4, .pipeline = 8, .zero_stage = 3,
           .schedule = chunks > 1 ? pipeline_schedule::interleaved : pipeline_schedule::one_f_one_b,
           .virtual_stages = chunks},
          setup);
      const memory_breakdown m = memory_per_device(plan.model, plan.setup);
      CAPTURE(chunks);
      CAPTURE(sequences);
      CHECK(assess_memory(m.total, 80e9 * byte).verdict == memory_verdict::does_not_fit);
    }
  }
}

TEST_CASE("flagperf's llama 3 8b on 8 a800 without model parallelism runs out of memory") {
  // FlagOpen/FlagPerf training/nvidia/llama3_8B-megatron/README.md (at 1b5a0303; Megatron-Core
  // core_v0.6.0): on 8 A800-SXM4-80GB the layout PP1 DP8 TP1 is "OOM", while PP2 DP4 TP1 ran
  // ("76/80" GiB). The launch script (training/benchmarks/llama3_8B/megatron/pretrain_llama3.sh):
  // Llama 3 8B's shape with the embeddings tied (no --untie-embeddings-and-output-weights), seq
  // 8192, micro-batch 1, global batch 512, --bf16, --use-distributed-optimizer, --use-flash-attn,
  // no --recompute flag. An A800 is an A100 80GB with slower NVLink: the same memory.
  model_shape m = models::llama3_8b::shape;
  m.tied_embeddings = true;
  auto peak = [&](std::int64_t pipeline, std::int64_t data) {
    training_setup setup;
    setup.framework = profiles::megatron_core;
    setup.recompute = {recompute_kind::none};
    setup.precision = precision::megatron_mixed_adam::policy;
    setup.batch = {.global_tokens = 512 * 8192, .seq_len = 8192, .micro_batch = 1};
    const training_plan_values plan =
        make_training_plan(m, systems::dgx_a100_superpod<1>::figures,
                           {.data = data, .pipeline = pipeline, .zero_stage = 1}, setup);
    return memory_per_device(plan.model, plan.setup).total;
  };
  // Without a pipeline: bf16 weights and fp32 gradients, 6 bytes a parameter (45 GB), and the
  // distributed optimizer's 12 bytes over 8 already pass 50 GB before any activation.
  CHECK(assess_memory(peak(1, 8), 80e9 * byte).verdict == memory_verdict::does_not_fit);
  CHECK(assess_memory(peak(2, 4), 80e9 * byte).verdict != memory_verdict::does_not_fit);
}
