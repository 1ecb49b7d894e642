// Tests of reliability.hpp and reliability_report.hpp: the Young and Daly intervals against their
// derivations and Daly's published figures, the expected loss and wall time against the exact
// Poisson model and a simulation, LLaMA 3's interruption counts, checkpoint sizes and whole runs.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/io/reliability_report.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

namespace {

constexpr double minute = 60.0;
constexpr double hour = 3600.0;

/// The τ in [lo, hi] that minimises f, by golden-section search.
double argmin(const std::function<double(double)>& f, double lo, double hi) {
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  double a = lo, b = hi;
  for (int i = 0; i < 200; ++i) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (f(c) < f(d)) b = d; else a = c;
  }
  return (a + b) / 2.0;
}

/// Daly's complete model of the wall time per unit of work (Daly 2006, Sec. 3), derived here.
/// Work runs in segments of c = τ + δ (τ of work, then a checkpoint of δ) under failures at rate
/// λ = 1/M. Let S be the expected time to finish one segment and Q the expected time to finish a
/// restart of R that a failure also restarts. With X ~ Exp(λ), the segment either survives
/// (X ≥ c, probability e^(−λc)) or fails after E[X | X < c] and needs a restart and a retry:
///   S = E[min(X, c)] + P(X < c)·(Q + S),  E[min(X, c)] = (1 − e^(−λc))/λ,
/// so S·e^(−λc) = (1 − e^(−λc))·(1/λ + Q) and S = (e^(λc) − 1)·(1/λ + Q). The same argument for
/// the restart gives Q = (e^(λR) − 1)/λ, so S = M·e^(R/M)·(e^((τ+δ)/M) − 1): per unit of work,
/// S/τ.
double daly_exact_factor(double tau, double delta, double r, double m) {
  return m / tau * std::exp(r / m) * (std::exp((tau + delta) / m) - 1.0);
}

/// A simulation of a run of `work` seconds of training: a snapshot every τ of training stalls the
/// job for δ and is durable W after the stall ends; failures arrive at exponential intervals of
/// mean M (inverse-CDF draws from a fixed-seed mt19937_64, so the result does not depend on the
/// standard library's distributions); a failure rolls the job back to the newest durable snapshot
/// and costs a restart of R, which a further failure starts again. Returns the wall time.
double simulate(double work, double tau, double delta, double w, double r, double m,
                std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto draw = [&] {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    return -m * std::log1p(-u);
  };
  double t = 0.0, progress = 0.0, durable = 0.0;
  std::vector<std::pair<double, double>> pending;  // (durable at, progress)
  double next_failure = draw();
  auto settle = [&](double now) {
    for (const auto& [at, p] : pending)
      if (at <= now && p > durable) durable = p;
    std::erase_if(pending, [now](const auto& x) { return x.first <= now; });
  };
  auto fail = [&] {
    t = next_failure;
    settle(t);
    pending.clear();
    progress = durable;
    next_failure = t + draw();
    while (next_failure < t + r) {  // the restart itself fails
      t = next_failure;
      next_failure = t + draw();
    }
    t += r;
  };
  while (progress < work) {
    const double boundary = std::min(work, (std::floor(progress / tau + 1e-9) + 1.0) * tau);
    if (next_failure < t + (boundary - progress)) {
      fail();
      continue;
    }
    t += boundary - progress;
    progress = boundary;
    settle(t);
    if (progress >= work) break;
    if (next_failure < t + delta) {  // fails during the stall: no snapshot
      fail();
      continue;
    }
    t += delta;
    pending.emplace_back(t + w, progress);
    settle(t);
  }
  return t;
}

// LLaMA-3 405B as Meta ran it on 16,384 H100 (Table 4: TP8, PP16, DP128, 16M tokens of 8192),
// with full recomputation so that it fits our memory model.
using llama3_plan =
    training_plan<models::llama3_405b, systems::nvlink_fat_tree<hardware::h100_sxm, 2048>,
                  mesh<axis<"dp", 128>, axis<"pp", 16>, axis<"tp", 8>>, zero<2, "dp">,
                  pipeline<"pp", schedule::interleaved<2>, uneven_stages>,
                  tensor<"tp", sequence_parallel>,
                  batch<global_sequences<2048>, seq_len<8192>, micro_batch<1>>, recompute::full,
                  precision::bf16_mixed_adam>;

