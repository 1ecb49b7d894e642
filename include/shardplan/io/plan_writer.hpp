// Writes a training plan and its run as a plan file (JSON) in the format io/plan_file.hpp reads,
// and every ranked plan of a search as one file each. Each text is read back before it is
// returned: the plan read from it must be the plan written, field by field, so that `check`
// finds the same rules and `estimate_step` and `memory_per_device` the same numbers.
// Part of the optional shardplan::io target (it needs nlohmann-json 3.11 or later).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/hardware/system_presets.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/training/plan.hpp>
#include <shardplan/training/precision.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace shardplan::io {

/// A plan that cannot be written: no plan file describes it (one line naming the field), or its
/// file cannot be created.
struct unwritable_plan : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {

using ordered_json = nlohmann::ordered_json;

[[noreturn]] inline void unwritable(const std::string& field, const std::string& why) {
  throw unwritable_plan(field + ": " + why);
}

/// Collects the first field in which two values differ.
struct differ {
  std::string first;
  template <class T>
  void operator()(const std::string& field, const T& a, const T& b) {
    if (first.empty() && !(a == b)) first = field;
  }
};

inline void compare(differ& d, const std::string& p, const model_shape& a, const model_shape& b) {
  d(p + ".name", a.name, b.name);
  for_each_shape_field(
      [&](const char* key, auto get, const char*) { d(p + "." + key, get(a), get(b)); });
}

/// Each number of a table of chip numbers (io/plan_file.hpp) under `p`.
template <std::size_t N>
void compare(differ& d, const std::string& p, const chip_number (&table)[N], const chip_figures& a,
             const chip_figures& b) {
  for (const chip_number& n : table) d(p + "." + n.key, n.get(a), n.get(b));
}

inline void compare(differ& d, const std::string& p, const chip_figures& a, const chip_figures& b) {
  d(p + ".name", a.name, b.name);
  d(p + ".kind", a.kind, b.kind);
  d(p + ".scale_up", a.scale_up, b.scale_up);
  compare(d, p, chip_numbers, a, b);
  compare(d, p + ".arch", arch_numbers, a, b);
  compare(d, p + ".arch.matrix_flop_per_clock", flop_per_clock_numbers, a, b);
  compare(d, p + ".kernels", kernel_numbers, a, b);
}

inline void compare(differ& d, const std::string& p, const system_figures& a,
                    const system_figures& b) {
  d(p + ".name", a.name, b.name);
  d(p + ".chips", a.chips, b.chips);
  compare(d, p + ".chip", a.chip, b.chip);
  d(p + ".level_count", a.level_count, b.level_count);
  for (std::size_t i = 0; i < a.levels.size(); ++i) {
    const std::string q = p + ".levels[" + std::to_string(i) + "]";
    const network_level& x = a.levels[i];
    const network_level& y = b.levels[i];
    d(q + ".name", x.name, y.name);
    d(q + ".link", x.link, y.link);
    d(q + ".degree", x.degree, y.degree);
    d(q + ".unit_egress", x.unit_egress, y.unit_egress);
    d(q + ".hop_latency", x.hop_latency, y.hop_latency);
    d(q + ".in_network_reduction", x.in_network_reduction, y.in_network_reduction);
  }
  d(p + ".torus.extent", a.torus.extent, b.torus.extent);
  d(p + ".torus.wraps", a.torus.wraps, b.torus.wraps);
  d(p + ".torus.rank", a.torus.rank, b.torus.rank);
}

/// The axes of a mesh that carry something: an axis of size 1 multiplies no degree and crosses
/// no link (a search keeps one on a single chip, a plan file leaves it out).
inline std::vector<mesh_axis> sized_axes(const training_plan_values& p) {
  std::vector<mesh_axis> out;
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].size != 1) out.push_back(p.axes[i]);
  return out;
}

/// A precision by its numbers, and by its name unless `a` has none (an unnamed policy is the
/// preset with the same numbers; the default `precision_policy{}` is bf16 mixed-precision Adam's).
inline void compare(differ& d, const std::string& p, const precision_policy& a,
                    const precision_policy& b) {
  if (!a.name.empty()) d(p, a.name, b.name);
  d(p + ".parameter_bytes", a.parameter_bytes, b.parameter_bytes);
  d(p + ".gradient_bytes", a.gradient_bytes, b.gradient_bytes);
  d(p + ".master_bytes", a.master_bytes, b.master_bytes);
  d(p + ".optimizer_state_bytes", a.optimizer_state_bytes, b.optimizer_state_bytes);
  d(p + ".optimizer_states", a.optimizer_states, b.optimizer_states);
  d(p + ".activation_bytes", a.activation_bytes, b.activation_bytes);
  d(p + ".compute", a.compute, b.compute);
  d(p + ".scaling", a.scaling, b.scaling);
  d(p + ".low_precision_attention", a.low_precision_attention, b.low_precision_attention);
}

