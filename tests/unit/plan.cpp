// Unit tests of plan.hpp and placement.hpp: every rule of `check()` with its numbers and the
// sentence `describe()` makes of it, and where mesh axes land on fat trees and TPU tori. Every
// expected number is worked out here from the model's published shape or the system's definition.
#include <doctest/doctest.h>

#include <cstdint>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/hardware/placement.hpp>
#include <shardplan/training/plan.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <shardplan/training/training_plan.hpp>
#include <string>
#include <string_view>
#include <utility>

namespace {

using namespace shardplan;
using std::int64_t;

// The reference plan: LLaMA-3 70B (80 layers, 64 heads, 8 kv heads, d_ff 28672; Dubey et al.
// 2024, Table 3) on a 512-node DGX H100 SuperPOD (4096 GPUs), 64-way ZeRO-1 x 8 interleaved
// pipeline stages x 8-way tensor parallelism, 16,777,216 tokens in sequences of 8192.
// `llama_plan<Dp, Tp, VirtualStages, Batch, More...>` varies what the rules below need.
using reference_batch = batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>;
template <int64_t Dp = 64, int64_t Tp = 8, int64_t VirtualStages = 5, class Batch = reference_batch,
          class... More>
using llama_plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                                 mesh<axis<"dp", Dp>, axis<"pp", 8>, axis<"tp", Tp>>, zero<1, "dp">,
                                 pipeline<"pp", schedule::interleaved<VirtualStages>>,
                                 tensor<"tp", sequence_parallel>, Batch, More...>;

using reference_plan = llama_plan<>;

/// The plan's one violation; the test stops if there are none or several.
violation only_violation(const plan_violations& v) {
  REQUIRE(v.count == 1);
  return v.items[0];
}

/// The reference plan built as plain values, without the type layer.
constexpr training_plan_values reference_values() {
  training_plan_values p;
  p.model = models::llama3_70b::shape;
  p.system = systems::dgx_h100_superpod<512>::figures;
  p.axes[0] = {"dp", 64, role_data | role_zero, {}};
  p.axes[1] = {"pp", 8, role_pipeline, {}};
  p.axes[2] = {"tp", 8, role_tensor, {}};
  p.axis_count = 3;
  p.setup.degrees.zero_stage = 1;
  p.setup.degrees.schedule = pipeline_schedule::interleaved;
  p.setup.degrees.virtual_stages = 5;
  p.setup.degrees.sequence_parallel = true;
  p.setup.batch = {.global_tokens = 16'777'216, .seq_len = 8192, .micro_batch = 1};
  p.setup.recompute = {recompute_kind::selective};
  p.setup.precision = precision::bf16_mixed_adam::policy;
  return with_degrees(p);
}

}  // namespace

// --- feasible plans --------------------------------------------------------------------------

TEST_CASE("the reference llama-3 70b plan on 4096 h100s breaks no rule") {
  CHECK(reference_plan::fits);
  CHECK(reference_plan::violations.empty());
  CHECK(check(reference_plan::values).count == 0);
}

TEST_CASE("the type layer and plain values describe the same plan") {
  const training_plan_values p = reference_values();
  const parallel_degrees& d = reference_plan::values.setup.degrees;
  CHECK(d.data == 64);
  CHECK(d.zero == 64);
  CHECK(d.tensor == 8);
  CHECK(d.pipeline == 8);
  CHECK(d.context == 1);
  CHECK(d.expert == 1);
  CHECK(p.setup.degrees.data == d.data);
  CHECK(p.setup.degrees.zero == d.zero);
  CHECK(p.setup.degrees.tensor == d.tensor);
  CHECK(p.setup.degrees.pipeline == d.pipeline);
  CHECK(mesh_devices(p) == 64 * 8 * 8);
  CHECK(check(p).empty());
}

// --- one test per rule -----------------------------------------------------------------------

TEST_CASE("a mesh larger than the system breaks mesh_within_system with both counts") {
  // 64 x 8 x 8 = 4096 devices; a 256-node SuperPOD has 256 x 8 = 2048 H100s.
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<256>,
                             mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>, zero<1, "dp">,
                             pipeline<"pp", schedule::interleaved<5>>,
                             tensor<"tp", sequence_parallel>, reference_batch>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::mesh_within_system);
  CHECK(x.a == 64 * 8 * 8);
  CHECK(x.b == 256 * 8);
  CHECK(describe(x) == "the mesh has 4096 devices but the system has 2048 chips");
}

TEST_CASE("an axis no strategy uses breaks axis_has_a_role and names the axis") {
  // Hybrid sharded data parallelism without its `data<"replica">`.
  using plan =
      training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                    mesh<axis<"replica", 8>, axis<"shard", 8>, axis<"pp", 8>, axis<"tp", 8>>,
                    zero<1, "shard">, pipeline<"pp", schedule::interleaved<5>>,
                    tensor<"tp", sequence_parallel>, reference_batch>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::axis_has_a_role);
  CHECK(x.axis == "replica");
  CHECK(describe(x) == "mesh axis 'replica' carries no parallelism");
}

TEST_CASE("tensor and context parallelism on one axis break axis_roles_compatible") {
  using plan = llama_plan<64, 8, 5, reference_batch, context<"tp">>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::axis_roles_compatible);
  CHECK(x.axis == "tp");
  CHECK(describe(x) ==
        "mesh axis 'tp' carries tensor, context or pipeline parallelism together with another "
        "parallelism");
}

TEST_CASE("data, zero and expert parallelism may share an axis") {
  // Mixtral 8x7B: 8 experts, 32 heads, 8 kv heads, expert d_ff 14336 (Jiang et al. 2024).
  using plan = training_plan<models::mixtral_8x7b, systems::dgx_h100_superpod<32>,
                             mesh<axis<"dp", 4>, axis<"ep", 8>, axis<"tp", 4>>, zero<1, "dp", "ep">,
                             expert<"ep">, tensor<"tp", sequence_parallel>,
                             batch<global_tokens<4'194'304>, seq_len<4096>, micro_batch<1>>>;
  CHECK(plan::violations.empty());
  CHECK(plan::values.axes[1].roles == (role_data | role_zero | role_expert));
}

