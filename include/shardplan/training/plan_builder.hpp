// Builds a training plan's values from parallel degrees instead of a named mesh: the mesh is laid
// out in Megatron-LM's order (pipeline outermost, then data, expert, context, tensor innermost).
// The command-line tool and the search use it; plan types use `training_plan<...>`.
#pragma once

#include <cstdint>

#include <shardplan/training/plan.hpp>

namespace shardplan {

/// Degrees of each parallelism and the options that go with them.
struct parallel_config {
  std::int64_t data = 1;  ///< data-parallel replicas, expert axis included
  std::int64_t tensor = 1;
  std::int64_t pipeline = 1;
  std::int64_t context = 1;
  std::int64_t expert = 1;  ///< expert parallelism, carved out of the data axis
  std::int64_t zero_stage = 0;
  bool sequence_parallel = false;
  pipeline_schedule schedule = pipeline_schedule::one_f_one_b;
  std::int64_t virtual_stages = 1;
  bool uneven_stages = false;
  std::int64_t first_stage_layers = 0;  ///< 0: the first stage's share of the split
  std::int64_t last_stage_layers = 0;   ///< 0: the last stage's share of the split
};

/// The plan's values with the mesh [pp, dp, ep, cp, tp] (outermost first; axes of size 1
/// left out): tensor parallelism on the fastest links, as Megatron-LM's default rank order
/// "tp-cp-ep-dp-pp" places it. ZeRO shards over the data and expert axes. An expert degree that
/// does not divide the data degree has no axis to sit on: the data axis is kept whole and the
/// expert degree recorded in the degrees, so that `check` reports `expert_divides_data` with
/// both numbers.
constexpr training_plan_values make_training_plan(const model_shape& model,
                                                  const system_figures& system,
                                                  const parallel_config& c,
                                                  const training_setup& setup) {
  training_plan_values p;
  p.model = model;
  p.system = system;
  p.setup = setup;
  p.setup.degrees.zero_stage = c.zero_stage;
  p.setup.degrees.sequence_parallel = c.sequence_parallel;
  p.setup.degrees.schedule = c.schedule;
  p.setup.degrees.virtual_stages = c.virtual_stages;
  p.setup.degrees.uneven_stages = c.uneven_stages;
  p.setup.degrees.first_stage_layers = c.first_stage_layers;
  p.setup.degrees.last_stage_layers = c.last_stage_layers;
  const auto data_roles =
      static_cast<std::uint8_t>(role_data | (c.zero_stage > 0 ? role_zero : 0));
  auto add = [&p](std::string_view name, std::int64_t size, std::uint8_t roles) {
    if (size > 1 && p.axis_count < max_mesh_axes) p.axes[p.axis_count++] = {name, size, roles, {}};
  };
  add("pp", c.pipeline, role_pipeline);
  const bool expert_divides = c.expert > 0 && c.data % c.expert == 0;
  if (expert_divides) {
    add("dp", c.data / c.expert, data_roles);
    add("ep", c.expert, static_cast<std::uint8_t>(data_roles | role_expert));
  } else {
    add("dp", c.data, data_roles);
  }
  add("cp", c.context, role_context);
  add("tp", c.tensor, role_tensor);
  p = with_degrees(p);
  if (!expert_divides && c.expert > 1) p.setup.degrees.expert = c.expert;
  return p;
}

}  // namespace shardplan
