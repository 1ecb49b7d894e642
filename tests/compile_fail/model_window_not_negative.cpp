// EXPECT: shardplan: optional sizes must not be negative@@optional_sizes_are_not_negative<[a-z_:]*{0}, [a-z_:]*{14336}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{0}, [a-z_:]*{1}, [a-z_:]*{-4096}, [a-z_:]*{0}, [a-z_:]*{2}>
// Rule: a sliding window is a number of tokens, never negative. -4096 is a sign typo for a
// Mistral-style window; the twin has 4096.
#include <shardplan/models/parameters.hpp>

struct my_model {
  static constexpr shardplan::model_shape shape = {
      .name = "mine",
      .layers = 32,
      .d_model = 4096,
      .d_ff = 14336,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 32000,
#ifdef SHARDPLAN_COMPILE_FAIL
      .local = {.window = -4096},
#else
      .local = {.window = 4096},
#endif
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