TEST_CASE("tensor parallelism 16 on a dgx node of 8 breaks axis_on_required_level") {
  // GPT-3 175B (96 heads, d_ff 4 x 12288; Brown et al. 2020) divides by 16 everywhere; the node
  // level of a DGX H100 SuperPOD joins 8 GPUs, and the innermost axis of 16 spans 1 x 16 chips.
  using plan = training_plan<models::gpt3_175b, systems::dgx_h100_superpod<128>,
                             mesh<axis<"dp", 8>, axis<"pp", 8>, axis<"tp", 16, on<"node">>>,
                             zero<1, "dp">, pipeline<"pp">, tensor<"tp", sequence_parallel>,
                             batch<global_sequences<1536>, seq_len<2048>, micro_batch<1>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::axis_on_required_level);
  CHECK(x.axis == "tp");
  CHECK(x.a == 16);
  CHECK(x.b == 8);
  CHECK(describe(x) == "mesh axis 'tp' spans 16 chips but its level holds 8");
}

TEST_CASE("an axis outside the tensor axis is measured with the axes inside it") {
  // dp 8 outside pp 8 outside tp 8: the "pp" axis strides over the 8 GPUs of tp, so it spans
  // 8 x 8 = 64 chips, more than a node holds; a leaf holds 32 nodes x 8 = 256 chips.
  training_plan_values p = reference_values();
  p.axes[1].required_level = "node";
  const violation x = only_violation(check(p));
  CHECK(x.rule == plan_rule::axis_on_required_level);
  CHECK(x.axis == "pp");
  CHECK(x.a == 8 * 8);
  CHECK(x.b == 8);
  p.axes[1].required_level = "leaf";
  CHECK(check(p).empty());
}

TEST_CASE("a level the system does not have breaks required_level_exists") {
  // "ici-x" names a TPU torus axis; a DGX system has node, leaf, spine (and core).
  training_plan_values p = reference_values();
  p.axes[2].required_level = "ici-x";
  const violation x = only_violation(check(p));
  CHECK(x.rule == plan_rule::required_level_exists);
  CHECK(x.axis == "tp");
  CHECK(describe(x) == "mesh axis 'tp' is placed on a level the system does not have");
}

TEST_CASE("a strategy naming an axis the mesh lacks breaks strategy_axes_in_mesh alone") {
  // "mp" for "tp": the tp axis is left idle, which is not reported separately, and memory is
  // not checked for a plan whose strategies are incomplete.
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                             mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>, zero<1, "dp">,
                             pipeline<"pp", schedule::interleaved<5>>, tensor<"mp">,
                             batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::strategy_axes_in_mesh);
  CHECK(x.axis == "mp");
  CHECK(describe(x) == "a strategy names mesh axis 'mp', which the mesh does not have");
}

TEST_CASE("two axes with one name break axis_names_unique") {
  training_plan_values p = reference_values();
  p.axes[1].name = "dp";
  const plan_violations v = check(with_degrees(p));
  REQUIRE(v.count >= 1);
  CHECK(v.items[0].rule == plan_rule::axis_names_unique);
  CHECK(describe(v.items[0]) == "the mesh names axis 'dp' twice");
}

TEST_CASE("multi-query attention replicates its kv head across tensor ranks") {
  // PaLM 540B: 48 heads, one kv head, 12-way tensor parallelism (Chowdhery et al. 2022).
  training_plan_values p = reference_values();
  p.model.kv_heads = 1;
  CHECK_FALSE(check(p).has(plan_rule::tensor_divides_kv_heads));
}

TEST_CASE("uneven stages let 126 layers sit on 16 stages (llama 3 405b)") {
  // Dubey et al. 2024 (LLaMA 3), Sec. 3.3: 126 layers on 16 pipeline stages.
  training_plan_values p = reference_values();
  p.model.layers = 126;
  p.setup.degrees.virtual_stages = 1;
  p.setup.degrees.schedule = pipeline_schedule::one_f_one_b;
  CHECK(check(p).has(plan_rule::stages_divide_layers));
  p.setup.degrees.uneven_stages = true;
  CHECK_FALSE(check(p).has(plan_rule::stages_divide_layers));
  // The fullest stage holds ceil(126 / 8) = 16 layers.
  CHECK(layers_per_stage(p.model, p.setup) == 16);
}

TEST_CASE("tensor parallelism 256 on deepseek-v3's 128 heads breaks tensor_divides_heads alone") {
  // DeepSeek-V3: 128 heads with MLA (no kv heads to split), d_ff 18432 = 72 x 256, expert d_ff
  // 2048 = 8 x 256 (config_671B.json).
  using plan = training_plan<models::deepseek_v3, systems::dgx_h100_superpod<256>,
                             mesh<axis<"dp", 8>, axis<"tp", 256>>, zero<1, "dp">,
                             tensor<"tp", sequence_parallel>,
                             batch<global_sequences<1024>, seq_len<4096>, micro_batch<1>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::tensor_divides_heads);
  CHECK(x.a == 256);
  CHECK(x.b == 128);
  CHECK(describe(x) == "tensor parallelism 256 does not divide 128 attention heads");
}

TEST_CASE("tensor parallelism 16 on llama-3 70b's 8 kv heads breaks tensor_divides_kv_heads") {
  // 64 heads / 16 = 4 and 28672 / 16 = 1792, but 8 kv heads / 16 is not whole.
  using plan = llama_plan<32, 16>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::tensor_divides_kv_heads);
  CHECK(x.a == 16);
  CHECK(x.b == 8);
  CHECK(describe(x) == "tensor parallelism 16 does not divide 8 kv heads");
}

TEST_CASE("tensor parallelism 10 on llama-2 13b's mlp breaks tensor_divides_d_ff") {
  // LLaMA-2 13B: 40 heads and 40 kv heads divide by 10; d_ff 13824 = 2^9 x 3^3 does not.
  using plan = training_plan<models::llama2_13b, systems::dgx_h100_superpod<64>,
                             mesh<axis<"dp", 32>, axis<"tp", 10>>, zero<1, "dp">,
                             tensor<"tp", sequence_parallel>,
                             batch<global_tokens<4'194'304>, seq_len<4096>, micro_batch<1>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::tensor_divides_d_ff);
  CHECK(x.a == 10);
  CHECK(x.b == 13824);
  CHECK(describe(x) == "tensor parallelism 10 does not divide the mlp width 13824");
}

