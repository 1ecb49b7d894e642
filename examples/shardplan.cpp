// The shardplan command-line tool: `report` (a built-in plan), `check PLAN.json`, `catalog`.
// Exit codes: 0 success (a feasible plan), 1 an infeasible plan (every broken rule listed),
// 2 bad input (unknown command, flag, value, or a plan file's mistake).
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <shardplan/catalog.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/launch.hpp>
#include <shardplan/reliability_report.hpp>
#include <shardplan/search_chart.hpp>
#include <shardplan/report.hpp>
#include <shardplan/training_plan.hpp>
#include <sstream>
#include <string>

#include "tool/plan_file.hpp"

namespace {

using namespace shardplan;
using json = nlohmann::ordered_json;

constexpr int exit_ok = 0;
constexpr int exit_infeasible = 1;
constexpr int exit_bad_input = 2;

/// The built-in plan `shardplan report` describes: the README's LLaMA-3 70B on 4096 H100.
using default_plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"pp", 8>, axis<"dp", 64>, axis<"tp", 8, on<"node">>>, zero<1, "dp">,
    pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>, recompute::selective,
    precision::bf16_mixed_adam>;

json chip_json(const chip_figures& c) {
  json peaks = json::object();
  for (auto f : all_number_formats)
    if (peak(c, f).value() > 0.0) peaks[std::string(name_of(f))] = peak(c, f).value();
  json j;
  j["name"] = c.name;
  j["kind"] = c.kind == chip_kind::tpu ? "tpu" : c.kind == chip_kind::gpu ? "gpu" : "cpu";
  j["peak_flops_per_second"] = peaks;
  j["memory_bytes"] = c.memory.value();
  j["memory_bandwidth_bytes_per_second"] = c.memory_bandwidth.value();
  j["scale_up_link_bandwidth_bytes_per_second"] = c.scale_up_link_bandwidth.value();
  j["scale_up_links"] = c.scale_up_links;
  j["scale_up_axis_bandwidth_bytes_per_second"] = scale_up_axis_bandwidth(c).value();
  j["scale_out_bandwidth_bytes_per_second"] = c.scale_out_bandwidth.value();
  j["host_link_bandwidth_bytes_per_second"] = c.host_link_bandwidth.value();
  j["host_memory_bytes"] = c.host_memory.value();
  j["memory_intensity_flops_per_byte"] = memory_intensity(c).value();
  return j;
}

json model_json(const model_shape& m) {
  const auto p = parameters(m);
  json j;
  j["name"] = m.name;
  j["parameters"] = {{"total", p.total}, {"active", p.active}};
  j["shape"] = {{"layers", m.layers},   {"d_model", m.d_model},     {"d_ff", m.d_ff},
                {"heads", m.heads},     {"kv_heads", m.kv_heads},   {"head_dim", m.head_dim},
                {"vocab", m.vocab},     {"gated_mlp", m.gated_mlp}, {"tied_embeddings", m.tied_embeddings}};
  if (m.moe.experts > 0)
    j["shape"]["moe"] = {{"experts", m.moe.experts},
                         {"top_k", m.moe.top_k},
                         {"shared_experts", m.moe.shared_experts},
                         {"expert_d_ff", m.moe.expert_d_ff},
                         {"dense_layers", m.moe.dense_layers}};
  if (m.mla.kv_lora_rank > 0)
    j["shape"]["mla"] = {{"q_lora_rank", m.mla.q_lora_rank},
                         {"kv_lora_rank", m.mla.kv_lora_rank},
                         {"qk_nope_head_dim", m.mla.qk_nope_head_dim},
                         {"qk_rope_head_dim", m.mla.qk_rope_head_dim},
                         {"v_head_dim", m.mla.v_head_dim}};
  return j;
}

/// The reliability section: failures, checkpoints and the run's totals (an estimate).
json reliability_json(const run_totals& r) {
  json j = json::object();
  for (const reliability_figure& f : reliability_figures(r)) {
    const double v = f.value;
    j[std::string(f.key)] = std::isfinite(v) ? json(v) : json(nullptr);
  }
  return j;
}

/// What the JSON of a training and of a serving plan share: the verdict, every broken rule,
/// the parameters, the model and the system.
template <class Plan, class Violations>
json verdict_json(const Plan& p, const Violations& v) {
  json j;
  j["feasible"] = v.empty();
  j["violations"] = json::array();
  for (std::size_t i = 0; i < v.count; ++i)
    j["violations"].push_back(
        {{"rule", std::string(rule_name(v.items[i].rule))}, {"message", describe(v.items[i])}});
  const parameter_counts params = parameters(p.model);
  j["parameters"] = {{"total", params.total}, {"active", params.active}};
  j["model"] = p.model.name;
  j["system"] = {{"name", p.system.name}, {"chips", p.system.chips}, {"chip", p.system.chip.name}};
  return j;
}

/// The JSON of `shardplan check`: every number in base units (bytes, seconds, FLOP).
json plan_json(const training_plan_values& p, const run_inputs& run) {
  const plan_violations v = check(p);
  json j = verdict_json(p, v);
  json mesh = json::array();
  for (std::size_t i = 0; i < p.axis_count; ++i)
    mesh.push_back({{"name", p.axes[i].name}, {"size", p.axes[i].size}});
  j["mesh"] = mesh;
  if (!costable(v)) return j;
  const memory_breakdown m = memory_per_device(p.model, p.setup);
  j["memory_per_device_bytes"] = {
      {"parameters", m.parameters.value()},
      {"gradients", m.gradients.value()},
      {"optimizer", (m.master_weights + m.optimizer).value()},
      {"master_weights", m.master_weights.value()},
      {"optimizer_states", m.optimizer.value()},
      {"activations", m.activations.value()},
      {"kv_cache", 0.0},
      {"buffers", m.buffers.value()},
      {"reserve", m.reserve.value()},
      {"total", m.total.value()},
      {"capacity", p.system.chip.memory.value()}};
  const step_cost c = estimate_step(p);
  j["flops_per_step"] = c.hardware_flops.value();
  j["model_flops_per_step"] = c.model_flops.value();
  j["model_flops_per_token"] =
      model_flops_per_token(p.model, p.setup.batch.seq_len, p.assumptions.attention).value();
  j["communication"] = json::array();
  for (std::size_t i = 0; i < c.traffic_count; ++i) {
    const axis_traffic& x = c.traffic[i];
    j["communication"].push_back({{"strategy", x.strategy},
                                  {"collective", std::string(name_of(x.collective))},
                                  {"axis", p.axes[x.axis].name},
                                  {"count", x.count},
                                  {"bytes_per_device", x.bytes_per_device.value()},
                                  {"forward_bytes_per_device", x.forward_bytes().value()},
                                  {"backward_bytes_per_device", x.backward_bytes().value()},
                                  {"seconds", x.time.value()},
                                  {"exposed_seconds", x.exposed.value()}});
  }
  j["time_seconds"] = {{"compute", c.compute.value()},
                       {"communication_exposed", c.communication_exposed.value()},
                       {"bubble", c.bubble.value()},
                       {"optimizer", c.optimizer.value()},
                       {"step", c.step.value()},
                       {"roofline", c.roofline.value()}};
  j["mfu"] = c.mfu;
  j["efficiency"] = c.efficiency;
  j["tokens_per_second_per_device"] = c.tokens_per_second_per_device;
  j["reliability"] = reliability_json(run_estimate(p, run));
  return j;
}

/// The JSON of `shardplan check` on a serving plan.
json serving_json(const serving_plan_values& p) {
  const serving_violations v = check(p);
  json j = verdict_json(p, v);
  const serving_memory m = memory_of(p);
  j["memory_per_device_bytes"] = {{"parameters", m.weights.value()}, {"gradients", 0.0},
                                  {"optimizer", 0.0},                {"activations", 0.0},
                                  {"kv_cache", m.kv.value()},        {"buffers", 0.0},
                                  {"reserve", m.reserve.value()},    {"total", m.total.value()},
                                  {"capacity", p.system.chip.memory.value()}};
  j["kv_cache_bytes_per_token"] = kv_bytes_per_token(p.model, p.setup.kv).value();
  j["max_batch"] = max_batch(p);
  j["smallest_slice"] = smallest_slice(p);
  if (!costable(v)) return j;
  const decode_cost d = estimate_decode(p);
  const prefill_cost f = estimate_prefill(p);
  const serving_cost c = estimate_cost(p);
  j["decode_step_seconds"] = d.step.value();
  j["decode_memory_bound"] = d.memory_bound;
  j["critical_batch"] = d.critical_batch;
  j["tokens_per_second_per_device"] = d.tokens_per_second_per_device;
  j["tokens_per_second_per_user"] = d.tokens_per_second_per_user;
  j["prefill_seconds"] = f.time_to_first_token.value();
  j["dollars_per_million_output_tokens"] = c.per_million_output_tokens;
  j["dollars_per_query"] = c.per_query;
  return j;
}

/// The report of a plan as text or Markdown tables.
std::string plan_report(const training_plan_values& p, const run_inputs& run, bool markdown) {
  auto render = [markdown](const table& t) { return markdown ? render_markdown(t) : render_text(t); };
  auto heading = [markdown](const std::string& h) {
    return markdown ? "## " + h + "\n\n" : h + "\n" + std::string(h.size(), '=') + "\n";
  };
  std::ostringstream out;
  const plan_violations v = check(p);
  out << heading("Plan") << std::string(p.model.name) << " on " << p.system.chips << " x "
      << std::string(p.system.chip.name) << " (" << std::string(p.system.name) << "): "
      << (v.empty() ? "feasible" : "INFEASIBLE") << "\n";
  for (std::size_t i = 0; i < v.count; ++i)
    out << "  - " << rule_name(v.items[i].rule) << ": " << describe(v.items[i]) << "\n";
  out << "\n" << heading("Mesh and placement") << render(placement_table(p)) << "\n"
      << heading("Partitions (How to Scale Your Model notation)") << render(sharding_table(p))
      << "\n";
  if (!costable(v)) return out.str();
  const step_cost c = estimate_step(p);
  out << heading("Memory per device") << render(memory_table(p)) << "\n"
      << heading("Traffic per axis and step (estimate)") << render(traffic_table(p, c)) << "\n"
      << heading("Time per step (estimate)") << render(time_table(c)) << "\n"
      << heading("Bounds") << render(bounds_table(p)) << "\n"
      << heading("Reliability (estimate)") << render(reliability_table(run_estimate(p, run)));
  return out.str();
}

int print_plan(const training_plan_values& p, const run_inputs& run,
               const std::string& format_name) {
  if (format_name == "json") {
    std::cout << plan_json(p, run).dump(2) << "\n";
  } else {
    std::cout << plan_report(p, run, format_name == "markdown");
  }
  return check(p).empty() ? exit_ok : exit_infeasible;
}

int print_serving(const serving_plan_values& p, const std::string& format_name) {
  const json j = serving_json(p);
  if (format_name == "json") {
    std::cout << j.dump(2) << "\n";
  } else {
    // The serving report: the JSON's figures as a table of names and values.
    table t{{"serving plan (estimate)", "value"}, {}, {false, true}};
    for (const auto& [key, value] : j.items()) {
      if (value.is_object() || value.is_array()) continue;
      t.rows.push_back({key, value.is_number_float()
                                 ? detail::significant(value.get<double>(), 4)
                                 : value.dump()});
    }
    for (const auto& x : j["violations"])
      t.rows.push_back({x["rule"].get<std::string>(), x["message"].get<std::string>()});
    std::cout << (format_name == "markdown" ? render_markdown(t) : render_text(t));
  }
  return check(p).empty() ? exit_ok : exit_infeasible;
}

/// Reads a plan file; bad input prints one line and gives exit code 2 through `status`.
bool read_file(const std::string& path, tool::plan_file& file, int& status, bool training_only) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "shardplan: cannot read " << path << "\n";
    status = exit_bad_input;
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    file = tool::read_plan_file(text.str());
  } catch (const tool::bad_input& e) {
    std::string message = e.what();
    for (char& ch : message)
      if (ch == '\n') ch = ' ';
    std::cerr << "shardplan: " << path << ": " << message << "\n";
    status = exit_bad_input;
    return false;
  }
  if (training_only && file.inference) {
    std::cerr << "shardplan: " << path << ": needs a training plan, not an inference one\n";
    status = exit_bad_input;
    return false;
  }
  return true;
}

