// Static tests of reliability.hpp: LLaMA 3's interruption counts, the Young and Daly intervals,
// checkpoint sizes and whole runs, each worked out by hand. Compiling is passing.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/training/training_plan.hpp>

namespace {

using namespace shardplan;

constexpr bool within(double x, double lo, double hi) { return x > lo && x < hi; }

// --- LLaMA 3's Table 5, as transcribed ----------------------------------------------------------

using table5 = failure_data::llama3_405b;
// The eighteen rows add up to the 419 unexpected interruptions, and our five components take
// every row once: 196 + 72 + 53 + 35 + 63 = 419.
static_assert(table5::faulty_gpu + table5::gpu_hbm3_memory + table5::software_bug +
                  table5::network_switch_and_cable + table5::host_maintenance +
                  table5::gpu_sram_memory + table5::gpu_system_processor + table5::nic +
                  table5::nccl_watchdog_timeouts + table5::silent_data_corruption +
                  table5::gpu_thermal_interface_and_sensor + table5::ssd + table5::power_supply +
                  table5::server_chassis + table5::io_expansion_board + table5::dependency +
                  table5::cpu + table5::system_memory ==
              table5::unexpected);
static_assert(table5::gpu == 196 && table5::hbm == 72 && table5::host == 53 &&
              table5::network == 35 && table5::software == 63);
static_assert(table5::gpu + table5::hbm + table5::host + table5::network + table5::software ==
              table5::unexpected);
// 466 interruptions in all; 2,048 hosts of 8.
static_assert(table5::unexpected + table5::planned == 466);
static_assert(table5::hosts == 2048);

// At LLaMA 3's size the rates give back 419 / 54 = 7.759 a day, one every 3.093 hours.
constexpr interruption_forecast llama3_size =
    forecast_interruptions(llama3_failure_rates, {16384.0, 2048.0});
static_assert(within(llama3_size.unexpected, 7.7592, 7.7593));
static_assert(within(llama3_size.mtbf.value(), 3.0930 * 3600.0, 3.0931 * 3600.0));
// One DGX H100 node (8 GPUs, 1 host): 419/54 · 8/16384 of the chip-scaled causes and 1/2048 of
// the host-scaled ones: (196 + 72 + 35)/54 · 8/16384 + (53 + 63)/54/2048 = 0.00379 a day.
static_assert(within(forecast_interruptions(llama3_failure_rates, {8.0, 1.0}).unexpected,
                     0.003787, 0.003789));

// --- intervals -----------------------------------------------------------------------------------

// Young: sqrt(2 · 300 s · 36000 s) = 4647.58 s.
static_assert(within(young_interval(300.0 * second, 36000.0 * second).value(), 4647.5, 4647.7));
// Daly's Fig. 3: M = 24 h, δ = 5 min: 120·(1 + sqrt(5/2880)/3 + 5/25920) − 5 = 116.69 min ("117").
static_assert(within(daly_interval(300.0 * second, 86400.0 * second).value() / 60.0, 116.6,
                     116.8));
// δ ≥ 2M: checkpoint every M.
static_assert(daly_interval(7200.0 * second, 3600.0 * second).value() == 3600.0);

// --- checkpoints ---------------------------------------------------------------------------------

static_assert(checkpoint_bytes_per_parameter(precision::bf16_mixed_adam::policy, {}) == 12.0);
static_assert(checkpoint_bytes_per_parameter(precision::megatron_mixed_adam::policy, {}) == 12.0);
static_assert(checkpoint_bytes_per_parameter(precision::bf16_adam_8bit::policy, {}) == 6.0);

// --- a whole run, checked at compile time -------------------------------------------------------

// LLaMA-3 405B on 16,384 H100, Meta's 4D layout with full recomputation, 15.6 T tokens.
using llama3_plan =
    training_plan<models::llama3_405b, systems::nvlink_fat_tree<hardware::h100_sxm, 2048>,
                  mesh<axis<"dp", 128>, axis<"pp", 16>, axis<"tp", 8>>, zero<2, "dp">,
                  pipeline<"pp", schedule::interleaved<2>, uneven_stages>,
                  tensor<"tp", sequence_parallel>,
                  batch<global_sequences<2048>, seq_len<8192>, micro_batch<1>>, recompute::full,
                  precision::bf16_mixed_adam>;
constexpr run_totals llama3_run = run_estimate(llama3_plan::values, {.tokens = 15.6e12});
// The kind of promise a plan can make: it finishes within 120.5 days at better than 90% goodput.
// Meta's run took 30.84M H100-hours (Llama 3.1 model card) on 16,384 GPUs, 78.4 days; full
// recomputation repeats the forward, 4/3 of the compute, 104.6 days; within two of the step
// model's mean absolute errors on Hopper (2 x 7.6%, `measured_step_error`: a run's error lies
// inside twice the mean nine times in ten where errors are normal), 120.5 days. (The bound was
// 110 days, one error, until RUNS.md item 34 made the model's Megatron-like runs slower.)
static_assert(llama3_run.finishes && llama3_run.days < 120.5 && llama3_run.goodput > 0.9);
// 16,384 chips in 2,048 hosts (the fat tree's nodes of 8); 929,833 steps of 16M tokens.
static_assert(llama3_run.chips == 16384.0 && llama3_run.hosts == 2048.0);
static_assert(llama3_run.steps == 929833.0);
// 405,853,388,800 parameters x 12 bytes = 4.870 TB, written at 7 TB/s in 0.696 s.
static_assert(within(llama3_run.checkpoint.size.value(), 4.870e12, 4.871e12));
static_assert(within(llama3_run.checkpoint.write.value(), 0.6957, 0.6958));
// Failures add time, never remove it; effective MFU is below the step's.
static_assert(llama3_run.days > llama3_run.ideal_days);
static_assert(llama3_run.effective_mfu < llama3_run.mfu);

// A restart longer than the job's MTBF: the run never finishes, and no finite promise holds.
constexpr run_inputs hopeless{.tokens = 15.6e12, .restart_overhead = 4.0 * 3600.0 * second};
static_assert(!run_estimate(llama3_plan::values, hopeless).finishes);
static_assert(!(run_estimate(llama3_plan::values, hopeless).days < 1e9));

// LLaMA-3 8B on one DGX H100 node: 0.0038 failures a day, one every 264 days; goodput near 1.
using small_plan = training_plan<models::llama3_8b, systems::dgx_h100_superpod<1>,
                                 mesh<axis<"dp", 8>>, fsdp<"dp">,
                                 batch<global_sequences<64>, seq_len<8192>, micro_batch<1>>,
                                 recompute::selective>;
constexpr run_totals small_run = run_estimate(small_plan::values, {.tokens = 1e11});
static_assert(small_run.hosts == 1.0);
static_assert(small_run.interruptions.mtbf.value() > 260.0 * 86400.0);
static_assert(small_run.goodput > 0.99);

}  // namespace