TEST_CASE("24 interleaved chunks of llama-3 70b's 80 layers break stages_divide_layers") {
  // 8 stages x 3 virtual stages = 24 chunks; 80 / 24 is not whole (the reference 8 x 5 = 40 is).
  using plan = llama_plan<64, 8, 3>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::stages_divide_layers);
  CHECK(x.a == 8 * 3);
  CHECK(x.b == 80);
  CHECK(describe(x) == "24 pipeline chunks do not divide 80 layers (uneven_stages allows a ragged split)");
}

TEST_CASE("expert parallelism on a dense model breaks expert_needs_moe") {
  using plan = llama_plan<64, 8, 5, reference_batch, expert<"dp">>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::expert_needs_moe);
  CHECK(x.a == 64);
  CHECK(describe(x) == "expert parallelism 64 on a dense model");
}

TEST_CASE("expert parallelism 16 on mixtral's 8 experts breaks expert_divides_experts") {
  using plan = training_plan<models::mixtral_8x7b, systems::dgx_h100_superpod<32>,
                             mesh<axis<"dp", 4>, axis<"ep", 16>, axis<"tp", 4>>,
                             zero<1, "dp", "ep">, expert<"ep">, tensor<"tp", sequence_parallel>,
                             batch<global_tokens<4'194'304>, seq_len<4096>, micro_batch<1>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::expert_divides_experts);
  CHECK(x.a == 16);
  CHECK(x.b == 8);
  CHECK(describe(x) == "expert parallelism 16 does not divide 8 experts");
}

TEST_CASE("16,000,000 tokens in sequences of 8192 break tokens_divide_into_sequences") {
  // 16,000,000 / 8192 = 1953.125.
  using plan =
      llama_plan<64, 8, 5, batch<global_tokens<16'000'000>, seq_len<8192>, micro_batch<1>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::tokens_divide_into_sequences);
  CHECK(x.a == 16'000'000);
  CHECK(x.b == 8192);
  CHECK(describe(x) == "16000000 tokens are not whole sequences of 8192");
}

TEST_CASE("a plan without a batch breaks batch_given") {
  training_plan_values p = reference_values();
  p.setup.batch = {};
  const violation x = only_violation(check(p));
  CHECK(x.rule == plan_rule::batch_given);
  CHECK(x.a == 0);
  CHECK(x.b == 0);
  CHECK(describe(x) ==
        "the batch has 0 tokens in sequences of 0 and micro-batches of 1; all must be positive");
}

TEST_CASE("a micro-batch of 0 breaks batch_given") {
  training_plan_values p = reference_values();
  p.setup.batch.micro_batch = 0;
  const violation x = only_violation(check(p));
  CHECK(x.rule == plan_rule::batch_given);
  CHECK(x.c == 0);
}

TEST_CASE("2000 sequences over 64 replicas break batch_divides") {
  // 2000 / (64 x 1) = 31.25; global_sequences<2000> is 2000 x 8192 tokens.
  using plan = llama_plan<64, 8, 5, batch<global_sequences<2000>, seq_len<8192>, micro_batch<1>>>;
  CHECK(plan::values.setup.batch.global_tokens == int64_t{2000} * 8192);
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::batch_divides);
  CHECK(x.a == 64 * 1);
  CHECK(x.b == 2000);
  CHECK(describe(x) == "data parallelism times micro-batch (64) does not divide 2000 sequences");
}

TEST_CASE("the micro-batch multiplies the replicas in batch_divides") {
  // 2048 sequences / (64 replicas x micro-batch 3 = 192) is not whole.
  using plan =
      llama_plan<64, 8, 5, batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<3>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::batch_divides);
  CHECK(x.a == 64 * 3);
  CHECK(x.b == 16'777'216 / 8192);
}

TEST_CASE("context parallelism 3 on sequences of 32768 breaks context_divides_sequence") {
  // A load-balanced ring cuts a sequence into 2 x 3 = 6 chunks; 32768 = 2^15.
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                             mesh<axis<"dp", 16>, axis<"cp", 3>, axis<"pp", 8>, axis<"tp", 8>>,
                             zero<1, "dp">, context<"cp">, pipeline<"pp", schedule::interleaved<5>>,
                             tensor<"tp", sequence_parallel>,
                             batch<global_tokens<16'777'216>, seq_len<32768>, micro_batch<1>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::context_divides_sequence);
  CHECK(x.a == 2 * 3);
  CHECK(x.b == 32768);
  CHECK(describe(x) == "6 context chunks do not divide a sequence of 32768");
}

TEST_CASE("20 micro-batches on 8 interleaved stages break interleaving_needs_micro_batches") {
  // 10,485,760 tokens / 8192 = 1280 sequences; / 64 replicas = 20 micro-batches of 1.
  using plan =
      llama_plan<64, 8, 5, batch<global_tokens<10'485'760>, seq_len<8192>, micro_batch<1>>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::interleaving_needs_micro_batches);
  CHECK(x.a == 8);
  CHECK(x.b == 10'485'760 / 8192 / 64);
  CHECK(describe(x) == "20 micro-batches are not a multiple of 8 pipeline stages");
}

TEST_CASE("1f1b needs no multiple of the pipeline stages") {
  // The same 20 micro-batches under plain 1F1B are fine.
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                             mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>, zero<1, "dp">,
                             pipeline<"pp">, tensor<"tp", sequence_parallel>,
                             batch<global_tokens<10'485'760>, seq_len<8192>, micro_batch<1>>>;
  CHECK(plan::violations.empty());
}

TEST_CASE("zero stage 4 breaks zero_stage_valid") {
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                             mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>, zero<4, "dp">,
                             pipeline<"pp", schedule::interleaved<5>>,
                             tensor<"tp", sequence_parallel>, reference_batch>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::zero_stage_valid);
  CHECK(x.a == 4);
  CHECK(describe(x) == "zero stage 4 does not exist");
}

