// EXPECT: shardplan: layers, d_model, heads, kv heads, head_dim and vocab must be positive@@sizes_are_positive<[a-z_:]*{2}, [a-z_:]*{8192}, [a-z_:]*{64}, [a-z_:]*{8}, [a-z_:]*{128}, [a-z_:]*{0}>
// Rule: a model has layers, a width, heads, kv heads, a head width and a vocabulary; every size
// that has no "none" meaning must be positive. A vocabulary of 0 tokens is a typo; the twin has
// 32000.
#include <shardplan/models/parameters.hpp>

struct my_model {
  static constexpr shardplan::model_shape shape = {
      .name = "mine",
      .layers = 2,
      .d_model = 8192,
      .d_ff = 28672,
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 128,
#ifdef SHARDPLAN_COMPILE_FAIL
      .vocab = 0,
#else
      .vocab = 32000,
#endif
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