/// Two frameworks differ where their base or a behaviour does (a plan file keeps no name of its
/// own for a described framework).
inline void compare(differ& d, const std::string& p, const framework_profile& a,
                    const framework_profile& b) {
  framework_profile x = a;
  x.name = b.name;
  x.source = b.source;
  d(p, x, b);
}

inline void compare(differ& d, const training_plan_values& a, const training_plan_values& b) {
  compare(d, "model", a.model, b.model);
  compare(d, "system", a.system, b.system);
  const std::vector<mesh_axis> x = sized_axes(a);
  const std::vector<mesh_axis> y = sized_axes(b);
  d("mesh (axes of size above 1)", x.size(), y.size());
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    const std::string q = "mesh[" + std::to_string(i) + "]";
    d(q + ".name", x[i].name, y[i].name);
    d(q + ".size", x[i].size, y[i].size);
    d(q + ".roles", x[i].roles, y[i].roles);
    d(q + ".required_level", x[i].required_level, y[i].required_level);
  }
  d("unknown_axes", a.unknown_axes, b.unknown_axes);
  d("unknown_axis", a.unknown_axis, b.unknown_axis);
  const parallel_degrees& g = a.setup.degrees;
  const parallel_degrees& h = b.setup.degrees;
  const std::string dp = "training.parallelism.";
  d(dp + "data", g.data, h.data);
  d(dp + "zero_stage", g.zero_stage, h.zero_stage);
  d(dp + "zero (devices)", g.zero, h.zero);
  d(dp + "zero_expert (devices)", g.zero_expert, h.zero_expert);
  d(dp + "tensor", g.tensor, h.tensor);
  d(dp + "sequence_parallel", g.sequence_parallel, h.sequence_parallel);
  d(dp + "context", g.context, h.context);
  d(dp + "pipeline", g.pipeline, h.pipeline);
  d(dp + "schedule", g.schedule, h.schedule);
  d(dp + "virtual_stages", g.virtual_stages, h.virtual_stages);
  d(dp + "uneven_stages", g.uneven_stages, h.uneven_stages);
  d(dp + "first_stage_layers", g.first_stage_layers, h.first_stage_layers);
  d(dp + "last_stage_layers", g.last_stage_layers, h.last_stage_layers);
  d(dp + "expert", g.expert, h.expert);
  const training_setup& s = a.setup;
  const training_setup& t = b.setup;
  d("training.batch.global_tokens", s.batch.global_tokens, t.batch.global_tokens);
  d("training.batch.seq_len", s.batch.seq_len, t.batch.seq_len);
  d("training.batch.micro_batch", s.batch.micro_batch, t.batch.micro_batch);
  d("training.recompute", s.recompute.kind, t.recompute.kind);
  d("training.recompute.checkpoints", s.recompute.checkpoints_per_layer,
    t.recompute.checkpoints_per_layer);
  d("training.recompute.modules", s.recompute.modules, t.recompute.modules);
  d("training.recompute.saved", s.recompute.saved, t.recompute.saved);
  d("training.recompute.offloaded", s.recompute.offloaded, t.recompute.offloaded);
  d("training.offload", s.offload, t.offload);
  compare(d, "training.precision", s.precision, t.precision);
  d("training.reserve.gigabytes", s.reserve.fixed, t.reserve.fixed);
  d("training.reserve.percent", s.reserve.fraction, t.reserve.fraction);
  d("training.dropout", s.dropout, t.dropout);
  d("training.eager_attention", s.eager_attention, t.eager_attention);
  d("training.attention_kernel", s.attention, t.attention);
  compare(d, "training.framework", s.framework, t.framework);
  d("training.grad_reduce_in_bf16", s.grad_reduce_in_bf16, t.grad_reduce_in_bf16);
  d("training.compiled_loss", s.compiled_loss, t.compiled_loss);
  d("training.compiled_layers", s.compiled_layers, t.compiled_layers);
  d("training.chunked_loss", s.chunked_loss, t.chunked_loss);
  d("training.optimizer_in_backward", s.optimizer_in_backward, t.optimizer_in_backward);
  d("training.zero3_per_tensor", s.zero3_per_tensor, t.zero3_per_tensor);
  d("training.overlap_comm", s.overlap_comm, t.overlap_comm);
  d("training.tp_comm_overlap", s.tp_comm_overlap, t.tp_comm_overlap);
  d("training.sync_tp_backward", s.sync_tp_backward, t.sync_tp_backward);
  d("training.memory_policy", s.memory_policy, t.memory_policy);
  d("training.memory_margin_percent", s.memory_margin, t.memory_margin);
  const step_assumptions& e = a.assumptions;
  const step_assumptions& f = b.assumptions;
  d("training.attention", e.attention, f.attention);
  d("training.efficiency_percent", e.efficiency, f.efficiency);
  d("training.mfu_format", e.mfu_format, f.mfu_format);
  d("assumptions.overlap_data_parallel", e.overlap_data_parallel, f.overlap_data_parallel);
  d("assumptions.overlap_context", e.overlap_context, f.overlap_context);
  d("assumptions.in_network_reduction", e.in_network_reduction, f.in_network_reduction);
}