// LLaMA 3 405B: 405,853,388,800 parameters (Hugging Face safetensors total, tests/unit/models.cpp).
constexpr double llama3_405b_parameters = 405'853'388'800.0;

}  // namespace

// --- Young and Daly ------------------------------------------------------------------------------

TEST_CASE("young's interval is where the first-order waste stops falling") {
  // Young (1974): per unit of time a checkpoint every τ wastes δ/τ, and a failure (one per M)
  // wastes τ/2 on average: w(τ) = δ/τ + τ/(2M); w'(τ) = −δ/τ² + 1/(2M) = 0 at τ = sqrt(2δM).
  const double delta = 5 * minute, m = 10 * hour;
  const double tau = young_interval(delta * second, m * second).value();
  CHECK(tau == doctest::Approx(std::sqrt(2.0 * 300.0 * 36000.0)).scale(0.0));  // 4647.6 s
  auto waste = [&](double x) { return delta / x + x / (2.0 * m); };
  CHECK(argmin(waste, 60.0, 10.0 * hour) == doctest::Approx(tau).epsilon(1e-6).scale(0.0));
}

TEST_CASE("daly's interval gives the optima of his figures 3 to 5") {
  // Daly (2006), captions of Figs. 3-5: δ = 5 min and R = 10 min; "the new model predicts
  // τopt = 117 min" for M = 24 h, 57 min for M = 6 h and 9.1 min for M = 15 min.
  auto daly_min = [](double m) {
    return daly_interval(5 * minute * second, m * second).value() / minute;
  };
  CHECK(daly_min(24 * hour) == doctest::Approx(117.0).epsilon(0.5 / 117.0).scale(0.0));
  CHECK(daly_min(6 * hour) == doctest::Approx(57.0).epsilon(0.5 / 57.0).scale(0.0));
  CHECK(daly_min(15 * minute) == doctest::Approx(9.1).epsilon(0.05 / 9.1).scale(0.0));
  // Written out for M = 6 h = 360 min: sqrt(2·5·360) = 60, δ/2M = 5/720;
  // 60·(1 + sqrt(5/720)/3 + 5/6480) − 5 = 60·(1 + 0.027778 + 0.000772) − 5 = 56.713 min.
  CHECK(daly_min(6 * hour) == doctest::Approx(56.713).epsilon(1e-4).scale(0.0));
}

TEST_CASE("daly's interval is the checkpoint interval itself once delta reaches 2M") {
  // Daly (2006): τopt = M for δ ≥ 2M.
  CHECK(daly_interval(3 * hour * second, 1 * hour * second).value() ==
        doctest::Approx(hour).scale(0.0));
}

TEST_CASE("daly's interval minimises the exact poisson wall time, young's only to first order") {
  // The exact wall time per unit of work, S/τ (daly_exact_factor, derived above), minimised
  // numerically. Its optimum does not depend on R: d/dτ [(e^((τ+δ)/M) − 1)/τ] = 0.
  for (const double m : {3.09 * hour, 6.0 * hour, 24.0 * hour}) {
    const double delta = 5 * minute, r = 10 * minute;
    const double best =
        argmin([&](double tau) { return daly_exact_factor(tau, delta, r, m); }, 1.0, 2.0 * m);
    const double daly = daly_interval(delta * second, m * second).value();
    const double young = young_interval(delta * second, m * second).value();
    CHECK(daly == doctest::Approx(best).epsilon(0.01).scale(0.0));
    CHECK(std::fabs(daly - best) < std::fabs(young - best));
  }
}

// --- the expected loss and the wall time ---------------------------------------------------------

