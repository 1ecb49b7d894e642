// A plan's values as a C++ header: `struct NAME { static constexpr training_plan_values values =
// ...; static constexpr plan_violations violations = check(values); };`, so that a translation
// unit can `SHARDPLAN_REQUIRE_FEASIBLE(NAME)` a plan that came from a plan file and fail its
// build naming the broken rule and its numbers, as a plan written in C++ does; a serving plan's
// for `SHARDPLAN_REQUIRE_SERVABLE(NAME)`. The CMake
// function `shardplan_check_plan` (the installed package) writes it with `shardplan header`.
//
// Every member of the values is written (doubles as hexadecimal floating literals, so they are
// exact); a test reads the header back through the compiler and compares it with the plan file's
// values member by member (`plan_difference`) and by its estimates.
#pragma once

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <string_view>

#include <shardplan/io/plan_file.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/training/plan.hpp>

namespace shardplan::io {

namespace detail {

/// Writes `.member = value,` lines of a C++ designated initializer.
class cpp_writer {
 public:
  std::string text;

  /// A C++ string literal of `s`: printable ASCII as it is, the rest as octal escapes.
  static std::string literal(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (u < 0x20 || u >= 0x7f || c == '?') {  // '?': no trigraphs
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\%03o", static_cast<unsigned>(u));
        out += buffer;
      } else {
        out += c;
      }
    }
    return out + "\"";
  }
  /// A double, exactly (a hexadecimal floating literal).
  static std::string exact(double x) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%a", x);
    return buffer;
  }
  static std::string of(double x) { return exact(x); }
  static std::string of(bool x) { return x ? "true" : "false"; }
  static std::string of(std::int64_t x) {
    // The smallest int64 has no literal of its own.
    if (x == std::numeric_limits<std::int64_t>::min()) return "(-9223372036854775807 - 1)";
    return std::to_string(x);
  }
  static std::string of(std::uint8_t x) { return std::to_string(static_cast<unsigned>(x)); }
  static std::string of(std::uint16_t x) { return std::to_string(static_cast<unsigned>(x)) + "u"; }
  static std::string of(std::size_t x) { return std::to_string(x) + "u"; }
  static std::string of(std::string_view x) { return literal(x); }
  void open(const std::string& member) { text += "." + member + " = {\n"; }
  void close() { text += "},\n"; }
  template <class T>
  void field(const std::string& member, const T& value) {
    text += "." + member + " = " + of(value) + ",\n";
  }
  /// An enum member: its type named, so the header needs no `using`.
  template <class E>
  void enumerator(const std::string& member, const std::string& type, E value) {
    text += "." + member + " = static_cast<::shardplan::" + type + ">(" +
            std::to_string(static_cast<unsigned long long>(value)) + "),\n";
  }
  /// A Boost.Units quantity member, exactly, by its value in the library's base units.
  template <class Q>
  void quantity(const std::string& member, const std::string& type, const Q& value) {
    text += "." + member + " = ::shardplan::" + type + "::from_value(" + exact(value.value()) +
            "),\n";
  }
};

constexpr const char* cpp_type(norm_kind) { return "norm_kind"; }
constexpr const char* cpp_type(qk_norm_kind) { return "qk_norm_kind"; }
constexpr const char* cpp_type(local_attention_kind) { return "local_attention_kind"; }

/// Every field of the shape (`for_each_shape_field`, in declaration order), its groups as nested
/// designated initializers.
inline void write(cpp_writer& w, const model_shape& m) {
  w.field("name", m.name);
  std::string group;
  for_each_shape_field([&](const char* key, auto get, const char*) {
    const std::string k = key;
    const std::size_t dot = k.find('.');
    const std::string g = dot == std::string::npos ? "" : k.substr(0, dot);
    if (g != group) {
      if (!group.empty()) w.close();
      if (!g.empty()) w.open(g);
      group = g;
    }
    const std::string member = dot == std::string::npos ? k : k.substr(dot + 1);
    using T = std::remove_cvref_t<decltype(get(m))>;
    if constexpr (std::is_enum_v<T>)
      w.enumerator(member, cpp_type(T{}), get(m));
    else
      w.field(member, get(m));
  });
  if (!group.empty()) w.close();
}

inline void write(cpp_writer& w, const flop_per_clock_by_format& r) {
  w.field("fp32", r.fp32);
  w.field("tf32", r.tf32);
  w.field("bf16", r.bf16);
  w.field("fp16", r.fp16);
  w.field("fp8", r.fp8);
  w.field("int8", r.int8);
  w.field("int4", r.int4);
  w.field("fp4", r.fp4);
}

