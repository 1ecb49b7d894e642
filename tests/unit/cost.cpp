// Tests of cost.hpp: what each strategy sends, how often, and how the step adds up, each against
// a count written out here.
#include <doctest/doctest.h>

#include <shardplan/training/cost.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

namespace {

const axis_traffic* find(const step_cost& c, std::string_view strategy) {
  for (std::size_t i = 0; i < c.traffic_count; ++i)
    if (c.traffic[i].strategy == strategy) return &c.traffic[i];
  return nullptr;
}

// LLaMA-3 8B (32 layers, h 4096) on 4 DGX H100 nodes: dp 2 x pp 2 x tp 8, 1F1B.
using plan_3d = training_plan<models::llama3_8b, systems::dgx_h100_superpod<4>,
                              mesh<axis<"dp", 2>, axis<"pp", 2>, axis<"tp", 8>>, data<"dp">,
                              pipeline<"pp">, tensor<"tp", sequence_parallel>,
                              batch<global_sequences<64>, seq_len<4096>, micro_batch<2>>,
                              recompute::selective, precision::bf16_mixed_adam>;

}  // namespace

TEST_CASE("data parallelism all-reduces the device's gradients once a step") {
  const step_cost c = plan_3d::step();
  const axis_traffic* x = find(c, "gradient all-reduce");
  REQUIRE(x != nullptr);
  const device_parameters held =
      parameters_on_device(models::llama3_8b::shape, plan_3d::values.setup.degrees,
                           stage_position::first);
  CHECK(x->count == 1);
  CHECK(x->array.value() == doctest::Approx((held.dense + held.expert) * 2.0));  // bf16 grads
}

TEST_CASE("tensor parallelism all-reduces [b, s, h] four times a layer and micro-batch") {
  // Megatron: two all-reduces forward (attention and MLP outputs) and two backward; 16 layers
  // a stage, 64 sequences / (2 replicas · 2 a micro-batch) = 16 micro-batches.
  const step_cost c = plan_3d::step();
  const axis_traffic* x = find(c, "tensor all-reduce");
  REQUIRE(x != nullptr);
  CHECK(x->count == 4 * 16 * 16);
  CHECK(x->array.value() == doctest::Approx(2.0 * 4096 * 4096 * 2));
  // Half of them in the forward pass (selective recomputation repeats none).
  CHECK(x->forward_bytes().value() == doctest::Approx(x->bytes_per_device.value() / 2));
}

TEST_CASE("pipeline sends carry a micro-batch's activations split over tensor ranks") {
  const step_cost c = plan_3d::step();
  const axis_traffic* x = find(c, "pipeline send");
  REQUIRE(x != nullptr);
  CHECK(x->count == 2 * 16);
  CHECK(x->array.value() == doctest::Approx(2.0 * 4096 * 4096 * 2 / 8));
  // All 2·(m + p − 2) = 32 sends are on the critical path: nothing hides.
  CHECK(x->exposed.value() == doctest::Approx(x->time.value()));
}

TEST_CASE("the 1f1b bubble is (p-1)/m of the compute") {
  const step_cost c = plan_3d::step();
  CHECK(c.bubble.value() == doctest::Approx(c.compute.value() * 1.0 / 16));
}

TEST_CASE("the step adds up and mfu is model flops over the chips' peak") {
  const step_cost c = plan_3d::step();
  CHECK(c.step.value() ==
        doctest::Approx((c.compute + c.bubble + c.communication_exposed + c.optimizer).value()));
  const double tokens = 64.0 * 4096;
  const double model = model_flops_per_token(models::llama3_8b::shape, 4096,
                                             attention_flops::causal).value() * tokens;
  CHECK(c.mfu == doctest::Approx(model / (c.step.value() * 32 * 989.4e12)));
  CHECK(c.tokens_per_second_per_device == doctest::Approx(tokens / c.step.value() / 32));
}

