// Static tests of the model presets and models/parameters.hpp: compiling is passing.
#include <shardplan/models/catalog.hpp>
#include <shardplan/models/parameters.hpp>

namespace {
using namespace shardplan;

// Presets are model types; other types are not.
static_assert(ModelSpec<models::llama3_70b>);
static_assert(ModelSpec<models::deepseek_v3>);
static_assert(ModelSpec<models::megatron_gpt<128, 25600, 160>>);
static_assert(!ModelSpec<int>);
static_assert(!ModelSpec<model_shape>);

// Released checkpoints, counted exactly (Hugging Face API `safetensors.total` of
// meta-llama/Llama-3.1-8B, -70B, -405B and mistralai/Mixtral-8x7B-v0.1).
static_assert(model_parameters<models::llama3_8b>().total == 8'030'261'248);
static_assert(model_parameters<models::llama3_70b>().total == 70'553'706'496);
static_assert(model_parameters<models::llama3_405b>().total == 405'853'388'800);
static_assert(model_parameters<models::mixtral_8x7b>().total == 46'702'792'704);

// LLaMA-2, transformers' `num_parameters()` of meta-llama/Llama-2-{7b,13b,70b}-hf.
static_assert(parameters(models::llama2_7b::shape).total == 6'738'415'616);
static_assert(parameters(models::llama2_13b::shape).total == 13'015'864'320);
static_assert(parameters(models::llama2_70b::shape).total == 68'976'648'192);

// Narayanan et al. 2021, Table 1, 1T row: P = 12·l·h²·(1 + 13/(12h) + (V+s)/(12·l·h)) with l = 128,
// h = 25600, V = 51200, s = 2048 is 1,008,038,707,200 ("1008.0" B); we add the final LayerNorm
// (2h).
static_assert(model_parameters<models::megatron_gpt_1t>().total ==
              12 * 128 * 25600LL * 25600 + 13 * 128 * 25600LL + (51200 + 2048) * 25600LL +
                  2 * 25600);

// A dense model's tokens use every parameter.
static_assert(parameters(models::llama3_8b::shape).active ==
              parameters(models::llama3_8b::shape).total);

// Every preset obeys the shape rules.
static_assert(is_valid(models::gpt3_175b::shape));
static_assert(is_valid(models::megatron_gpt_530b::shape));
static_assert(is_valid(models::llama2_70b::shape));
static_assert(is_valid(models::mixtral_8x7b::shape));
static_assert(is_valid(models::deepseek_v3::shape));

// Broken shapes are named by their first broken rule.
constexpr model_shape seven_kv_heads = {.name = "bad",
                                        .layers = 2,
                                        .d_model = 8192,
                                        .d_ff = 28672,
                                        .heads = 64,
                                        .kv_heads = 7,
                                        .head_dim = 128,
                                        .vocab = 32000};
static_assert(first_broken_rule(seven_kv_heads) == shape_rule::kv_heads_divide_heads);
static_assert(!model_checks::kv_heads_divide_heads<model_checks::heads{64},
                                                   model_checks::kv_heads{7}>::value);
static_assert(
    model_checks::kv_heads_divide_heads<model_checks::heads{64}, model_checks::kv_heads{8}>::value);
}  // namespace