inline void write(cpp_writer& w, const chip_figures& c) {
  w.field("name", c.name);
  w.enumerator("kind", "chip_kind", c.kind);
  w.quantity("peak_fp32", "flop_rate", c.peak_fp32);
  w.quantity("peak_tf32", "flop_rate", c.peak_tf32);
  w.quantity("peak_bf16", "flop_rate", c.peak_bf16);
  w.quantity("peak_fp16", "flop_rate", c.peak_fp16);
  w.quantity("peak_fp8", "flop_rate", c.peak_fp8);
  w.quantity("peak_int8", "flop_rate", c.peak_int8);
  w.quantity("peak_int4", "flop_rate", c.peak_int4);
  w.quantity("peak_fp4", "flop_rate", c.peak_fp4);
  w.quantity("memory", "bytes", c.memory);
  w.quantity("memory_bandwidth", "byte_rate", c.memory_bandwidth);
  w.enumerator("scale_up", "scale_up_kind", c.scale_up);
  w.quantity("scale_up_link_bandwidth", "byte_rate", c.scale_up_link_bandwidth);
  w.field("scale_up_links", c.scale_up_links);
  w.quantity("scale_out_bandwidth", "byte_rate", c.scale_out_bandwidth);
  w.quantity("host_link_bandwidth", "byte_rate", c.host_link_bandwidth);
  w.quantity("host_memory", "bytes", c.host_memory);
  const chip_microarchitecture& a = c.arch;
  w.open("arch");
  w.field("compute_units", a.compute_units);
  w.field("base_clock", a.base_clock);
  w.field("boost_clock", a.boost_clock);
  w.field("matrix_clock", a.matrix_clock);
  w.field("vector_clock", a.vector_clock);
  w.field("matrix_units", a.matrix_units);
  w.field("matrix_unit_rows", a.matrix_unit_rows);
  w.field("matrix_unit_columns", a.matrix_unit_columns);
  w.open("matrix_flop_per_clock");
  write(w, a.matrix_flop_per_clock);
  w.close();
  w.field("vector_units", a.vector_units);
  w.field("vector_lanes", a.vector_lanes);
  w.field("vector_flop_per_lane", a.vector_flop_per_lane);
  w.field("vector_sublanes", a.vector_sublanes);
  w.field("vector_lane_width", a.vector_lane_width);
  w.quantity("registers", "bytes", a.registers);
  w.quantity("matrix_memory", "bytes", a.matrix_memory);
  w.quantity("l1_smem", "bytes", a.l1_smem);
  w.quantity("max_shared_memory", "bytes", a.max_shared_memory);
  w.quantity("l1_smem_bandwidth", "byte_rate", a.l1_smem_bandwidth);
  w.quantity("l2", "bytes", a.l2);
  w.quantity("l2_bandwidth", "byte_rate", a.l2_bandwidth);
  w.quantity("last_level_cache", "bytes", a.last_level_cache);
  w.quantity("last_level_cache_bandwidth", "byte_rate", a.last_level_cache_bandwidth);
  w.close();
  const kernel_fractions& k = c.kernels;
  w.open("kernels");
  w.field("gemm", k.gemm);
  w.field("gemm_low_precision", k.gemm_low_precision);
  w.field("memory", k.memory);
  w.field("attention_forward", k.attention_forward);
  w.field("attention_backward", k.attention_backward);
  w.field("tile_rows", k.tile_rows);
  w.field("tile_columns", k.tile_columns);
  w.field("reduction_overhead", k.reduction_overhead);
  w.field("sustained", k.sustained);
  w.field("step_error", k.step_error);
  w.close();
  w.field("power_watts", c.power_watts);
}