TEST_CASE("a failure costs half a cycle, the durability lag and the restart") {
  // A failure lands uniformly in a cycle of τ of work and a stall of δ; the snapshot of the
  // cycle's start is durable W after its stall, so the job falls back to it: (τ + δ)/2 + W,
  // and then restarts for R.
  CHECK(expected_loss(3600.0 * second, 30.0 * second, 600.0 * second, 900.0 * second).value() ==
        doctest::Approx(3630.0 / 2.0 + 600.0 + 900.0).scale(0.0));
  // Synchronous (W = 0) with δ ≪ τ: Young's τ/2 plus the restart.
  CHECK(expected_loss(3600.0 * second, 0.0 * second, 0.0 * second, 0.0 * second).value() ==
        doctest::Approx(1800.0).scale(0.0));
}

TEST_CASE("the first-order wall time is the exact poisson model's to second order") {
  // LLaMA 3's MTBF (54·24/419 h), a 1-minute synchronous checkpoint at Daly's interval and a
  // 10-minute restart. The first-order factor (1 + δ/τ)/(1 − L/M) ≈ (c/τ)(1 + L/M + L²/M²), with
  // c = τ + δ and L = c/2 + R; the exact one (c/τ)(1 + R/M + R²/2M²)(1 + c/2M + c²/6M²) to the
  // same order. They differ by (c²/12 + cR/2 + R²/2)/M², first order being the larger.
  const double m = 54.0 * 24.0 / 419.0 * hour, delta = 60.0, r = 10 * minute;
  const double tau = daly_interval(delta * second, m * second).value();
  const double first = wall_time_factor(tau * second, delta * second, 0.0 * second, r * second,
                                        1.0 / m, 0.0);
  const double exact = daly_exact_factor(tau, delta, r, m);
  const double c = tau + delta;
  const double second_order = (c * c / 12.0 + c * r / 2.0 + r * r / 2.0) / (m * m);
  CHECK(first > exact);
  CHECK(first / exact - 1.0 == doctest::Approx(second_order).epsilon(0.15).scale(0.0));
  CHECK(first / exact - 1.0 < 0.01);
}

TEST_CASE("the wall time matches a simulated run with synchronous and asynchronous checkpoints") {
  // 200,000 h of work with M = 20 h: about 10,000 failures. Each costs a loss spread over a
  // cycle of an hour or more (σ ≈ 0.3 h), and their count is Poisson: the wall time's relative
  // standard error is about sqrt(10⁴)·0.9 h / 2.1·10⁵ h ≈ 0.05%, and the second-order terms the
  // first-order model leaves out ((R/M)·(τ/M), the lag after a restart) are of the same size.
  // The tolerance is 0.25%; the overhead itself is 5-10% of the work, so the check is tight.
  const double work = 200000.0 * hour, m = 20.0 * hour;
  struct scenario { double tau, delta, w, r; };
  for (const scenario s : {scenario{1.0 * hour, 30.0, 10.0 * minute, 10.0 * minute},
                           scenario{1.5 * hour, 5.0 * minute, 0.0, 15.0 * minute}}) {
    const double predicted = work * wall_time_factor(s.tau * second, s.delta * second,
                                                     s.w * second, s.r * second, 1.0 / m, 0.0);
    const double simulated = simulate(work, s.tau, s.delta, s.w, s.r, m, 20240723);
    CHECK(simulated / predicted == doctest::Approx(1.0).epsilon(0.0025).scale(0.0));
    CHECK(predicted / work - 1.0 > 0.04);
  }
}

TEST_CASE("planned interruptions cost a save and a restart but no work") {
  // No failures, one planned stop a day costing δ + W + R = 1 h: a day of wall time holds 23 h of
  // training (with δ/τ = 0): wall/work = 24/23.
  const double f = wall_time_factor(1e9 * second, 0.0 * second, 0.5 * hour * second,
                                    0.5 * hour * second, 0.0, 1.0 / 86400.0);
  CHECK(f == doctest::Approx(24.0 / 23.0).scale(0.0));
}

