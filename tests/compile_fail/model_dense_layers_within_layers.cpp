// EXPECT: shardplan: dense layers must not exceed layers@@dense_layers_within_layers<[a-z_:]*{5}, [a-z_:]*{4}>
// Rule: an MoE model's leading dense layers are a prefix of its layers, so there are no more of
// them than layers. 5 dense layers of 4 is impossible; the twin keeps 1 dense layer.
#include <shardplan/models/parameters.hpp>

struct my_model {
  static constexpr shardplan::model_shape shape = {
      .name = "mine",
      .layers = 4,
      .d_model = 4096,
      .d_ff = 14336,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 32000,
#ifdef SHARDPLAN_COMPILE_FAIL
      .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 2048, .dense_layers = 5},
#else
      .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 2048, .dense_layers = 1},
#endif
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