int check_file(const std::string& path, const std::string& format_name) {
  tool::plan_file file;
  int status = exit_ok;
  if (!read_file(path, file, status, false)) return status;
  if (file.inference) return print_serving(file.serving_values(), format_name);
  return print_plan(file.values(), file.run, format_name);
}

int export_file(const std::string& path, const std::string& target) {
  tool::plan_file file;
  int status = exit_ok;
  if (!read_file(path, file, status, true)) return status;
  const training_plan_values p = file.values();
  if (target == "megatron") std::cout << megatron_arguments(p);
  else if (target == "torchtitan") std::cout << torchtitan_toml(p);
  else if (target == "maxtext") std::cout << maxtext_config(p);
  else std::cout << deepspeed_json(p);
  return check(p).empty() ? exit_ok : exit_infeasible;
}

/// Searches every plan for a spec's model, system, chips and batch (its parallelism is ignored).
int search_file(const std::string& path, const std::string& format_name,
                const std::string& svg_path) {
  tool::plan_file file;
  int status = exit_ok;
  if (!read_file(path, file, status, true)) return status;
  training_plan_values base = file.values();
  base.axis_count = 0;
  base.setup.degrees = {};
  const std::int64_t chips = file.search_chips > 0 ? file.search_chips : base.system.chips;
  const search_space space = make_search_space(base, chips);
  const search_result r = search(space);
  if (!r.problem.empty()) {
    std::cerr << "shardplan: " << path << ": " << r.problem << "\n";
    return exit_bad_input;
  }
  if (!svg_path.empty()) {
    std::ofstream svg(svg_path, std::ios::binary);
    svg << search_chart_svg(space);
    if (!svg) {
      std::cerr << "shardplan: cannot write " << svg_path << "\n";
      return exit_bad_input;
    }
  }
  if (format_name == "json") {
    json j;
    j["found"] = r.found;
    j["counts"] = {{"enumerated", r.counts.enumerated}, {"feasible", r.counts.feasible},
                   {"over_memory", r.counts.over_memory}};
    if (r.found) {
      j["best"] = plan_json(r.best, file.run);
      j["best"]["plan"] = describe(r.choice, is_moe(r.best.model));
      j["ranking"] = json::array();
      for (std::size_t i = 0; i < r.ranking.count; ++i)
        j["ranking"].push_back({{"plan", describe(r.ranking.plans[i].choice, is_moe(r.best.model))},
                                {"step_seconds", r.ranking.plans[i].step},
                                {"memory_bytes", r.ranking.plans[i].memory}});
    }
    std::cout << j.dump(2) << "\n";
  } else {
    const bool markdown = format_name == "markdown";
    auto render = [markdown](const table& t) { return markdown ? render_markdown(t) : render_text(t); };
    std::cout << render(search_counts_table(r.counts)) << "\n";
    if (!r.found) {
      std::cout << "no feasible plan\n";
      return exit_infeasible;
    }
    std::cout << "fastest plans (estimates)\n" << render(ranking_table(r)) << "\n"
              << "memory/time trade-off\n" << render(trade_off_table(r)) << "\n"
              << plan_report(r.best, file.run, markdown);
  }
  return r.found ? exit_ok : exit_infeasible;
}