TEST_CASE("a run whose interruptions take all the time never finishes") {
  // One failure an hour, each costing more than an hour.
  CHECK(wall_time_factor(3600.0 * second, 0.0 * second, 0.0 * second, 3600.0 * second,
                         1.0 / 3600.0, 0.0) == 0.0);
}

// --- failure rates -------------------------------------------------------------------------------

TEST_CASE("llama 3's 419 unexpected interruptions in 54 days come back at 16,384 gpus") {
  // Llama 3 paper (arXiv:2407.21783) Sec. 3.3.4 and Table 5: 466 interruptions in 54 days, 47
  // planned and 419 unexpected, on 16,384 H100 in servers of 8 (2,048 hosts).
  const interruption_forecast f = forecast_interruptions(llama3_failure_rates, {16384.0, 2048.0});
  CHECK(f.unexpected == doctest::Approx(419.0 / 54.0).scale(0.0));  // 7.76 a day
  CHECK(f.planned == doctest::Approx(47.0 / 54.0).scale(0.0));
  CHECK(f.unexpected + f.planned == doctest::Approx(466.0 / 54.0).scale(0.0));
  CHECK(f.mtbf.value() == doctest::Approx(54.0 * 24.0 * hour / 419.0).scale(0.0));  // 3.09 h
  // Table 5, by our components: GPU 148 + 19 + 17 + 6 + 6 = 196, HBM3 72; host: maintenance 32,
  // NIC 7, SSD 3, power supply 3, chassis 2, IO board 2, CPU 2, system memory 2 = 53; network
  // switch and cable 35; software bug 54, dependency 2, NCCL watchdog 7 = 63.
  CHECK(f.gpu == doctest::Approx(196.0 / 54.0).scale(0.0));
  CHECK(f.hbm == doctest::Approx(72.0 / 54.0).scale(0.0));
  CHECK(f.host == doctest::Approx(53.0 / 54.0).scale(0.0));
  CHECK(f.network == doctest::Approx(35.0 / 54.0).scale(0.0));
  CHECK(f.software == doctest::Approx(63.0 / 54.0).scale(0.0));
  // The paper: "GPU issues are the largest category, accounting for 58.7%", the sum of its printed
  // percentages; the counts give (196 + 72) / 419 = 64.0%, as 148 / 419 = 35.3% is printed 30.1%.
  CHECK((f.gpu + f.hbm) / f.unexpected == doctest::Approx(268.0 / 419.0).scale(0.0));
}

TEST_CASE("failure rates scale with the chips, the hosts or the job") {
  // A quarter of LLaMA 3's GPUs in hosts of 4: 4,096 GPUs in 1,024 hosts. GPU, HBM and network
  // interruptions scale by 4096/16384, host, software and planned by 1024/2048.
  const interruption_forecast f = forecast_interruptions(llama3_failure_rates, {4096.0, 1024.0});
  CHECK(f.gpu == doctest::Approx(196.0 / 54.0 / 4.0).scale(0.0));
  CHECK(f.hbm == doctest::Approx(72.0 / 54.0 / 4.0).scale(0.0));
  CHECK(f.network == doctest::Approx(35.0 / 54.0 / 4.0).scale(0.0));
  CHECK(f.host == doctest::Approx(53.0 / 54.0 / 2.0).scale(0.0));
  CHECK(f.software == doctest::Approx(63.0 / 54.0 / 2.0).scale(0.0));
  CHECK(f.planned == doctest::Approx(47.0 / 54.0 / 2.0).scale(0.0));
  // A per-job rate does not scale: one interruption a day per job.
  failure_rates job_only{};
  job_only.software = {1.0 / 24.0, failure_scale::per_job};
  CHECK(forecast_interruptions(job_only, {8.0, 1.0}).unexpected == doctest::Approx(1.0).scale(0.0));
  CHECK(forecast_interruptions(job_only, {16384.0, 2048.0}).unexpected ==
        doctest::Approx(1.0).scale(0.0));
}

