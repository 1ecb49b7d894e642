// What the importers (io/import/*.hpp) share: the request as they see it, one-line errors that
// name the file and the key, the notes and unused keys they report, numbers read strictly from
// text, catalogue look-ups, and the plan file they all write (checked with `read_plan_file`).
// Part of the optional shardplan::import target (nlohmann-json, toml++ 3, yaml-cpp 0.7).
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/models/model.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardplan::io::detail::importer {

using ordered_json = nlohmann::ordered_json;

/// What an importer is given (`import_request` of io/import.hpp without the format).
struct source {
  std::string path;
  nlohmann::json system;  ///< the plan file's "system" value, or null
  std::string model;      ///< a catalogue model name, or empty
  /// The model of a Hugging Face config (`--model-config`), its shape named; or null.
  std::shared_ptr<const hf_model> model_config;
  std::int64_t world_size = 0;
  std::vector<std::string> overrides;
  /// The config's text where it was given rather than read from `path` (standard input), or null.
  std::shared_ptr<const std::string> text;
};

/// What an importer returns (`import_result` of io/import.hpp).
struct outcome {
  ordered_json plan;
  std::vector<std::string> unused;
  std::vector<std::string> notes;
};

/// The largest config file read (a launch config is a few kilobytes).
inline constexpr std::uintmax_t max_file_bytes = 4 * 1024 * 1024;
/// The largest degree of any parallelism, and the largest world (as the plan-file reader's).
inline constexpr std::int64_t max_degree = 100'000;
inline constexpr std::int64_t max_world = 10'000'000;
/// The largest batch in sequences, sequence length and micro-batch the importers accept.
inline constexpr std::int64_t max_sequences = 1'000'000'000;
inline constexpr std::int64_t max_seq_len = 100'000'000;

/// One import under way: the source, its format's name, and what it has noted so far.
struct context {
  const source& src;
  std::string format;  ///< "megatron", "torchtitan", "maxtext", "deepspeed"
  std::vector<std::string> unused;
  std::vector<std::string> notes;

  /// Throws `bad_input` "PATH: key: message" (one line: control characters are escaped).
  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    std::string line = src.path;
    line.append(": ").append(key).append(": ").append(message);
    throw bad_input(printable(line));
  }
  void note(std::string text) { notes.push_back(printable(text)); }
  /// A key the importer read and does not use, with its value.
  void unused_key(std::string key_and_value) { unused.push_back(printable(key_and_value)); }
};

/// The text of the file at `path`, or `bad_input` "PATH: cannot read it: why".
inline std::string read_text(const std::string& path, const std::string& shown_as) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  const std::string who = printable(shown_as);
  if (!fs::exists(status)) throw bad_input(who + ": cannot read it: no such file");
  if (fs::is_directory(status)) throw bad_input(who + ": cannot read it: it is a directory");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > max_file_bytes)
    throw bad_input(who + ": cannot read it: larger than " + std::to_string(max_file_bytes) +
                    " bytes (a launch config is a few kilobytes)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input(who + ": cannot read it: cannot open it");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw bad_input(who + ": cannot read it: read error");
  std::string out = text.str();
  if (out.size() > max_file_bytes)
    throw bad_input(who + ": cannot read it: larger than " + std::to_string(max_file_bytes) +
                    " bytes");
  return out;
}

/// Standard input's text, or `bad_input` "stdin: cannot read it: why".
inline std::string standard_input_text() {
  std::string out;
  char buffer[65536];
  while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
    out.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
    if (out.size() > max_file_bytes)
      throw bad_input("stdin: cannot read it: larger than " + std::to_string(max_file_bytes) +
                      " bytes (a launch config is a few kilobytes)");
  }
  if (std::cin.bad()) throw bad_input("stdin: cannot read it: read error");
  return out;
}

/// The text of the config `src` names: the text it carries (standard input), else its file's.
inline std::string config_text(const source& src) {
  return src.text != nullptr ? *src.text : read_text(src.path, src.path);
}

