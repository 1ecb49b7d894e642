// Importers: the launch configs engineers already run (a Megatron-LM launch script or argument
// file, a torchtitan TOML job config or saved JSON, a MaxText YAML config, a DeepSpeed config
// JSON) read with the real parsers (toml++ 3, yaml-cpp 0.7, nlohmann-json) into plan files.
// One header per source below io/import/; what they share is io/import/common.hpp.
// Part of the optional shardplan::import target.
#pragma once

#include <array>
#include <cstdint>
#include <fstream>
#include <memory>
#include <iterator>
#include <nlohmann/json.hpp>
#include <shardplan/io/import/common.hpp>
#include <shardplan/io/import/deepspeed.hpp>
#include <shardplan/io/import/maxtext.hpp>
#include <shardplan/io/import/megatron.hpp>
#include <shardplan/io/import/torchtitan.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace shardplan::io {

// The API as specified, kept as written (its comments run past the column limit).
// clang-format off
/// The formats `import_config` reads, as `shardplan import --from` names them.
enum class import_format : std::uint8_t { megatron, torchtitan, maxtext, deepspeed };
inline constexpr std::array<std::string_view, 4> import_format_names = {"megatron", "torchtitan", "maxtext", "deepspeed"};

/// What to import and what the config cannot say itself.
struct import_request {
  import_format from = import_format::megatron;
  std::string path;                    // the config file ("-": standard input)
  nlohmann::json system;               // the plan file's "system" value to use (null: none given)
  std::string model;                   // a catalogue model name (empty: from the config)
  std::shared_ptr<const hf_model> model_config;  // a Hugging Face config's model, its shape named (null: none)
  std::int64_t world_size = 0;         // devices (0: from the config, else the system's chips)
  std::vector<std::string> overrides;  // MaxText key=value overrides (also for the others where meaningful, else refused)
};

/// A plan file, and what the import did not use or had to assume.
struct import_result {
  nlohmann::ordered_json plan;         // a plan file that read_plan_file accepts
  std::vector<std::string> unused;     // each key (with its value) of the config that the importer read but does not use: listed, never dropped silently
  std::vector<std::string> notes;      // each assumption the importer made (a default it filled, a value it derived)
};
// clang-format on

/// Reads the config at `r.path` as `r.from` says and returns the plan file it describes, the keys
/// it did not use and the assumptions it made. Throws `bad_input` ("PATH: key: message", one
/// line) for anything wrong: a file that cannot be read or parsed, a value that cannot be
/// resolved or is out of range, degrees that do not fill the world, a model or system the config
/// does not name and the request does not give. Overrides are key=value: MaxText's keys (applied
/// last, as MaxText applies its command line); Megatron-LM flags (key=value adds --key value,
/// key=true a switch, key=false drops the flag); torchtitan and DeepSpeed dotted keys
/// (section.key=value, the value read as JSON when it is JSON, else as a string); DeepSpeed also
/// seq_len=N (required: a DeepSpeed config has no sequence length) and tensor_parallel=N,
/// pipeline_parallel=N, expert_parallel=N (degrees that live in the model code).
inline import_result import_config(const import_request& r) {
  namespace im = detail::importer;
  im::source src{r.path, r.system, r.model, r.model_config, r.world_size, r.overrides, nullptr};
  if (r.path == "-") {  // named `stdin` in messages, as a plan file read from standard input
    src.text = std::make_shared<const std::string>(im::standard_input_text());
    src.path = "stdin";
  }
  im::outcome out;
  switch (r.from) {
    case import_format::megatron:
      out = im::megatron::import_megatron(src);
      break;
    case import_format::torchtitan:
      out = im::torchtitan::import_torchtitan(src);
      break;
    case import_format::maxtext:
      out = im::maxtext::import_maxtext(src);
      break;
    case import_format::deepspeed:
      out = im::deepspeed::import_deepspeed(src);
      break;
    default:
      throw bad_input(detail::printable(r.path + ": from: unknown import format"));
  }
  return {std::move(out.plan), std::move(out.unused), std::move(out.notes)};
}

namespace detail {

/// A whole number of `text` (digits only, at most 9), or -1.
inline std::int64_t spec_number(const std::string& text) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::stoll(text);
}

}  // namespace detail

