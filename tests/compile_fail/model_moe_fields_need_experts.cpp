// EXPECT: shardplan: moe fields need experts > 0@@moe_fields_need_experts<[a-z_:]*{0}, [a-z_:]*{2}, [a-z_:]*{0}, [a-z_:]*{14336}, [a-z_:]*{0}, [a-z_:]*{false}>
// Rule: top-k, shared experts, expert_d_ff, dense layers and a router bias describe experts, so
// they need experts > 0 (with 0 experts the model is dense and they would be silently ignored).
// This Mixtral-like model forgets its experts; the twin has 8.
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
      .moe = {.experts = 0, .top_k = 2, .expert_d_ff = 14336},
#else
      .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 14336},
#endif
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
