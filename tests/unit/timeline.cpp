// Tests of training/timeline.hpp: the bubble each schedule's timeline leaves against the
// published formulas (GPipe: Huang et al. 2019; 1F1B and interleaved 1F1B: Narayanan et al. 2021,
// Sec. 2.2; ZB-H1: Qi et al. 2024, Sec. 3), the first stage's in-flight micro-batches against
// Korthikanti et al.'s memory, and what sends between stages add, derived below.
#include <doctest/doctest.h>

#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/timeline.hpp>
#include <shardplan/training/training_plan.hpp>

namespace {

using namespace shardplan;

// A forward of 1 and a backward of 2 (the backward's two GEMMs per forward GEMM).
pass_durations unit_passes() {
  pass_durations d;
  d.forward = 1.0 * second;
  d.backward = 2.0 * second;
  return d;
}

}  // namespace

TEST_CASE("the timeline's bubble is the published one in the ideal case") {
  for (std::int64_t p : {2, 4, 8}) {
    for (std::int64_t m : {8, 16, 32}) {
      const double compute = 3.0 * static_cast<double>(m);
      // GPipe and 1F1B: the first and last stages idle p − 1 slots of a forward and a backward.
      for (pipeline_schedule s : {pipeline_schedule::gpipe, pipeline_schedule::one_f_one_b}) {
        const pipeline_timeline t = lay_out_pipeline(s, p, 1, m, unit_passes());
        CHECK(t.busy.value() == doctest::Approx(compute).scale(0.0));
        CHECK(t.bubble.value() / compute ==
              doctest::Approx(static_cast<double>(p - 1) / static_cast<double>(m)).scale(0.0));
      }
      // Interleaved with v chunks a stage: each chunk is 1/v of a stage, so the idle slots are
      // 1/v as long: (p − 1)/(v·m).
      for (std::int64_t v : {2, 4}) {
        pass_durations d = unit_passes();
        d.forward = d.forward / static_cast<double>(v);
        d.backward = d.backward / static_cast<double>(v);
        const pipeline_timeline t = lay_out_pipeline(pipeline_schedule::interleaved, p, v, m, d);
        CHECK(t.busy.value() == doctest::Approx(compute).scale(0.0));
        CHECK(t.bubble.value() / compute ==
              doctest::Approx(static_cast<double>(p - 1) / static_cast<double>(v * m)).scale(0.0));
      }
      // ZB-H1 with equal F, B and W: the bubble is (p − 1)(F + B − W) = (p − 1)·F, a third of
      // 1F1B's (p − 1)(F + B + W).
      pass_durations z;
      z.forward = z.backward = z.weight = 1.0 * second;
      const pipeline_timeline t = lay_out_pipeline(pipeline_schedule::zero_bubble, p, 1, m, z);
      CHECK(
          t.bubble.value() / compute ==
          doctest::Approx(static_cast<double>(p - 1) / (3.0 * static_cast<double>(m))).scale(0.0));
    }
  }
}

TEST_CASE("the first stage holds the micro-batches the memory model charges") {
  const std::int64_t p = 4, m = 16;
  // GPipe: every micro-batch; 1F1B and ZB-H1: p; interleaved with v chunks: its warm-up of
  // (p − 1)·2 + (v − 1)·p chunk passes plus one, p·v + p − 1 chunks = p·(1 + (p − 1)/(p·v))
  // stages' worth (Korthikanti et al. 2022, Sec. 4.2.3).
  CHECK(lay_out_pipeline(pipeline_schedule::gpipe, p, 1, m, unit_passes()).first_stage_in_flight ==
        m);
  CHECK(lay_out_pipeline(pipeline_schedule::one_f_one_b, p, 1, m, unit_passes())
            .first_stage_in_flight == p);
  pass_durations z;
  z.forward = z.backward = z.weight = 1.0 * second;
  CHECK(lay_out_pipeline(pipeline_schedule::zero_bubble, p, 1, m, z).first_stage_in_flight == p);
  for (std::int64_t v : {2, 3})
    CHECK(lay_out_pipeline(pipeline_schedule::interleaved, p, v, m, unit_passes())
              .first_stage_in_flight == p * v + p - 1);
}

TEST_CASE("sends between stages lengthen the chain: GPipe pays 2(p - 1) of them") {
  // GPipe: micro-batch 0 reaches the last stage after (p − 1)(F + S); its forwards and backwards
  // then run back to back, m(F + B); the last backward returns through p − 1 stages, (p − 1)(B + S).
  // Makespan m(F + B) + (p − 1)(F + B) + 2(p − 1)·S.
  const std::int64_t p = 4, m = 8;
  pass_durations d = unit_passes();
  d.send = 0.5 * second;
  const pipeline_timeline t = lay_out_pipeline(pipeline_schedule::gpipe, p, 1, m, d);
  CHECK(t.makespan.value() == doctest::Approx(8.0 * 3.0 + 3.0 * 3.0 + 2.0 * 3.0 * 0.5).scale(0.0));
  // Every schedule's makespan grows with the send, and by at least the same 2(p − 1)·S.
  for (pipeline_schedule s : {pipeline_schedule::one_f_one_b, pipeline_schedule::interleaved}) {
    const pipeline_timeline ideal = lay_out_pipeline(s, p, 2, m, unit_passes());
    const pipeline_timeline slow = lay_out_pipeline(s, p, 2, m, d);
    CHECK(slow.makespan.value() >= ideal.makespan.value() + 2.0 * 3.0 * 0.5 - 1e-9);
  }
}

