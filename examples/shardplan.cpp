// The shardplan command-line tool: `shardplan catalog` prints the built-in catalogues.
// Exit codes: 0 success, 2 bad input (unknown command, flag or value).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <shardplan/catalog.hpp>
#include <string>

namespace {

using namespace shardplan;
using json = nlohmann::ordered_json;

constexpr int exit_ok = 0;
constexpr int exit_bad_input = 2;

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
  auto* catalog = app.add_subcommand("catalog", "print the built-in chips and models");
  catalog->add_option("--format", format_name, "output format")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  auto is_command = [&app](const std::string& word) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == word) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !is_command(argv[1])) {
    std::cerr << "shardplan: unknown command '" << argv[1]
              << "' (commands: catalog; see shardplan --help)\n";
    return exit_bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "shardplan: " << e.what() << " (see shardplan --help)\n";
    return exit_bad_input;
  }
  if (catalog->parsed()) return print_catalog(format_name);
  return exit_bad_input;
}