inline void compare(differ& d, const std::string& p, const component_rate& a,
                    const component_rate& b) {
  d(p + ".per_unit_hour", a.per_unit_hour, b.per_unit_hour);
  d(p + ".scale", a.scale, b.scale);
}

inline void compare(differ& d, const run_inputs& a, const run_inputs& b) {
  d("run.tokens", a.tokens, b.tokens);
  d("run.price_per_chip_hour", a.price_per_chip_hour, b.price_per_chip_hour);
  d("run.storage_gigabytes_per_second (write)", a.storage_write, b.storage_write);
  d("run.storage_gigabytes_per_second (read)", a.storage_read, b.storage_read);
  compare(d, "run.failures.gpu", a.failures.gpu, b.failures.gpu);
  compare(d, "run.failures.hbm", a.failures.hbm, b.failures.hbm);
  compare(d, "run.failures.host", a.failures.host, b.failures.host);
  compare(d, "run.failures.network", a.failures.network, b.failures.network);
  compare(d, "run.failures.software", a.failures.software, b.failures.software);
  compare(d, "run.failures.planned", a.failures.planned, b.failures.planned);
  d("run.restart_minutes", a.restart_overhead, b.restart_overhead);
  d("run.checkpoint.working_weights", a.checkpoint.working_weights, b.checkpoint.working_weights);
  d("run.checkpoint.optimizer_states", a.checkpoint.optimizer_states,
    b.checkpoint.optimizer_states);
  d("run.checkpoint.asynchronous", a.checkpoint.asynchronous, b.checkpoint.asynchronous);
  d("run.checkpoint_overhead", a.checkpoint_overhead, b.checkpoint_overhead);
  d("run.checkpoint_interval", a.checkpoint_interval, b.checkpoint_interval);
  d("run.chips_per_host", a.chips_per_host, b.chips_per_host);
}

/// The number a plan file must hold for the reader's `read(y)` to give back exactly `x`:
/// `guess`, or one of the doubles next to it (a decimal scaled by 100 or 1e9 can round).
template <class Read>
double exact_for_reader(const std::string& field, double x, double guess, Read read) {
  double up = guess;
  double down = guess;
  for (int i = 0; i < 8; ++i) {
    if (read(up) == x) return up;
    if (read(down) == x) return down;
    up = std::nextafter(up, HUGE_VAL);
    down = std::nextafter(down, -HUGE_VAL);
  }
  unwritable(field, "has no decimal that reads back exactly");
}

/// Percent of a fraction, as the reader divides it by 100.
inline double percent(const std::string& field, double fraction) {
  return exact_for_reader(field, fraction, fraction * 100.0, [](double y) { return y / 100.0; });
}

/// Gigabytes (1e9 bytes) of a byte count, as the reader multiplies them by `giga`.
inline double gigabytes(const std::string& field, double bytes_value) {
  return exact_for_reader(field, bytes_value, bytes_value / giga,
                          [](double y) { return y * giga; });
}

/// The name a table of the reader (io/plan_file.hpp) gives `value`; `field` is unwritable when
/// the table has none.
template <class T, std::size_t N>
std::string choice_name(const std::string& field, const named<T> (&table)[N], const T& value) {
  const std::string_view name = name_in(table, value);
  if (name.empty()) unwritable(field, "has a value a plan file has no name for");
  return std::string(name);
}

