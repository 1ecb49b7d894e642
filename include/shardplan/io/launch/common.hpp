// What the launch-config exporters share: the plan's facts, the line builder, the opening lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <shardplan/hardware/system.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>

// What each exporter targets, and where its names were checked (stored copies of the projects'
// sources; commits abbreviated), is written at the top of its header; the pinned commits:
//   Megatron-LM  io/launch/megatron.hpp    NVIDIA/Megatron-LM 000c4ac
//   torchtitan   io/launch/torchtitan.hpp  pytorch/torchtitan 6404b93
//   MaxText      io/launch/maxtext.hpp     AI-Hypercomputer/maxtext 003b416
//   DeepSpeed    io/launch/deepspeed.hpp   deepspeedai/DeepSpeed 00376da

namespace shardplan {

namespace detail::launch {

/// The plan's degrees and batch as the exporters use them. Counts are 64-bit integers.
struct facts {
  std::int64_t devices = 1;
  std::int64_t data = 1;  ///< every data-parallel replica, ZeRO and expert axes included
  std::int64_t zero_stage = 0;
  std::int64_t zero = 1;      ///< devices that shard model states (1 without ZeRO)
  std::int64_t replicas = 1;  ///< data / zero: plain replicas beside the ZeRO group
  std::int64_t tensor = 1;
  bool sequence_parallel = false;
  std::int64_t pipeline = 1;
  std::int64_t virtual_stages = 1;
  std::int64_t context = 1;
  std::int64_t expert = 1;
  std::int64_t sequences = 0;  ///< global batch in sequences
  std::int64_t seq_len = 0;
  std::int64_t micro_batch = 1;    ///< sequences per micro-batch per replica
  std::int64_t micro_batches = 0;  ///< micro-batches per replica per step
};

inline facts facts_of(const training_plan_values& p) {
  const parallel_degrees& d = p.setup.degrees;
  const batch_settings& b = p.setup.batch;
  facts f;
  f.devices = mesh_devices(p);
  f.data = d.data;
  f.zero_stage = d.zero_stage;
  f.zero = d.zero_stage > 0 ? d.zero : 1;
  f.replicas = f.zero > 0 && f.data % f.zero == 0 ? f.data / f.zero : f.data;
  f.tensor = d.tensor;
  f.sequence_parallel = d.sequence_parallel && d.tensor > 1;
  f.pipeline = d.pipeline;
  f.virtual_stages = d.virtual_stages;
  f.context = d.context;
  f.expert = d.expert;
  f.seq_len = b.seq_len;
  f.micro_batch = b.micro_batch;
  f.sequences = b.seq_len > 0 ? b.global_tokens / b.seq_len : 0;
  f.micro_batches = d.data > 0 && b.micro_batch > 0 ? f.sequences / d.data / b.micro_batch : 0;
  return f;
}

inline std::string n(std::int64_t x) { return std::to_string(x); }

/// Text built line by line, with the target's comment marker ("#" or "//").
struct lines {
  std::string out;
  std::string_view marker = "#";

  /// A comment line; a control character in `s` (a model name of a user's type, say) becomes a
  /// space, so the comment cannot end early and start a line of config.
  void note(std::string_view s) {
    out += marker;
    out += ' ';
    for (char c : s) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
    out += '\n';
  }
  void raw(std::string_view s) {
    out += s;
    out += '\n';
  }
};

/// "llama3-405b on dgx h100 superpod (16384 devices): DP 128 (ZeRO-1 over 128) x TP 8 (sequence
/// parallel) x PP 16 (2 virtual stages) x CP 1 x EP 1".
inline std::string plan_summary(const training_plan_values& p, const facts& f) {
  std::string s = std::string(p.model.name) + " on " + std::string(p.system.name) + " (" +
                  n(f.devices) + " devices): DP " + n(f.data);
  if (f.zero_stage > 0) s += " (ZeRO-" + n(f.zero_stage) + " over " + n(f.zero) + ")";
  s += " x TP " + n(f.tensor) + (f.sequence_parallel ? " (sequence parallel)" : "");
  s += " x PP " + n(f.pipeline);
  if (f.virtual_stages > 1) s += " (" + n(f.virtual_stages) + " virtual stages)";
  s += " x CP " + n(f.context) + " x EP " + n(f.expert);
  s += "; " + n(f.sequences) + " sequences of " + n(f.seq_len) + " tokens per step, micro-batch " +
       n(f.micro_batch);
  return s;
}

/// One warning line per rule the plan breaks: the export goes on, but says so.
inline void note_violations(lines& out, const training_plan_values& p) {
  const plan_violations v = check(p);
  for (std::size_t i = 0; i < v.count; ++i)
    out.note("warning: the plan breaks a rule: " + describe(v.items[i]));
}

/// The comment lines (marked `marker`) every export opens with: `title`, naming the format and
/// the upstream commit it targets; the plan in one line; one warning per rule the plan breaks.
inline lines opening(const training_plan_values& p, const facts& f, std::string_view marker,
                     std::string_view title) {
  lines out{{}, marker};
  out.note(title);
  out.note("plan: " + plan_summary(p, f));
  note_violations(out, p);
  return out;
}

inline std::string_view schedule_name(pipeline_schedule s) {
  switch (s) {
    case pipeline_schedule::gpipe:
      return "GPipe";
    case pipeline_schedule::one_f_one_b:
      return "1F1B";
    case pipeline_schedule::interleaved:
      return "interleaved 1F1B";
    case pipeline_schedule::zero_bubble:
      return "zero-bubble ZB-H1";
  }
  return "?";
}

/// Layers of pipeline chunk `k` of `chunks` when `layers` are split as evenly as possible, the
/// first chunks taking the remainder.
constexpr std::int64_t chunk_layers(std::int64_t layers, std::int64_t chunks, std::int64_t k) {
  return layers / chunks + (k < layers % chunks ? 1 : 0);
}

/// A non-negative rational as a decimal ("0.125", "2.0"); `exact` is false when it needs more
/// than 12 decimals.
struct decimal {
  std::string text;
  bool exact = true;
};

inline decimal decimal_of(std::int64_t num, std::int64_t den) {
  if (den <= 0) return {"0.0", false};
  std::string s = n(num / den) + ".";
  std::int64_t rem = num % den;
  if (rem == 0) return {s + "0", true};
  for (int i = 0; i < 12 && rem != 0; ++i) {
    rem *= 10;
    s += static_cast<char>('0' + rem / den);
    rem %= den;
  }
  return {s, rem == 0};
}

}  // namespace detail::launch

}  // namespace shardplan
