// The built-in catalogues as report tables: chips with their rates and intensities, models with
// their shapes and parameter counts.
#pragma once

#include <array>
#include <string>

#include <shardplan/core/format.hpp>
#include <shardplan/hardware/catalog.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/core/table.hpp>

namespace shardplan {

/// The chips with their peak bf16, fp16 and fp8 rates, memories, links, rated power and the
/// intensities (FLOP per byte, at the bf16 peak, or fp16 on a chip without bf16) at which memory,
/// the scale-up fabric and the scale-out network stop being the bound.
inline table chip_table() {
  table t{{"chip", "bf16 peak", "fp16 peak", "fp8 peak", "memory", "memory BW",
           "scale-up BW/axis", "scale-out BW", "power", "C/W memory", "C/W scale-up",
           "C/W scale-out"},
          {},
          {false, true, true, true, true, true, true, true, true, true, true, true}};
  auto or_dash = [](bool has, std::string s) { return has ? s : std::string("-"); };
  for (const auto& c : catalog_chips) {
    const bool up = scale_up_axis_bandwidth(c).value() > 0.0;
    const bool out = c.scale_out_bandwidth.value() > 0.0;
    const number_format f =
        c.peak_bf16.value() > 0.0 ? number_format::bf16 : number_format::fp16;
    t.rows.push_back({std::string(c.name), or_dash(c.peak_bf16.value() > 0.0, format(c.peak_bf16)),
                      or_dash(c.peak_fp16.value() > 0.0, format(c.peak_fp16)),
                      or_dash(c.peak_fp8.value() > 0.0, format(c.peak_fp8)), format(c.memory),
                      format(c.memory_bandwidth), or_dash(up, format(scale_up_axis_bandwidth(c))),
                      or_dash(out, format(c.scale_out_bandwidth)),
                      or_dash(c.power_watts > 0.0,
                              detail::significant(detail::round_significant(c.power_watts, 3), 3) +
                                  " W"),
                      format(memory_intensity(c, f)), or_dash(up, format(scale_up_intensity(c, f))),
                      or_dash(out, format(scale_out_intensity(c, f)))});
  }
  return t;
}

/// The chips' inside and what the kernel model makes of it: compute units, matrix clock, L2, the
/// near memory per unit, the deep-GEMM fraction, the fused attention's forward fraction, the
/// sustained share of a training step and the step model's measured error on published runs of
/// the family (`measured_step_error`; "-" where not measured).
inline table chip_inside_table() {
  table t{{"chip", "units", "matrix clock", "L2", "SMEM/VMEM per unit", "GEMM", "attention",
           "sustained", "measured error"},
          {},
          {false, true, true, true, true, true, true, true, true}};
  auto percent = [](double x) { return std::to_string(static_cast<int>(x * 100.0 + 0.5)) + "%"; };
  for (const auto& c : catalog_chips) {
    const kernel_fractions k = family_kernel_fractions(c);
    const double clock = matrix_clock_of(c.arch);
    const double error = measured_step_error(c);
    t.rows.push_back({std::string(c.name),
                      c.arch.compute_units > 0 ? std::to_string(c.arch.compute_units) : "-",
                      clock > 0.0 ? std::to_string(static_cast<int>(clock / 1e6 + 0.5)) + " MHz"
                                  : "-",
                      c.arch.l2.value() > 0.0 ? format(c.arch.l2) : "-",
                      c.arch.l1_smem.value() > 0.0 ? format(c.arch.l1_smem) : "-",
                      percent(k.gemm), percent(k.attention_forward), percent(k.sustained),
                      error > 0.0 ? percent(error) : "-"});
  }
  return t;
}

/// The models with their shapes and exact total and active parameter counts.
inline table model_table() {
  table t{{"model", "layers", "d_model", "heads/kv", "d_ff", "experts (top-k)", "total params",
           "active params"},
          {},
          {false, true, true, true, true, true, true, true}};
  for (const auto& m : catalog_models) {
    const auto p = parameters(m);
    const std::string experts =
        m.moe.experts > 0 ? std::to_string(m.moe.experts) + " (" + std::to_string(m.moe.top_k) + ")"
                          : "-";
    const std::int64_t ff = m.moe.experts > 0 ? m.moe.expert_d_ff : m.d_ff;
    t.rows.push_back({std::string(m.name), std::to_string(m.layers), std::to_string(m.d_model),
                      std::to_string(m.heads) + "/" + std::to_string(m.kv_heads),
                      std::to_string(ff), experts, format_count(static_cast<double>(p.total)),
                      format_count(static_cast<double>(p.active))});
  }
  return t;
}

/// The catalogue as the tool prints it: the chips, what the kernel model makes of their insides,
/// and the models (`shardplan catalog`).
inline std::string catalog_text(bool markdown) {
  std::string out =
      markdown ? "## Hardware\n\n" : "Hardware (peak dense rates from datasheets)\n\n";
  out += render(chip_table(), markdown);
  out += "\nC/W: peak bf16 FLOP/s over a bandwidth, the FLOP per byte moved at which that link "
         "stops being the bound.\n\n";
  out += markdown ? "## Inside, and what the kernel model makes of it\n\n"
                  : "Inside, and what the kernel model makes of it\n\n";
  out += render(chip_inside_table(), markdown);
  out += "\nGEMM: the deep-GEMM fraction of the bf16 peak; attention: the fused kernel's "
         "forward; sustained: the share of those a training step's GEMMs and memory-bound "
         "kernels keep (fused attention keeps its own); measured error: the step model's "
         "mean error on published runs of the family.\n\n";
  out += markdown ? "## Models\n\n" : "Models (exact parameter counts from the shapes)\n\n";
  out += render(model_table(), markdown);
  return out;
}

}  // namespace shardplan