/// Refuses a config none of whose top-level `keys` `known` accepts (an empty file, another
/// program's), naming what it holds: "config: is empty; EMPTY" when it has none, else "config:
/// has none of WHAT (it has a, b, ...); is it a FRAMEWORK config?".
template <class Known>
void refuse_unless_known(const context& c, const std::vector<std::string>& keys, Known known,
                         const std::string& empty, const std::string& what,
                         const std::string& framework) {
  std::string shown;
  for (const std::string& key : keys) {
    if (known(key)) return;
    if (shown.size() < 60) shown += (shown.empty() ? "" : ", ") + key;
  }
  if (keys.empty()) c.fail("config", "is empty; " + empty);
  c.fail("config",
         "has none of " + what + " (it has " + shown + "); is it a " + framework + " config?");
}

/// The top-level keys of a JSON object.
inline std::vector<std::string> top_level_keys(const nlohmann::json& root) {
  std::vector<std::string> out;
  for (const auto& [key, value] : root.items()) {
    (void)value;
    out.push_back(key);
  }
  return out;
}

/// "key=value" split at the first '='; `bad_input` naming the override when it has no '=' or no
/// key.
inline std::pair<std::string, std::string> split_override(const context& c,
                                                          const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) c.fail("override '" + text + "'", "must be key=value");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

/// A whole number written in decimal (an optional sign, digits, single underscores between
/// digits as Python's int() takes them), or false.
inline bool parse_integer(std::string_view s, std::int64_t& out) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front())) ||
      !std::isdigit(static_cast<unsigned char>(s.back())))
    return false;
  std::int64_t x = 0;
  char previous = '0';
  for (char ch : s) {
    if (ch == '_') {
      if (previous == '_') return false;
      previous = ch;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
    const int digit = ch - '0';
    if (x > (std::numeric_limits<std::int64_t>::max() - digit) / 10) return false;
    x = x * 10 + digit;
    previous = ch;
  }
  out = negative ? -x : x;
  return true;
}

/// A decimal number ("0.1", "1e-4", "12"), or false. Only plain decimal notation: no hex, inf
/// or nan.
inline bool parse_decimal(std::string_view s, double& out) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  if (s.empty() || s.size() > 64) return false;
  for (char ch : s)
    if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == 'e' || ch == 'E' ||
          ch == '+' || ch == '-' || ch == '_'))
      return false;
  std::string t;
  for (char ch : s)
    if (ch != '_') t += ch;
  char* end = nullptr;
  const double x = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !std::isfinite(x)) return false;
  out = x;
  return true;
}

/// A count in [lo, hi] from a double that must be whole.
inline bool whole_in(double x, std::int64_t lo, std::int64_t hi, std::int64_t& out) {
  if (!(x >= static_cast<double>(lo) && x <= static_cast<double>(hi))) return false;
  if (std::trunc(x) != x) return false;
  out = static_cast<std::int64_t>(x);
  return true;
}

/// The catalogue model named `name` (matched by `same_name`), or null.
inline const model_shape* catalogue_model(std::string_view name) {
  for (const model_shape& m : catalog_models)
    if (same_name(m.name, name)) return &m;
  return nullptr;
}

/// "llama3-8b, llama3-70b, ..." of the catalogue.
inline std::string catalogue_names() {
  std::vector<std::string_view> names;
  for (const model_shape& m : catalog_models) names.push_back(m.name);
  return name_list(names);
}

/// The first field in which two shapes differ, names left out ("" when they are the same shape).
inline std::string shape_difference(model_shape a, model_shape b) {
  a.name = {};
  b.name = {};
  differ d;
  compare(d, "model", a, b);
  return d.first;
}

/// The catalogue model with exactly this shape (the vocabulary left out when `ignore_vocab`),
/// or null.
inline const model_shape* catalogue_match(const model_shape& m, bool ignore_vocab) {
  for (const model_shape& c : catalog_models) {
    model_shape x = m;
    if (ignore_vocab) x.vocab = c.vocab;
    if (shape_difference(x, c).empty()) return &c;
  }
  return nullptr;
}

/// True when the request names the model (a catalogue name or a Hugging Face config).
inline bool model_given(const source& s) {
  return !s.model.empty() || s.model_config != nullptr;
}

