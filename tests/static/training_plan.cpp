// Static tests of training_plan.hpp: feasible plans on GPU fat trees, TPU tori and NVL72 racks,
// with their degrees, placements and memory bounds worked out by hand. Compiling is passing.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/training_plan.hpp>

namespace {

using namespace shardplan;

constexpr bytes gb = giga * byte;

// --- LLaMA-3 70B on 512 DGX H100 nodes: 64-way ZeRO-1, 8 interleaved stages, 8-way TP ------

using dgx_plan =
    training_plan<models::llama3_70b, systems::dgx_h100_superpod<512>,
                  mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8, on<"node">>>, zero<1, "dp">,
                  pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
                  batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
                  recompute::selective, precision::bf16_mixed_adam>;
static_assert(dgx_plan::fits);
SHARDPLAN_REQUIRE_FEASIBLE(dgx_plan);

static_assert(dgx_plan::values.setup.degrees.data == 64);
static_assert(dgx_plan::values.setup.degrees.zero == 64);
static_assert(dgx_plan::values.setup.degrees.pipeline == 8);
static_assert(dgx_plan::values.setup.degrees.virtual_stages == 5);
static_assert(dgx_plan::values.setup.degrees.tensor == 8);
static_assert(dgx_plan::values.setup.degrees.sequence_parallel);
// 16,777,216 tokens / 8192 = 2048 sequences; / 64 replicas = 32 micro-batches of 1.
static_assert(micro_batches(dgx_plan::values.setup) == 32);
// 512 nodes are 16 scalable units, more than a spine joins (8): levels node 8, leaf 32, spine 4
// (a pod of 4 SUs), core 4. tp fills one node (level 0); pp strides 8 GPUs over 8 nodes of one
// leaf (level 1); dp strides 64 GPUs over all 512 nodes, crossing leaf, spine and core (1 to 3).
static_assert(placement_of(dgx_plan::values, 2).last_level == 0);
static_assert(placement_of(dgx_plan::values, 1).first_level == 1);
static_assert(placement_of(dgx_plan::values, 1).last_level == 1);
static_assert(placement_of(dgx_plan::values, 0).first_level == 1);
static_assert(placement_of(dgx_plan::values, 0).last_level == 3);
// Model states: the first stage holds 10 of 80 layers (855,654,400 parameters each) and the
// 128256 x 8192 embedding, split 8 ways: about 1.2e9 parameters a GPU; 4 bytes of bf16 weights and
// gradients each, 12 bytes of master weights and Adam moments over 64 shards: 4.80 + 0.23 GB.
static_assert(dgx_plan::memory_per_device().model_states() > 5.0 * gb);
static_assert(dgx_plan::memory_per_device().model_states() < 5.1 * gb);
static_assert(dgx_plan::memory_per_device().total < 80.0 * gb);

// --- the same model with context parallelism 8 for sequences of 128K --------------------------

using context_plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 8>, axis<"cp", 8>, axis<"pp", 8>, axis<"tp", 8, on<"node">>>, zero<1, "dp">,
    context<"cp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<131072>, micro_batch<1>>, recompute::selective>;
static_assert(context_plan::fits);
SHARDPLAN_REQUIRE_FEASIBLE(context_plan);
static_assert(context_plan::values.setup.degrees.context == 8);
// 131072 / 8 = 16384 tokens a GPU, twice the reference's 8192; both first stages hold 8
// micro-batches (min of 8 stages and 16 or 32 micro-batches), so activations double.
static_assert(context_plan::memory_per_device().activations >
              1.99 * dgx_plan::memory_per_device().activations);
static_assert(context_plan::memory_per_device().activations <
              2.01 * dgx_plan::memory_per_device().activations);
static_assert(context_plan::memory_per_device().total < 80.0 * gb);

// --- FSDP over two axes: 4 x 32 = 128 shards of LLaMA-3 70B, TP 8 in the node ---------------

using fsdp_plan =
    training_plan<models::llama3_70b, systems::dgx_h100_superpod<128>,
                  mesh<axis<"replica", 4>, axis<"shard", 32>, axis<"tp", 8, on<"node">>>,
                  fsdp<"replica", "shard">, tensor<"tp", sequence_parallel>,
                  batch<global_tokens<4'194'304>, seq_len<8192>, micro_batch<1>>,
                  recompute::selective>;
static_assert(fsdp_plan::fits);
SHARDPLAN_REQUIRE_FEASIBLE(fsdp_plan);
static_assert(fsdp_plan::values.setup.degrees.zero_stage == 3);
static_assert(fsdp_plan::values.setup.degrees.data == 4 * 32);
static_assert(fsdp_plan::values.setup.degrees.zero == 4 * 32);
// 70,553,706,496 parameters; all but the 80 x 2 x 8192 + 8192 norm weights split by TP 8:
// 8,820,367,360 a GPU, at 16 bytes over 128 shards: 1.1025 GB.
static_assert(fsdp_plan::memory_per_device().model_states() > 1.10 * gb);
static_assert(fsdp_plan::memory_per_device().model_states() < 1.11 * gb);
// ZeRO-3 gathers layers into buffers.
static_assert(fsdp_plan::memory_per_device().buffers > 0.0 * gb);
static_assert(fsdp_plan::memory_per_device().total < 80.0 * gb);

// --- Mixtral 8x7B, expert parallelism 8 on a data axis ----------------------------------------

using moe_plan = training_plan<models::mixtral_8x7b, systems::dgx_h100_superpod<64>,
                               mesh<axis<"dp", 16>, axis<"ep", 8>, axis<"tp", 4, on<"node">>>,
                               zero<1, "dp", "ep">, expert<"ep">, tensor<"tp", sequence_parallel>,
                               batch<global_tokens<4'194'304>, seq_len<4096>, micro_batch<1>>,
                               recompute::selective>;
static_assert(moe_plan::fits);
SHARDPLAN_REQUIRE_FEASIBLE(moe_plan);
static_assert(moe_plan::values.setup.degrees.expert == 8);
static_assert(moe_plan::values.setup.degrees.data == 16 * 8);
static_assert(moe_plan::values.setup.degrees.zero == 16 * 8);
// Expert states are sharded only over the ZeRO axes that do not also split the experts: "dp".
static_assert(moe_plan::values.setup.degrees.zero_expert == 16);
// Per GPU: 32 layers x 8 experts x 3 x 4096 x 14336 routed parameters / (EP 8 x TP 4) = 1.41e9;
// attention (32 x 4096 x (4096 + 1024 + 1024 + 4096)) and embeddings (2 x 32000 x 4096) / TP 4
// = 0.40e9. 4 bytes of each in bf16; 12 bytes of the routed ones over 16 and of the rest over
// 128 ZeRO shards: 7.25 + 1.06 + 0.04 = 8.34 GB.
static_assert(moe_plan::memory_per_device().model_states() > 8.3 * gb);
static_assert(moe_plan::memory_per_device().model_states() < 8.4 * gb);
static_assert(moe_plan::memory_per_device().total < 80.0 * gb);

// --- DeepSeek-V3 on 2048 H800s: FSDP over data and 64-way expert parallelism, fp8 -------------

using deepseek_plan =
    training_plan<models::deepseek_v3, systems::h800_cluster<256>,
                  mesh<axis<"dp", 32>, axis<"ep", 64>>, fsdp<"dp", "ep">, expert<"ep">,
                  batch<global_tokens<16'777'216>, seq_len<4096>, micro_batch<1>>, recompute::full,
                  precision::fp8_deepseek_v3>;
static_assert(deepseek_plan::fits);
SHARDPLAN_REQUIRE_FEASIBLE(deepseek_plan);
// 256 routed experts / 64 = 4 experts a GPU; expert states sharded over the 32 "dp" replicas.
static_assert(deepseek_plan::values.setup.degrees.expert == 64);
static_assert(deepseek_plan::values.setup.degrees.zero_expert == 32);
static_assert(deepseek_plan::memory_per_device().total < 80.0 * gb);

// --- LLaMA-3 70B on a TPU v5p 8x8x16 slice: FSDP 128 x TP 8 on ici-x --------------------------

using tpu_plan = training_plan<models::llama3_70b, systems::tpu_v5p_slice<8, 8, 16>,
                               mesh<axis<"fsdp", 128>, axis<"tp", 8, on<"ici-x">>>, fsdp<"fsdp">,
                               tensor<"tp", sequence_parallel>,
                               batch<global_tokens<4'194'304>, seq_len<8192>, micro_batch<1>>,
                               recompute::selective>;
static_assert(tpu_plan::fits);
SHARDPLAN_REQUIRE_FEASIBLE(tpu_plan);
// 8 x 8 x 16 = 1024 chips, whole 4x4x4 cubes: every axis wraps. tp is the whole x ring;
// fsdp strides 8 over y (8) and z (16), both whole: its rings wrap too.
static_assert(tpu_plan::values.system.chips == 1024);
static_assert(placement_of(tpu_plan::values, 1).last_level == 0);
static_assert(placement_of(tpu_plan::values, 1).wraps);
static_assert(placement_of(tpu_plan::values, 0).first_level == 1);
static_assert(placement_of(tpu_plan::values, 0).last_level == 2);
static_assert(placement_of(tpu_plan::values, 0).wraps);
// v5p: 95 GiB of HBM a chip.
static_assert(tpu_plan::memory_per_device().total < 95.0 * gibi * byte);

// --- LLaMA-3 405B on 8 GB200 NVL72 racks: 8-way ZeRO-1, 9 pipeline stages, TP 8 in the rack ---

using nvl72_plan = training_plan<models::llama3_405b, systems::gb200_nvl72<8>,
                                 mesh<axis<"dp", 8>, axis<"pp", 9>, axis<"tp", 8, on<"rack">>>,
                                 zero<1, "dp">, pipeline<"pp">, tensor<"tp", sequence_parallel>,
                                 batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
                                 recompute::selective>;
static_assert(nvl72_plan::fits);
SHARDPLAN_REQUIRE_FEASIBLE(nvl72_plan);
// 8 x 9 x 8 = 576 = 8 racks x 72 GPUs; 126 layers / 9 stages = 14.
static_assert(mesh_devices(nvl72_plan::values) == nvl72_plan::values.system.chips);
static_assert(layers_per_stage(nvl72_plan::values.model, nvl72_plan::values.setup) == 14);
// 72 x 8 = 576 GPUs: tp and 9 stages of 8 (72 GPUs) fill one rack; dp crosses the fabric.
static_assert(placement_of(nvl72_plan::values, 1).last_level == 0);
static_assert(placement_of(nvl72_plan::values, 0).last_level == 1);
// Model states of the first stage: 14 layers of 3,187,703,808 parameters and the 128256 x 16384
// embedding, / TP 8 = 5.84e9 a GPU; 4 bytes bf16 + 12 bytes over 8 shards = 23.4 + 8.8 GB.
static_assert(nvl72_plan::memory_per_device().model_states() > 32.0 * gb);
static_assert(nvl72_plan::memory_per_device().model_states() < 32.3 * gb);
// GB200: 186 GB of HBM3e a GPU.
static_assert(nvl72_plan::memory_per_device().total < 186.0 * gb);

// --- the rule check itself: sizes beyond 64 bits, bad options, the macro in a template -----------

// Four axes of 65536 are 65536^4 = 2^64 devices, beyond 2^63 - 1: a broken rule, worked out in
// constant expressions, which refuse the signed overflow they used to hit (mesh_devices).
using overflowing_plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 65536>, axis<"cp", 65536>, axis<"pp", 65536>, axis<"tp", 65536>>,
    zero<1, "dp">, context<"cp">, pipeline<"pp">, tensor<"tp">,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>>;
static_assert(!overflowing_plan::fits);
static_assert(overflowing_plan::violations.count == 1);
static_assert(overflowing_plan::violations.items[0].rule == plan_rule::sizes_fit_in_64_bits);
static_assert(overflowing_plan::violations.items[0].a == 18446744073709551616.0);
static_assert(!overflowing_plan::compute_bound);
static_assert(mesh_devices(overflowing_plan::values) == int64_max);

// Options that used to static_assert in themselves now break a rule of the plan.
template <class... Options>
using llama_on_dgx = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>, zero<1, "dp">, Options...,
    tensor<"tp", sequence_parallel>, batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>>;
static_assert(llama_on_dgx<pipeline<"pp", schedule::interleaved<1>>>::violations.has(
    plan_rule::virtual_stages_suit_schedule));
static_assert(llama_on_dgx<pipeline<"pp">, efficiency<percent{0.0}>>::violations.has(
    plan_rule::efficiency_is_a_percentage));
static_assert(llama_on_dgx<pipeline<"pp">, recompute::checkpoints<-4>>::violations.has(
    plan_rule::checkpoints_at_least_one));
static_assert(!llama_on_dgx<pipeline<"pp">, recompute::checkpoints<-4>>::fits);

// The macro works on a plan that depends on a template parameter.
template <class Plan>
constexpr bool required_in_a_template() {
  SHARDPLAN_REQUIRE_FEASIBLE(Plan);
  return true;
}
static_assert(required_in_a_template<dgx_plan>());

}  // namespace