TEST_CASE("a negative zero stage breaks zero_stage_valid too") {
  training_plan_values p = reference_values();
  p.setup.degrees.zero_stage = -1;
  const violation x = only_violation(check(with_degrees(p)));
  CHECK(x.rule == plan_rule::zero_stage_valid);
  CHECK(x.a == -1);
  CHECK(describe(x) == "zero stage -1 does not exist");
}

// DeepSpeed's pipeline engine: "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"
// (deepspeed/runtime/pipe/engine.py@38327e07f6cd39b63418f60cedd1651b0be3e7c3) and one training
// schedule, TrainSchedule's 1F1B (pipe/schedule.py); torchtune's optimizer in the backward needs
// one micro-batch ("Requires gradient_accumulation_steps=1").
TEST_CASE("a plan its framework cannot run breaks framework_runs_plan") {
  training_plan_values p = reference_values();
  p.setup.framework = profiles::deepspeed;
  p.setup.degrees.zero_stage = 2;
  violation x = only_violation(check(with_degrees(p)));
  CHECK(x.rule == plan_rule::framework_runs_plan);
  CHECK(describe(x) == "the framework's pipeline engine takes ZeRO-0 or ZeRO-1 (as DeepSpeed's), "
                       "not ZeRO-2 with a pipeline (8 stages)");
  p.setup.degrees.zero_stage = 1;
  p.setup.degrees.schedule = pipeline_schedule::interleaved;
  x = only_violation(check(with_degrees(p)));
  CHECK(describe(x) ==
        "the framework's pipeline runs only 1F1B (as DeepSpeed's), not interleaved 1F1B");
  p.setup.degrees.schedule = pipeline_schedule::one_f_one_b;
  p.setup.degrees.virtual_stages = 1;
  CHECK(check(with_degrees(p)).empty());
  // The same plan under the generic framework: ZeRO-2 and interleaving are the papers' to plan.
  p.setup.framework = profiles::generic;
  p.setup.degrees.zero_stage = 2;
  CHECK(check(with_degrees(p)).empty());
  // torchtune's optimizer in the backward with 8 micro-batches on 8 stages.
  p.setup.framework = profiles::torchtune;
  p.setup.optimizer_in_backward = true;
  x = only_violation(check(with_degrees(p)));
  CHECK(x.rule == plan_rule::framework_runs_plan);
  CHECK(describe(x).find("the framework steps the optimizer in the backward only with one "
                         "micro-batch and no pipeline (as torchtune), not ") == 0);
}

// Megatron-LM's validate_args asserts --sequence-parallel with --tp-comm-overlap; torchtitan's
// CompileConfig refuses async TP without the model compiled.
TEST_CASE("tensor-parallel overlap needs sequence parallelism, and async tp a compiled model") {
  training_plan_values p = reference_values();  // TP 8 with sequence parallelism
  REQUIRE(p.setup.degrees.tensor == 8);
  p.setup.framework = profiles::megatron_core;
  p.setup.tp_comm_overlap = true;
  CHECK(check(with_degrees(p)).empty());
  p.setup.degrees.sequence_parallel = false;
  p.setup.recompute = {recompute_kind::full};  // so that the activations still fit
  violation x = only_violation(check(with_degrees(p)));
  CHECK(x.rule == plan_rule::framework_runs_plan);
  CHECK(describe(x) ==
        "tensor-parallel communication overlap needs sequence parallelism (tensor degree 8)");
  p.setup.degrees.sequence_parallel = true;
  p.setup.framework = profiles::torchtitan;
  x = only_violation(check(with_degrees(p)));
  CHECK(describe(x) ==
        "the framework runs async TP (tensor degree 8) only with the model compiled "
        "(compiled_layers, as torchtitan)");
  p.setup.compiled_layers = true;
  CHECK(check(with_degrees(p)).empty());
}

// --- sizes, schedule, recomputation and efficiency (issue 15, findings 1, 12, 14, 17) ----------

TEST_CASE("four axes of 65536 break sizes_fit_in_64_bits without overflowing") {
  // 65536^4 = 2^64 = 18,446,744,073,709,551,616 devices, more than the 2^63 - 1 a signed 64-bit
  // integer holds; the mesh product used to overflow (signed overflow in mesh_devices). Worked
  // out in a constant expression, which refuses any overflow, so this compiles only if none
  // happens.
  constexpr training_plan_values p = [] {
    training_plan_values q = reference_values();
    q.axes[0] = {"dp", 65536, role_data | role_zero, {}};
    q.axes[1] = {"pp", 65536, role_pipeline, {}};
    q.axes[2] = {"tp", 65536, role_tensor, {}};
    q.axes[3] = {"cp", 65536, role_context, {}};
    q.axis_count = 4;
    return with_degrees(q);
  }();
  constexpr plan_violations v = check(p);
  const violation x = only_violation(v);
  CHECK(x.rule == plan_rule::sizes_fit_in_64_bits);
  CHECK(x.a == 18446744073709551616.0);
  CHECK(x.b == 9223372036854775808.0);
  CHECK(static_cast<product_of>(x.c) == product_of::mesh_devices);
  CHECK(describe(x) ==
        "the mesh's device count is 1.84e+19, more than a 64-bit integer holds (9.22e+18)");
  CHECK_FALSE(costable(v));
  // Degrees and device counts saturate instead of wrapping round to 0.
  CHECK(mesh_devices(p) == int64_max);
  CHECK(p.setup.degrees.context == 65536);
  CHECK(degree_of(p, role_data | role_pipeline | role_tensor) == 65536LL * 65536 * 65536);
}

TEST_CASE("a product of 2^63 exactly does not fit, one of 2^62 does") {
  // 2^50 sequences of 2^13 tokens are 2^63 tokens, one more than int64 holds; 2^49 are 2^62.
  using overflowing = llama_plan<64, 8, 5,
                                 batch<global_sequences<(int64_t{1} << 50)>, seq_len<8192>,
                                       micro_batch<1>>>;
  const violation x = only_violation(overflowing::violations);
  CHECK(x.rule == plan_rule::sizes_fit_in_64_bits);
  CHECK(static_cast<product_of>(x.c) == product_of::global_tokens);
  CHECK(x.a == 9223372036854775808.0);
  using fitting = llama_plan<64, 8, 5,
                             batch<global_sequences<(int64_t{1} << 49)>, seq_len<8192>,
                                   micro_batch<1>>>;
  CHECK_FALSE(fitting::violations.has(plan_rule::sizes_fit_in_64_bits));
  CHECK(fitting::values.setup.batch.global_tokens == int64_t{1} << 62);
}

