// Shared parts of the validation runner (validate.cpp): the run record, `evaluate`, the chips
// that differ from the catalogue, and the published-figure-to-step conversions, each in its
// source's own FLOP or token accounting. Sources and verbatim figures: RUNS.md and
// CANDIDATE_RUNS.md.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "shardplan/shardplan.hpp"
#include "shardplan/training/cost.hpp"

namespace validation {

using namespace shardplan;

/// A running mean of absolute errors (%), for the summaries of both runners.
struct mean {
  double sum = 0.0;
  int n = 0;
  void add(double x) {
    sum += x;
    ++n;
  }
  double value() const { return n > 0 ? sum / n : 0.0; }
};

/// Prints one summary: the mean absolute error of each group (`note` follows the title).
inline void print_group(const char* title, const std::map<std::string, mean>& groups,
                        const char* note = "") {
  std::printf("\nmean absolute error per %s%s\n", title, note);
  for (const auto& [name, m] : groups)
    std::printf("  %-34s %3d runs  %6.1f%%\n", name.c_str(), m.n, m.value());
}

// --- chips that differ from the catalogue ---------------------------------------------------

/// Meta Grand Teton H100 as in torchtitan's benchmarks: "96GB HBM2e with 2.4 TB/sec ... default
/// 500W power limit", and of its matrix peak: "In our test we used HBM2e-based SXM H100 with lower
/// TDP, the actual peak TFLOPs number is between SXM and NVL, and we don't know its exact value"
/// (benchmarks/llama3_h100_202412_torchtitan.md, footnote 2). The matrix peaks are the midpoint
/// of the H100 SXM's and the H100 NVL's (hardware::h100_nvl, 835.5 of 989.4 TFLOPS in bf16, the
/// same 0.844 in every format): 0.922 of the SXM's, 912 TFLOPS bf16. The midpoint is our
/// assumption inside the stated range; either end moves these runs' predictions by 8%.
struct h100_96gb_500w {
  static constexpr double matrix_share =
      (1.0 + hardware::h100_nvl::figures.peak_bf16.value() /
                 hardware::h100_sxm::figures.peak_bf16.value()) /
      2.0;
  static constexpr chip_figures figures = [] {
    chip_figures f = hardware::h100_sxm::figures;
    f.name = "h100 96gb hbm2e 500w";
    f.memory = 96.0 * giga * byte;
    f.memory_bandwidth = 2.4 * tera * byte / second;
    f.peak_tf32 = f.peak_tf32 * matrix_share;
    f.peak_bf16 = f.peak_bf16 * matrix_share;
    f.peak_fp16 = f.peak_fp16 * matrix_share;
    f.peak_fp8 = f.peak_fp8 * matrix_share;
    f.peak_int8 = f.peak_int8 * matrix_share;
    f.arch.matrix_clock = f.arch.matrix_clock * matrix_share;
    return f;
  }();
};

/// `chip` in a node whose NICs give each GPU `nic_gbps_per_node / 8` of scale-out bandwidth.
constexpr chip_figures with_node_nics(chip_figures f, std::string_view name,
                                      double nic_gbps_per_node) {
  f.name = name;
  f.scale_out_bandwidth = nic_gbps_per_node * giga * bits * byte / second / 8.0;
  return f;
}

/// Google Cloud's A3 High VM (a3-highgpu-8g, "A3 (h100-80gb-8)" in MaxText's table): 8 H100 SXM
/// and, for GPU traffic between VMs, "up to four" secondary NICs of "up to 200 Gbps" each
/// (GPUDirect-TCPX; cloud.google.com/kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-tcpx;
/// the VM's 1,000 Gbps in compute/docs/gpus/gpu-network-bandwidth counts the 200 Gbps main NIC
/// too): 800 Gbps a VM. What GPU traffic between VMs reaches is less, and the figures carry that:
/// two VMs measure 70.90 GB/s of all-gather bus bandwidth at 512 MiB (nccl-tests over TCPX,
/// GoogleCloudPlatform/cluster-toolkit examples/gke-a3-highgpu/multi-node-test-plan.md @5a7be766,
/// the same table at 37e5703a). A ring all-gather over 16 GPUs, 8 a VM, sends each VM's half of
/// the array S out of it: t = (S / 2) / E, and bus bandwidth is S · 15/16 / t = 1.875 E, so a VM's
/// egress E = 70.90 / 1.875 = 37.8 GB/s, 302.5 Gb/s: 38% of the NICs' rate. (The same table's
/// 256 MiB row, 69.44 GB/s, gives 37.0 GB/s; below 64 MiB a floor of about 1 ms a call, which
/// the collective model's latency does not reach, dominates.)
struct h100_a3_high {
  static constexpr double measured_egress_gbps = 70.90 / 1.875 * 8.0;
  static constexpr chip_figures figures =
      with_node_nics(hardware::h100_sxm::figures, "h100 sxm (a3 high)", measured_egress_gbps);
};

/// Jean Zay A100 80 GB nodes (BLOOM): "8 GPUs per node Using NVLink 4 inter-gpu connects, 4
/// OmniPath links" (tr11's README), 400 Gb/s a node ("Intel OPA full bandwidth. Which is
/// supposed to be 400Gbps max", bigscience experiments/bandwidth/README.md): 50 Gb/s a GPU. The
/// same page measures NCCL's all-reduce far below it before the run (4 A100 nodes, NCCL 2.10.3:
/// 1.52 s for 4 GB over 32 GPUs, 41 Gb/s of bus bandwidth); that rate would make BLOOM's gradient
/// all-reduce alone longer than its GBS 16 step, so it is not the run's and the line rate stays.
struct a100_80gb_jean_zay {
  static constexpr chip_figures figures =
      with_node_nics(hardware::a100_80gb::figures, "a100 sxm4 80gb (jean zay)", 4.0 * 100.0);
};

// --- the run record -----------------------------------------------------------------------------

enum class half { calibration, held_out };

constexpr const char* name_of(half h) {
  return h == half::calibration ? "calibration" : "held-out";
}

/// What a run is, besides its plan: id, source tag ("S01 Narayanan 2021"), half, whether
/// CANDIDATE_RUNS.md marks it low-confidence, and why it may miss.
struct run_meta {
  std::string_view id;
  std::string_view source;
  half part = half::calibration;
  bool low_confidence = false;
  std::string_view why = {};
};

struct result {
  std::string id;
  std::string source;
  std::string chip;
  half part = half::calibration;
  bool low_confidence = false;
  std::int64_t chips = 0;
  bool fits = true;
  std::string rules;  ///< broken plan rules, empty when the plan is feasible
  double predicted = 0.0;
  double published = 0.0;
  step_cost cost{};
  std::string why;
  std::string family;           ///< the chip family `measured_step_error` tells apart
  double family_error = 0.0;    ///< `measured_step_error` of the chip, a fraction

