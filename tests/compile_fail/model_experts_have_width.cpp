// EXPECT: shardplan: experts need a positive expert_d_ff@@experts_have_width<[a-z_:]*{8}, [a-z_:]*{0}>
// Rule: an expert is an MLP of hidden width expert_d_ff, so an MoE model needs it. This model of
// 8 experts leaves it at 0; the twin has Mixtral's 14336.
#include <shardplan/models/parameters.hpp>

struct my_model {
  static constexpr shardplan::model_shape shape = {
      .name = "mine",
      .layers = 2,
      .d_model = 4096,
      .d_ff = 14336,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 32000,
#ifdef SHARDPLAN_COMPILE_FAIL
      .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 0},
#else
      .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 14336},
#endif
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