TEST_CASE("pipeline chunks and replicas times micro-batch are kept within 64 bits too") {
  // 8 stages x 2^61 virtual stages = 2^64; 64 replicas x micro-batches of 2^58 = 2^64.
  using chunks = llama_plan<64, 8, (int64_t{1} << 61)>;
  CHECK(static_cast<product_of>(only_violation(chunks::violations).c) ==
        product_of::pipeline_chunks);
  using replicas =
      llama_plan<64, 8, 5,
                 batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<(int64_t{1} << 58)>>>;
  const violation x = only_violation(replicas::violations);
  CHECK(static_cast<product_of>(x.c) == product_of::replicas_times_micro_batch);
  CHECK(x.a == 64.0 * 288230376151711744.0);
}

TEST_CASE("an axis of no devices breaks axis_has_a_device and stops the check") {
  // Every other rule would divide by the tensor degree 0.
  constexpr training_plan_values p = [] {
    training_plan_values q = reference_values();
    q.axes[2].size = 0;
    return with_degrees(q);
  }();
  constexpr plan_violations v = check(p);
  const violation x = only_violation(v);
  CHECK(x.rule == plan_rule::axis_has_a_device);
  CHECK(x.axis == "tp");
  CHECK(x.a == 0);
  CHECK(describe(x) == "mesh axis 'tp' has 0 devices; it needs at least 1");
  CHECK_FALSE(costable(v));
}

TEST_CASE("recompute::checkpoints<-4> breaks checkpoints_at_least_one instead of fitting") {
  // -4 checkpoints per layer gave negative activations (-8.6 GB) and a plan that "fits".
  using plan = llama_plan<64, 8, 5, reference_batch, recompute::checkpoints<-4>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::checkpoints_at_least_one);
  CHECK(x.a == -4);
  CHECK_FALSE(plan::fits);
  CHECK_FALSE(costable(plan::violations));
  CHECK(describe(x) == "recompute::checkpoints needs at least 1 tensor per layer, not -4");
  using none_kept = llama_plan<64, 8, 5, reference_batch, recompute::checkpoints<0>>;
  CHECK(only_violation(none_kept::violations).rule == plan_rule::checkpoints_at_least_one);
  CHECK(llama_plan<64, 8, 5, reference_batch, recompute::checkpoints<1>>::violations.empty());
}

TEST_CASE("interleaved<1> breaks virtual_stages_suit_schedule as one rule") {
  using plan = llama_plan<64, 8, 1>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::virtual_stages_suit_schedule);
  CHECK(x.a == 1);
  CHECK(describe(x) == "the interleaved schedule needs 2 or more virtual stages, not 1");
  // A plan file's 1f1b with 4 virtual stages breaks it the other way.
  training_plan_values p = reference_values();
  p.setup.degrees.schedule = pipeline_schedule::one_f_one_b;
  p.setup.degrees.virtual_stages = 4;
  const violation y = only_violation(check(p));
  CHECK(y.rule == plan_rule::virtual_stages_suit_schedule);
  CHECK(describe(y) ==
        "a schedule other than interleaved needs exactly 1 virtual stage, not 4");
}

TEST_CASE("efficiency<0%> and efficiency<150%> break efficiency_is_a_percentage") {
  // A given 0 is a mistake, not the chip's default (which an absent option leaves).
  const violation x =
      only_violation(llama_plan<64, 8, 5, reference_batch, efficiency<percent{0.0}>>::violations);
  CHECK(x.rule == plan_rule::efficiency_is_a_percentage);
  CHECK(x.a == 0.0);
  CHECK(describe(x) == "efficiency must be more than 0% and at most 100%, not 0%");
  using over = llama_plan<64, 8, 5, reference_batch, efficiency<percent{150.0}>>;
  CHECK(only_violation(over::violations).a == doctest::Approx(150.0).scale(0.0));
  CHECK(llama_plan<64, 8, 5, reference_batch, efficiency<percent{50.0}>>::violations.empty());
  CHECK(reference_plan::values.assumptions.efficiency == 0.0);
  CHECK(reference_plan::violations.empty());
}

TEST_CASE("uneven stages with more chunks than layers break stages_within_layers, not the hint") {
  // 16 stages x 8 virtual stages = 128 chunks for 80 layers: some chunk would hold no layer.
  // The message must not suggest uneven_stages, which the plan already has.
  training_plan_values p = reference_values();
  p.axes[0].size = 32;
  p.axes[1].size = 16;
  p.setup.degrees.virtual_stages = 8;
  p.setup.degrees.uneven_stages = true;
  const violation x = only_violation(check(with_degrees(p)));
  CHECK(x.rule == plan_rule::stages_within_layers);
  CHECK(x.a == 16 * 8);
  CHECK(x.b == 80);
  CHECK(describe(x) == "128 pipeline chunks are more than the 80 layers, even with uneven stages");
  CHECK(describe(x).find("uneven_stages allows") == std::string::npos);
  // 16 x 5 = 80 chunks of one layer each are fine.
  p.setup.degrees.virtual_stages = 5;
  CHECK(check(with_degrees(p)).empty());
}

TEST_CASE("an expert axis outside the data axes breaks expert_divides_data with both degrees") {
  // Mixtral 8x7B on 32 GPUs: ZeRO over "dp" (4) only, experts over "ep" (8), which is then not a
  // data axis: 8 expert groups cannot be carved out of 4 replicas.
  using plan = training_plan<models::mixtral_8x7b, systems::dgx_h100_superpod<4>,
                             mesh<axis<"dp", 4>, axis<"ep", 8>>, zero<1, "dp">, expert<"ep">,
                             batch<global_sequences<64>, seq_len<4096>, micro_batch<1>>,
                             recompute::full>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::expert_divides_data);
  CHECK(x.a == 8);
  CHECK(x.b == 4);
  CHECK(describe(x) == "expert parallelism (8) must divide data parallelism (4)");
}

