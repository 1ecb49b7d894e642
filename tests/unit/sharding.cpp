// Tests of sharding.hpp: the book's notation for a plan's tensors.
#include <doctest/doctest.h>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/training/sharding.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

namespace {

std::string find(const training_plan_values& p, std::string_view name) {
  const plan_shardings s = shardings_of(p);
  for (std::size_t i = 0; i < s.count; ++i)
    if (s.tensors[i].tensor == name) return notation(s.tensors[i], p);
  return "missing";
}

}  // namespace

TEST_CASE("fsdp with tensor parallelism reads as the book's W_in[D_X, F_Y] and In[B_X, D]") {
  // How to Scale Your Model, training.md, "FSDP + TP": In[B_X, D_Y] · W_in[D_X, F_Y].
  using plan = training_plan<models::llama3_70b, systems::tpu_v5p_slice<4, 4, 4>,
                             mesh<axis<"X", 16>, axis<"Y", 4>>, fsdp<"X">, tensor<"Y">,
                             batch<global_sequences<16>, seq_len<4096>, micro_batch<1>>>;
  CHECK(find(plan::values, "W_in") == "W_in[L, D_X, F_Y]");
  CHECK(find(plan::values, "W_out") == "W_out[L, F_Y, D_X]");
  CHECK(find(plan::values, "In") == "In[B_X, T, D]");
  CHECK(find(plan::values, "W_kv") == "W_kv[L, D_X, K_Y, H]");
}

TEST_CASE("pipeline, sequence and context parallelism split L and T") {
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<128>,
                             mesh<axis<"dp", 8>, axis<"pp", 4>, axis<"cp", 4>, axis<"tp", 8>>,
                             zero<1, "dp">, pipeline<"pp">, context<"cp">,
                             tensor<"tp", sequence_parallel>,
                             batch<global_sequences<64>, seq_len<8192>, micro_batch<1>>>;
  CHECK(find(plan::values, "W_in") == "W_in[L_pp, D, F_tp]");
  CHECK(find(plan::values, "In") == "In[B_dp, T_{cp,tp}, D]");
  CHECK(find(plan::values, "Attn") == "Attn[B_dp, T_cp, N_tp, H]");
}

TEST_CASE("expert weights split E over the expert axis and D over the other fsdp axes") {
  using plan = training_plan<models::mixtral_8x7b, systems::dgx_h100_superpod<4>,
                             mesh<axis<"fsdp", 4>, axis<"ep", 8>>, fsdp<"fsdp", "ep">,
                             expert<"ep">,
                             batch<global_sequences<32>, seq_len<4096>, micro_batch<1>>>;
  CHECK(find(plan::values, "W_in") == "W_in[L, E_ep, D_fsdp, F]");
  CHECK(find(plan::values, "W_q") == "W_q[L, D_{fsdp,ep}, N, H]");
  CHECK(find(plan::values, "In") == "In[B_{fsdp,ep}, T, D]");
}

TEST_CASE("an axis that shards two dimensions of one tensor is found") {
  // The book's invalid A[I_X, J_X].
  tensor_sharding a{"A"};
  a.dims[0] = {"I", {0}, 1};
  a.dims[1] = {"J", {0}, 1};
  a.rank = 2;
  CHECK(axis_used_twice(a) == 0);
  a.dims[1] = {"J", {1}, 1};
  CHECK(axis_used_twice(a) == -1);
}
