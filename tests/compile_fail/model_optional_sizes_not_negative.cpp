// EXPECT: shardplan: optional sizes must not be negative@@optional_sizes_are_not_negative<[a-z_:]*{-1}, [a-z_:]*{28672}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{1}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{2}>
// Rule: sizes where 0 means "none" (learned positions, d_ff, the moe fields, the local-attention
// window and its period, the norms a layer has) are never negative.
// -1 learned positions is a typo for "none"; the twin has 0 (RoPE, no position table).
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
      .vocab = 32000,
#ifdef SHARDPLAN_COMPILE_FAIL
      .position_embeddings = -1,
#else
      .position_embeddings = 0,
#endif
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