TEST_CASE("a system's hosts are its nvlink nodes, or four chips") {
  CHECK(chips_per_host(systems::nvlink_fat_tree<hardware::h100_sxm, 4>::figures) == 8);
  CHECK(chips_per_host(systems::nvlink_fat_tree<hardware::h100_sxm, 4, 4>::figures) == 4);
  CHECK(chips_per_host(systems::gb200_nvl72<2>::figures) == 4);
  CHECK(chips_per_host(systems::tpu_v5p_slice<4, 4, 4>::figures) == 4);
}

// --- checkpoints ---------------------------------------------------------------------------------

TEST_CASE("a mixed-precision adam checkpoint saves 12 bytes a parameter") {
  // fp32 master weights (4) and two fp32 Adam moments (8); the bf16 working copy (2) only when
  // asked; without master weights the working copy is the weights.
  const checkpoint_policy plain{};
  CHECK(checkpoint_bytes_per_parameter(precision::bf16_mixed_adam::policy, plain) == 12.0);
  CHECK(checkpoint_bytes_per_parameter(precision::bf16_mixed_adam::policy,
                                       {.working_weights = true}) == 14.0);
  CHECK(checkpoint_bytes_per_parameter(precision::bf16_mixed_adam::policy,
                                       {.optimizer_states = false}) == 4.0);
  // DeepSeek-V3's recipe keeps bf16 moments: 4 + 2·2 = 8.
  CHECK(checkpoint_bytes_per_parameter(precision::fp8_deepseek_v3::policy, plain) == 8.0);
  // The book's accounting has no master copy: bf16 weights and fp32 moments, 2 + 8 = 10.
  CHECK(checkpoint_bytes_per_parameter(precision::scaling_book_adam::policy, plain) == 10.0);
}

TEST_CASE("a device's checkpoint is the saved states it holds") {
  memory_breakdown m;
  m.parameters = 6.0 * byte;
  m.gradients = 100.0 * byte;
  m.master_weights = 2.0 * byte;
  m.optimizer = 4.0 * byte;
  const precision_policy& p = precision::bf16_mixed_adam::policy;
  CHECK(device_checkpoint_bytes(m, p, {}).value() == 6.0);  // master + optimizer
  CHECK(device_checkpoint_bytes(m, p, {.working_weights = true}).value() == 12.0);
  // No master copy: the parameters are the weights.
  CHECK(device_checkpoint_bytes(m, precision::scaling_book_adam::policy, {}).value() == 10.0);
}

// --- a whole run ---------------------------------------------------------------------------------

TEST_CASE("llama 3 405b's checkpoint is 4.87 TB and the fullest gpu holds 1/128 of its stage") {
  const run_totals r = run_estimate(llama3_plan::values, {.tokens = 15.6e12});
  CHECK(r.checkpoint.size.value() == doctest::Approx(llama3_405b_parameters * 12.0).scale(0.0));
  // 126 layers on 32 chunks (16 stages, 2 virtual): 3 each and 30 chunks one more, the two
  // short ones the ends (LLaMA 3, Sec. 3.3.2), so the first stage holds 3 + 4 = 7 layers of
  // 3,187,703,808 parameters (attention 570,425,344 and MLP 2,617,245,696 split 8 ways by TP,
  // norms 32,768 not) and the 128256 x 16384 embedding split 8 ways:
  // 7·(3,187,671,040/8 + 32,768) + 262,668,288 = 3,052,109,824 parameters a GPU; the stages
  // between the ends hold 4 + 4 = 8 layers and no embedding:
  // 8·(3,187,671,040/8 + 32,768) = 3,187,933,184, the fullest. ZeRO-2 shards master weights and
  // moments over DP 128: 12 bytes / 128 each.
  const device_parameters held = parameters_on_device(
      models::llama3_405b::shape, llama3_plan::values.setup, stage_position::first);
  CHECK(held.dense + held.expert == 3052109824.0);
  const double on_device = 8.0 * (3187671040.0 / 8.0 + 32768.0);
  CHECK(r.checkpoint.per_device.value() == doctest::Approx(on_device * 12.0 / 128.0).scale(0.0));
  // Asynchronous: the job stalls for the copy over PCIe Gen5 (64 GB/s); the write of 4.87 TB at
  // 7 TB/s follows in the background and so does the restore.
  CHECK(r.checkpoint.stall.value() == doctest::Approx(on_device * 12.0 / 128.0 / 64e9).scale(0.0));
  CHECK(r.checkpoint.write.value() ==
        doctest::Approx(llama3_405b_parameters * 12.0 / 7e12).scale(0.0));
  CHECK(r.checkpoint.durable_after.value() ==
        doctest::Approx(r.checkpoint.write.value()).scale(0.0));
  CHECK(r.checkpoint.restart.value() ==
        doctest::Approx(600.0 + llama3_405b_parameters * 12.0 / 7e12).scale(0.0));
}

