// EXPECT: shardplan: top-k must be between 1 and the number of experts@@top_k_within_experts<[a-z_:]*{9}, [a-z_:]*{8}>
// Rule: a token is routed to at least one and at most all of the experts. Top-9 of 8 experts is
// impossible; the twin routes to 2 (Mixtral).
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
      .moe = {.experts = 8, .top_k = 9, .expert_d_ff = 14336},
#else
      .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 14336},
#endif
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
