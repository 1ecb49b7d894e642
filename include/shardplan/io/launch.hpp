// Launch configurations of the four targets (five exports), one header each in io/launch/.
#pragma once

// Launch configurations: a training plan exported as the settings real training systems take
// (Megatron-LM command-line arguments, torchtitan command-line arguments at HEAD or a torchtitan
// v0.2.2 TOML job config, a MaxText YAML config, a DeepSpeed config JSON), each naming the
// version of the format it targets and saying, in a comment line (DeepSpeed: a "_comment"
// string), what of the plan the format cannot express. Each is checked against its target's
// parser by tests/export/parse_exports.cpp.
//
// One header per target below io/launch/, each with the upstream commit it targets; what they
// share is io/launch/common.hpp. Include this header for all of them.

#include <shardplan/io/launch/deepspeed.hpp>
#include <shardplan/io/launch/maxtext.hpp>
#include <shardplan/io/launch/megatron.hpp>
#include <shardplan/io/launch/torchtitan.hpp>

#include <array>
#include <string>
#include <string_view>

namespace shardplan {

/// The targets `launch_config` writes, as `shardplan export --to` names them, each pinned to a
/// commit (io/launch/common.hpp):
/// - "megatron": pretrain_gpt.py arguments, a bash array (Megatron-LM 000c4ac, core_r0.14).
/// - "torchtitan": torchtitan at HEAD (b5bcd76, 2026), which reads no config file: command-line
///   arguments over a config function (--module, --config), a bash array.
/// - "torchtitan-toml": a TOML job config for torchtitan v0.2.2 and earlier releases
///   (--job.config_file; the fp8 converter names of v0.2.0 on).
/// - "maxtext": a YAML config over base.yml (MaxText e591f30).
/// - "deepspeed": a DeepSpeed config, pure JSON (DeepSpeed edaa722).
inline constexpr std::array<std::string_view, 5> launch_target_names = {
    "megatron", "torchtitan", "torchtitan-toml", "maxtext", "deepspeed"};

/// The plan as the launch config of `target` (one of `launch_target_names`; empty otherwise).
inline std::string launch_config(const training_plan_values& p, std::string_view target) {
  if (target == "megatron") return megatron_arguments(p);
  if (target == "torchtitan") return torchtitan_arguments(p);
  if (target == "torchtitan-toml") return torchtitan_toml(p);
  if (target == "maxtext") return maxtext_config(p);
  if (target == "deepspeed") return deepspeed_json(p);
  return {};
}

}  // namespace shardplan
