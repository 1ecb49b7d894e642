// Job files for `shardplan compare` (read with nlohmann-json): train a model on T tokens within D
// days, or serve it under a workload and latency targets; prices, energy inputs and systems of
// one's own. Every mistake is one line naming the field (io::bad_input). Also the comparison's
// JSON report.
#pragma once

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <shardplan/io/compare_report.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/search/compare.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace shardplan::io {

/// A job file: the job, the systems to compare and their prices. The names live here (behind
/// pointers, so that a moved job file keeps them); `training()`, `serving()` and `systems()`
/// point the values at them.
struct job_file {
  bool serving_job_given = false;
  training_job train{};
  serving_job serve{};
  std::unique_ptr<std::string> model_name = std::make_unique<std::string>();
  std::vector<std::string_view> families;  ///< catalogue families (preset names, static)
  std::vector<system_figures> own;         ///< the job's own systems
  std::vector<std::unique_ptr<system_names>> own_names;
  double price_per_chip_hour = 0.0;                    ///< every chip's, unless `prices` names it
  std::vector<std::pair<std::string, double>> prices;  ///< by chip name

  training_job training() const {
    training_job j = train;
    j.model.name = *model_name;
    return j;
  }
  serving_job serving() const {
    serving_job j = serve;
    j.model.name = *model_name;
    return j;
  }
  /// The catalogue's families (sized to the job's chips for training; the default serving
  /// systems for serving) and the job's own systems.
  std::vector<compared_system> systems() const {
    std::vector<compared_system> out;
    if (serving_job_given) {
      for (const compared_system& s : serving_systems())
        for (std::string_view f : families)
          if (same_name(s.family, f)) out.push_back(s);
    } else {
      for (std::string_view f : families) out.push_back(sized_system(f, train.chips));
    }
    for (std::size_t i = 0; i < own.size(); ++i) {
      const system_figures s = named_system(own[i], *own_names[i]);
      out.push_back({s.name, s, {}});
    }
    return out;
  }
  /// The price per chip-hour of each system's chips.
  std::vector<double> prices_of(const std::vector<compared_system>& systems) const {
    std::vector<double> out;
    for (const compared_system& s : systems) {
      double p = price_per_chip_hour;
      for (const auto& [chip, price] : prices)
        if (same_name(chip, s.figures.chip.name)) p = price;
      out.push_back(p);
    }
    return out;
  }
};

/// The families a job compares by default: every training preset, or the default serving
/// systems (one GPU node, a GB200 rack, small TPU slices, two CPU servers).
inline std::vector<std::string_view> default_families(bool serving) {
  std::vector<std::string_view> out;
  if (serving) {
    for (const compared_system& s : serving_systems()) out.push_back(s.family);
  } else {
    out.assign(training_families.begin(), training_families.end());
  }
  return out;
}

namespace detail {

/// `s` read as a plan file's `system` under `systems[i]`: its messages name that path.
inline system_figures read_own_system(const json& j, std::size_t i, system_names& names) {
  try {
    return read_system(j, names);
  } catch (const bad_input& e) {
    std::string m = e.what();
    if (m.rfind("system", 0) == 0) m = "systems[" + std::to_string(i) + "]" + m.substr(6);
    throw bad_input(m);
  }
}

inline training_job read_train(const json& j, const model_shape& model) {
  const std::string p = "train";
  if (!j.is_object()) fail(p, "must be an object (tokens, days, chips, global_tokens, seq_len)");
  only_keys(j, p, {"tokens", "days", "chips", "global_tokens", "seq_len", "restart_minutes"});
  training_job t;
  t.model = model;
  if (!j.contains("tokens")) fail(join(p, "tokens"), "missing");
  t.tokens = number(j, p, "tokens", 1.0, 1e18, 0.0);
  t.deadline_days = number(j, p, "days", 0.0, 1e5, 0.0);
  t.chips = integer(j, p, "chips", 1, 1'000'000, true);
  t.seq_len = integer(j, p, "seq_len", 1, 100'000'000, true);
  t.global_tokens = integer(j, p, "global_tokens", 1, 1'000'000'000'000, true);
  if (t.global_tokens % t.seq_len != 0)
    fail(join(p, "global_tokens"), "must be a whole number of sequences of seq_len tokens");
  if (j.contains("restart_minutes"))
    t.run.restart_overhead = number(j, p, "restart_minutes", 0.0, 1e6, 10.0) * 60.0 * second;
  return t;
}

inline serving_job read_serve(const json& j, const model_shape& model) {
  const std::string p = "serve";
  if (!j.is_object()) fail(p, "must be an object (prompt_tokens, generated_tokens, ...)");
  only_keys(j, p,
            {"prompt_tokens", "generated_tokens", "ttft_ms", "tpot_ms", "weights", "kv_cache",
             "compute", "engine"});
  serving_job s;
  s.model = model;
  s.prompt_tokens = integer(j, p, "prompt_tokens", 0, 100'000'000, true);
  s.generated_tokens = integer(j, p, "generated_tokens", 1, 100'000'000, true);
  s.time_to_first_token = number(j, p, "ttft_ms", 0.0, 1e9, 0.0) / 1e3 * second;
  s.time_per_output_token = number(j, p, "tpot_ms", 0.0, 1e9, 0.0) / 1e3 * second;
  s.weights = read_format(j, p, "weights", number_format::bf16);
  s.kv = read_format(j, p, "kv_cache", number_format::bf16);
  s.compute = read_format(j, p, "compute", number_format::bf16);
  if (j.contains("engine"))
    s.engine = pick(join(p, "engine"), text(j, p, "engine"), engine_choices);
  return s;
}

inline energy_inputs read_energy(const json& j) {
  const std::string p = "energy";
  if (!j.is_object()) fail(p, "must be an object (pue, price_per_kwh, busy_percent, idle_percent)");
  only_keys(j, p, {"pue", "price_per_kwh", "busy_percent", "idle_percent", "host_watts_per_chip"});
  energy_inputs e;
  e.pue = number(j, p, "pue", 1.0, 10.0, 1.0);
  e.price_per_kwh = number(j, p, "price_per_kwh", 0.0, 1e6, 0.0);
  e.busy_share = number(j, p, "busy_percent", 0.0, 100.0, 100.0) / 100.0;
  e.idle_share = number(j, p, "idle_percent", 0.0, 100.0, 50.0) / 100.0;
  e.host_watts_per_chip = number(j, p, "host_watts_per_chip", 0.0, 1e6, -1.0);
  return e;
}

}  // namespace detail

/// Reads a job file's text.
inline job_file read_job_file(const std::string& text_in, const model_source& from = {}) {
  using detail::fail;
  const detail::json j = detail::parse(text_in);
  if (!j.is_object()) fail("job file", "must be a JSON object (with model, and train or serve)");
  detail::only_keys(j, "",
                    {"model", "train", "serve", "families", "systems", "price_per_chip_hour",
                     "prices", "energy"});
  if (!j.contains("model") && from.config.empty()) fail("model", "missing");
  if (j.contains("train") == j.contains("serve"))
    fail("train", "a job file has exactly one of train and serve");
  job_file out;
  const model_shape model = detail::read_model(
      j.contains("model") ? j.at("model") : detail::json(), *out.model_name, from);
  out.serving_job_given = j.contains("serve");
  if (out.serving_job_given)
    out.serve = detail::read_serve(j.at("serve"), model);
  else
    out.train = detail::read_train(j.at("train"), model);
  const energy_inputs energy =
      j.contains("energy") ? detail::read_energy(j.at("energy")) : energy_inputs{};
  out.train.energy = out.serve.energy = energy;
  const std::vector<std::string_view> known = default_families(out.serving_job_given);
  if (j.contains("families")) {
    const detail::json& f = j.at("families");
    if (!f.is_array()) fail("families", "must be a list of system families");
    for (std::size_t i = 0; i < f.size(); ++i) {
      const std::string where = "families[" + std::to_string(i) + "]";
      if (!f[i].is_string()) fail(where, "must be a family's name");
      const std::string name = f[i].get<std::string>();
      std::string_view found;
      for (std::string_view k : known)
        if (same_name(k, name)) found = k;
      if (found.empty())
        fail(where, "unknown family '" + name + "' (known: " + detail::name_list(known) + ")");
      out.families.push_back(found);
    }
  } else {
    out.families = known;
  }
  if (j.contains("systems")) {
    const detail::json& s = j.at("systems");
    if (!s.is_array()) fail("systems", "must be a list of systems (as a plan file's system)");
    for (std::size_t i = 0; i < s.size(); ++i) {
      out.own_names.push_back(std::make_unique<system_names>());
      out.own.push_back(detail::read_own_system(s[i], i, *out.own_names.back()));
    }
  }
  if (out.families.empty() && out.own.empty()) fail("families", "names no system to compare");
  out.price_per_chip_hour = detail::number(j, "", "price_per_chip_hour", 0.0, 1e6, 0.0);
  if (j.contains("prices")) {
    const detail::json& p = j.at("prices");
    if (!p.is_object()) fail("prices", "must map chip names to prices per chip-hour");
    for (auto it = p.begin(); it != p.end(); ++it) {
      const std::string chip = it.key();
      bool known_chip = find_chip(chip) != nullptr;
      for (const auto& n : out.own_names) known_chip = known_chip || same_name(n->chip, chip);
      if (!known_chip) (void)detail::catalog_chip(detail::join("prices", chip), chip);
      out.prices.emplace_back(chip, detail::number(p, "prices", chip.c_str(), 0.0, 1e6, 0.0));
    }
  }
  out.train.run.price_per_chip_hour = out.price_per_chip_hour;
  return out;
}

/// Reads the job file at `path` ("-": standard input).
inline job_file load_job_file(const std::string& path, const std::string& model_config = "") {
  const std::string base = path == "-" ? "" : std::filesystem::path(path).parent_path().string();
  return read_job_file(input_text(path), {base, model_config});
}

namespace detail {
/// A finite number, or null (JSON has no infinity).
inline json finite(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

/// What every system of a comparison reports: its family, chip, whether it has an answer and
/// what binds it; without an answer, the constraint that stops it (the return is then true).
template <class Option>
bool system_entry(const Option& o, nlohmann::json& s) {
  s["family"] = std::string(o.system.family);
  s["chip"] = std::string(o.system.figures.chip.name);
  if constexpr (requires { o.chips; }) s["chips"] = o.chips;
  s["found"] = o.found;
  s["binding"] = std::string(name_of(o.binding));
  if (!o.found) s["problem"] = std::string(o.problem);
  return !o.found;
}

/// The head of a comparison's JSON: its verdict (null when some system answers) and assumptions.
template <class Option>
nlohmann::json comparison_head(const std::vector<Option>& options, const energy_inputs& energy,
                               bool training) {
  nlohmann::json j;
  const std::string_view verdict = comparison_verdict(options);
  j["verdict"] = verdict.empty() ? nlohmann::json(nullptr) : nlohmann::json(std::string(verdict));
  j["assumptions"] = comparison_assumptions(energy, training);
  j["systems"] = nlohmann::json::array();
  return j;
}

}  // namespace detail

/// A training comparison as JSON: the verdict (null when some system meets the job), the
/// assumptions, and per system its figures or the constraint that stops it.
inline nlohmann::json training_comparison_json(const std::vector<training_option>& options,
                                               const energy_inputs& energy) {
  using detail::finite;
  nlohmann::json j = detail::comparison_head(options, energy, true);
  for (const training_option& o : options) {
    nlohmann::json s;
    if (detail::system_entry(o, s)) {
      j["systems"].push_back(s);
      continue;
    }
    s["plan"] = describe(o.search.choice, is_moe(o.search.best.model));
    s["step_seconds"] = o.search.cost.step.value();
    s["mfu"] = o.run.mfu;
    s["days"] = finite(o.run.days);
    s["ideal_days"] = o.run.ideal_days;
    s["chip_hours"] = finite(o.run.chip_hours);
    s["cost"] = finite(o.run.cost);
    s["goodput"] = o.run.goodput;
    s["energy_known"] = o.energy.known;
    s["kwh"] = o.energy.kwh;
    s["energy_cost"] = o.energy.cost;
    s["average_watts_per_chip"] = o.per_step.average_watts_per_chip;
    s["meets_deadline"] = o.meets_deadline;
    s["chips_for_deadline"] = o.chips_for_deadline;
    s["pareto"] = o.pareto;
    j["systems"].push_back(s);
  }
  return j;
}

/// A serving comparison as JSON.
inline nlohmann::json serving_comparison_json(const std::vector<serving_option>& options,
                                              const energy_inputs& energy) {
  nlohmann::json j = detail::comparison_head(options, energy, false);
  for (const serving_option& o : options) {
    nlohmann::json s;
    if (detail::system_entry(o, s)) {
      j["systems"].push_back(s);
      continue;
    }
    const serving_estimate& e = o.estimate;
    s["tensor"] = o.tensor;
    s["concurrency"] = o.concurrency;
    s["time_to_first_token_seconds"] = e.loaded_time_to_first_token.value();
    s["time_per_output_token_seconds"] = e.time_per_output_token.value();
    s["tokens_per_second_per_chip"] = e.output_tokens_per_second_per_device;
    s["tokens_per_second_per_user"] = e.output_tokens_per_second_per_user;
    s["cost_per_million_tokens"] = o.cost_per_million_tokens;
    s["tokens_per_joule"] = o.tokens_per_joule;
    s["kwh_per_million_tokens"] = o.kwh_per_million_tokens;
    s["energy_cost_per_million_tokens"] = o.energy_cost_per_million_tokens;
    s["pareto"] = o.pareto;
    j["systems"].push_back(s);
  }
  return j;
}

/// What `shardplan compare` prints for a job: the ranking as text, Markdown or JSON, the
/// verdict when no system meets the job ("" when one does), and the chart when asked for.
struct comparison_output {
  std::string text;
  std::string verdict;
  std::string svg;
};
inline comparison_output compare_job(const job_file& job, const std::string& format_name,
                                     bool chart) {
  const bool markdown = format_name == "markdown";
  const std::vector<compared_system> systems = job.systems();
  const std::vector<double> prices = job.prices_of(systems);
  comparison_output out;
  if (job.serving_job_given) {
    const serving_job s = job.serving();
    const std::vector<serving_option> options = compare_serving(s, systems, prices);
    out.verdict = std::string(comparison_verdict(options));
    const std::string title = serving_job_title(s);
    if (chart) out.svg = serving_comparison_svg(options, title);
    out.text = format_name == "json" ? serving_comparison_json(options, s.energy).dump(2) + "\n"
                                     : serving_comparison_text(options, title, s.energy, markdown);
  } else {
    const training_job t = job.training();
    const std::vector<training_option> options = compare_training(t, systems, prices);
    out.verdict = std::string(comparison_verdict(options));
    const std::string title = training_job_title(t);
    if (chart) out.svg = training_comparison_svg(options, title);
    out.text = format_name == "json"
                   ? training_comparison_json(options, t.energy).dump(2) + "\n"
                   : training_comparison_text(options, title, t.energy, markdown);
  }
  return out;
}

}  // namespace shardplan::io
