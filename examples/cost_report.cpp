// A plan that asserts at compile time that it is compute-bound, and its report: where each axis
// lands, the traffic per axis and the time breakdown of a step (an estimate).
// LLaMA-3 70B on a TPU v5p 8x16x16 slice (2048 chips): FSDP over 512 chips, 4-way tensor
// parallelism, 8 M tokens a step (How to Scale Your Model's FSDP + TP recipe).
#include <iostream>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/io/report.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

using plan = training_plan<models::llama3_70b, systems::tpu_v5p_slice<8, 16, 16>,
                           mesh<axis<"fsdp", 512>, axis<"tp", 4>>, fsdp<"fsdp">, tensor<"tp">,
                           batch<global_tokens<2048 * 4096>, seq_len<4096>, micro_batch<1>>,
                           recompute::full, precision::bf16_mixed_adam>;

SHARDPLAN_REQUIRE_FEASIBLE(plan);
// 4096 tokens a chip against FSDP's threshold (C/W)·(b/2)·P_reduced/P_active, which for a dense
// model with bf16 gradients (b = 2) sharing a replica over M chips is C/(W·M): the fsdp axis spans ici-y and ici-z whole
// (wrapping, 2 · 1.8e11 B/s) and 2 of ici-x's 8 chips (no wraparound, 9e10 B/s): W = 4.5e11 B/s,
// and M = 4 chips share a replica: 4.59e14 / (4.5e11 · 4) = 255. The 4-way tensor axis is a
// sub-ring of ici-x without wraparound, W = 9e10 · 4/3 = 1.2e11 B/s: its limit is
// F·W/C = 28672 · 1.2e11 / 4.59e14 = 7.5.
static_assert(plan::compute_bound);
static_assert(plan::bounds().items[0].critical < 256.0);
static_assert(plan::step().mfu > 0.4);

int main() {
  const step_cost c = plan::step();
  std::cout << render_text(placement_table(plan::values)) << "\n"
            << render_text(bounds_table(plan::values)) << "\n"
            << render_text(traffic_table(plan::values, c)) << "\n"
            << render_text(time_table(c));
}
// Output:
// axis  size  parallelism  links                                                                    bandwidth (all-gather)
// ----  ----  -----------  -----------------------------------------------------------------------  ----------------------
// fsdp   512  zero         ici-x x2 (ici, no wrap), ici-y x16 (ici, wraps), ici-z x16 (ici, wraps)                450 GB/s
// tp       4  tensor       ici-x x4 (ici, no wrap)                                                                120 GB/s
//
// axis  bound                                                               threshold  plan  compute-bound
// ----  ------------------------------------------------------------------  ---------  ----  -------------
// fsdp  tokens per device (C/W)·(b/2)·P_reduced/P_active, W with (n-1)/n        255  4096  yes
// tp    largest degree F·W/C, W with (n-1)/n                                   7.496     4  yes
//
// strategy               collective      axis  per step    array  sent forward  sent backward    time  exposed
// ---------------------  --------------  ----  --------  -------  ------------  -------------  ------  -------
// fsdp parameter gather  all-gather      fsdp         8  35.3 GB        141 GB         141 GB  627 ms  3.92 ms
// fsdp gradient scatter  reduce-scatter  fsdp         4  35.3 GB           0 B         141 GB  314 ms  3.92 ms
// tensor all-reduce      all-reduce      tp        1920  67.1 MB       64.4 GB         129 GB  2.15 s   2.15 s
//
// time per step (estimate)                                                                        value
// ---------------------------------------------------------------------------------------------  ------
// compute (operations timed by the kernel model; matmuls at 80.2% of the compute format's peak)  6.94 s
//   of which memory-bound operations                                                             539 ms
// pipeline bubble                                                                                   0 s
// communication not hidden                                                                       2.16 s
// optimizer update                                                                               349 us
// step                                                                                            9.1 s
// roofline lower bound (peak rates)                                                              5.13 s
// MFU (of the bf16 peak)                                                                          42.5%
// tokens per second per device                                                                    450.3
