// The shardplan command-line tool: `report` (a built-in plan), `check PLAN.json`, `search`,
// `compare JOB.json`, `export`, `catalog`: a thin main over the library and its shardplan::io
// part (plan files, job files, JSON reports).
// Exit codes: 0 success (a feasible plan), 1 an infeasible plan (every broken rule listed),
// 2 bad input (unknown command, flag, value, or a plan file's mistake).
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <shardplan/io/catalog.hpp>
#include <shardplan/io/default_plan.hpp>
#include <shardplan/io/import.hpp>
#include <shardplan/io/job_file.hpp>
#include <shardplan/io/json_report.hpp>
#include <shardplan/io/launch.hpp>
#include <shardplan/io/model_report.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/plan_header.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/io/report.hpp>
#include <shardplan/io/search_chart.hpp>
#include <shardplan/io/timeline_chart.hpp>
#include <string>
#include <vector>

namespace {

using namespace shardplan;

constexpr int exit_ok = 0;
constexpr int exit_infeasible = 1;
constexpr int exit_bad_input = 2;

int print_plan(const training_plan_values& p, const run_inputs& run,
               const std::string& format_name) {
  if (format_name == "json") std::cout << io::plan_json(p, run).dump(2) << "\n";
  else std::cout << plan_report(p, run, format_name == "markdown");
  return check(p).empty() ? exit_ok : exit_infeasible;
}

/// Writes a chart to `path`; false (with one line on stderr) when it cannot.
bool write_chart(const std::string& path, const std::string& svg_text) {
  std::ofstream svg(path, std::ios::binary);
  svg << svg_text;
  if (svg) return true;
  std::cerr << "shardplan: cannot write " << path << "\n";
  return false;
}

int print_serving(const serving_plan_values& p, const std::string& format_name,
                  const std::string& svg_path) {
  if (!svg_path.empty() && !write_chart(svg_path, io::latency_chart_svg(p)))
    return exit_bad_input;
  if (format_name == "json") std::cout << io::serving_json(p).dump(2) << "\n";
  else std::cout << render(io::serving_table(p), format_name == "markdown");
  return check(p).empty() ? exit_ok : exit_infeasible;
}

/// The plan file's name in messages ("-" is standard input).
std::string shown(const std::string& path) { return path == "-" ? "stdin" : path; }

/// Prints one line of bad input: "shardplan: FILE: field: what" (newlines folded into spaces).
int bad_input(const std::string& path, std::string message) {
  for (char& ch : message)
    if (ch == '\n') ch = ' ';
  std::cerr << "shardplan: " << (path.empty() ? "" : shown(path) + ": ") << message << "\n";
  return exit_bad_input;
}

/// One line of bad input for a file that could not be loaded (no file name where it was unread).
int bad_file(const std::string& path, const std::string& message) {
  return bad_input(message.rfind("cannot read ", 0) == 0 ? "" : path, message);
}

/// Reads a plan file (standard input for "-"); bad input prints one line and gives exit code 2
/// through `status`. `training_only` names the command that needs a training plan ("" for any).
bool read_file(const std::string& path, io::plan_file& file, int& status,
               const std::string& training_only, const std::string& model_config = "") {
  try {
    file = io::load_plan_file(path, model_config);
  } catch (const io::bad_input& e) {
    status = bad_file(path, e.what());
    return false;
  }
  if (!training_only.empty() && file.inference) {
    status = bad_input(path, "inference: " + training_only +
                                 " needs a training plan, not an inference one");
    return false;
  }
  return true;
}

/// Writes `text` to `output` ("-": standard output); an unwritable file is bad input.
int write_output(const std::string& text, const std::string& output) {
  if (output == "-") {
    std::cout << text;
    return exit_ok;
  }
  std::ofstream out(output, std::ios::binary);
  out << text;
  out.close();
  if (!out) return bad_input("", "--output: cannot write " + output);
  return exit_ok;
}

/// Imports `path` as `flags.from` says into `plan` (a plan file's JSON); bad input prints one
/// line and gives exit code 2 through `status`. What the import did not use and what it assumed
/// go to stderr, a line each ("shardplan: PATH: unused: ...", "shardplan: PATH: assumed: ...").
bool import_file(const std::string& path, const io::import_flags& flags,
                 nlohmann::ordered_json& plan, int& status) {
  try {
    io::import_result result = io::import_config(io::request_of(path, flags));
    for (const std::string& u : result.unused)
      std::cerr << "shardplan: " << path << ": unused: " << io::detail::printable(u) << "\n";
    for (const std::string& n : result.notes)
      std::cerr << "shardplan: " << path << ": assumed: " << io::detail::printable(n) << "\n";
    plan = std::move(result.plan);
  } catch (const io::bad_input& e) {
    status = bad_input("", e.what());
    return false;
  }
  return true;
}

int check_file(const std::string& path, const std::string& format_name,
               const std::string& svg_path, const io::import_flags& flags) {
  io::plan_file file;
  int status = exit_ok;
  if (!flags.from.empty()) {
    nlohmann::ordered_json plan;
    if (!import_file(path, flags, plan, status)) return status;
    try {
      file = io::read_plan_file(plan.dump());
    } catch (const io::bad_input& e) {
      return bad_input(path, e.what());
    }
  } else if (!flags.system.empty() || !flags.system_file.empty() || !flags.model.empty() ||
             flags.world_size != 0) {
    const char* flag = !flags.system.empty()        ? "--system"
                       : !flags.system_file.empty() ? "--system-file"
                       : !flags.model.empty()       ? "--model"
                                                    : "--world-size";
    return bad_input("", std::string(flag) +
                             ": goes with --from (an imported config); a plan file names its own "
                             "system, model and world size (edit them there, or replace the model "
                             "with --model-config)");
  } else if (!flags.overrides.empty()) {
    const std::string& extra = flags.overrides[0];
    return bad_input("", "'" + io::detail::printable(extra) +
                             (extra.find('=') == std::string::npos
                                  ? "': not expected (check takes one plan file)"
                                  : "': key=value overrides go with --from (an imported config)"));
  } else if (!read_file(path, file, status, "", flags.model_config)) {
    return status;
  }
  if (file.inference) return print_serving(file.serving_values(), format_name, svg_path);
  if (!svg_path.empty()) {  // a training plan's chart is its pipeline's timeline
    std::string why;
    try {
      const std::string svg = plan_timeline_svg(file.values(), why);
      if (!why.empty()) return bad_input(path, "--svg: " + why);
      if (!write_chart(svg_path, svg)) return exit_bad_input;
    } catch (const std::exception& e) {
      return bad_input(path, std::string("--svg: ") + e.what());
    }
  }
  return print_plan(file.values(), file.run, format_name);
}

int export_file(const std::string& path, const std::string& target) {
  io::plan_file file;
  int status = exit_ok;
  if (!read_file(path, file, status, "export")) return status;
  const training_plan_values p = file.values();
  std::cout << launch_config(p, target);
  return check(p).empty() ? exit_ok : exit_infeasible;
}

/// Writes a plan file's values as a C++ header (io/plan_header.hpp) to `output` ("-": standard
/// output). An infeasible plan is written too: the build that checks it must fail.
int header_file(const std::string& path, const std::string& name, const std::string& output,
                const std::string& check_unit) {
  if (!io::is_plan_struct_name(name))
    return bad_input("", "--name: '" + io::detail::printable(name) +
                             "' is no C++ identifier (letters, digits and _, not starting with a "
                             "digit or _, no keyword)");
  io::plan_file file;
  int status = exit_ok;
  if (!read_file(path, file, status, "")) return status;
  if (!check_unit.empty()) {
    if (output == "-") return bad_input("", "--check-unit: needs the header in a file (--output)");
    const std::string header = std::filesystem::path(output).filename().string();
    const int written =
        write_output(io::check_unit_text(header, shown(path), name, file.inference), check_unit);
    if (written != exit_ok) return written;
  }
  return write_output(file.inference
                          ? io::plan_header_text(file.serving_values(), name, shown(path))
                          : io::plan_header_text(file.values(), name, shown(path)),
                      output);
}

/// Searches every plan for a spec's model, system, chips and batch (its parallelism is ignored).
int search_file(const std::string& path, const std::string& format_name,
                const std::string& svg_path, const std::string& plans_dir,
                const std::string& model_config) {
  io::plan_file file;
  int status = exit_ok;
  if (!read_file(path, file, status, "search", model_config)) return status;
  training_plan_values base = file.values();
  base.axis_count = 0;
  base.setup.degrees = {};
  const std::int64_t chips = file.search_chips > 0 ? file.search_chips : base.system.chips;
  const search_space space = make_search_space(base, chips);
  const search_result r = search(space);
  if (!r.problem.empty()) return bad_input(path, io::rule_message(r.problem));
  if (!svg_path.empty() && !write_chart(svg_path, search_chart_svg(space))) return exit_bad_input;
  if (!plans_dir.empty()) {  // every ranked plan as a plan file that re-checks to its numbers
    try {
      for (const std::string& written : io::write_ranked_plans(r, file.run, plans_dir))
        std::cerr << "shardplan: wrote " << written << "\n";
    } catch (const io::unwritable_plan& e) {
      std::cerr << "shardplan: " << e.what() << "\n";
      return exit_bad_input;
    }
  }
  if (format_name == "json") std::cout << io::search_json(r, file.run).dump(2) << "\n";
  else std::cout << search_text(r, file.run, format_name == "markdown");
  return r.found ? exit_ok : exit_infeasible;
}

/// Which hardware for a job: every system's best plan, ranked, with the constraint of each.
/// Exit 1 when no system meets the job (the verdict line names the constraint).
int compare_file(const std::string& path, const std::string& format_name,
                 const std::string& svg_path, const std::string& model_config) {
  io::job_file job;
  try {
    job = io::load_job_file(path, model_config);
  } catch (const io::bad_input& e) {
    return bad_file(path, e.what());
  }
  const io::comparison_output out = io::compare_job(job, format_name, !svg_path.empty());
  std::cout << out.text;
  if (!out.svg.empty() && !write_chart(svg_path, out.svg)) return exit_bad_input;
  if (out.verdict.empty()) return exit_ok;
  if (format_name != "json") std::cout << "\n" << out.verdict << "\n";
  return exit_infeasible;
}

/// What the tool reads of a model: a catalogue name or a Hugging Face config.json.
int print_model(const std::string& given, const std::vector<std::int64_t>& contexts,
                const std::string& format_name) {
  try {
    std::cout << io::model_output(given, contexts, format_name);
  } catch (const io::bad_input& e) {
    return bad_input("", e.what());
  }
  return exit_ok;
}

int print_catalog(const std::string& format_name) {
  if (format_name == "json") std::cout << io::catalog_json().dump(2) << "\n";
  else std::cout << catalog_text(format_name == "markdown");
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
  check_cmd->add_option("plan", plan_path, "the plan file (JSON; - reads standard input)")
      ->required();
  std::string check_svg_path;
  check_cmd->add_option("--svg", check_svg_path,
                        "write a chart here: a serving plan's latency-throughput curve, a "
                        "training plan's pipeline timeline");
  io::import_flags flags;
  std::string import_path;
  std::string import_output = "-";
  auto* import_cmd = app.add_subcommand(
      "import", "read a Megatron-LM, torchtitan, MaxText or DeepSpeed config into a plan file");
  for (CLI::App* sub : {check_cmd, import_cmd}) {
    const bool imports = sub == import_cmd;
    sub->add_option("--from", flags.from,
                    imports ? "what the config is: megatron, torchtitan, maxtext, deepspeed"
                            : "the file is a config to import: megatron, torchtitan, maxtext, "
                              "deepspeed")
        ->required(imports);
    sub->add_option("--system", flags.system,
                    "the hardware: PRESET:NODES, gb200_nvl72:RACKS, PRESET:XxYxZ (TPU), "
                    "nvlink_fat_tree:CHIP:NODES");
    sub->add_option("--system-file", flags.system_file,
                    "the hardware: a JSON file holding a plan file's system (preset or levels)");
    sub->add_option("--model", flags.model, "a catalogue model, where the config names none");
    sub->add_option("--world-size", flags.world_size, "devices, where the config says none")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}));
  }
  import_cmd->add_option("config", import_path, "the config file")->required();
  import_cmd->add_option("overrides", flags.overrides,
                         "key=value overrides (MaxText keys; Megatron flags; dotted keys)");
  check_cmd->add_option("overrides", flags.overrides,
                        "with --from: key=value overrides of the imported config");
  import_cmd->add_option("--output", import_output, "the plan file to write (- : standard output)");
  std::string target;
  auto* export_cmd =
      app.add_subcommand("export", "write a plan file's plan as a training system's launch config");
  export_cmd->add_option("plan", plan_path, "the plan file (JSON; - reads standard input)")
      ->required();
  export_cmd->add_option("--to", target, "the target system")
      ->required()
      ->check(CLI::IsMember(std::vector<std::string>(launch_target_names.begin(),
                                                     launch_target_names.end())));
  std::string header_name;
  std::string header_output = "-";
  auto* header_cmd = app.add_subcommand(
      "header", "write a plan file's values as a C++ header for SHARDPLAN_REQUIRE_FEASIBLE (or "
                "SHARDPLAN_REQUIRE_SERVABLE; what the CMake function shardplan_check_plan runs)");
  header_cmd->add_option("plan", plan_path, "the plan file (JSON; - reads standard input)")
      ->required();
  header_cmd->add_option("--name", header_name, "the C++ struct that holds the values")
      ->required();
  header_cmd->add_option("--output", header_output, "the header to write (- : standard output)");
  std::string header_check_unit;
  header_cmd->add_option("--check-unit", header_check_unit,
                         "also write a translation unit that checks the header's plan");
  std::string svg_path;
  auto* search_cmd = app.add_subcommand(
      "search", "rank every plan for a spec's model, system, chips and batch");
  search_cmd->add_option("spec", plan_path,
                         "the spec: a plan file (its parallelism is ignored; - reads stdin)")
      ->required();
  search_cmd->add_option("--svg", svg_path, "write the step time against memory chart here");
  std::string plans_dir;
  search_cmd->add_option("--write-plans", plans_dir,
                         "write each ranked plan as a plan file in this directory");
  std::string compare_svg_path;
  auto* compare_cmd = app.add_subcommand(
      "compare", "rank every system of the catalogue (and a job's own) for a training or serving job");
  compare_cmd->add_option("job", plan_path, "the job file (JSON; - reads standard input)")
      ->required();
  compare_cmd->add_option("--svg", compare_svg_path,
                          "write the cost against time chart here (one point per system)");
  for (CLI::App* sub : {check_cmd, import_cmd, search_cmd, compare_cmd})
    sub->add_option("--model-config", flags.model_config,
                    "a Hugging Face config.json: the model, whatever the file names");
  std::string model_given;
  std::vector<std::int64_t> contexts{4096, 32768, 131072};
  auto* model_cmd = app.add_subcommand("model", "print what the tool reads of a model");
  model_cmd->add_option("model", model_given, "a catalogue model or a Hugging Face config.json")
      ->required();
  model_cmd->add_option("--context", contexts, "contexts to size the KV cache and FLOPs at")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}));
  auto* catalog = app.add_subcommand("catalog", "print the built-in chips and models");
  for (auto* sub : {report, check_cmd, search_cmd, compare_cmd, model_cmd, catalog})
    sub->add_option("--format", format_name, "output format")
        ->check(CLI::IsMember({"text", "markdown", "json"}));
  auto is_command = [&app](const std::string& word) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == word) return true;
    return false;
  };
  const char* commands =
      "(commands: report, check, import, search, compare, export, header, model, catalog; see "
      "shardplan --help)";
  const std::string first = argc > 1 ? argv[1] : "";
  if (first.empty()) {
    std::cerr << "shardplan: a command is required " << commands << "\n";
    return exit_bad_input;
  }
  if (first != "-h" && first != "--help" && !is_command(first)) {
    std::cerr << "shardplan: unknown " << (first[0] == '-' ? "option '" : "command '") << first
              << "' " << commands << "\n";
    return exit_bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "shardplan: " << e.what() << " (see shardplan --help)\n";
    return exit_bad_input;
  }
  if (report->parsed())
    return print_plan(io::default_plan::values, io::default_run(), format_name);
  if (check_cmd->parsed()) return check_file(plan_path, format_name, check_svg_path, flags);
  if (import_cmd->parsed()) {  // the config as a plan file, on --output
    nlohmann::ordered_json plan;
    int status = exit_ok;
    if (!import_file(import_path, flags, plan, status)) return status;
    return write_output(plan.dump(2) + "\n", import_output);
  }
  if (export_cmd->parsed()) return export_file(plan_path, target);
  if (search_cmd->parsed())
    return search_file(plan_path, format_name, svg_path, plans_dir, flags.model_config);
  if (compare_cmd->parsed())
    return compare_file(plan_path, format_name, compare_svg_path, flags.model_config);
  if (model_cmd->parsed()) return print_model(model_given, contexts, format_name);
  if (header_cmd->parsed())
    return header_file(plan_path, header_name, header_output, header_check_unit);
  if (catalog->parsed()) return print_catalog(format_name);
  return exit_bad_input;
}
