// Launch configurations, all four exporters: one header per target below io/launch/.
#pragma once

// Launch configurations: a training plan exported as the settings real training systems take
// (Megatron-LM command-line arguments, a torchtitan TOML job config, a MaxText YAML config, a
// DeepSpeed config JSON), each naming the version of the format it targets and saying, in a
// comment line, what of the plan the format cannot express.
//
// One header per target below io/launch/, each with the upstream commit it targets; what they
// share is io/launch/common.hpp. Include this header for all four.

#include <shardplan/io/launch/deepspeed.hpp>
#include <shardplan/io/launch/maxtext.hpp>
#include <shardplan/io/launch/megatron.hpp>
#include <shardplan/io/launch/torchtitan.hpp>

#include <array>
#include <string>
#include <string_view>

namespace shardplan {

/// The targets `launch_config` writes, as `shardplan export --to` names them.
inline constexpr std::array<std::string_view, 4> launch_target_names = {"megatron", "torchtitan",
                                                                        "maxtext", "deepspeed"};

/// The plan as the launch config of `target` (one of `launch_target_names`; empty otherwise).
inline std::string launch_config(const training_plan_values& p, std::string_view target) {
  if (target == "megatron") return megatron_arguments(p);
  if (target == "torchtitan") return torchtitan_toml(p);
  if (target == "maxtext") return maxtext_config(p);
  if (target == "deepspeed") return deepspeed_json(p);
  return {};
}

}  // namespace shardplan
