// What a whole training run costs once hardware fails: LLaMA-3 405B on 16,384 H100 for 15.6 T
// tokens (Llama 3 paper, arXiv:2407.21783: TP8, PP16, DP128 in Table 4; 16M tokens a step,
// sequences of 8192), with LLaMA 3's own interruption rates (Table 5: 419 unexpected and 47
// planned interruptions in 54 days) and checkpoint store (Tectonic, 7 TB/s peak).
//
// As Meta trained it: no activation checkpointing at 8K (Llama 3 paper, Sec. 3.3.2), which the
// memory model fits at 79.7 of 80 GB per GPU (`tight`) under a PyTorch FSDP stack's allocations
// (framework::torchtitan; interleaved 1F1B with 16 micro-batches on 16 stages runs every forward
// before the first backward, so a stage holds 16 micro-batches of its layers); under the generic
// framework's flat 2 GB + 5% reserve it does not fit. For comparison, Meta reports "higher than
// 90% effective training time" and the Llama 3.1 model card 30.84M H100-hours for the 405B model.
#include <iostream>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/io/reliability_report.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

template <class... Framework>
using llama3_405b_plan =
    training_plan<models::llama3_405b, systems::nvlink_fat_tree<hardware::h100_sxm, 2048>,
                  mesh<axis<"dp", 128>, axis<"pp", 16>, axis<"tp", 8, on<"node">>>, zero<2, "dp">,
                  pipeline<"pp", schedule::interleaved<2>, uneven_stages>,
                  tensor<"tp", sequence_parallel>,
                  batch<global_sequences<2048>, seq_len<8192>, micro_batch<1>>, recompute::none,
                  precision::bf16_mixed_adam, Framework...>;

// The published configuration fits under torchtitan's allocations, not under the flat reserve.
static_assert(!llama3_405b_plan<framework::generic>::fits);
// torchtitan with its layers compiled, as its own 405B benchmarks run (fused norms and rotary).
using plan = llama3_405b_plan<framework::torchtitan, compiled_layers>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);

constexpr run_inputs inputs{.tokens = 15.6e12, .price_per_chip_hour = 2.0};
constexpr run_totals run = run_estimate(plan::values, inputs);

