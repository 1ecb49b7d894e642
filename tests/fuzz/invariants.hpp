// Invariants the fuzzers check on everything the tool would print for a plan file: `check`'s text
// and JSON reports, the four launch exports and a search on a small space. A broken invariant
// prints what broke and traps, so libFuzzer counts it as a crash and keeps the input.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>

#include <shardplan/io/json_report.hpp>
#include <shardplan/io/launch.hpp>
#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/report.hpp>
#include <shardplan/io/search_chart.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/training/cost.hpp>

namespace shardplan::fuzz {

/// Prints the broken invariant and what it was found in, then stops the process as a crash.
[[noreturn]] inline void broken(const char* invariant, const std::string& where) {
  std::fprintf(stderr, "shardplan fuzz: invariant broken: %s\n--- in ---\n%.4000s\n", invariant,
               where.c_str());
  __builtin_trap();
}

inline void require(bool holds, const char* invariant, const std::string& where = {}) {
  if (!holds) broken(invariant, where);
}

/// Every number in `j` is finite (nlohmann-json would print NaN and infinity as `null`).
inline void require_finite_numbers(const io::json& j, const char* what) {
  if (j.is_number_float()) {
    require(std::isfinite(j.get<double>()), "no NaN or infinity in a JSON report", what);
  } else if (j.is_structured()) {
    for (const io::json& item : j) require_finite_numbers(item, what);
  }
}

/// No word of `text` is "nan" or "inf" (as printf and iostreams write them); words such as
/// "infeasible", "InfiniBand" or "infinity-fabric" are fine.
inline void require_no_nan_words(const std::string& text_in, const char* what,
                                 std::string_view model_name) {
  // The model's name is the user's text ("inf-moe" is a fine name): leave it out of the search
  // when it holds "nan" or "inf" (and only then: erasing a name such as "e" would cut
  // "infeasible" into "inf asibl").
  std::string text = text_in;
  std::string lower(model_name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos)
    for (std::size_t at = text.find(model_name); at != std::string::npos;
         at = text.find(model_name, at))
      text.replace(at, model_name.size(), " ");
  std::string word;
  const auto end_word = [&] {
    if (word == "nan" || word == "inf")
      broken("no NaN or infinity in a text report or an export", std::string(what) + "\n" + text);
    word.clear();
  };
  for (char c : text) {
    if (std::isalpha(static_cast<unsigned char>(c)))
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      end_word();
  }
  end_word();
}

/// Every launch config parses with its target's real parser: DeepSpeed's as strict JSON (no
/// comments: json.load takes none), torchtitan v0.2's as TOML, MaxText's as YAML.
inline void require_export_parses(std::string_view target, const std::string& config) {
  if (target == "deepspeed")
    require(io::json::accept(config), "a deepspeed export parses as strict JSON", config);
  if (target == "torchtitan-toml") {
    bool parsed = true;
    try {
      (void)toml::parse(config);
    } catch (const toml::parse_error&) {
      parsed = false;
    }
    require(parsed, "a torchtitan-toml export parses as TOML", config);
  }
  if (target == "maxtext") {
    bool parsed = true;
    try {
      (void)YAML::Load(config);
    } catch (const YAML::Exception&) {
      parsed = false;
    }
    require(parsed, "a maxtext export parses as YAML", config);
  }
}

/// A feasible training plan runs on chips that exist and fits in their memory.
inline void require_feasible_is_real(const training_plan_values& p, const char* what) {
  if (!check(p).empty()) return;
  const memory_breakdown m = memory_per_device(p.model, p.setup);
  require(p.system.chips > 0 && mesh_devices(p) > 0, "a feasible plan has chips", what);
  require(mesh_devices(p) <= p.system.chips, "a feasible plan fits on its system", what);
  require(m.total.value() <= p.system.chip.memory.value(),
          "a feasible plan's memory is within the chip's capacity", what);
  const step_cost c = estimate_step(p);
  require(std::isfinite(c.step.value()) && c.step.value() > 0.0,
          "a feasible plan has a finite, positive step time", what);
  require(c.mfu > 0.0 && c.mfu <= 1.0, "a feasible plan's MFU is between 0 and 1", what);
  require(mfu_within_best_measured(p, c),
          "a feasible plan's MFU is at most the chip family's best measured", what);
}

/// `check`, its text, Markdown and JSON reports, and the four exports of a training plan.
inline void check_training(const training_plan_values& p, const run_inputs& run) {
  const plan_violations v = check(p);
  for (std::size_t i = 0; i < v.count; ++i) (void)describe(v.items[i]);
  require_feasible_is_real(p, "the plan file's plan");
  const io::json j = io::plan_json(p, run);
  require_finite_numbers(j, "check --format json");
  if (j["feasible"].get<bool>() && j.contains("memory_per_device_bytes")) {
    const io::json& m = j["memory_per_device_bytes"];
    require(m["total"].get<double>() <= m["capacity"].get<double>(),
            "a feasible JSON report's memory total is within capacity", j.dump());
    require(j["system"]["chips"].get<std::int64_t>() > 0, "a feasible JSON report has chips",
            j.dump());
  }
  require_no_nan_words(plan_report(p, run, false), "check (text)", p.model.name);
  require_no_nan_words(plan_report(p, run, true), "check --format markdown", p.model.name);
  for (std::string_view target : launch_target_names) {
    const std::string config = launch_config(p, target);
    const std::string what = "export --to " + std::string(target);
    require_no_nan_words(config, what.c_str(), p.model.name);
    require_export_parses(target, config);
  }
}

/// The most chips a fuzzed search may use, so that each input stays fast.
inline constexpr std::int64_t max_search_chips = 16;

/// `search` on a small space: every ranked plan is feasible and fits; its reports are finite.
inline void check_search(const training_plan_values& plan, std::int64_t search_chips,
                         const run_inputs& run) {
  training_plan_values base = plan;
  base.axis_count = 0;
  base.setup.degrees = {};
  const std::int64_t chips = search_chips > 0 ? search_chips : base.system.chips;
  if (chips > max_search_chips) return;
  const search_space space = make_search_space(base, chips);
  const search_result r = search(space);
  if (!r.problem.empty()) return;
  require_finite_numbers(io::search_json(r, run), "search --format json");
  require_no_nan_words(render_text(search_counts_table(r.counts)), "search counts",
                       base.model.name);
  if (!r.found) return;
  require(check(r.best).empty(), "the search's best plan passes check()");
  require_feasible_is_real(r.best, "the search's best plan");
  for (std::size_t i = 0; i < r.ranking.count; ++i)
    require(r.ranking.plans[i].memory <= base.system.chip.memory.value() &&
                std::isfinite(r.ranking.plans[i].step) && r.ranking.plans[i].step > 0.0,
            "every ranked plan fits and has a finite step time", describe(r.ranking.plans[i].choice));
  require_no_nan_words(render_text(ranking_table(r)), "search ranking", base.model.name);
  require_no_nan_words(render_text(trade_off_table(r)), "search trade-off", base.model.name);
  require_no_nan_words(plan_report(r.best, run, false), "search best plan (text)", base.model.name);
  require_no_nan_words(search_chart_svg(space), "search --svg", base.model.name);
}

/// `check` of a serving plan: its JSON and its table; feasible means chips and memory that fit.
inline void check_serving(const serving_plan_values& s) {
  const serving_violations v = check(s);
  for (std::size_t i = 0; i < v.count; ++i) (void)describe(v.items[i]);
  (void)max_batch(s);
  (void)smallest_slice(s);
  const io::json j = io::serving_json(s);
  require_finite_numbers(j, "check --format json (serving)");
  require_no_nan_words(render_text(io::serving_table(s)), "check (serving text)", s.model.name);
  if (v.empty()) {
    require(s.system.chips > 0, "a feasible serving plan has chips", j.dump());
    require(memory_of(s).total.value() <= s.system.chip.memory.value(),
            "a feasible serving plan's memory is within capacity", j.dump());
  }
  if (costable(v)) {
    (void)estimate_cost(s);
    require_no_nan_words(io::latency_chart_svg(s), "check --svg (serving)", s.model.name);
    // At maximum load the served concurrency is the largest that fits, and it fits.
    if (s.setup.max_load && v.empty())
      require(estimate_serving(s).fits, "a plan at maximum load fits its concurrency", j.dump());
  }
}

/// Everything the tool does with a plan file's text; a `bad_input` is the only allowed refusal.
inline void check_plan_text(const std::string& text) {
  io::plan_file file;
  try {
    file = io::read_plan_file(text);
  } catch (const io::bad_input& e) {
    const std::string message = e.what();
    require(!message.empty() && message.find('\n') == std::string::npos,
            "a refusal is one non-empty line", message);
    // The tool puts "shardplan: FILE: " in front; a second one can only come from the input.
    require(message.find("shardplan") == std::string::npos ||
                text.find("shardplan") != std::string::npos,
            "a refusal carries no \"shardplan:\" of its own (the tool adds it)", message);
    return;
  }
  if (file.inference) {
    check_serving(file.serving_values());
    return;
  }
  const training_plan_values p = file.values();
  check_training(p, file.run);
  check_search(p, file.search_chips, file.run);
}

}  // namespace shardplan::fuzz
