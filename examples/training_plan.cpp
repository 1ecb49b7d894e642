// A training plan that compiles because it fits: LLaMA-3 70B on 4096 H100 (512 DGX nodes),
// 64-way ZeRO-1 data parallelism, 8 interleaved pipeline stages, 8-way tensor parallelism.
//
// Show the infeasible variant failing the build with its numbers:
//   g++ -std=c++20 -Iinclude -fsyntax-only -DSHARDPLAN_SHOW_INFEASIBLE examples/training_plan.cpp
//   clang++-14 -std=c++20 -Iinclude -fsyntax-only -DSHARDPLAN_SHOW_INFEASIBLE examples/training_plan.cpp
#include <iostream>
#include <shardplan/core/format.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/sharding.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8, on<"node">>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;

// The rules first: a broken one stops the build with its text and numbers as the first error.
SHARDPLAN_REQUIRE_FEASIBLE(plan);
static_assert(plan::fits);
// Model states of the first stage: 10 of 80 layers (0.86 B parameters each) and the embedding
// (1.05 B) split 8 ways is 1.20 B parameters a GPU; 4 bytes each of bf16 weights and gradients,
// and 12 bytes of fp32 master weights and Adam moments over 64 ZeRO-1 shards: 5.0 GB.
static_assert(plan::memory_per_device().model_states() < 5.1 * giga * byte);
static_assert(plan::memory_per_device().total < 80.0 * giga * byte);

#ifdef SHARDPLAN_SHOW_INFEASIBLE
// Tensor parallelism 16 on LLaMA-3 70B's 8 KV heads, and plain data parallelism that keeps all
// 16 bytes a parameter of model states on every GPU.
using infeasible = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"dp", 256>, axis<"tp", 16>>, data<"dp">, tensor<"tp">,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(infeasible);
#endif

int main() {
  const memory_breakdown m = plan::memory_per_device();
  std::cout << "memory per GPU: parameters " << format(m.parameters) << ", gradients "
            << format(m.gradients) << ", master weights " << format(m.master_weights)
            << ", optimizer " << format(m.optimizer) << "\n"
            << "  activations " << format(m.activations) << ", buffers " << format(m.buffers)
            << ", reserve " << format(m.reserve) << ": " << format(m.total) << " of "
            << format(plan::values.system.chip.memory) << "\n";
  const plan_shardings s = shardings_of(plan::values);
  for (std::size_t i = 0; i < s.count; ++i)
    std::cout << "  " << notation(s.tensors[i], plan::values) << "\n";
}
// Output:
// memory per GPU: parameters 2.4 GB, gradients 2.4 GB, master weights 75.1 MB, optimizer 150 MB
//   activations 26.4 GB, buffers 33.6 MB, reserve 3.57 GB: 35.1 GB of 80 GB
//   In[B_dp, T_tp, D]
//   W_q[L_pp, D, N_tp, H]
//   W_kv[L_pp, D, K_tp, H]
//   W_o[L_pp, N_tp, H, D]
//   Attn[B_dp, T, N_tp, H]
//   W_in[L_pp, D, F_tp]
//   W_out[L_pp, F_tp, D]
//   Hidden[B_dp, T, F_tp]
//   W_emb[V_tp, D]
//   Logits[B_dp, T, V_tp]