/// `training.framework` as a plan file gives it: the name of a shipped profile, else an object
/// of its base and the behaviours that differ from the base's.
inline ordered_json framework_json(const framework_profile& f) {
  const framework_profile& base = profile_of(f.base);
  const std::string name = choice_name("training.framework", framework_choices, f.base);
  ordered_json j;
  j["base"] = name;
  for_each_behaviour([&](const char* key, auto member, const char*) {
    using T = std::remove_cvref_t<decltype(f.*member)>;
    if (f.*member == base.*member) return;
    if constexpr (std::is_enum_v<T>)
      j[key] = choice_name(std::string("training.framework.") + key, choices_of(T{}), f.*member);
    else
      j[key] = f.*member;
  });
  if (j.size() == 1) return name;  // no behaviour differs: the shipped profile
  return j;
}

/// The Markdown table of every framework behaviour (`for_each_behaviour`) and its value in each
/// shipped profile: the reference docs/framework-profiles.md holds, checked by a unit test.
inline std::string framework_reference() {
  // Appended piece by piece: g++ 12's -Wrestrict misfires on `" " + std::string(...)` chains.
  std::string out = "| key | what |";
  std::string rule = "| --- | --- |";
  for (const named<training_framework>& f : framework_choices) {
    out.append(" ").append(f.name).append(" |");
    rule.append(" --- |");
  }
  out.append("\n").append(rule).append("\n");
  for_each_behaviour([&](const char* key, auto member, const char* what) {
    using T = std::remove_cvref_t<decltype(profiles::generic.*member)>;
    out.append("| `").append(key).append("` | ").append(what).append(" |");
    for (const named<training_framework>& f : framework_choices) {
      const T& v = profile_of(f.value).*member;
      out.append(" ");
      if constexpr (std::is_same_v<T, bool>)
        out.append(v ? "yes" : "no");
      else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::int64_t>)
        out.append(ordered_json(v).dump());
      else
        out.append(name_in(choices_of(T{}), v));
      out.append(" |");
    }
    out.append("\n");
  });
  return out;
}

/// The Markdown table of a plan file's model keys (`for_each_shape_field`) with their defaults:
/// the reference docs/models.md holds, checked by a unit test.
inline std::string model_key_reference() {
  std::string out = "| key | what | default |\n| --- | --- | --- |\n";
  const model_shape plain{};
  for_each_shape_field([&](const char* key, auto get, const char* what) {
    using T = std::remove_cvref_t<decltype(get(plain))>;
    std::string value;
    if constexpr (std::is_enum_v<T>)
      value = name_in(choices_of(T{}), get(plain));
    else
      value = ordered_json(get(plain)).dump();
    out.append("| `").append(key).append("` | ").append(what).append(" | ").append(value);
    out.append(" |\n");
  });
  return out;
}

inline bool same_model(const model_shape& a, const model_shape& b) {
  differ d;
  compare(d, "model", a, b);
  return d.first.empty();
}

/// A catalogue model by its name when the plan's model is that model, name included; else the
/// full shape under the plan's name.
inline ordered_json model_json(const model_shape& m) {
  for (const model_shape& c : catalog_models)
    if (same_model(c, m)) return std::string(c.name);
  ordered_json j;
  j["name"] = std::string(m.name);
  // A group ("moe", "mla", "local") is written when the shape has it; the fields added with
  // today's architectures only when they differ from a shape's default.
  const model_shape plain{};
  for_each_shape_field([&](const char* key, auto get, const char*) {
    const std::string_view k = key;
    const std::size_t dot = k.find('.');
    const std::string_view group = dot == std::string_view::npos ? "" : k.substr(0, dot);
    if ((group == "moe" && !is_moe(m)) || (group == "mla" && !has_mla(m)) ||
        (group == "local" && !has_local_attention(m)))
      return;
    const bool newer = k == "qk_norm" || k == "qkv_bias" || k == "layer_norms" ||
                       k == "attention_sinks" || k == "moe.every";
    if (newer && get(m) == get(plain)) return;
    ordered_json& out = group.empty() ? j : j[std::string(group)];
    const std::string member(dot == std::string_view::npos ? k : k.substr(dot + 1));
    using T = std::remove_cvref_t<decltype(get(m))>;
    if constexpr (std::is_enum_v<T>)
      out[member] = std::string(name_in(choices_of(T{}), get(m)));
    else
      out[member] = get(m);
  });
  return j;
}