/// The model the request names: its Hugging Face config's, or the catalogue model (else
/// `bad_input` "PATH: model: unknown ...").
inline const model_shape& requested_model(const context& c) {
  if (c.src.model_config != nullptr) return c.src.model_config->shape;
  const model_shape* m = catalogue_model(c.src.model);
  if (m == nullptr)
    c.fail("model",
           "unknown catalogue model '" + c.src.model + "' (known: " + catalogue_names() + ")");
  return *m;
}

/// A model name made of the characters a plan file allows in one ("train_llama3_8b"), from the
/// config file's name.
inline std::string name_from_path(const std::string& path) {
  std::string stem = std::filesystem::path(path).stem().string();
  constexpr std::string_view plain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-()";
  std::string out;
  for (char ch : stem) {
    if (out.size() >= 64) break;
    out += plain.find(ch) == std::string_view::npos ? '-' : ch;
  }
  if (out.find_first_not_of("-._") == std::string::npos) out = "config";
  return "imported " + out;
}

/// JSON text of `v`; bytes that are not UTF-8 (a YAML or shell string may hold them) become
/// U+FFFD instead of an exception.
template <class Json>
std::string safe_dump(const Json& v) {
  return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// Everything a plan file says, as the importers fill it in.
struct plan_parts {
  model_shape model{};     ///< its name is ignored: `model_name` is used
  std::string model_name;  ///< the catalogue name, or the custom model's name
  std::int64_t data = 1;   ///< every data-parallel replica, the expert axis included
  std::int64_t tensor = 1;
  std::int64_t pipeline = 1;
  std::int64_t context = 1;
  std::int64_t expert = 1;
  std::int64_t zero_stage = 0;
  bool sequence_parallel = false;
  std::int64_t virtual_stages = 1;
  bool uneven_stages = false;
  std::int64_t first_stage_layers = 0;  ///< Megatron's --decoder-first-pipeline-num-layers
  std::int64_t last_stage_layers = 0;   ///< and --decoder-last-pipeline-num-layers
  /// Layers the embedding and the output count as in the pipeline split where the config says
  /// (-1: the framework's default), written as a framework object when they differ from it.
  std::int64_t embedding_weight = -1;
  std::int64_t loss_weight = -1;
  std::string schedule = "1f1b";  ///< a name of `schedule_choices` (io/plan_file.hpp)
  std::int64_t global_sequences = 0;
  std::int64_t seq_len = 0;
  std::int64_t micro_batch = 1;
  std::string recompute = "none";  ///< "none", "selective", "full" or "mlp"
  /// Under "selective": Megatron-Core's `--recompute-modules` (`recompute_module_names`); empty,
  /// the attention core.
  std::vector<std::string> recompute_modules;
  /// Under "named": MaxText's `remat_policy` by name, or the tensors a custom policy keeps on
  /// the device and offloads (`layer_tensor_names`).
  std::string remat_policy;
  std::vector<std::string> saved_tensors;
  std::vector<std::string> offloaded_tensors;
  /// What the config keeps in host memory (`offload_policy`); written when anything is.
  offload_policy offload{};
  std::string precision = "bf16_mixed_adam";
  std::string framework;  ///< a name of `framework_choices`
  bool grad_reduce_in_bf16 = false;
  bool compiled_layers = false;  ///< torchtitan's `compile.components` holds "model"
  bool compiled_loss = false;    ///< and "loss"
  bool tp_comm_overlap = false;  ///< Megatron's --tp-comm-overlap, torchtitan's async TP
  bool sync_tp_backward = false;  ///< Megatron's --no-async-tensor-model-parallel-allreduce
  bool overlap_comm = false;      ///< DeepSpeed's zero_optimization.overlap_comm at ZeRO-1/2
  bool dropout = false;
  bool eager_attention = false;
  std::string attention_kernel;  ///< a name of `attention_kernel_choices`; empty: automatic
};

/// The system the request gives, read as a plan file reads it (`names` owns the names its figures
/// point at); `bad_input` "PATH: system: ..." when none is given (the configs name no hardware)
/// or it is wrong.
inline system_figures requested_system(const context& c, system_names& names) {
  if (c.src.system.is_null())
    c.fail("system", "a " + c.format +
                         " config does not name the hardware; give --system PRESET:N or "
                         "--system-file FILE");
  try {
    return read_system(c.src.system, names);
  } catch (const bad_input& e) {
    throw bad_input(printable(c.src.path + ": " + e.what()));
  }
}

/// The devices the plan runs on: the request's world size, else the one the config gives
/// (`from_config`, 0 when none), else the system's chips; each choice noted.
inline std::int64_t world_size(context& c, const system_figures& system, std::int64_t from_config,
                               const std::string& config_says) {
  std::int64_t world = 0;
  if (c.src.world_size < 0) c.fail("world size", "must be positive (0: from the config)");
  if (c.src.world_size > 0) {
    world = c.src.world_size;
    if (from_config > 0 && from_config != world)
      c.note("world size: " + std::to_string(world) + " devices as requested (the config's " +
             config_says + " gives " + std::to_string(from_config) + ")");
  } else if (from_config > 0) {
    world = from_config;
    c.note("world size: " + std::to_string(world) + " devices from the config's " + config_says);
  } else {
    world = system.chips;
    c.note("world size: the system's " + std::to_string(world) + " chips (the config gives none)");
  }
  if (world < 1 || world > max_world)
    c.fail("world size", std::to_string(world) + " devices is out of range (1 to " +
                             std::to_string(max_world) + ")");
  if (world > system.chips)
    c.fail("world size", std::to_string(world) + " devices, but the system " +
                             std::string(system.name) + " has " + std::to_string(system.chips) +
                             " chips");
  return world;
}

/// The plan file of `p` on the request's system, read back with `read_plan_file` before it is
/// returned: a plan the reader refuses is `bad_input` "PATH: plan: ...".
inline ordered_json plan_json(const context& c, const plan_parts& p) {
  model_shape m = p.model;
  m.name = p.model_name;
  ordered_json plan;
  plan["model"] = model_json(m);
  plan["system"] = ordered_json::parse(safe_dump(c.src.system));
  ordered_json par;
  par["data"] = p.data;
  par["tensor"] = p.tensor;
  par["pipeline"] = p.pipeline;
  par["context"] = p.context;
  par["expert"] = p.expert;
  par["zero_stage"] = p.zero_stage;
  par["sequence_parallel"] = p.sequence_parallel && p.tensor > 1;
  par["schedule"] = p.virtual_stages > 1          ? std::string("interleaved")
                    : p.schedule == "interleaved" ? std::string("1f1b")
                                                  : p.schedule;
  par["virtual_stages"] = p.virtual_stages;
  par["uneven_stages"] = p.uneven_stages;
  if (p.first_stage_layers > 0) par["first_stage_layers"] = p.first_stage_layers;
  if (p.last_stage_layers > 0) par["last_stage_layers"] = p.last_stage_layers;
  ordered_json training;
  training["parallelism"] = par;
  training["batch"] = {{"global_sequences", p.global_sequences},
                       {"seq_len", p.seq_len},
                       {"micro_batch", p.micro_batch}};
  training["recompute"] = p.recompute;
  if (p.recompute == "selective" && !p.recompute_modules.empty())
    training["recompute"] = {{"modules", p.recompute_modules}};
  if (p.recompute == "named")
    training["recompute"] =
        p.remat_policy.empty()
            ? nlohmann::ordered_json{{"saved", p.saved_tensors}, {"offloaded", p.offloaded_tensors}}
            : nlohmann::ordered_json{{"remat_policy", p.remat_policy}};
  if (p.offload.any()) training["offload"] = offload_json(p.offload);
  training["precision"] = p.precision;
  if (!p.framework.empty()) training["framework"] = p.framework;
  if (!p.framework.empty() && (p.embedding_weight >= 0 || p.loss_weight >= 0)) {
    const framework_profile& shipped = profile_of(pick("framework", p.framework, framework_choices));
    nlohmann::ordered_json fork{{"base", p.framework}};
    if (p.embedding_weight >= 0 && p.embedding_weight != shipped.pipeline_embedding_weight)
      fork["pipeline_embedding_weight"] = p.embedding_weight;
    if (p.loss_weight >= 0 && p.loss_weight != shipped.pipeline_loss_weight)
      fork["pipeline_loss_weight"] = p.loss_weight;
    if (fork.size() > 1) training["framework"] = fork;
  }
  if (p.grad_reduce_in_bf16) training["grad_reduce_in_bf16"] = true;
  if (p.compiled_layers) training["compiled_layers"] = true;
  if (p.compiled_loss) training["compiled_loss"] = true;
  if (p.tp_comm_overlap) training["tp_comm_overlap"] = true;
  if (p.sync_tp_backward) training["sync_tp_backward"] = true;
  if (p.overlap_comm) training["overlap_comm"] = true;
  training["dropout"] = p.dropout;
  training["eager_attention"] = p.eager_attention;
  if (!p.attention_kernel.empty() && !p.eager_attention)
    training["attention_kernel"] = p.attention_kernel;
  plan["training"] = training;
  try {
    (void)read_plan_file(safe_dump(plan));
  } catch (const bad_input& e) {
    c.fail("plan", std::string("the imported plan is not a valid plan file: ") + e.what());
  }
  return plan;
}

/// The checks every importer makes of the degrees it read before it builds the plan: the mesh
/// fills the world, the expert degree divides the data degree, the batch divides into
/// micro-batches of every replica.
inline void check_degrees(const context& c, const plan_parts& p, std::int64_t world,
                          const std::string& expert_key, const std::string& batch_key) {
  if (p.expert > 1 && p.data % p.expert != 0)
    c.fail(expert_key, "expert parallelism " + std::to_string(p.expert) +
                           " does not divide the data-parallel degree " + std::to_string(p.data) +
                           " (shardplan carves the expert axis out of the data axis)");
  const std::int64_t devices = p.data * p.tensor * p.pipeline * p.context;
  if (devices != world)
    c.fail("world size", "data " + std::to_string(p.data) + " x tensor " +
                             std::to_string(p.tensor) + " x pipeline " +
                             std::to_string(p.pipeline) + " x context " +
                             std::to_string(p.context) + " = " + std::to_string(devices) +
                             " devices, not the world of " + std::to_string(world));
  if (p.seq_len < 1 || p.seq_len > max_seq_len)
    c.fail(batch_key, "the sequence length " + std::to_string(p.seq_len) + " is out of range");
  if (p.micro_batch < 1 || p.global_sequences < 1)
    c.fail(batch_key, "the batch must hold at least one sequence");
  if (p.global_sequences > max_sequences || p.micro_batch > max_sequences)
    c.fail(batch_key,
           "the batch is too large (at most " + std::to_string(max_sequences) + " sequences)");
  if (p.global_sequences % (p.micro_batch * p.data) != 0)
    c.fail(batch_key, "the global batch of " + std::to_string(p.global_sequences) +
                          " sequences is not a whole number of micro-batches of " +
                          std::to_string(p.micro_batch) + " on each of " + std::to_string(p.data) +
                          " data-parallel replicas");
}

/// The model of a config, settled against the request: the catalogue model the request names
/// when it gives one (`agree` is called with it first, to refuse a config that says otherwise),
/// else the config's shape under the catalogue's name when it is a catalogue model, else under a
/// name made from the file's.
template <class Agree>
void settle_model(context& c, plan_parts& p, Agree agree) {
  if (model_given(c.src)) {
    const model_shape& m = requested_model(c);
    agree(m);
    p.model = m;
    p.model_name = std::string(m.name);
    return;
  }
  if (const model_shape* m = catalogue_match(p.model, false)) {
    p.model_name = std::string(m->name);
    c.note("model: the config's shape is the catalogue's " + p.model_name);
    return;
  }
  p.model_name = name_from_path(c.src.path);
  c.note("model: no catalogue model has this shape; it is written out in full as '" + p.model_name +
         "'");
}

/// A config's keys (a JSON tree, from JSON, TOML or YAML) read one at a time by dotted path;
/// what is never read is reported as unused ("key = value"), each leaf once.
class key_tree {
 public:
  key_tree(context& c, const nlohmann::json& root) : c_(c), root_(root) {}

  const nlohmann::json& root() const { return root_; }

  /// The value at `path` ("parallelism.tensor_parallel_degree"), marked read; null when absent.
  const nlohmann::json* at(const std::string& path) {
    const nlohmann::json* v = find(path);
    if (v != nullptr) read_.push_back(path);
    return v;
  }
  bool has(const std::string& path) const { return find(path) != nullptr; }
  /// Marks `path` (and everything below it) read without looking at it.
  void mark(const std::string& path) { read_.push_back(path); }

  std::int64_t integer(const std::string& path, std::int64_t fallback, std::int64_t lo,
                       std::int64_t hi) {
    const nlohmann::json* v = at(path);
    if (v == nullptr || v->is_null()) return fallback;
    std::int64_t x = 0;
    bool ok = false;
    if (v->is_number_integer() && !v->is_number_unsigned()) {
      x = v->get<std::int64_t>();
      ok = true;
    } else if (v->is_number_unsigned()) {
      ok = v->get<std::uint64_t>() <= static_cast<std::uint64_t>(hi);
      if (ok) x = static_cast<std::int64_t>(v->get<std::uint64_t>());
    } else if (v->is_number_float()) {
      ok =
          whole_in(v->get<double>(), std::numeric_limits<std::int32_t>::min(), max_world * 1000, x);
    }
    if (!ok) c_.fail(path, "must be a whole number (given " + shown(*v) + ")");
    if (x < lo || x > hi)
      c_.fail(path, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                        " (given " + std::to_string(x) + ")");
    return x;
  }

  double number(const std::string& path, double fallback) {
    const nlohmann::json* v = at(path);
    if (v == nullptr || v->is_null()) return fallback;
    if (!v->is_number()) c_.fail(path, "must be a number (given " + shown(*v) + ")");
    const double x = v->get<double>();
    if (!std::isfinite(x)) c_.fail(path, "must be a finite number");
    return x;
  }

  bool boolean(const std::string& path, bool fallback) {
    const nlohmann::json* v = at(path);
    if (v == nullptr || v->is_null()) return fallback;
    if (!v->is_boolean()) c_.fail(path, "must be true or false (given " + shown(*v) + ")");
    return v->get<bool>();
  }

  /// A string value; `fallback` when absent (or null when `null_is_absent`).
  std::string text(const std::string& path, const std::string& fallback) {
    const nlohmann::json* v = at(path);
    if (v == nullptr || v->is_null()) return fallback;
    if (!v->is_string()) c_.fail(path, "must be a string (given " + shown(*v) + ")");
    return v->get<std::string>();
  }

  /// A list of strings (a single string counts as a list of one).
  std::vector<std::string> strings(const std::string& path) {
    const nlohmann::json* v = at(path);
    std::vector<std::string> out;
    if (v == nullptr || v->is_null()) return out;
    if (v->is_string()) return {v->get<std::string>()};
    if (!v->is_array()) c_.fail(path, "must be a list of strings (given " + shown(*v) + ")");
    for (const nlohmann::json& e : *v) {
      if (!e.is_string()) c_.fail(path, "must be a list of strings (given " + shown(*v) + ")");
      out.push_back(e.get<std::string>());
    }
    return out;
  }

  /// Every leaf never read, as "key = value" (`only`, when given, limits the report to these
  /// top-level keys).
  void report_unused(const std::vector<std::string>* only = nullptr) {
    std::size_t reported = 0;
    walk(root_, "", only, reported, 0);
  }

  /// A value as one short line.
  static std::string shown(const nlohmann::json& v) {
    std::string s = safe_dump(v);
    if (s.size() > 80) s = s.substr(0, 77) + "...";
    return s;
  }

 private:
  context& c_;
  const nlohmann::json& root_;
  std::vector<std::string> read_;

  const nlohmann::json* find(const std::string& path) const {
    const nlohmann::json* v = &root_;
    std::size_t start = 0;
    while (true) {
      const std::size_t dot = path.find('.', start);
      const std::string key = path.substr(start, dot == std::string::npos ? dot : dot - start);
      if (!v->is_object()) return nullptr;
      const auto it = v->find(key);
      if (it == v->end()) return nullptr;
      v = &*it;
      if (dot == std::string::npos) return v;
      start = dot + 1;
    }
  }

  bool was_read(const std::string& path) const {
    for (const std::string& r : read_)
      if (path == r ||
          (path.size() > r.size() && path.compare(0, r.size(), r) == 0 && path[r.size()] == '.'))
        return true;
    return false;
  }

  void walk(const nlohmann::json& v, const std::string& path, const std::vector<std::string>* only,
            std::size_t& reported, int depth) {
    if (reported > 500 || depth > 64) return;
    if (!path.empty() && was_read(path)) return;
    if (v.is_object() && !v.empty()) {
      for (const auto& [key, value] : v.items()) {
        if (path.empty() && only != nullptr &&
            std::find(only->begin(), only->end(), key) == only->end())
          continue;
        walk(value, path.empty() ? key : path + "." + key, only, reported, depth + 1);
      }
      return;
    }
    if (path.empty()) return;
    c_.unused_key(path + " = " + shown(v));
    ++reported;
  }
};

/// JSON text parsed (comments allowed when `comments`), a key given twice in one object refused
/// as DeepSpeed's reader refuses it, nesting limited; `bad_input` "PATH: key: ..." otherwise.
inline nlohmann::json parse_json(const context& c, const std::string& text, bool comments) {
  constexpr std::size_t max_depth = 64;
  struct frame {
    bool array = false;
    std::string path;
    std::vector<std::string> keys;
    std::string last_key;
  };
  std::vector<frame> open;
  const nlohmann::json::parser_callback_t on_event =
      [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using e = nlohmann::json::parse_event_t;
        if (event == e::object_start || event == e::array_start) {
          if (static_cast<std::size_t>(depth) >= max_depth)
            c.fail("JSON", "nests deeper than " + std::to_string(max_depth) + " levels");
          std::string path;
          if (!open.empty())
            path = open.back().array          ? open.back().path + "[]"
                   : open.back().path.empty() ? open.back().last_key
                                              : open.back().path + "." + open.back().last_key;
          open.push_back({event == e::array_start, std::move(path), {}, {}});
        } else if (event == e::object_end || event == e::array_end) {
          if (!open.empty()) open.pop_back();
        } else if (event == e::key && !open.empty()) {
          frame& top = open.back();
          const std::string key = parsed.get<std::string>();
          const std::string where = top.path.empty() ? key : top.path + "." + key;
          if (std::find(top.keys.begin(), top.keys.end(), key) != top.keys.end())
            c.fail(where, "is given twice (DeepSpeed's reader refuses a repeated key)");
          top.keys.push_back(key);
          top.last_key = key;
        }
        return true;
      };
  try {
    return nlohmann::json::parse(text, on_event, true, comments);
  } catch (const nlohmann::json::exception& e) {
    c.fail("JSON", std::string("malformed: ") + e.what());
  }
}

/// A value given on the command line ("8", "true", "1e-4", "\"text\"", "[1, 2]") as JSON;
/// anything that is not JSON is a string.
inline nlohmann::json override_value(const std::string& text) {
  try {
    nlohmann::json v = nlohmann::json::parse(text, nullptr, true, false);
    return v;
  } catch (const nlohmann::json::exception&) {
    return text;
  }
}

/// `over` merged into `base`: objects key by key, everything else replaced.
inline void merge_json(nlohmann::json& base, const nlohmann::json& over) {
  for (const auto& [key, value] : over.items()) {
    if (value.is_object() && base.contains(key) && base[key].is_object())
      merge_json(base[key], value);
    else
      base[key] = value;
  }
}

/// Sets `path` ("a.b.c") in a JSON object tree, creating objects on the way.
inline void set_path(const context& c, nlohmann::json& root, const std::string& path,
                     nlohmann::json value) {
  nlohmann::json* v = &root;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? dot : dot - start);
    if (key.empty()) c.fail("override '" + path + "'", "has an empty key");
    if (!v->is_object())
      c.fail("override '" + path + "'", "sets a key inside a value that is not a table");
    if (dot == std::string::npos) {
      (*v)[key] = std::move(value);
      return;
    }
    v = &(*v)[key];
    if (v->is_null()) *v = nlohmann::json::object();
    start = dot + 1;
  }
}

/// The result of an import: the plan (checked), the unused keys and the notes.
inline outcome finish(context& c, const plan_parts& p) {
  outcome out;
  out.plan = plan_json(c, p);
  out.unused = std::move(c.unused);
  out.notes = std::move(c.notes);
  return out;
}

}  // namespace shardplan::io::detail::importer