inline void write(cpp_writer& w, const system_figures& s) {
  w.field("name", s.name);
  w.open("chip");
  write(w, s.chip);
  w.close();
  w.field("chips", s.chips);
  w.text += ".levels = {{\n";
  for (const network_level& l : s.levels) {
    w.text += "{\n";
    w.field("name", l.name);
    w.enumerator("link", "link_kind", l.link);
    w.field("degree", l.degree);
    w.quantity("unit_egress", "byte_rate", l.unit_egress);
    w.quantity("hop_latency", "seconds", l.hop_latency);
    w.field("in_network_reduction", l.in_network_reduction);
    w.text += "},\n";
  }
  w.text += "}},\n";
  w.field("level_count", s.level_count);
  w.open("torus");
  w.text += ".extent = {" + cpp_writer::of(s.torus.extent[0]) + ", " +
            cpp_writer::of(s.torus.extent[1]) + ", " + cpp_writer::of(s.torus.extent[2]) +
            "},\n";
  w.text += ".wraps = {" + cpp_writer::of(static_cast<bool>(s.torus.wraps[0])) + ", " +
            cpp_writer::of(static_cast<bool>(s.torus.wraps[1])) + ", " +
            cpp_writer::of(static_cast<bool>(s.torus.wraps[2])) + "},\n";
  w.field("rank", s.torus.rank);
  w.close();
}

inline void write(cpp_writer& w, const precision_policy& p) {
  w.field("name", p.name);
  w.field("parameter_bytes", p.parameter_bytes);
  w.field("gradient_bytes", p.gradient_bytes);
  w.field("master_bytes", p.master_bytes);
  w.field("optimizer_state_bytes", p.optimizer_state_bytes);
  w.field("optimizer_states", p.optimizer_states);
  w.field("activation_bytes", p.activation_bytes);
  w.enumerator("compute", "number_format", p.compute);
  w.enumerator("scaling", "low_precision_scaling", p.scaling);
  w.field("low_precision_attention", p.low_precision_attention);
}

/// The C++ names of a framework profile's enumerated behaviours.
constexpr const char* cpp_type(selective_recompute) { return "selective_recompute"; }
constexpr const char* cpp_type(loss_memory) { return "loss_memory"; }
constexpr const char* cpp_type(tp_overlap_method) { return "tp_overlap_method"; }
constexpr const char* cpp_type(tp_backward_overlap) { return "tp_backward_overlap"; }
constexpr const char* cpp_type(gradient_accumulation) { return "gradient_accumulation"; }
constexpr const char* cpp_type(bucket_rule) { return "bucket_rule"; }

inline void write(cpp_writer& w, const framework_profile& f) {
  w.enumerator("base", "training_framework", f.base);
  w.field("name", f.name);
  w.field("source", f.source);
  for_each_behaviour([&](const char* key, auto member, const char*) {
    using T = std::remove_cvref_t<decltype(f.*member)>;
    if constexpr (std::is_enum_v<T>)
      w.enumerator(key, cpp_type(T{}), f.*member);
    else
      w.field(key, f.*member);
  });
}

inline void write(cpp_writer& w, const training_setup& s) {
  const parallel_degrees& d = s.degrees;
  w.open("degrees");
  w.field("data", d.data);
  w.field("zero_stage", d.zero_stage);
  w.field("zero", d.zero);
  w.field("zero_expert", d.zero_expert);
  w.field("tensor", d.tensor);
  w.field("sequence_parallel", d.sequence_parallel);
  w.field("context", d.context);
  w.field("pipeline", d.pipeline);
  w.enumerator("schedule", "pipeline_schedule", d.schedule);
  w.field("virtual_stages", d.virtual_stages);
  w.field("uneven_stages", d.uneven_stages);
  w.field("first_stage_layers", d.first_stage_layers);
  w.field("last_stage_layers", d.last_stage_layers);
  w.field("expert", d.expert);
  w.close();
  w.open("batch");
  w.field("global_tokens", s.batch.global_tokens);
  w.field("seq_len", s.batch.seq_len);
  w.field("micro_batch", s.batch.micro_batch);
  w.close();
  w.open("recompute");
  w.enumerator("kind", "recompute_kind", s.recompute.kind);
  w.field("checkpoints_per_layer", s.recompute.checkpoints_per_layer);
  w.field("modules", s.recompute.modules);
  w.field("saved", s.recompute.saved);
  w.field("offloaded", s.recompute.offloaded);
  w.close();
  w.open("precision");
  write(w, s.precision);
  w.close();
  w.open("offload");
  w.field("optimizer", s.offload.optimizer);
  w.field("gradients_on_host", s.offload.gradients_on_host);
  w.field("parameters_on_host", s.offload.parameters_on_host);
  w.field("host_gradient_bytes", s.offload.host_gradient_bytes);
  w.field("host_staging_bytes", s.offload.host_staging_bytes);
  w.close();
  w.open("reserve");
  w.quantity("fixed", "bytes", s.reserve.fixed);
  w.field("fraction", s.reserve.fraction);
  w.close();
  w.field("dropout", s.dropout);
  w.field("eager_attention", s.eager_attention);
  w.enumerator("attention", "attention_kernel", s.attention);
  w.open("framework");
  write(w, s.framework);
  w.close();
  w.field("grad_reduce_in_bf16", s.grad_reduce_in_bf16);
  w.field("compiled_loss", s.compiled_loss);
  w.field("compiled_layers", s.compiled_layers);
  w.field("chunked_loss", s.chunked_loss);
  w.field("optimizer_in_backward", s.optimizer_in_backward);
  w.field("zero3_per_tensor", s.zero3_per_tensor);
  w.field("overlap_comm", s.overlap_comm);
  w.field("tp_comm_overlap", s.tp_comm_overlap);
  w.field("sync_tp_backward", s.sync_tp_backward);
  w.enumerator("memory_policy", "training_memory_policy", s.memory_policy);
  w.field("memory_margin", s.memory_margin);
}

}  // namespace detail