TEST_CASE("a synchronous checkpoint stalls for the whole write") {
  const run_totals r = run_estimate(
      llama3_plan::values, {.tokens = 15.6e12,
                            .storage_write = llama3_storage_sustained,
                            .checkpoint = {.asynchronous = false},
                            .checkpoint_overhead = 2.0 * second});
  // 4.87 TB at 2 TB/s, plus the fixed 2 s.
  CHECK(r.checkpoint.stall.value() ==
        doctest::Approx(llama3_405b_parameters * 12.0 / 2e12 + 2.0).scale(0.0));
  CHECK(r.checkpoint.durable_after.value() == 0.0);
  // Daly's interval for that stall and the job MTBF, in whole steps.
  const double m = 54.0 * 24.0 * hour / 419.0;
  const double daly = daly_interval(r.checkpoint.stall, m * second).value();
  CHECK(r.checkpoint.source == interval_source::daly);
  CHECK(r.checkpoint.steps_between == std::round(daly / r.step.value()));
}

TEST_CASE("a slow store sets the interval of asynchronous checkpoints") {
  // At 10 GB/s the 4.87 TB take 487 s to write, far beyond Daly's interval for a stall of a few
  // milliseconds: a snapshot every ceil(487 s / step) steps.
  const byte_rate slow = 10e9 * byte / second;
  const run_totals r = run_estimate(
      llama3_plan::values, {.tokens = 15.6e12, .storage_write = slow, .storage_read = slow});
  CHECK(r.checkpoint.source == interval_source::storage);
  CHECK(r.checkpoint.steps_between ==
        std::ceil(llama3_405b_parameters * 12.0 / 10e9 / r.step.value()));
  CHECK(r.checkpoint.interval.value() >= r.checkpoint.write.value());
}

TEST_CASE("a run's days, chip-hours and cost follow from its steps and its interruptions") {
  const run_inputs in{.tokens = 15.6e12, .price_per_chip_hour = 2.0};
  const run_totals r = run_estimate(llama3_plan::values, in);
  // 15.6e12 tokens / 16,777,216 a step = 929,832.08: 929,833 steps.
  CHECK(r.steps == 929833.0);
  CHECK(r.ideal.value() == doctest::Approx(929833.0 * llama3_plan::step().step.value()).scale(0.0));
  CHECK(r.ideal_chip_hours == doctest::Approx(16384.0 * r.ideal.value() / hour).scale(0.0));
  CHECK(r.ideal_cost == doctest::Approx(2.0 * r.ideal_chip_hours).scale(0.0));
  // The wall time written out: λ = 419/54 a day, λp = 47/54 a day; L = (τ + δ)/2 + W + R and
  // P = δ + W + R; wall = ideal·(1 + δ/τ)/(1 − λL − λpP).
  const checkpoint_figures& k = r.checkpoint;
  const double tau = k.interval.value(), delta = k.stall.value(), w = k.durable_after.value();
  const double restart = 600.0 + k.restore.value();
  const double lambda = 419.0 / 54.0 / 86400.0, lambda_p = 47.0 / 54.0 / 86400.0;
  const double loss = (tau + delta) / 2.0 + w + restart;
  CHECK(k.loss.value() == doctest::Approx(loss).scale(0.0));
  const double wall = r.ideal.value() * (1.0 + delta / tau) /
                      (1.0 - lambda * loss - lambda_p * (delta + w + restart));
  CHECK(r.wall.value() == doctest::Approx(wall).scale(0.0));
  CHECK(r.days == doctest::Approx(wall / 86400.0).scale(0.0));
  CHECK(r.goodput == doctest::Approx(r.ideal.value() / wall).scale(0.0));
  CHECK(r.effective_mfu == doctest::Approx(r.mfu * r.goodput).scale(0.0));
  CHECK(r.chip_hours == doctest::Approx(16384.0 * wall / hour).scale(0.0));
  CHECK(r.cost == doctest::Approx(2.0 * r.chip_hours).scale(0.0));
  // The parts add up to the whole.
  CHECK((r.ideal + r.checkpoint_stalls + r.rework + r.restarts + r.planned_saves).value() ==
        doctest::Approx(r.wall.value()).scale(0.0));
  CHECK(r.unexpected_interruptions == doctest::Approx(wall * lambda).scale(0.0));
}