TEST_CASE("llama-3 70b replicated on 8 h100s breaks fits_in_memory by the model states") {
  // Plain data parallelism keeps every parameter's 16 bytes (bf16 weight and gradient, fp32
  // master weight and two Adam moments) on every GPU. LLaMA-3 70B has 70,553,706,496
  // parameters: 80 layers of 8192·(8192 + 1024 + 1024 + 8192) attention, 3·8192·28672 MLP and
  // two 8192 norms, plus two 128256 x 8192 embeddings and the final norm.
  constexpr int64_t per_layer = 8192 * (8192 + 1024 + 1024 + 8192) + 3 * 8192 * 28672 + 2 * 8192;
  constexpr int64_t params = 80 * per_layer + 2 * 128256 * 8192 + 8192;
  static_assert(params == 70'553'706'496);
  // Full recomputation keeps each layer's bf16 input (2·s·h bytes for b = 1), and the single
  // stage also holds the logits buffer of 4·s·V bytes (memory.hpp); the reserve is set to zero.
  constexpr double s = 8192, h = 8192, V = 128256;
  const double expected = 16.0 * static_cast<double>(params) + 80 * 2 * s * h + 4 * s * V;
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<1>, mesh<axis<"dp", 8>>,
                             data<"dp">, batch<global_sequences<8>, seq_len<8192>, micro_batch<1>>,
                             recompute::full, reserve<gigabytes{0.0}>>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::fits_in_memory);
  CHECK(x.a == doctest::Approx(expected).scale(0.0));
  CHECK(x.b == 80e9);  // H100 SXM: 80 GB of HBM3
  CHECK(describe(x) == "needs 1.14 TB per device against 80 GB of memory");
}

TEST_CASE("eager attention without recomputation breaks fits_in_memory on the reference plan") {
  // Without recomputation every layer keeps its softmax output, 2·a·s²·b/t bytes: with 64 heads,
  // s = 8192 and t = 8 that is 1.07 GB a layer, beyond 80 GB over the first stage's layers.
  using plan = llama_plan<64, 8, 5, reference_batch, recompute::none, eager_attention>;
  const violation x = only_violation(plan::violations);
  CHECK(x.rule == plan_rule::fits_in_memory);
  const double scores_per_layer = 2.0 * 64 * 8192.0 * 8192.0 / 8;
  // The first of 8 stages holds 80 / 8 = 10 layers for at least min(8 stages, 32 micro-batches).
  CHECK(x.a > 10 * 8 * scores_per_layer);
  CHECK(x.b == 80e9);
}

// --- several rules at once -------------------------------------------------------------------

TEST_CASE("check lists every broken rule in the order of plan_rule") {
  // Tensor parallelism 3 on LLaMA-3 70B: 64 heads, 8 kv heads and d_ff 28672 = 2^12 x 7 all
  // leave a remainder.
  training_plan_values p = reference_values();
  p.axes[2].size = 3;
  const plan_violations v = check(with_degrees(p));
  REQUIRE(v.count >= 3);
  CHECK(v.items[0].rule == plan_rule::tensor_divides_heads);
  CHECK(v.items[1].rule == plan_rule::tensor_divides_kv_heads);
  CHECK(v.items[2].rule == plan_rule::tensor_divides_d_ff);
  CHECK(v.items[1].b == 8);
  CHECK(v.items[2].b == 28672);
}

TEST_CASE("a divisibility and a memory problem are reported together") {
  // Tensor parallelism 16 on 8 kv heads, and eager attention with micro-batches of 2: the
  // softmax outputs alone, 2·a·s²·b/t = 2 x 64 x 8192² x 2 / 16 bytes = 1.07 GB a layer, for 10
  // layers x 8 micro-batches in flight on the first stage exceed 80 GB.
  using plan =
      llama_plan<32, 16, 5, batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<2>>,
                 recompute::none, eager_attention>;
  REQUIRE(plan::violations.count == 2);
  CHECK(plan::violations.items[0].rule == plan_rule::tensor_divides_kv_heads);
  CHECK(plan::violations.items[1].rule == plan_rule::fits_in_memory);
  CHECK(plan::violations.items[1].a > 10 * 8 * (2.0 * 64 * 8192.0 * 8192.0 * 2 / 16));
  CHECK(plan::violations.has(plan_rule::fits_in_memory));
  CHECK_FALSE(plan::violations.has(plan_rule::tensor_divides_heads));
}

TEST_CASE("every rule's text starts with shardplan:") {
  for (int r = 0; r <= static_cast<int>(last_plan_rule); ++r) {
    const std::string_view text = rule_text(static_cast<plan_rule>(r));
    CAPTURE(r);
    CHECK(text.substr(0, 11) == "shardplan: ");
  }
}

// --- placement -------------------------------------------------------------------------------

TEST_CASE("a 128-node dgx h100 superpod has node, leaf and spine levels of 8, 32 and 4") {
  // 8 GPUs a node; a leaf joins one scalable unit of 32 nodes; 128 / 32 = 4 SUs under the spine.
  const placement_levels l = levels_of(systems::dgx_h100_superpod<128>::figures);
  REQUIRE(l.count == 3);
  CHECK(l.level[0].name == "node");
  CHECK(l.level[1].name == "leaf");
  CHECK(l.level[2].name == "spine");
  CHECK(l.level[0].degree == 8);
  CHECK(l.level[1].degree == 32);
  CHECK(l.level[2].degree == 4);
  CHECK(capacity(l, -1) == 1);
  CHECK(capacity(l, 0) == 8);
  CHECK(capacity(l, 1) == 8 * 32);
  CHECK(capacity(l, 2) == 8 * 32 * 4);
  CHECK_FALSE(l.level[0].torus);
  CHECK(find_level(l, "leaf") == 1);
  CHECK(find_level(l, "ici-x") == -1);
}