/// The numbers of `table` that `c` sets (a zero is "not given", as the reader reads it), each in
/// its key's unit so that the reader gives back exactly the figure.
template <std::size_t N>
void write_numbers(ordered_json& j, const std::string& p, const chip_number (&table)[N],
                   const chip_figures& c) {
  for (const chip_number& n : table) {
    const double x = n.get(c);
    if (x == 0.0) continue;
    if (n.whole) {
      j[n.key] = static_cast<std::int64_t>(x);
      continue;
    }
    const double unit = n.unit;
    j[n.key] = exact_for_reader(p + "." + n.key, x, x / unit, [unit](double y) { return y * unit; });
  }
}

inline bool same_chip(const chip_figures& a, const chip_figures& b) {
  differ d;
  compare(d, "chip", a, b);
  return d.first.empty();
}

/// A catalogue chip by its name when the chip is that chip; else every figure it sets.
inline ordered_json chip_json(const chip_figures& c) {
  const std::string p = "system.chip";
  if (const chip_figures* known = find_chip(c.name); known != nullptr) {
    if (same_chip(*known, c)) return std::string(known->name);
    differ d;
    compare(d, p, *known, c);
    unwritable(d.first, "differs from the catalogue's " + std::string(known->name) +
                            " (a plan file names a variant of a catalogue chip its own)");
  }
  ordered_json j;
  j["name"] = std::string(c.name);
  j["kind"] = choice_name(p + ".kind", chip_kind_choices, c.kind);
  j["scale_up"] = choice_name(p + ".scale_up", scale_up_choices, c.scale_up);
  write_numbers(j, p, chip_numbers, c);
  ordered_json arch = ordered_json::object();
  write_numbers(arch, p + ".arch", arch_numbers, c);
  ordered_json per_clock = ordered_json::object();
  write_numbers(per_clock, p + ".arch.matrix_flop_per_clock", flop_per_clock_numbers, c);
  if (!per_clock.empty()) arch["matrix_flop_per_clock"] = per_clock;
  if (!arch.empty()) j["arch"] = arch;
  ordered_json kernels = ordered_json::object();
  write_numbers(kernels, p + ".kernels", kernel_numbers, c);
  if (!kernels.empty()) j["kernels"] = kernels;
  return j;
}

/// The system as its topology: chip, levels (with every figure), the torus, the chips.
inline ordered_json topology_json(const system_figures& s) {
  ordered_json j;
  j["name"] = std::string(s.name);
  j["chip"] = chip_json(s.chip);
  ordered_json levels = ordered_json::array();
  for (std::int64_t i = 0; i < s.level_count && i < max_network_levels; ++i) {
    const network_level& l = s.levels[static_cast<std::size_t>(i)];
    const std::string q = "system.levels[" + std::to_string(i) + "]";
    ordered_json level;
    level["name"] = std::string(l.name);
    level["link"] = choice_name(q + ".link", link_choices, l.link);
    level["degree"] = l.degree;
    const double egress = l.unit_egress.value();
    level["unit_egress_gb_per_s"] = exact_for_reader(q + ".unit_egress_gb_per_s", egress,
                                                     egress / giga, [](double y) {
                                                       return (y * gb * byte / second).value();
                                                     });
    const double latency = l.hop_latency.value();
    level["hop_latency_us"] = exact_for_reader(q + ".hop_latency_us", latency, latency / micro,
                                               [](double y) {
                                                 return (y * micro * second).value();
                                               });
    level["in_network_reduction"] = l.in_network_reduction;
    levels.push_back(level);
  }
  j["levels"] = levels;
  if (s.chips != level_capacity(s)) j["chips"] = s.chips;
  if (s.torus.rank > 0) {
    ordered_json shape = ordered_json::array();
    ordered_json wraps = ordered_json::array();
    for (std::int64_t i = 0; i < s.torus.rank; ++i) {
      shape.push_back(s.torus.extent[static_cast<std::size_t>(i)]);
      wraps.push_back(static_cast<bool>(s.torus.wraps[static_cast<std::size_t>(i)]));
    }
    j["torus"] = {{"shape", shape}, {"wraps", wraps}};
  }
  return j;
}