TEST_CASE("without failures a run takes its steps and saves once") {
  const run_totals r =
      run_estimate(llama3_plan::values, {.tokens = 15.6e12, .failures = failure_rates{}});
  CHECK(r.checkpoint.source == interval_source::run);
  CHECK(r.checkpoint.steps_between == r.steps);
  CHECK(r.interruptions.mtbf.value() == 0.0);
  // One stall of a few milliseconds over 100 days.
  CHECK(r.goodput == doctest::Approx(1.0).epsilon(1e-9).scale(0.0));
}

TEST_CASE("a run that cannot outpace its failures is reported as never finishing") {
  // A four-hour restart against a 3.09-hour MTBF.
  const run_totals r = run_estimate(llama3_plan::values, {.tokens = 15.6e12,
                                                          .price_per_chip_hour = 2.0,
                                                          .restart_overhead = 4.0 * hour * second});
  CHECK_FALSE(r.finishes);
  CHECK(std::isinf(r.days));
  CHECK(std::isinf(r.cost));
  CHECK_FALSE(r.days < 60.0);
  CHECK(r.ideal_days > 0.0);
  // Without a checkpoint store every failure would start the run over.
  const byte_rate none = 0.0 * byte / second;
  CHECK_FALSE(run_estimate(llama3_plan::values,
                           {.tokens = 15.6e12, .storage_write = none, .storage_read = none})
                  .finishes);
}

// --- the report ----------------------------------------------------------------------------------

TEST_CASE("the reliability section names each figure once and carries the run's values") {
  const run_totals r = run_estimate(llama3_plan::values, {.tokens = 15.6e12});
  std::set<std::string_view> keys;
  for (const reliability_figure& f : reliability_figures(r)) keys.insert(f.key);
  CHECK(keys.size() == reliability_figure_count);
  for (const reliability_figure& f : reliability_figures(r)) {
    if (f.key == "goodput") CHECK(f.value == r.goodput);
    if (f.key == "days") CHECK(f.value == r.days);
    if (f.key == "unexpected_interruptions_per_day") CHECK(f.value == r.interruptions.unexpected);
  }
}

TEST_CASE("the report tables print the interruptions and the run") {
  const run_totals r = run_estimate(llama3_plan::values, {.tokens = 15.6e12});
  const std::string interruptions = render_text(interruption_table(r));
  CHECK(interruptions.find("unexpected") != std::string::npos);
  CHECK(interruptions.find("7.76") != std::string::npos);  // 419 / 54
  const std::string checkpoints = render_text(checkpoint_table(r));
  CHECK(checkpoints.find("4.87 TB") != std::string::npos);
  const std::string run = render_markdown(run_table(r));
  CHECK(run.find("| goodput") != std::string::npos);
  CHECK(render_text(reliability_table(r)).find("job MTBF") != std::string::npos);
  CHECK(render_text(run_inputs_table({.tokens = 15.6e12})).find("7 TB/s / 7 TB/s") !=
        std::string::npos);
}