TEST_CASE("compute is hardware flops at the efficiency plus elementwise traffic at hbm speed") {
  const step_cost c = plan_3d::step();
  const double tokens = 64.0 * 4096;
  const double hw = hardware_flops_per_token(models::llama3_8b::shape, 4096,
                                             attention_flops::causal,
                                             {recompute_kind::selective}).value() * tokens;
  CHECK(c.efficiency == default_efficiency(hardware::h100_sxm::figures));
  // Elementwise: e·(12h + 4f)·L per token forward, three passes (flash attention: no scores).
  const double elementwise = 2.0 * (12 * 4096 + 4 * 14336) * 32 * 3 * tokens;
  CHECK(c.elementwise.value() == doctest::Approx(elementwise / 32 / 3.35e12));
  CHECK(c.compute.value() ==
        doctest::Approx(hw / 32 / (989.4e12 * c.efficiency) + c.elementwise.value()));
}

TEST_CASE("an efficiency option replaces the chip family's default") {
  using tuned = training_plan<models::llama3_8b, systems::dgx_h100_superpod<1>,
                              mesh<axis<"dp", 8>>, fsdp<"dp">,
                              batch<global_sequences<64>, seq_len<4096>, micro_batch<1>>,
                              efficiency<percent{50.0}>>;
  CHECK(tuned::step().efficiency == doctest::Approx(0.5));
}

TEST_CASE("fsdp gathers parameters twice and scatters gradients once per micro-batch") {
  using plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<2>,
                             mesh<axis<"fsdp", 16>>, fsdp<"fsdp">,
                             batch<global_sequences<64>, seq_len<4096>, micro_batch<2>>>;
  const step_cost c = plan::step();
  const double params = static_cast<double>(parameters(models::llama3_8b::shape).total);
  const axis_traffic* gather = find(c, "fsdp parameter gather");
  const axis_traffic* scatter = find(c, "fsdp gradient scatter");
  REQUIRE(gather != nullptr);
  REQUIRE(scatter != nullptr);
  CHECK(gather->count == 2 * 2);  // 64 / 16 / 2 = 2 micro-batches
  CHECK(scatter->count == 2);
  CHECK(gather->array.value() == doctest::Approx(params * 2));
}

TEST_CASE("expert parallelism dispatches and combines the routed tokens of every moe layer") {
  using plan = training_plan<models::mixtral_8x7b, systems::dgx_h100_superpod<1>,
                             mesh<axis<"ep", 8>>, fsdp<"ep">, expert<"ep">,
                             batch<global_sequences<8>, seq_len<4096>, micro_batch<1>>>;
  const step_cost c = plan::step();
  const axis_traffic* x = find(c, "expert all-to-all");
  REQUIRE(x != nullptr);
  // 32 MoE layers x 4 all-to-alls x 1 micro-batch; the array holds every device's 4096 tokens,
  // each sent to the distinct devices of its top-2 experts, 8·(1 − (7/8)²) = 1.875 of them on
  // average, as h = 4096 bf16 values.
  CHECK(x->count == 4 * 32);
  CHECK(x->array.value() == doctest::Approx(4096.0 * 1.875 * 4096 * 2 * 8));
}

TEST_CASE("context parallelism passes keys and values around its ring three times a layer") {
  using plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<1>,
                             mesh<axis<"dp", 2>, axis<"cp", 4>>, zero<1, "dp">, context<"cp">,
                             batch<global_sequences<4>, seq_len<32768>, micro_batch<1>>>;
  const step_cost c = plan::step();
  const axis_traffic* x = find(c, "context kv ring");
  REQUIRE(x != nullptr);
  // 32 layers x 2 micro-batches x 3; K and V of the whole sequence: 2 · 8 heads · 128 · 2 bytes.
  CHECK(x->count == 3 * 32 * 2);
  CHECK(x->array.value() == doctest::Approx(32768.0 * 2 * 8 * 128 * 2));
}