/// The preset the system is (by its name, as `make_system` names what it builds) with its size
/// (nodes, and for nvlink_fat_tree GPUs per node and the chip; racks; a TPU slice's shape and
/// slices), or null when no preset builds exactly these figures.
inline ordered_json preset_json(const system_figures& s) {
  std::string_view preset;
  for (std::string_view n : system_preset_names)
    if (same_name(n, s.name)) preset = n;
  if (preset.empty() || s.level_count < 1) return nullptr;
  const std::int64_t first_level = s.levels[0].degree;
  ordered_json j;
  j["preset"] = std::string(preset);
  if (preset == "gb200_nvl72") {
    j["racks"] = s.chips / first_level;
  } else if (preset.substr(0, 3) == "tpu") {
    const torus_shape& t = s.torus;
    j["shape"] = t.rank == 2 ? ordered_json::array({t.extent[0], t.extent[1]})
                             : ordered_json::array({t.extent[0], t.extent[1], t.extent[2]});
    if (s.chips != first_level) j["slices"] = s.chips / first_level;
  } else {
    j["nodes"] = s.chips / first_level;
    if (preset == "nvlink_fat_tree") {
      j["gpus_per_node"] = first_level;
      j["chip"] = chip_json(s.chip);
    }
  }
  system_names names;
  system_figures back{};
  try {
    back = named_system(read_system(json::parse(j.dump()), names), names);
  } catch (const bad_input&) {
    return nullptr;
  }
  differ d;
  compare(d, "system", s, back);
  return d.first.empty() ? j : nullptr;
}

/// The system as a preset with its size where one builds it exactly, else as its topology.
inline ordered_json system_json(const system_figures& s) {
  ordered_json preset = preset_json(s);
  return preset.is_null() ? topology_json(s) : preset;
}

/// The names of a set (of recompute modules or of named tensors), in the order of `names`.
template <class Names>
ordered_json name_list_of(recompute_module_set set, const Names& names) {
  ordered_json list = ordered_json::array();
  for (unsigned i = 0; i < std::size(names); ++i)
    if ((set & (1U << i)) != 0) list.push_back(names[i]);
  return list;
}
inline ordered_json recompute_module_list(recompute_module_set set) {
  return name_list_of(set, recompute_module_names);
}

/// `training.offload` as `read_offload` (plan_file.hpp) reads it.
inline ordered_json offload_json(const offload_policy& o) {
  return {{"optimizer", o.optimizer},
          {"gradients_on_host", o.gradients_on_host},
          {"parameters_on_host", o.parameters_on_host},
          {"host_gradient_bytes", o.host_gradient_bytes},
          {"host_staging_bytes", o.host_staging_bytes}};
}

/// A named recompute policy: MaxText's policy by its name where one matches, else its tensors.
inline ordered_json named_recompute_json(const recompute_policy& r) {
  if (const std::string_view name = maxtext_remat_name(r); !name.empty())
    return {{"remat_policy", name}};
  return {{"saved", name_list_of(r.saved, layer_tensor_names)},
          {"offloaded", name_list_of(r.offloaded, layer_tensor_names)}};
}