// LLaMA 3's rate comes back at LLaMA 3's size: 419 / 54 = 7.76 unexpected interruptions a day,
// one every 54 · 24 / 419 = 3.09 hours.
static_assert(run.interruptions.unexpected > 7.75 && run.interruptions.unexpected < 7.77);
static_assert(run.interruptions.mtbf > 3.09 * 3600.0 * second);
static_assert(run.interruptions.mtbf < 3.10 * 3600.0 * second);
// 405,853,388,800 parameters x (4 bytes of fp32 master weights + 2 x 4 of Adam moments) = 4.87 TB.
static_assert(run.checkpoint.size > 4.87e12 * byte && run.checkpoint.size < 4.871e12 * byte);
// 929,833 steps of 16,777,216 tokens; the run finishes, at better than 90% goodput, in under
// 110 days.
static_assert(run.steps == 929'833.0);
static_assert(run.finishes && run.goodput > 0.9 && run.days < 110.0);

int main() {
  std::cout << "LLaMA-3 405B on 16384 H100 (2048 hosts of 8): TP8 x PP16 (interleaved, 2 virtual "
               "stages, uneven) x DP128 (ZeRO-2),\n16M tokens a step, no recomputation, torchtitan's "
               "allocations, "
               "15.6T tokens. Step "
            << format(run.step) << ", MFU " << detail::percent_text(run.mfu)
            << ", memory per GPU " << format(plan::memory_per_device().total) << ".\n\n"
            << "Assumptions:\n"
            << "- step time and MFU from shardplan's cost model (matmuls at "
            << detail::percent_text(plan::step().efficiency) << " of peak)\n"
            << "- failure rates from LLaMA 3's 54 days (Table 5), per GPU-hour or host-hour as "
               "below\n"
            << "- failures are independent and exponential, and stop the whole job\n"
            << "- a checkpoint saves fp32 master weights and Adam moments once, not the bf16 "
               "copy\n"
            << "- a planned interruption saves first and loses no work\n\n"
            << render_text(run_inputs_table(inputs)) << "\n"
            << render_text(reliability_table(run)) << "\n"
            << render_text(interruption_table(run)) << "\n"
            << render_text(checkpoint_table(run)) << "\n"
            << render_text(run_table(run)) << "\n"
            << render_text(time_lost_table(run)) << "\n";

  // How the answer moves with the two inputs we are least sure of.
  table sensitivity{{"variant", "days", "goodput", "GPU-hours"}, {}, {false, true, true, true}};
  auto variant = [&](const char* name, run_inputs in) {
    const run_totals r = run_estimate(plan::values, in);
    sensitivity.rows.push_back({name, detail::significant(detail::round_significant(r.days, 3), 3),
                                detail::percent_text(r.goodput),
                                detail::count_text(r.chip_hours)});
  };
  run_inputs fast_restart = inputs;
  fast_restart.restart_overhead = 120.0 * second;
  run_inputs slow_restart = inputs;
  slow_restart.restart_overhead = 1800.0 * second;
  run_inputs synchronous = inputs;
  synchronous.checkpoint.asynchronous = false;
  synchronous.storage_write = synchronous.storage_read = llama3_storage_sustained;
  variant("restart in 2 min", fast_restart);
  variant("restart in 10 min (above)", inputs);
  variant("restart in 30 min", slow_restart);
  variant("synchronous checkpoints at 2 TB/s", synchronous);
  std::cout << render_text(sensitivity);
}
// Output:
// LLaMA-3 405B on 16384 H100 (2048 hosts of 8): TP8 x PP16 (interleaved, 2 virtual stages, uneven) x DP128 (ZeRO-2),
// 16M tokens a step, no recomputation, torchtitan's allocations, 15.6T tokens. Step 7.97 s, MFU 32.8%, memory per GPU 79.1 GB.
//
// Assumptions:
// - step time and MFU from shardplan's cost model (matmuls at 59.8% of peak)
// - failure rates from LLaMA 3's 54 days (Table 5), per GPU-hour or host-hour as below
// - failures are independent and exponential, and stop the whole job
// - a checkpoint saves fp32 master weights and Adam moments once, not the bf16 copy
// - a planned interruption saves first and loses no work
//
// assumption                              value
// --------------------------------------  ------------------------------------------------------------
// token budget                            15.6 T tokens
// price                                   $2 per chip-hour
// storage write / read                    7 TB/s / 7 TB/s
// restart overhead (besides the restore)  10 min
// checkpoint                              asynchronous, without working weights, with optimizer states
// fixed stall per checkpoint              0 s
// gpu failures                            9.23e-06 per chip-hour
// hbm failures                            3.39e-06 per chip-hour
// host failures                           2e-05 per host-hour
// network failures                        1.65e-06 per chip-hour
// software failures                       2.37e-05 per host-hour
// planned interruptions                   1.77e-05 per host-hour
//
// reliability                   value
// ----------------------------  ------------------------------------------------------------------------------
// chips / hosts                 16384 / 2048
// unexpected interruptions      7.76 a day
// planned interruptions         0.87 a day
// job MTBF                      3.09 h
// checkpoint size               4.87 TB (299 MB on the fullest device)
// checkpoint stall              4.67 ms: copy to host memory (asynchronous checkpoint)
// checkpoint write / restore    696 ms / 696 ms
// checkpoint interval           1 step = 7.97 s (Daly's optimum 10.2 s for the stall and MTBF, in whole steps)
// expected cost of one failure  10.1 min
// days without / with failures  85.8 / 91.3
// goodput                       93.9%
// effective MFU                 30.8%
//
// cause                   per day  share
// ----------------------  -------  -----
// gpu                        3.63  46.8%
// hbm                        1.33  17.2%
// host                      0.981  12.6%
// network                   0.648  8.35%
// software                   1.17    15%
// unexpected                 7.76   100%
// planned (no work lost)     0.87      -
//
// checkpoint                                          value
// ----------------------------------------  ---------------
// size (the job's states, once)                     4.87 TB
// held by the fullest device                         299 MB
// write / restore at the storage bandwidth  696 ms / 696 ms
// stall per checkpoint (delta)                      4.67 ms
// durable after the stall (W)                        696 ms
// Young / Daly interval                     10.2 s / 10.2 s
// interval used (Daly's optimum)             1 step, 7.97 s
// restart with restore (R)                           10 min
// expected cost of one failure (L)                 10.1 min
//
// run         without failures  with failures
// ----------  ----------------  -------------
// steps                  930 k          930 k
// days                    85.8           91.3
// chip-hours            33.7 M         35.9 M
// cost                 $67.4 M        $71.8 M
// goodput                 100%          93.9%
// MFU                    32.8%          30.8%
//
// wall-clock time                 days      share
// --------------------------  --------  ---------
// training steps                  85.8      93.9%
// checkpoint stalls             0.0503     0.055%
// work redone after failures    0.0384    0.0421%
// restarts and restores           5.48         6%
// saves before planned stops  0.000644  0.000706%
// total                           91.3       100%
//
// variant                            days  goodput  GPU-hours
// ---------------------------------  ----  -------  ---------
// restart in 2 min                   86.9    98.7%     34.2 M
// restart in 10 min (above)          91.3    93.9%     35.9 M
// restart in 30 min                   105    81.9%     41.2 M
// synchronous checkpoints at 2 TB/s  93.3      92%     36.7 M