TEST_CASE("on a superpod an axis of 8 innermost stays in the node, the next 32 on the leaf") {
  const placement_levels l = levels_of(systems::dgx_h100_superpod<128>::figures);
  // Innermost 8: chips 0..7, one node.
  const axis_placement tp = place_axis(l, 1, 8);
  CHECK(tp.first_level == 0);
  CHECK(tp.last_level == 0);
  CHECK(tp.within_system);
  CHECK_FALSE(tp.wraps);
  // Next 32, stride 8: one GPU in each of 32 nodes, which one leaf joins (8 x 32 = 256 chips).
  const axis_placement pp = place_axis(l, 8, 32);
  CHECK(pp.inner == 8);
  CHECK(pp.first_level == 1);
  CHECK(pp.last_level == 1);
  // Outermost 4, stride 256: one GPU in each of the 4 scalable units, across the spine.
  const axis_placement dp = place_axis(l, 8 * 32, 4);
  CHECK(dp.first_level == 2);
  CHECK(dp.last_level == 2);
  // An innermost 16 spans two nodes: the node and the leaf level.
  const axis_placement wide = place_axis(l, 1, 16);
  CHECK(wide.first_level == 0);
  CHECK(wide.last_level == 1);
  // 2048 chips do not fit in 1024.
  CHECK_FALSE(place_axis(l, 1, 2048).within_system);
}

TEST_CASE("placement_of lays a plan's mesh axes innermost last") {
  // dp 4 x pp 32 x tp 8 on 128 nodes: tp in the node, pp across a leaf, dp across the spine.
  training_plan_values p;
  p.system = systems::dgx_h100_superpod<128>::figures;
  p.axes[0] = {"dp", 4, role_data, {}};
  p.axes[1] = {"pp", 32, role_pipeline, {}};
  p.axes[2] = {"tp", 8, role_tensor, {}};
  p.axis_count = 3;
  CHECK(placement_of(p, 2).inner == 1);
  CHECK(placement_of(p, 2).last_level == 0);
  CHECK(placement_of(p, 1).inner == 8);
  CHECK(placement_of(p, 1).first_level == 1);
  CHECK(placement_of(p, 1).last_level == 1);
  CHECK(placement_of(p, 0).inner == 8 * 32);
  CHECK(placement_of(p, 0).first_level == 2);
}

TEST_CASE("a tpu v5p 4x4x4 cube expands into ici-x, ici-y and ici-z, each wrapping") {
  // One whole 4x4x4 cube: wraparound on every axis; a single slice has no dcn level.
  const placement_levels l = levels_of(systems::tpu_v5p_slice<4, 4, 4>::figures);
  REQUIRE(l.count == 3);
  CHECK(l.level[0].name == "ici-x");
  CHECK(l.level[1].name == "ici-y");
  CHECK(l.level[2].name == "ici-z");
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(l.level[i].degree == 4);
    CHECK(l.level[i].torus);
    CHECK(l.level[i].wraps);
    CHECK(l.level[i].link == link_kind::ici);
  }
  CHECK(capacity(l, 2) == 4 * 4 * 4);
}

TEST_CASE("two v5p slices add a dcn level of 2") {
  const placement_levels l = levels_of(systems::tpu_v5p_slice<4, 4, 4, 2>::figures);
  REQUIRE(l.count == 4);
  CHECK(l.level[3].name == "dcn");
  CHECK(l.level[3].degree == 2);
  CHECK_FALSE(l.level[3].torus);
  CHECK(capacity(l, 3) == 4 * 4 * 4 * 2);
}

TEST_CASE("on a wrapping torus a whole axis is a ring with wraparound and a part of it is not") {
  const placement_levels l = levels_of(systems::tpu_v5p_slice<4, 4, 4>::figures);
  // 4 chips innermost: the whole x ring, wraparound included.
  const axis_placement x = place_axis(l, 1, 4);
  CHECK(x.first_level == 0);
  CHECK(x.last_level == 0);
  CHECK(x.wraps);
  // 2 chips innermost: half of the x ring, whose wraparound link joins chips 3 and 0.
  const axis_placement half = place_axis(l, 1, 2);
  CHECK(half.last_level == 0);
  CHECK_FALSE(half.wraps);
  // 16 chips outside 4: the whole y and z rings (4 x 16 = 64 chips).
  const axis_placement yz = place_axis(l, 4, 16);
  CHECK(yz.first_level == 1);
  CHECK(yz.last_level == 2);
  CHECK(yz.wraps);
  // A single chip is no ring.
  CHECK_FALSE(place_axis(l, 1, 1).wraps);
}

TEST_CASE("a v5e 8x16 slice wraps only on its 16-long ici-y") {
  // [book]: a v5e axis wraps only at its full 16.
  const placement_levels l = levels_of(systems::tpu_v5e_slice<8, 16>::figures);
  REQUIRE(l.count == 2);
  CHECK(l.level[0].name == "ici-x");
  CHECK(l.level[1].name == "ici-y");
  CHECK(l.level[0].degree == 8);
  CHECK(l.level[1].degree == 16);
  CHECK_FALSE(l.level[0].wraps);
  CHECK(l.level[1].wraps);
  CHECK_FALSE(place_axis(l, 1, 8).wraps);  // the whole x axis, without wraparound
  CHECK(place_axis(l, 8, 16).wraps);       // the whole y axis
  // Across both axes the x part has no wraparound, so neither has the axis.
  CHECK_FALSE(place_axis(l, 1, 8 * 16).wraps);
}

TEST_CASE("an axis required on ici-x fits on a v5p cube when it is the innermost 4") {
  training_plan_values p;
  p.model = models::llama3_8b::shape;
  p.system = systems::tpu_v5p_slice<4, 4, 4>::figures;
  p.axes[0] = {"fsdp", 16, role_data | role_zero, {}};
  p.axes[1] = {"tp", 4, role_tensor, "ici-x"};
  p.axis_count = 2;
  p.setup.degrees.zero_stage = 3;
  p.setup.batch = {.global_tokens = 1'048'576, .seq_len = 8192, .micro_batch = 1};
  CHECK(check(with_degrees(p)).empty());
  // Swapped, tp strides over the 16 chips of x and y and lands on ici-z, outside ici-x's 4.
  std::swap(p.axes[0], p.axes[1]);
  const violation x = only_violation(check(with_degrees(p)));
  CHECK(x.rule == plan_rule::axis_on_required_level);
  CHECK(x.a == 16 * 4);
  CHECK(x.b == 4);
}