inline ordered_json training_json(const training_plan_values& p) {
  const parallel_degrees& d = p.setup.degrees;
  const training_setup& t = p.setup;
  ordered_json j;
  j["parallelism"] = {{"data", d.data},
                      {"tensor", d.tensor},
                      {"pipeline", d.pipeline},
                      {"context", d.context},
                      {"expert", d.expert},
                      {"zero_stage", d.zero_stage},
                      {"sequence_parallel", d.sequence_parallel},
                      {"schedule", choice_name("training.parallelism.schedule",
                                               schedule_choices, d.schedule)},
                      {"virtual_stages", d.virtual_stages},
                      {"uneven_stages", d.uneven_stages}};
  if (d.first_stage_layers > 0) j["parallelism"]["first_stage_layers"] = d.first_stage_layers;
  if (d.last_stage_layers > 0) j["parallelism"]["last_stage_layers"] = d.last_stage_layers;
  j["batch"] = {{"global_tokens", t.batch.global_tokens},
                {"seq_len", t.batch.seq_len},
                {"micro_batch", t.batch.micro_batch}};
  switch (t.recompute.kind) {
    case recompute_kind::none:
      j["recompute"] = "none";
      break;
    case recompute_kind::selective:
      if (t.recompute.modules == 0) {
        j["recompute"] = "selective";
        break;
      }
      j["recompute"] = {{"modules", recompute_module_list(t.recompute.modules)}};
      break;
    case recompute_kind::full:
      j["recompute"] = "full";
      break;
    case recompute_kind::mlp:
      j["recompute"] = "mlp";
      break;
    case recompute_kind::checkpoints:
      j["recompute"] = {{"checkpoints", t.recompute.checkpoints_per_layer}};
      break;
    case recompute_kind::named:
      j["recompute"] = named_recompute_json(t.recompute);
      break;
  }
  if (t.offload.any()) j["offload"] = offload_json(t.offload);
  std::string_view precision_name;
  for (const auto& [name, policy] : precision_choices) {
    differ same;
    compare(same, "training.precision", t.precision, policy);
    if (same.first.empty()) precision_name = name;
  }
  if (precision_name.empty())
    unwritable("training.precision",
               "'" + std::string(t.precision.name) + "' is not a preset a plan file can name");
  j["precision"] = std::string(precision_name);
  j["reserve"] = {{"gigabytes", gigabytes("training.reserve.gigabytes", t.reserve.fixed.value())},
                  {"percent", percent("training.reserve.percent", t.reserve.fraction)}};
  j["attention"] =
      choice_name("training.attention", attention_flops_choices, p.assumptions.attention);
  if (p.assumptions.efficiency > 0.0)
    j["efficiency_percent"] = percent("training.efficiency_percent", p.assumptions.efficiency);
  // The defaults (bf16, the chip's usual kernel) are left out, as a hand-written file would.
  if (p.assumptions.mfu_format != number_format::bf16)
    j["mfu_format"] =
        choice_name("training.mfu_format", mfu_format_choices, p.assumptions.mfu_format);
  j["eager_attention"] = t.eager_attention;
  if (t.attention != attention_kernel::automatic)
    j["attention_kernel"] =
        choice_name("training.attention_kernel", attention_kernel_choices, t.attention);
  j["dropout"] = t.dropout;
  // The default framework (generic) is left out, as a hand-written file would.
  if (t.framework != profiles::generic) j["framework"] = framework_json(t.framework);
  // A framework's own flags: a plan file gives each only with the frameworks that have it.
  for (const framework_flag& f : framework_flags) {
    if (!(t.*f.member)) continue;
    if (!f.read_by(t.framework))
      unwritable(std::string("training.") + f.key,
                 "a plan file gives it only with " + owners_text(f));
    j[f.key] = true;
  }
  if (t.zero3_per_tensor && t.degrees.zero_stage != 3)
    unwritable("training.zero3_per_tensor", "a plan file gives it only with \"zero_stage\": 3");
  if (t.overlap_comm && !deepspeed_reads_overlap_comm(t.degrees.zero_stage))
    unwritable("training.overlap_comm", "a plan file gives it only with \"zero_stage\": 1 or 2");
  // Always written: the reader takes a given "reserve" for the `reserve` policy unless told.
  j["memory_policy"] = choice_name("training.memory_policy", memory_policy_choices, t.memory_policy);
  if (t.memory_margin != memory_error_band)
    j["memory_margin_percent"] = percent("training.memory_margin_percent", t.memory_margin);
  return j;
}

/// The run section, or null when the run is the default one (the reader's without a section).
inline ordered_json run_json(const run_inputs& run) {
  differ d;
  compare(d, run, run_inputs{});
  if (d.first.empty()) return nullptr;
  ordered_json j;
  j["tokens"] = run.tokens;
  j["price_per_chip_hour"] = run.price_per_chip_hour;
  if (!(run.storage_write == run_inputs{}.storage_write &&
        run.storage_read == run_inputs{}.storage_read)) {
    if (!(run.storage_write == run.storage_read))
      unwritable("run.storage_gigabytes_per_second",
                 "a plan file gives one storage rate for writes and reads");
    j["storage_gigabytes_per_second"] =
        gigabytes("run.storage_gigabytes_per_second", run.storage_write.value());
  }
  const double restart = run.restart_overhead.value();
  j["restart_minutes"] = exact_for_reader("run.restart_minutes", restart, restart / 60.0,
                                          [](double y) { return y * 60.0; });
  return j;
}

}  // namespace detail

/// The first field in which two training plans differ ("training.parallelism.tensor",
/// "system.levels[1].degree"), or empty when they are the same plan. Mesh axes of size 1 are
/// left out of the comparison: they change no number.
inline std::string plan_difference(const training_plan_values& a, const training_plan_values& b) {
  detail::differ d;
  detail::compare(d, a, b);
  return d.first;
}