int print_catalog(const std::string& format_name) {
  if (format_name == "json") {
    json j;
    j["hardware"] = json::array();
    for (const auto& c : catalog_chips) j["hardware"].push_back(chip_json(c));
    j["models"] = json::array();
    for (const auto& m : catalog_models) j["models"].push_back(model_json(m));
    std::cout << j.dump(2) << "\n";
    return exit_ok;
  }
  const bool markdown = format_name == "markdown";
  auto render = [&](const table& t) { return markdown ? render_markdown(t) : render_text(t); };
  std::cout << (markdown ? "## Hardware\n\n" : "Hardware (peak dense rates from datasheets)\n\n")
            << render(chip_table())
            << "\nC/W: peak bf16 FLOP/s over a bandwidth, the FLOP per byte moved at which that "
               "link stops being the bound.\n\n"
            << (markdown ? "## Models\n\n" : "Models (exact parameter counts from the shapes)\n\n")
            << render(model_table());
  return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"shardplan: plan how a large language model is split across accelerators"};
  app.require_subcommand(1);
  std::string format_name = "text";
  std::string plan_path;
  auto* report = app.add_subcommand("report", "report the built-in plan (LLaMA-3 70B on 4096 H100)");
  auto* check_cmd = app.add_subcommand("check", "check and cost the plan in a JSON plan file");
  check_cmd->add_option("plan", plan_path, "the plan file (JSON)")->required();
  std::string target;
  auto* export_cmd =
      app.add_subcommand("export", "write a plan file's plan as a training system's launch config");
  export_cmd->add_option("plan", plan_path, "the plan file (JSON)")->required();
  export_cmd->add_option("--to", target, "the target system")
      ->required()
      ->check(CLI::IsMember({"megatron", "torchtitan", "maxtext", "deepspeed"}));
  std::string svg_path;
  auto* search_cmd = app.add_subcommand(
      "search", "rank every plan for a spec's model, system, chips and batch");
  search_cmd->add_option("spec", plan_path, "the spec: a plan file (its parallelism is ignored)")
      ->required();
  search_cmd->add_option("--svg", svg_path, "write the step time against memory chart here");
  auto* catalog = app.add_subcommand("catalog", "print the built-in chips and models");
  for (auto* sub : {report, check_cmd, search_cmd, catalog})
    sub->add_option("--format", format_name, "output format")
        ->check(CLI::IsMember({"text", "markdown", "json"}));
  auto is_command = [&app](const std::string& word) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == word) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !is_command(argv[1])) {
    std::cerr << "shardplan: unknown command '" << argv[1]
              << "' (commands: report, check, search, export, catalog; see shardplan --help)\n";
    return exit_bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "shardplan: " << e.what() << " (see shardplan --help)\n";
    return exit_bad_input;
  }
  if (report->parsed()) {
    // The book's budget for LLaMA-3 70B (15e12 tokens) at the example H100 price.
    run_inputs run;
    run.tokens = 15e12;
    run.price_per_chip_hour = example_price_per_chip_hour(default_plan::values.system.chip);
    return print_plan(default_plan::values, run, format_name);
  }
  if (check_cmd->parsed()) return check_file(plan_path, format_name);
  if (export_cmd->parsed()) return export_file(plan_path, target);
  if (search_cmd->parsed()) return search_file(plan_path, format_name, svg_path);
  if (catalog->parsed()) return print_catalog(format_name);
  return exit_bad_input;
}