TEST_CASE("a compute format the chip has no matrix rate for breaks a rule, not the step time") {
  // DeepSeek-V3's fp8 recipe on a TPU v5e (bf16 and int8 MXU rates, no fp8): found by the long
  // fuzz run as a NaN step time. Now the plan breaks compute_format_supported and is not costed.
  training_setup setup;
  setup.batch = {256 * 2048, 2048, 1};
  setup.recompute = {recompute_kind::full};
  setup.precision = precision::fp8_deepseek_v3::policy;
  parallel_config c;
  c.data = 256;
  c.zero_stage = 3;
  const training_plan_values p = make_training_plan(
      models::llama3_8b::shape, systems::tpu_v5e_slice<16, 16>::figures, c, setup);
  const plan_violations v = check(p);
  REQUIRE(v.has(plan_rule::compute_format_supported));
  CHECK_FALSE(costable(v));
  for (std::size_t i = 0; i < v.count; ++i)
    if (v.items[i].rule == plan_rule::compute_format_supported)
      CHECK(describe(v.items[i]) ==
            "the chip has no fp8 matrix rate for the precision's compute format");
  // The same plan in bf16 keeps the rule.
  setup.precision = precision::bf16_mixed_adam::policy;
  CHECK_FALSE(check(make_training_plan(models::llama3_8b::shape,
                                       systems::tpu_v5e_slice<16, 16>::figures, c, setup))
                  .has(plan_rule::compute_format_supported));
}

// --- how the layers are split over the stages (issue 42 item 4) -------------------------------

TEST_CASE("stages that count the embedding and output as layers divide what they count") {
  // Megatron-Core's --account-for-embedding-in-pipeline-split and --account-for-loss-in-
  // pipeline-split (transformer_block.py at d98e8a64): 80 layers and the two ends, 82, do not
  // divide over 8 stages of 5 virtual stages (40 chunks); over 2 stages of 1F1B they are 41
  // each, the first stage holding 41 - 1 = 40 layers.
  training_plan_values p = reference_values();
  p.setup.framework.pipeline_embedding_weight = 1;
  p.setup.framework.pipeline_loss_weight = 1;
  const violation x = only_violation(check(p));
  CHECK(x.rule == plan_rule::stages_divide_layers);
  CHECK(x.a == 40);
  CHECK(x.b == 82);
  CHECK(describe(x) ==
        "40 pipeline chunks do not divide 82 layers (80 and the 2 the embedding and output count "
        "as) (uneven_stages allows a ragged split)");
  p.axes[0].size = 256;
  p.axes[1].size = 2;
  p.setup.degrees.schedule = pipeline_schedule::one_f_one_b;
  p.setup.degrees.virtual_stages = 1;
  CHECK(check(with_degrees(p)).empty());
  CHECK(layers_on_stage(p.model, with_degrees(p).setup, 0) == 40);
  // An end counted as more layers than a chunk's share (torchtitan refuses it): 80 layers, an
  // embedding counted as 100 and the output as 1 make 181 over 2 chunks, a share of 90; the
  // first chunk would hold fewer than none.
  p.setup.framework.pipeline_embedding_weight = 100;
  p.setup.degrees.uneven_stages = true;
  const violation w = only_violation(check(with_degrees(p)));
  CHECK(w.rule == plan_rule::end_weights_within_share);
  CHECK(describe(w) == "the embedding or the output counts as 100 layers, more than the chunks' "
                       "share of 90");
}

TEST_CASE("given first and last stages must leave the stages between them an even share") {
  // 80 layers on 8 stages of 5 virtual stages; the ends hold 5 and 5: 70 left for the 6 stages
  // between them (30 chunks) is not a whole number of layers per chunk.
  training_plan_values p = reference_values();
  p.setup.degrees.first_stage_layers = 5;
  p.setup.degrees.last_stage_layers = 5;
  const violation x = only_violation(check(p));
  CHECK(x.rule == plan_rule::stage_ends_leave_layers);
  CHECK(x.a == 10);
  CHECK(x.b == 80);
  CHECK(x.c == 30);
  CHECK(describe(x) ==
        "the first and last stages hold 10 of 80 layers, leaving 70 for the 30 chunks between "
        "them: not an equal share each (uneven_stages allows a ragged split)");
  // Ends of 10 and 10 leave 60 for 30 chunks: 2 each, 10 a stage.
  p.setup.degrees.first_stage_layers = 10;
  p.setup.degrees.last_stage_layers = 10;
  CHECK(check(p).empty());
  CHECK(layers_on_stage(p.model, p.setup, 0) == 10);
  CHECK(layers_on_stage(p.model, p.setup, 3) == 10);
  // Ends of 40 and 39 leave 1 layer for 30 chunks: fewer than one each, even uneven.
  p.setup.degrees.first_stage_layers = 40;
  p.setup.degrees.last_stage_layers = 39;
  p.setup.degrees.uneven_stages = true;
  const plan_violations all = check(p);
  REQUIRE(all.has(plan_rule::stage_ends_leave_layers));
  violation y{};
  for (std::size_t i = 0; i < all.count; ++i)
    if (all.items[i].rule == plan_rule::stage_ends_leave_layers) y = all.items[i];
  CHECK(describe(y) ==
        "the first and last stages hold 79 of 80 layers, leaving 1 for the 30 chunks between "
        "them: fewer than one each");
}

TEST_CASE("ends that are not whole chunks agree at run time and at compile time") {
  // 80 layers on 8 stages of 2 virtual stages with the ends holding 3 and 5: 72 left for 6
  // stages, 6 a chunk, an even share; the ends' own chunks split 3 as 2 and 1 (chunk_layers_of).
  // The compile-time rule sees only the ends' sum, the layers and the chunks between, so the run
  // time must not refuse the plan for the ends' own odd counts.
  training_plan_values p = reference_values();
  p.setup.degrees.virtual_stages = 2;
  p.setup.degrees.first_stage_layers = 3;
  p.setup.degrees.last_stage_layers = 5;
  CHECK_FALSE(check(p).has(plan_rule::stage_ends_leave_layers));
  CHECK(chunk_layers_of(p.model, p.setup, 0) == 2);
  CHECK(chunk_layers_of(p.model, p.setup, 8) == 1);
  CHECK(layers_on_stage(p.model, p.setup, 1) == 12);
}