/// True when `name` can name the header's struct: a C++ identifier that is no keyword we know
/// of and does not start with an underscore (reserved at namespace scope).
inline bool is_plan_struct_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name[0] == '_' || (name[0] >= '0' && name[0] <= '9'))
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  constexpr std::string_view keywords[] = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char",
      "class", "concept", "const", "consteval", "constexpr", "constinit", "continue", "decltype",
      "default", "delete", "do", "double", "else", "enum", "explicit", "export", "extern",
      "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
      "namespace", "new", "noexcept", "not", "nullptr", "operator", "or", "private",
      "protected", "public", "register", "requires", "return", "short", "signed", "sizeof",
      "static", "struct", "switch", "template", "this", "throw", "true", "try", "typedef",
      "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
      "while", "xor"};
  for (std::string_view k : keywords)
    if (name == k) return false;
  return true;
}

namespace detail {

inline void write_axes(cpp_writer& w, const std::array<mesh_axis, max_mesh_axes>& axes,
                       std::size_t count) {
  w.text += ".axes = {{\n";
  for (const mesh_axis& a : axes) {
    w.text += "{\n";
    w.field("name", a.name);
    w.field("size", a.size);
    w.field("roles", a.roles);
    w.field("required_level", a.required_level);
    w.text += "},\n";
  }
  w.text += "}},\n";
  w.field("axis_count", count);
}

/// The header around a struct's members: its opening comment (naming `source`), the include, and
/// `values` of `type` initialised by `members`, then `extra` (the violations, the settings).
inline std::string header_around(std::string_view name, std::string_view source,
                                 std::string_view macro, std::string_view include,
                                 std::string_view type, const std::string& members,
                                 const std::string& extra) {
  std::string source_line;  // the file's path in a comment: no line breaks
  for (char c : source) source_line += (c == '\n' || c == '\r') ? ' ' : c;
  std::string out;
  out += "// Generated by `shardplan header` from " + source_line + ": do not edit.\n";
  out += "// The plan's values, exactly as the plan-file reader builds them; a translation unit\n";
  out += "// checks them with " + std::string(macro) + "(" + std::string(name) + ").\n";
  out += "#pragma once\n\n";
  out += "#include <" + std::string(include) + ">\n\n";
  out += "struct " + std::string(name) + " {\n";
  out += "  // clang-format off\n";
  out += "  static constexpr ::shardplan::" + std::string(type) + " values = {\n";
  out += members;
  out += "  };\n";
  out += "  // clang-format on\n";
  out += extra;
  out += "};\n";
  return out;
}

}  // namespace detail

/// The header of a training plan's values under the struct `name` (see the top of this file),
/// naming `source` (the plan file) in its opening comment.
inline std::string plan_header_text(const training_plan_values& p, std::string_view name,
                                    std::string_view source) {
  detail::cpp_writer w;
  w.open("model");
  detail::write(w, p.model);
  w.close();
  w.open("system");
  detail::write(w, p.system);
  w.close();
  detail::write_axes(w, p.axes, p.axis_count);
  w.open("setup");
  detail::write(w, p.setup);
  w.close();
  const step_assumptions& e = p.assumptions;
  w.open("assumptions");
  w.enumerator("attention", "attention_flops", e.attention);
  w.field("efficiency", e.efficiency);
  w.enumerator("mfu_format", "number_format", e.mfu_format);
  w.field("overlap_data_parallel", e.overlap_data_parallel);
  w.field("overlap_context", e.overlap_context);
  w.field("in_network_reduction", e.in_network_reduction);
  w.close();
  w.field("unknown_axes", p.unknown_axes);
  w.field("unknown_axis", p.unknown_axis);
  w.field("global_sequences", p.global_sequences);
  w.field("efficiency_given", p.efficiency_given);
  return detail::header_around(
      name, source, "SHARDPLAN_REQUIRE_FEASIBLE", "shardplan/training/training_plan.hpp",
      "training_plan_values", w.text,
      "  static constexpr ::shardplan::plan_violations violations = ::shardplan::check(values);\n");
}

