// EXPECT: shardplan: tensor parallelism must divide the kv heads or be a multiple of them@@tensor_parallel_fits_kv_heads<[a-z_:]*{8}, [a-z_:]*{12}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: each tensor-parallel rank holds whole kv heads, or a group of ranks shares one. A GQA
// model of 48 query heads and 12 kv heads on 8 ranks: 8 divides the 48 heads and the MLP, but
// neither divides nor is a multiple of the 12 kv heads. The twin uses 4 ranks.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

struct gqa_48_12 {
  static constexpr model_shape shape = {.name = "gqa 48/12", .layers = 48, .d_model = 6144,
                                        .d_ff = 16384, .heads = 48, .kv_heads = 12,
                                        .head_dim = 128, .vocab = 32000};
};

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tp = 8;
#else
constexpr std::int64_t tp = 4;
#endif

using plan = serving_plan<gqa_48_12, systems::dgx_h100_superpod<1>, mesh<axis<"tp", tp>>,
                          tensor<"tp">, serve_batch<8>, prompt_tokens<4000>,
                          generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