TEST_CASE("every pass starts after its inputs and its stage's previous pass") {
  const pipeline_timeline t =
      lay_out_pipeline(pipeline_schedule::interleaved, 4, 2, 8, unit_passes());
  CHECK(t.passes.size() == static_cast<std::size_t>(2 * 4 * 2 * 8));
  std::vector<double> last(4, 0.0);
  for (const timeline_pass& x : t.passes) {
    CHECK(x.start.value() >= last[static_cast<std::size_t>(x.stage)] - 1e-12);
    CHECK(x.end.value() > x.start.value());
    last[static_cast<std::size_t>(x.stage)] = x.end.value();
  }
}

TEST_CASE("layouts that cannot exist are refused with their reason") {
  CHECK_THROWS_WITH(lay_out_pipeline(pipeline_schedule::interleaved, 4, 2, 6, unit_passes()),
                    doctest::Contains("groups of the 4 stages"));
  CHECK_THROWS_WITH(lay_out_pipeline(pipeline_schedule::one_f_one_b, 0, 1, 6, unit_passes()),
                    doctest::Contains("at least 1"));
}

TEST_CASE("a plan's timeline: its schedule, its compute split into passes, its sends") {
  // LLaMA-3 70B on 64 H100: PP 8 (1F1B) x TP 8, 32 micro-batches of one 4096-token sequence.
  using plan = training_plan<models::llama3_70b, systems::dgx_h100_superpod<8>,
                             mesh<axis<"pp", 8>, axis<"tp", 8, on<"node">>>,
                             pipeline<"pp", schedule::one_f_one_b>, tensor<"tp", sequence_parallel>,
                             batch<global_sequences<32>, seq_len<4096>, micro_batch<1>>,
                             recompute::selective, precision::bf16_mixed_adam>;
  const pipeline_timeline t = pipeline_timeline_of(plan::values);
  const step_cost c = plan::step();
  CHECK(t.stages == 8);
  CHECK(t.micro_batches == 32);
  // The stage's passes add up to the step's compute; the bubble is at least the formula's
  // (p − 1)/m of it, more by the sends on the chain.
  CHECK(t.busy.value() == doctest::Approx(c.compute.value()).scale(0.0));
  CHECK(t.bubble.value() >= c.compute.value() * 7.0 / 32.0 - 1e-9);
  CHECK(t.bubble.value() <= c.bubble.value() * 1.5);
  // Its streams: a send after every forward but the last stage's and every backward but the
  // first's, 7 x 32 each; the tensor-parallel collectives in each of the 8 x 32 x 2 passes,
  // adding up to the step's; no data axis, so no data-parallel bar.
  std::size_t sends = 0, layer = 0, data = 0;
  double layer_time = 0.0, layer_exposed = 0.0;
  for (const timeline_transfer& x : t.transfers) {
    if (x.stream == transfer_stream::pipeline) ++sends;
    if (x.stream == transfer_stream::layer) {
      ++layer;
      if (x.stage == 0) {
        layer_time += (x.end - x.start).value();
        layer_exposed += x.exposed.value();
      }
    }
    if (x.stream == transfer_stream::data) ++data;
  }
  CHECK(sends == 2 * 7 * 32);
  CHECK(layer == 8 * 32 * 2);
  CHECK(data == 0);
  double tensor_time = 0.0, tensor_exposed = 0.0;
  for (std::size_t i = 0; i < c.traffic_count; ++i)
    if (c.traffic[i].strategy.rfind("tensor", 0) == 0) {
      tensor_time += c.traffic[i].time.value();
      tensor_exposed += c.traffic[i].exposed.value();
    }
  CHECK(layer_time == doctest::Approx(tensor_time).scale(0.0));
  CHECK(layer_exposed == doctest::Approx(tensor_exposed).scale(0.0));
}

TEST_CASE("every stage holds what the memory model's chunks_in_flight says") {
  // The timeline counts, stage by stage, the chunks forwarded and not yet backward-passed; the
  // memory model's closed form (training/memory.hpp) must agree for every schedule, with fewer,
  // as many and more micro-batches than stages.
  for (pipeline_schedule s : {pipeline_schedule::gpipe, pipeline_schedule::one_f_one_b,
                              pipeline_schedule::interleaved}) {
    for (std::int64_t p : {2, 4, 8}) {
      for (std::int64_t v : {1, 2, 3}) {
        if (s != pipeline_schedule::interleaved && v > 1) continue;
        for (std::int64_t m : {p, 2 * p, 3 * p}) {
          const pipeline_timeline t = lay_out_pipeline(s, p, v, m, unit_passes());
          std::vector<std::int64_t> now(static_cast<std::size_t>(p), 0), peak = now;
          for (const timeline_pass& x : t.passes) {
            auto& n = now[static_cast<std::size_t>(x.stage)];
            n += x.kind == pass_kind::forward ? 1 : -1;
            peak[static_cast<std::size_t>(x.stage)] =
                std::max(peak[static_cast<std::size_t>(x.stage)], n);
          }
          parallel_degrees d;
          d.pipeline = p;
          d.virtual_stages = v;
          d.schedule = s;
          for (std::int64_t stage = 0; stage < p; ++stage)
            CHECK(chunks_in_flight(d, static_cast<double>(m), stage) ==
                  static_cast<double>(peak[static_cast<std::size_t>(stage)]));
        }
      }
    }
  }
}
