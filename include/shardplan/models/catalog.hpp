// Every model preset shardplan ships, as one Boost.Hana tuple of types.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/hana/unpack.hpp>
#include <array>

#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/models/released.hpp>

namespace shardplan::models {

/// Every preset, as `hana::type`s: iterate with `hana::for_each(models::all, [](auto t) { using M =
/// typename decltype(t)::type; ... })`.
inline constexpr auto all =
    boost::hana::tuple_t<gpt3_175b, megatron_gpt_1_7b, megatron_gpt_3_6b, megatron_gpt_7_5b,
                         megatron_gpt_18b, megatron_gpt_39b, megatron_gpt_76b, megatron_gpt_145b,
                         megatron_gpt_310b, megatron_gpt_530b, megatron_gpt_1t, llama2_7b,
                         llama2_13b, llama2_70b, llama3_8b, llama3_70b, llama3_405b, mixtral_8x7b,
                         deepseek_v3, qwen3_0_6b, qwen3_1_7b, qwen3_8b, qwen3_32b, qwen3_30b_a3b,
                         qwen3_235b_a22b, qwen2_5_7b, llama3_1_8b, mistral_7b_v0_1, mixtral_8x22b,
                         gemma2_9b, gpt_oss_20b, gpt_oss_120b, phi3_mini_4k, olmo2_13b,
                         llama3_1_70b, llama3_1_405b, qwen3_coder_480b_a35b, kimi_k2>;

}  // namespace shardplan::models

namespace shardplan {

/// The shape of every model in `models::all`, in catalogue order.
inline constexpr auto catalog_models = boost::hana::unpack(models::all, [](auto... model) {
  return std::array<model_shape, sizeof...(model)>{decltype(model)::type::shape...};
});

}  // namespace shardplan
