// EXPECT: shardplan: kv heads must divide query heads
// A model with 64 query heads cannot share 7 KV heads among them; the twin has 8.
#include <shardplan/models/parameters.hpp>

struct my_model {
  static constexpr shardplan::model_shape shape = {
      .name = "mine",
      .layers = 2,
      .d_model = 8192,
      .d_ff = 28672,
      .heads = 64,
#ifdef SHARDPLAN_COMPILE_FAIL
      .kv_heads = 7,
#else
      .kv_heads = 8,
#endif
      .head_dim = 128,
      .vocab = 32000,
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
