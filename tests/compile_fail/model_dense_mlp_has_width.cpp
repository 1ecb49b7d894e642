// EXPECT: shardplan: a dense mlp needs a positive d_ff@@dense_mlp_has_width<[a-z_:]*{2}, [a-z_:]*{0}>
// Rule: a layer with a dense MLP (every layer of a dense model, the leading dense layers of an
// MoE) needs its hidden width d_ff. This dense model of 2 layers leaves d_ff at 0; the twin sets
// 28672.
#include <shardplan/models/parameters.hpp>

struct my_model {
  static constexpr shardplan::model_shape shape = {
      .name = "mine",
      .layers = 2,
      .d_model = 8192,
#ifdef SHARDPLAN_COMPILE_FAIL
      .d_ff = 0,
#else
      .d_ff = 28672,
#endif
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 32000,
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
