// EXPECT: shardplan: mla needs kv_lora_rank and all head widths positive, or all zero@@mla_is_complete<[a-z_:]*{512}, [a-z_:]*{1536}, [a-z_:]*{128}, [a-z_:]*{64}, [a-z_:]*{0}>
// Rule: multi-head latent attention (DeepSeek-V2/V3) is all of kv_lora_rank, qk_nope_head_dim,
// qk_rope_head_dim and v_head_dim, or none of them (q_lora_rank may be 0). This MLA leaves
// v_head_dim at 0; the twin has DeepSeek-V3's 128.
#include <shardplan/models/parameters.hpp>

struct my_model {
  static constexpr shardplan::model_shape shape = {
      .name = "mine",
      .layers = 2,
      .d_model = 7168,
      .d_ff = 18432,
      .heads = 128,
      .kv_heads = 128,
      .head_dim = 128,
      .vocab = 129280,
      .mla = {.q_lora_rank = 1536,
              .kv_lora_rank = 512,
              .qk_nope_head_dim = 128,
              .qk_rope_head_dim = 64,
#ifdef SHARDPLAN_COMPILE_FAIL
              .v_head_dim = 0},
#else
              .v_head_dim = 128},
#endif
  };
};

constexpr auto counts = shardplan::model_parameters<my_model>();
static_assert(counts.total > 0);