  double error() const { return (predicted - published) / published * 100.0; }
  /// Exposed communication as a share of the predicted step.
  double communication_share() const {
    return predicted > 0.0 ? cost.communication_exposed.value() / predicted : 0.0;
  }
};

/// Estimates `Plan` with its own assumptions (attention convention, overlap: plan options) and
/// records it against the published step.
template <class Plan>
result evaluate(const run_meta& m, double published_step) {
  result r;
  r.id = std::string(m.id);
  r.source = std::string(m.source);
  r.part = m.part;
  r.low_confidence = m.low_confidence;
  r.chip = std::string(Plan::values.system.chip.name);
  {
    const chip_figures& c = Plan::values.system.chip;
    r.family = c.kind == chip_kind::tpu ? "TPU"
               : c.kind == chip_kind::cpu ? "CPU"
               : generation_of(c) == gpu_generation::hopper ? "Hopper"
               : generation_of(c) == gpu_generation::blackwell ? "Blackwell"
                                                              : "Ampere";
    r.family_error = measured_step_error(c);
  }
  r.chips = mesh_devices(Plan::values);
  for (std::size_t i = 0; i < Plan::violations.count; ++i) {
    const violation& x = Plan::violations.items[i];
    if (x.rule == plan_rule::fits_in_memory) r.fits = false;
    if (!r.rules.empty()) r.rules += "; ";
    r.rules += x.rule == plan_rule::fits_in_memory ? "DOES NOT FIT: " : "rule broken: ";
    r.rules += describe(x);
  }
  r.cost = estimate_step(Plan::values);
  r.predicted = r.cost.step.value();
  r.published = published_step;
  r.why = std::string(m.why);
  return r;
}

// --- published figures as step times -----------------------------------------------------------

/// Seconds per step from published tokens per second (whole job).
constexpr double step_from_tokens(double tokens_per_step, double tokens_per_second) {
  return tokens_per_step / tokens_per_second;
}

/// Seconds per step from published tokens per second per GPU: GBS·seq / (TPS/GPU · GPUs).
constexpr double step_from_tokens_per_gpu(double sequences, double seq, double per_gpu,
                                          double gpus) {
  return sequences * seq / (per_gpu * gpus);
}

/// Seconds per iteration from Megatron's Eq. 3 hardware TFLOP/s (Narayanan et al. 2021):
/// s = 2048, V = 51,200.
inline double megatron_step(double batch, double layers, double hidden, double gpus,
                            double tflops) {
  return (megatron_flops_per_iteration(batch, 2048.0, layers, hidden, 51200.0) /
          (gpus * tflops * tera * flop / second))
      .value();
}

/// Seconds per step from Megatron-Core r0.8's `num_floating_point_operations`
/// (megatron/training/training.py at f2e5db4) for an MHA, non-gated GPT:
/// F = 12·B·s·l·h²·((2 + s/h) + d_ff/h + V/(2·l·h)).
constexpr double mcore_step(double batch, double seq, double layers, double hidden, double ffn,
                            double vocab, double gpus, double tflops) {
  const double f = 12.0 * batch * seq * layers * hidden * hidden *
                   ((2.0 + seq / hidden) + ffn / hidden + vocab / (2.0 * layers * hidden));
  return f / (gpus * tflops * 1e12);
}

/// Seconds per step from MaxText's `calculate_training_tflops` at 76bd53b (per device):
/// 6·N·S·pdb + ½·12·heads·L·head_dim·S²·pdb (N all parameters; causal attention halved),
/// divided by the published TFLOP/s per chip (the chip count cancels).
constexpr double maxtext_step(double params, double layers, double heads, double head_dim,
                              double seq, double per_device_batch, double tflops) {
  const double f = 6.0 * params * seq * per_device_batch +
                   6.0 * heads * layers * head_dim * seq * seq * per_device_batch;
  return f / (tflops * 1e12);
}

/// Seconds per step from NeMo's `flops_formulas.py` llama2/llama3 (non-causal s² term):
/// F = GBS·s·L·h²·(12 + 12·g/a + 18·d_ff/h + 12·s/h + 6·V/(L·h)).
constexpr double nemo_llama_step(double batch, double seq, double layers, double hidden,
                                 double heads, double kv_heads, double ffn, double vocab,
                                 double gpus, double tflops) {
  const double f = batch * seq * layers * hidden * hidden *
                   (12.0 + 12.0 * kv_heads / heads + 18.0 * ffn / hidden + 12.0 * seq / hidden +
                    6.0 * vocab / (layers * hidden));
  return f / (gpus * tflops * 1e12);
}

/// Seconds per step from published model TFLOP/s per chip under PaLM's 6N + 12·L·H·Q·T.
template <class Model>
double palm_step(double tokens_per_step, double seq, double chips, double tflops) {
  const model_shape& m = Model::shape;
  const double n = static_cast<double>(model_parameters<Model>().total);
  const flops per_token =
      palm_flops_per_token(n, static_cast<double>(m.layers), static_cast<double>(m.heads),
                           static_cast<double>(m.head_dim), seq);
  return (per_token * tokens_per_step / (chips * tflops * tera * flop / second)).value();
}

/// The attention FLOP convention of eager (Megatron 2021-22) runs: the kernel computes the whole
/// s x s product (RUNS.md rule 6).
using eager_full = attention_counted_as<attention_flops::full>;

using runs = std::vector<result>;

}  // namespace validation