/// The first field in which two runs differ ("run.tokens"), or empty.
inline std::string run_difference(const run_inputs& a, const run_inputs& b) {
  detail::differ d;
  detail::compare(d, a, b);
  return d.first;
}

/// A training plan and its run as the JSON text of a plan file (indented by 2, a newline at the
/// end): the model by its catalogue name when it is a catalogue model, else its full shape; the
/// system by its preset and size where a preset builds it exactly, else as its levels (a chip of
/// its own as a chip object); every degree and option of the parallelism (sequence
/// parallelism, schedule, virtual and uneven stages included); the batch, recomputation,
/// precision preset, reserve, attention counting, efficiency, the format MFU is reported
/// against and the attention kernel when they are not the defaults, and the run when it is not
/// the default. The text is read back with `read_plan_file`, and the plan and run read must be the
/// ones given (`plan_difference`, `run_difference`). Throws `unwritable_plan`, naming the field,
/// for a plan no plan file describes (a precision that is no preset, a variant of a catalogue
/// chip under the catalogue's name, a mesh not laid out as [pp, dp, ep, cp, tp], a step
/// assumption or run input the format has no key for).
inline std::string plan_file_text(const training_plan_values& p, const run_inputs& run = {}) {
  detail::ordered_json j;
  j["model"] = detail::model_json(p.model);
  j["system"] = detail::system_json(p.system);
  j["training"] = detail::training_json(p);
  const detail::ordered_json r = detail::run_json(run);
  if (!r.is_null()) j["run"] = r;
  const std::string text = j.dump(2) + "\n";
  plan_file back;
  try {
    back = read_plan_file(text);
  } catch (const bad_input& e) {
    throw unwritable_plan(std::string("the plan file does not read back: ") + e.what());
  }
  const std::string differs = plan_difference(p, back.values());
  if (!differs.empty())
    detail::unwritable(differs,
                       "a plan file cannot hold this plan's value (it reads back different)");
  const std::string run_differs = run_difference(run, back.run);
  if (!run_differs.empty())
    detail::unwritable(run_differs,
                       "a plan file cannot hold this run's value (it reads back different)");
  return text;
}

/// Text made safe as part of a file name: lower-case letters and digits, every other run of
/// characters one '-', no '-' at either end, at most `limit` characters ("pp 16 x tp 8,
/// ZeRO-1" gives "pp-16-x-tp-8-zero-1").
inline std::string file_name_text(std::string_view s, std::size_t limit = 160) {
  std::string out;
  bool gap = false;
  for (char c : s) {
    const bool digit = c >= '0' && c <= '9';
    const bool lower = c >= 'a' && c <= 'z';
    const bool upper = c >= 'A' && c <= 'Z';
    if (!(digit || lower || upper)) {
      gap = !out.empty();
      continue;
    }
    if (out.size() + (gap ? 2 : 1) > limit) break;
    if (gap) out += '-';
    gap = false;
    out += upper ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

/// Writes every plan of a search's ranking (`r.ranking`, the best first) as a plan file in `dir`
/// (created when missing): "rank-01-<its description>.json" and so on, each `plan_file_text` of
/// the plan the search costed (`plan_values(r, choice)`) with `run`. Returns the paths written,
/// best first; nothing when the search found no plan. Throws `unwritable_plan` when a plan
/// cannot be written as a plan file or a file cannot be created ("cannot write PATH: why").
inline std::vector<std::string> write_ranked_plans(const search_result& r, const run_inputs& run,
                                                   const std::string& dir) {
  std::vector<std::string> written;
  if (!r.found) return written;
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw unwritable_plan("cannot write " + dir + ": " +
                          (ec ? ec.message() : std::string("not a directory")));
  const bool moe = is_moe(r.best.model);
  for (std::size_t i = 0; i < r.ranking.count; ++i) {
    const plan_choice& c = r.ranking.plans[i].choice;
    const std::string text = plan_file_text(plan_values(r, c), run);
    const std::string rank = std::string(i + 1 < 10 ? 1 : 0, '0') + std::to_string(i + 1);
    const std::string name = "rank-" + rank + "-" + file_name_text(describe(c, moe)) + ".json";
    const std::string path = (fs::path(dir) / name).string();
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw unwritable_plan("cannot write " + path);
    written.push_back(path);
  }
  return written;
}

}  // namespace shardplan::io