/// `--system PRESET:SIZE` as a plan file's "system": nodes for the GPU clusters, racks for
/// gb200_nvl72, XxY or XxYxZ for a TPU slice, CHIP:NODES for nvlink_fat_tree. Only the words are
/// split here; the plan-file reader checks the preset and its limits. Throws `bad_input`
/// ("--system: ...") for a spec of another shape.
inline nlohmann::json system_of_spec(const std::string& spec) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= spec.size(); ++i)
    if (i == spec.size() || spec[i] == ':') {
      parts.push_back(spec.substr(start, i - start));
      start = i + 1;
    }
  const auto refuse = [&spec]() {
    throw bad_input("--system: '" + detail::printable(spec) +
                    "' is not PRESET:NODES, gb200_nvl72:RACKS, PRESET:XxYxZ for a TPU slice or "
                    "nvlink_fat_tree:CHIP:NODES");
  };
  const std::string& preset = parts[0];
  nlohmann::json out = nlohmann::json::object();
  out["preset"] = preset;
  if (same_name(preset, "nvlink_fat_tree")) {
    if (parts.size() != 3 || detail::spec_number(parts[2]) < 0) refuse();
    out["chip"] = parts[1];
    out["nodes"] = detail::spec_number(parts[2]);
    return out;
  }
  if (parts.size() != 2) refuse();
  if (preset.size() >= 3 && same_name(preset.substr(0, 3), "tpu")) {
    nlohmann::json shape = nlohmann::json::array();
    std::size_t from = 0;
    const std::string& s = parts[1];
    for (std::size_t i = 0; i <= s.size(); ++i)
      if (i == s.size() || s[i] == 'x') {
        const std::int64_t e = detail::spec_number(s.substr(from, i - from));
        if (e < 0) refuse();
        shape.push_back(e);
        from = i + 1;
      }
    out["shape"] = shape;
    return out;
  }
  const std::int64_t n = detail::spec_number(parts[1]);
  if (n < 0) refuse();
  out[same_name(preset, "gb200_nvl72") ? "racks" : "nodes"] = n;
  return out;
}

/// The system object of a JSON file (`--system-file`): a plan file's "system", a preset or
/// levels. Throws `bad_input` ("--system-file: PATH: ...").
inline nlohmann::json load_system_file(const std::string& path) {
  try {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw bad_input("cannot read " + path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    nlohmann::json system = detail::parse(text);
    if (!system.is_object()) throw bad_input("must hold a plan file's system object");
    return system;
  } catch (const bad_input& e) {
    throw bad_input("--system-file: " + path + ": " + e.what());
  }
}

/// What a command line gives an import beside the config file (`shardplan import`,
/// `shardplan check --from`).
struct import_flags {
  std::string from;  ///< empty for `check`: the file is a plan file
  std::string system;
  std::string system_file;
  std::string model;
  std::string model_config;  ///< a Hugging Face config.json, or empty
  std::int64_t world_size = 0;
  std::vector<std::string> overrides;
};

/// The request `flags` make for the config at `path`. Throws `bad_input` naming the flag: an
/// unknown `--from`, both system flags, a system that cannot be read, an override that is not
/// key=value.
inline import_request request_of(const std::string& path, const import_flags& flags) {
  import_request r;
  r.path = path;
  bool known = false;
  for (std::size_t i = 0; i < import_format_names.size(); ++i)
    if (flags.from == import_format_names[i]) {
      r.from = static_cast<import_format>(i);
      known = true;
    }
  if (!known)
    throw bad_input("--from: '" + detail::printable(flags.from) +
                    "' is not megatron, torchtitan, maxtext or deepspeed");
  if (!flags.system.empty() && !flags.system_file.empty())
    throw bad_input("--system-file: give --system or --system-file, not both");
  if (!flags.system.empty()) r.system = system_of_spec(flags.system);
  if (!flags.system_file.empty()) r.system = load_system_file(flags.system_file);
  for (const std::string& o : flags.overrides)
    if (o.find('=') == std::string::npos || o[0] == '=')
      throw bad_input("'" + detail::printable(o) + "': an override is key=value");
  if (!flags.model.empty() && !flags.model_config.empty())
    throw bad_input("--model-config: give --model or --model-config, not both");
  r.model = flags.model;
  if (!flags.model_config.empty()) {
    auto m = std::make_shared<hf_model>();
    try {
      *m = read_hf_config_file(flags.model_config);
    } catch (const bad_input& e) {
      throw bad_input(std::string("--model-config: ") + e.what());
    }
    m->shape.name = m->name;  // on the heap: the name stays where the shape points
    r.model_config = std::move(m);
  }
  r.world_size = flags.world_size;
  r.overrides = flags.overrides;
  return r;
}

}  // namespace shardplan::io