/// The header of a serving plan's values under the struct `name`, for
/// SHARDPLAN_REQUIRE_SERVABLE: the values, their violations, and the settings a serving plan type
/// checks beside them (a plan file's reader has checked them already: they hold).
inline std::string plan_header_text(const serving_plan_values& p, std::string_view name,
                                    std::string_view source) {
  detail::cpp_writer w;
  w.open("model");
  detail::write(w, p.model);
  w.close();
  w.open("system");
  detail::write(w, p.system);
  w.close();
  detail::write_axes(w, p.axes, p.axis_count);
  const serving_setup& s = p.setup;
  w.open("setup");
  w.enumerator("weights", "number_format", s.weights);
  w.enumerator("kv", "number_format", s.kv);
  w.enumerator("compute", "number_format", s.compute);
  w.field("batch", s.batch);
  w.field("prompt_tokens", s.prompt_tokens);
  w.field("generated_tokens", s.generated_tokens);
  w.open("reserve");
  w.quantity("fixed", "bytes", s.reserve.fixed);
  w.field("fraction", s.reserve.fraction);
  w.close();
  w.field("replicate_kv", s.replicate_kv);
  w.field("prefill_efficiency", s.prefill_efficiency);
  w.enumerator("engine", "serving_engine", s.engine);
  w.field("max_load", s.max_load);
  w.field("weight_read_share", s.weight_read_share);
  w.field("cuda_graphs", s.cuda_graphs);
  w.field("disaggregated", s.disaggregated);
  w.field("dollars_per_chip_hour", s.dollars_per_chip_hour);
  w.open("collectives");
  w.field("in_network_reduction", s.collectives.in_network_reduction);
  w.field("latency", s.collectives.latency);
  w.close();
  w.field("requests", s.requests);
  w.field("max_sequences", s.max_sequences);
  w.enumerator("scales", "activation_scales", s.scales);
  w.enumerator("outputs", "output_lengths", s.outputs);
  w.field("longest_output", s.longest_output);
  w.close();
  w.field("unknown_axes", p.unknown_axes);
  w.field("refused_strategies", p.refused_strategies);
  // The smallest axis, as `settings_of` finds it for a plan type.
  std::int64_t smallest = 1;
  std::string_view smallest_name;
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].size < smallest) {
      smallest = p.axes[i].size;
      smallest_name = p.axes[i].name;
    }
  const double price = s.dollars_per_chip_hour > 0.0 ? s.dollars_per_chip_hour : 1.0;
  const double efficiency = s.prefill_efficiency > 0.0 ? s.prefill_efficiency * 100.0 : 50.0;
  const std::string extra =
      "  static constexpr ::shardplan::detail::serving_settings settings = {" +
      detail::cpp_writer::of(smallest) + ", " + detail::cpp_writer::of(smallest_name) +
      ", {" + detail::cpp_writer::exact(price) + "}, {" + detail::cpp_writer::exact(efficiency) +
      "}};\n"
      "  static constexpr ::shardplan::serving_violations violations =\n"
      "      settings.smallest_axis >= 1 ? ::shardplan::check(values) "
      ": ::shardplan::serving_violations{};\n";
  return detail::header_around(name, source, "SHARDPLAN_REQUIRE_SERVABLE",
                               "shardplan/serving/serving_plan.hpp", "serving_plan_values",
                               w.text, extra);
}

/// A translation unit that checks the plan of the header `header` (written from `source` under
/// the struct `name`): it fails to compile where the plan breaks a rule.
inline std::string check_unit_text(const std::string& header, const std::string& source,
                                   std::string_view name, bool inference) {
  std::string out = "// Checks ";
  out.append(source).append(" (generated by `shardplan header`).\n#include \"");
  out.append(header).append("\"\n");
  out.append(inference ? "SHARDPLAN_REQUIRE_SERVABLE(" : "SHARDPLAN_REQUIRE_FEASIBLE(");
  return out.append(name).append(");\n");
}

}  // namespace shardplan::io
