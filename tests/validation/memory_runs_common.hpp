// Shared parts of the memory validation runner (memory_validate.cpp): the measured-peak record,
// `measure`, and the unit conversions of the published figures. Sources, verbatim figures and
// the rules for unstated inputs: MEMORY.md and CANDIDATE_MEMORY_PEAKS.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runs_common.hpp"

namespace validation {

/// What the source's tooling measured.
enum class peak_kind : std::uint8_t {
  allocated,  ///< torch.cuda `allocated_bytes.all.peak` (live tensors)
  reserved,   ///< torch.cuda `reserved_bytes.all.peak` (caching allocator segments)
  active,     ///< torch.cuda `active_bytes.all.peak` (allocated + pending frees)
  unstated,   ///< the source does not say
};

constexpr const char* name_of(peak_kind k) {
  switch (k) {
    case peak_kind::allocated: return "allocated";
    case peak_kind::reserved: return "reserved";
    case peak_kind::active: return "active";
    case peak_kind::unstated: return "unstated";
  }
  return "?";
}

// --- published figures in GB (10^9 bytes, shardplan's unit) ----------------------------------

/// GiB (2^30 bytes), as torchtitan, torchao and torchtune print them.
constexpr double gib(double x) { return x * 1073741824.0 / 1e9; }
/// Bytes, as Megatron-LM's golden values hold them.
constexpr double from_bytes(double x) { return x / 1e9; }
/// GB (10^9 bytes), as Megatron-Bridge prints them.
constexpr double gb(double x) { return x; }

struct memory_meta {
  std::string_view id;
  std::string_view source;
  half part = half::calibration;
  peak_kind kind = peak_kind::reserved;
  std::string_view why = {};
};

/// Whose memory a source reports (MEMORY.md, "Measured rank"): Megatron-LM's golden values come
/// from the last rank, which writes its TensorBoard log (the last pipeline stage); the others
/// are rank 0, the maximum over ranks, or unstated, compared with the fuller stage.
constexpr bool measures_last_rank(std::string_view source) { return source.starts_with("S4 "); }

struct memory_result {
  std::string id;
  std::string source;
  std::string chip;
  half part = half::calibration;
  peak_kind kind = peak_kind::reserved;
  std::int64_t chips = 0;
  std::int64_t pipeline = 1;
  bool fits = true;
  std::string rules;
  double capacity = 0.0;   ///< GB
  double predicted = 0.0;  ///< GB, the part of memory_per_device() the kind of peak counts
  double measured = 0.0;   ///< GB
  double last_stage = 0.0;  ///< GB, the last pipeline stage's total (pipelined plans)
  memory_breakdown m{};
  std::string why;

  double error() const { return (predicted - measured) / measured * 100.0; }
};

/// The part of the predicted total that the source's tooling counts: a reserved peak (PyTorch's
/// `reserved_bytes`, what nvidia-smi-like figures and torchtitan print) holds everything; an
/// allocated or active peak (`allocated_bytes`, `active_bytes`, Megatron's `max allocated`) holds
/// the live tensors only: not the CUDA context, not NCCL's buffers (NCCL allocates them itself,
/// outside the caching allocator) and not the allocator's fragmentation; under the flat reserve
/// (generic framework) not the reserve. An unstated kind is compared with everything.
inline double counted_gb(const memory_breakdown& m, peak_kind kind) {
  if (kind == peak_kind::reserved || kind == peak_kind::unstated) return m.total.value() / 1e9;
  const bytes outside = m.reserve + m.cuda_context + m.nccl_buffers + m.fragmentation;
  return (m.total - outside).value() / 1e9;
}

/// Predicts `Plan`'s memory per device and records it against the measured peak (GB).
template <class Plan>
memory_result measure(const memory_meta& meta, double measured_gb) {
  memory_result r;
  r.id = std::string(meta.id);
  r.source = std::string(meta.source);
  r.part = meta.part;
  r.kind = meta.kind;
  r.chip = std::string(Plan::values.system.chip.name);
  r.chips = mesh_devices(Plan::values);
  r.pipeline = Plan::values.setup.degrees.pipeline;
  for (std::size_t i = 0; i < Plan::violations.count; ++i) {
    const violation& x = Plan::violations.items[i];
    if (x.rule == plan_rule::fits_in_memory) r.fits = false;
    if (!r.rules.empty()) r.rules += "; ";
    r.rules += x.rule == plan_rule::fits_in_memory ? "DOES NOT FIT: " : "rule broken: ";
    r.rules += describe(x);
  }
  constexpr memory_breakdown m = Plan::memory_per_device();
  r.m = m;
  r.capacity = Plan::values.system.chip.memory.value() / 1e9;
  r.predicted = counted_gb(m, meta.kind);
  if (r.pipeline > 1) {
    r.last_stage = counted_gb(
        stage_memory(Plan::values.model, Plan::values.setup, stage_position::last), meta.kind);
    if (measures_last_rank(meta.source)) r.predicted = r.last_stage;
  }
  r.measured = measured_gb;
  r.why = std::string(meta.why);
  return r;
}

using memory_runs = std::vector<memory_result>;

}  // namespace validation
