// The JSON reports of the command-line tool, for any program: a plan's verdict, memory, traffic,
// time and reliability, a serving plan's figures, a search's ranking, the catalogue. Every
// number is in base units (bytes, seconds, FLOP) and every cost figure is an estimate.
// Part of the optional shardplan::io target (it needs nlohmann-json 3.11 or later).
#pragma once

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include <shardplan/core/format.hpp>
#include <shardplan/core/table.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/io/report.hpp>
#include <shardplan/hardware/catalog.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/io/serving_chart.hpp>
#include <shardplan/serving/serving_plan.hpp>
#include <shardplan/serving/workload.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/training/training_plan.hpp>

namespace shardplan::io {

/// JSON objects keep their keys in the order written.
using json = nlohmann::ordered_json;

/// A chip's figures in base units (FLOP/s, bytes, bytes/s).
inline json chip_json(const chip_figures& c) {
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
  j["power_watts"] = c.power_watts;  // rated (TDP, TGP or board power); 0: not given
  j["memory_intensity_flops_per_byte"] = memory_intensity(c).value();
  const chip_microarchitecture& a = c.arch;
  j["microarchitecture"] = {{"compute_units", a.compute_units},
                            {"boost_clock_hz", a.boost_clock},
                            {"matrix_clock_hz", matrix_clock_of(a)},
                            {"matrix_units_per_compute_unit", a.matrix_units},
                            {"vector_lanes_per_compute_unit", a.vector_lanes},
                            {"registers_bytes_per_compute_unit", a.registers.value()},
                            {"l1_smem_bytes_per_compute_unit", a.l1_smem.value()},
                            {"l2_bytes", a.l2.value()},
                            {"l2_bandwidth_bytes_per_second", a.l2_bandwidth.value()}};
  const kernel_fractions k = family_kernel_fractions(c);
  j["kernel_fractions"] = {{"gemm", k.gemm},
                           {"gemm_low_precision", k.gemm_low_precision},
                           {"memory", k.memory},
                           {"attention_forward", k.attention_forward},
                           {"attention_backward", k.attention_backward},
                           {"tile_rows", k.tile_rows},
                           {"tile_columns", k.tile_columns},
                           {"reduction_overhead", k.reduction_overhead},
                           {"sustained", k.sustained}};
  j["step_measured_error"] = measured_step_error(c);
  return j;
}

/// A model's shape and exact parameter counts.
inline json model_json(const model_shape& m) {
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
  if (has_local_attention(m))
    j["shape"]["local"] = {
        {"window", m.local.window},
        {"global_layers", global_attention_layers(m)},
        {"kind", m.local.kind == local_attention_kind::chunked ? "chunked" : "sliding"}};
  if (m.mla.kv_lora_rank > 0)
    j["shape"]["mla"] = {{"q_lora_rank", m.mla.q_lora_rank},
                         {"kv_lora_rank", m.mla.kv_lora_rank},
                         {"qk_nope_head_dim", m.mla.qk_nope_head_dim},
                         {"qk_rope_head_dim", m.mla.qk_rope_head_dim},
                         {"v_head_dim", m.mla.v_head_dim}};
  return j;
}

/// The reliability section: failures, checkpoints and the run's totals (an estimate).
inline json reliability_json(const run_totals& r) {
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
inline json verdict_json(const Plan& p, const Violations& v) {
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

/// The JSON of `shardplan check`: every number in base units (bytes, seconds, FLOP); the
/// precision (its compute format, fp8/fp4 scaling and the format attention runs in), the
/// attention kernel the step is timed with (`reported_attention_kernel`: the chip's usual for
/// `automatic`), `mfu` against the peak of `mfu_format`, `step_measured_error` (the step model's
/// mean error on published runs of the chip family, `measured_step_error`); the `reliability`
/// section only when
/// `run` gives a token budget (`has_run`).
inline json plan_json(const training_plan_values& p, const run_inputs& run) {
  const plan_violations v = check(p);
  json j = verdict_json(p, v);
  json mesh = json::array();
  for (std::size_t i = 0; i < p.axis_count; ++i)
    mesh.push_back({{"name", p.axes[i].name}, {"size", p.axes[i].size}});
  j["mesh"] = mesh;
  const precision_policy& policy = p.setup.precision;
  j["precision"] = {{"name", policy.name},
                    {"compute_format", std::string(name_of(policy.compute))},
                    {"scaling", std::string(scaling_name(policy.scaling))},
                    {"attention_format", std::string(name_of(attention_format(policy)))}};
  j["attention_kernel"] = std::string(kernel_name(reported_attention_kernel(p)));
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
      {"cuda_context", m.cuda_context.value()},
      {"nccl_buffers", m.nccl_buffers.value()},
      {"optimizer_temporaries", m.optimizer_temporaries.value()},
      {"fragmentation", m.fragmentation.value()},
      {"not_live_at_peak", m.not_live_at_peak.value()},
      {"total", m.total.value()},
      {"capacity", p.system.chip.memory.value()},
      {"host", m.host.value()},
      {"host_capacity", p.system.chip.host_memory.value()}};
  const memory_assessment verdict = memory_assessment_of(p);
  j["memory_policy"] = std::string(memory_policy_name(p.setup.memory_policy));
  j["peak_moment"] = std::string(peak_moment_name(m.moment));
  j["peak_stage"] = std::string(stage_position_name(m.stage));
  j["peak_stage_layers"] =
      layers_on_stage(p.model, p.setup, stage_index(p.setup.degrees, m.stage));
  j["memory_verdict"] = std::string(verdict_name(verdict.verdict));
  j["headroom_gb"] = verdict.headroom_gb;
  j["memory_validated"] = verdict.validated;
  j["memory_margin"] = verdict.margin;
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
  j["step_measured_error"] = measured_step_error(p.system.chip);
  j["mfu_format"] = std::string(name_of(c.mfu_format));
  j["mfu_capped"] = c.mfu_capped;
  j["efficiency"] = c.efficiency;
  j["tokens_per_second_per_device"] = c.tokens_per_second_per_device;
  // Only for a run with a token budget: without one its days, cost and goodput would be zeros.
  if (has_run(run)) j["reliability"] = reliability_json(run_estimate(p, run));
  return j;
}

/// The JSON of `shardplan check` on a serving plan.
inline json serving_json(const serving_plan_values& p) {
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
  // The roofline's cost from the decode and prefill above (`estimate_cost(p)` would redo both).
  const serving_cost c = cost_at(p, d.tokens_per_second, d.tokens_per_second_per_device,
                                 f.time_to_first_token, f.devices);
  const serving_estimate e = estimate_serving(p);
  const serving_cost ec = estimate_cost(p, e);
  // The estimate: the plan's engine at its batch (its concurrency) under its workload.
  j["engine"] = std::string(name_of(p.setup.engine));
  j["concurrency"] = e.concurrency;
  j["max_load"] = p.setup.max_load;
  j["max_concurrency"] = e.max_concurrency;
  j["average_context_tokens"] = e.average_context;
  j["decode_step_seconds"] = e.decode_step.total.value();
  j["time_per_output_token_seconds"] = e.time_per_output_token.value();
  j["prefill_share"] = e.prefill_share;
  j["output_tokens_per_second"] = e.output_tokens_per_second;
  j["tokens_per_second_per_device"] = e.output_tokens_per_second_per_device;
  j["tokens_per_second_per_user"] = e.output_tokens_per_second_per_user;
  j["requests_per_second"] = e.requests_per_second;
  if (p.setup.requests > 0)
    j["benchmark"] = {
        {"requests", p.setup.requests},
        {"output_lengths",
         p.setup.outputs == output_lengths::exponential ? "exponential" : "fixed"},
        {"longest_output", e.benchmark.longest},
        {"duration_seconds", e.benchmark.duration.value()},
        {"drain_seconds", e.benchmark.drain.value()},
        {"output_tokens", e.benchmark.output_tokens},
        {"steps", e.benchmark.steps},
        {"mean_decoding_sequences", e.benchmark.mean_decoding}};
  if (p.system.chip.kind == chip_kind::gpu) j["cuda_graphs"] = p.setup.cuda_graphs;
  j["disaggregated"] = p.setup.disaggregated;
  j["prefill_servers_per_decode_server"] = e.prefill_servers_per_decode_server;
  j["prefill_seconds"] = e.time_to_first_token.value();
  j["loaded_time_to_first_token_seconds"] = e.loaded_time_to_first_token.value();
  // A cost needs a price: the plan's, or an example price of the catalogue chip, said so.
  const bool priced = ec.dollars_per_chip_hour > 0.0;
  j["dollars_per_chip_hour"] = priced ? json(ec.dollars_per_chip_hour) : json(nullptr);
  j["price"] = p.setup.dollars_per_chip_hour > 0.0 ? "given"
               : priced ? "an example on-demand price (serving/inference.hpp), not a quote"
                        : "none: give inference.price_per_chip_hour";
  j["dollars_per_million_output_tokens"] = priced ? json(ec.per_million_output_tokens) : json(nullptr);
  j["dollars_per_query"] = priced ? json(ec.per_query) : json(nullptr);
  if (fitted::serving_measured_family(p.system.chip))
    j["estimate_measured_error_percent"] = {
        {"batch_1_decode", serving_measured_error.batch_1_decode},
        {"time_to_first_token", serving_measured_error.time_to_first_token},
        {"throughput", serving_measured_error.throughput}};
  else
    j["estimate_measured_error_percent"] = "not validated (no measured run on this chip's family)";
  // The book's bound: the last decode step and the prefill at the roofline.
  j["roofline"] = {{"decode_step_seconds", d.step.value()},
                   {"decode_memory_bound", d.memory_bound},
                   {"critical_batch", d.critical_batch},
                   {"tokens_per_second_per_device", d.tokens_per_second_per_device},
                   {"tokens_per_second_per_user", d.tokens_per_second_per_user},
                   {"prefill_seconds", f.time_to_first_token.value()},
                   {"dollars_per_million_output_tokens",
                    priced ? json(c.per_million_output_tokens) : json(nullptr)}};
  j["decode_memory_bound"] = d.memory_bound;
  j["critical_batch"] = d.critical_batch;
  return j;
}

/// The serving plan's latency-throughput curve (`latency_curve_of`, with the plan's own
/// concurrency among its points) as the chart's points.
inline std::vector<latency_point> latency_points(const serving_plan_values& p) {
  const latency_curve curve = latency_curve_of(p);
  std::vector<latency_point> out;
  bool has_plan = false;
  auto add = [&out](std::int64_t n, const serving_estimate& e) {
    out.push_back({static_cast<double>(n), e.output_tokens_per_second_per_device,
                   e.output_tokens_per_second_per_user, e.loaded_time_to_first_token.value(),
                   e.fits});
  };
  for (std::size_t i = 0; i < curve.count; ++i) {
    add(curve.points[i].concurrency, curve.points[i].estimate);
    has_plan = has_plan || curve.points[i].concurrency == p.setup.batch;
  }
  if (!has_plan) add(p.setup.batch, estimate_serving_at(p, p.setup.batch));
  return out;
}

/// The serving plan's latency-throughput chart: a standalone SVG with its own concurrency marked.
inline std::string latency_chart_svg(const serving_plan_values& p) {
  latency_chart_options o;
  o.title = std::string(p.model.name) + " on " + std::to_string(degrees_of(p).devices) + " x " +
            std::string(p.system.chip.name) + ", " + std::string(name_of(p.setup.engine)) +
            " (estimate)";
  o.subtitle = std::to_string(p.setup.prompt_tokens) + " input and " +
               std::to_string(p.setup.generated_tokens) + " output tokens per request, " +
               std::string(name_of(p.setup.weights)) + " weights, " +
               std::string(name_of(p.setup.kv)) + " cache";
  o.marked_concurrency = static_cast<double>(p.setup.batch);
  return latency_throughput_svg(latency_points(p), o);
}

/// A plan as the plan file that re-checks to its numbers (`plan_file_text`), or as the reason it
/// cannot be written as one ({"unwritable": "..."}).
inline json plan_file_json(const training_plan_values& p, const run_inputs& run) {
  try {
    return json::parse(plan_file_text(p, run));
  } catch (const unwritable_plan& e) {
    return {{"unwritable", e.what()}};
  }
}

/// The JSON of `shardplan search`: the counts, and when a plan was found the best plan's
/// `plan_json` with its description, and the ranking; every ranked plan carries the plan file
/// that reproduces it (`plan_file`).
inline json search_json(const search_result& r, const run_inputs& run) {
  json j;
  j["found"] = r.found;
  j["counts"] = {{"enumerated", r.counts.enumerated},
                 {"feasible", r.counts.feasible},
                 {"feasible_ruled_out_by_bound", r.counts.bounded},
                 {"over_memory", r.counts.over_memory}};
  if (r.found) {
    j["best"] = plan_json(r.best, run);
    j["best"]["plan"] = describe(r.choice, is_moe(r.best.model));
    j["best"]["plan_file"] = plan_file_json(r.best, run);
    j["ranking"] = json::array();
    for (std::size_t i = 0; i < r.ranking.count; ++i) {
      const plan_choice& c = r.ranking.plans[i].choice;
      j["ranking"].push_back({{"plan", describe(c, is_moe(r.best.model))},
                              {"step_seconds", r.ranking.plans[i].step},
                              {"memory_bytes", r.ranking.plans[i].memory},
                              {"plan_file", plan_file_json(plan_values(r, c), run)}});
    }
  }
  return j;
}

/// The JSON of `shardplan catalog`: every chip and every model.
inline json catalog_json() {
  json j;
  j["hardware"] = json::array();
  for (const auto& c : catalog_chips) j["hardware"].push_back(chip_json(c));
  j["models"] = json::array();
  for (const auto& m : catalog_models) j["models"].push_back(model_json(m));
  return j;
}

/// A serving plan's report: `serving_json`'s figures as a table of names and values, then its
/// broken rules.
inline table serving_table(const serving_plan_values& p) {
  const json j = serving_json(p);
  table t{{"serving plan (estimate)", "value"}, {}, {false, true}};
  auto shown = [](const json& value) {
    if (value.is_null()) return std::string("-");
    return value.is_number_float() ? shardplan::detail::significant(value.get<double>(), 4)
                                   : value.dump();
  };
  for (const auto& [key, value] : j.items()) {
    if (value.is_array() || key == "memory_per_device_bytes") continue;
    if (value.is_object()) {  // the roofline's and the measured error's figures, one level deep
      for (const auto& [inner, x] : value.items())
        if (!x.is_object() && !x.is_array()) t.rows.push_back({key + "." + inner, shown(x)});
      continue;
    }
    t.rows.push_back({key, shown(value)});
  }
  for (const auto& x : j["violations"])
    t.rows.push_back({x["rule"].get<std::string>(), x["message"].get<std::string>()});
  return t;
}

}  // namespace shardplan::io
