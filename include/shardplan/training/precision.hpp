// Precision policies: the number format of each kind of training state and of the matrix units.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>

#include <shardplan/hardware/chip.hpp>

namespace shardplan {

/// Bytes per parameter, gradient, master copy and optimizer state, and the compute format.
/// A zero byte count means the state is not kept (e.g. no fp32 master copy).
struct precision_policy {
  std::string_view name;
  double parameter_bytes = 2.0;  ///< the working copy the forward pass reads (bf16: 2)
  double gradient_bytes = 2.0;   ///< accumulated gradients (bf16: 2; fp32 accumulation: 4)
  double master_bytes = 4.0;     ///< fp32 master weights the optimizer updates (0: none)
  double optimizer_state_bytes = 4.0;  ///< bytes of one optimizer state per parameter
  std::int64_t optimizer_states = 2;   ///< Adam: first and second moment
  double activation_bytes = 2.0;       ///< stored activations
  number_format compute = number_format::bf16;  ///< the matrix units' input format
};

/// A type that names a precision policy: it carries `static constexpr precision_policy policy`.
template <class T>
concept PrecisionSpec = requires {
  { T::policy } -> std::convertible_to<const precision_policy&>;
};

/// Bytes of model state per parameter: the "16" of mixed-precision Adam (ZeRO paper, Sec. 3:
/// 2 + 2 + K with K = 12).
constexpr double model_state_bytes_per_parameter(const precision_policy& p) {
  return p.parameter_bytes + p.gradient_bytes + p.master_bytes +
         p.optimizer_state_bytes * static_cast<double>(p.optimizer_states);
}

namespace precision {

/// Mixed-precision Adam as in the ZeRO paper (Rajbhandari et al. 2020, Sec. 3.1): bf16/fp16
/// parameters and gradients, fp32 master weights, fp32 momentum and variance: 16 bytes/param.
struct bf16_mixed_adam {
  static constexpr precision_policy policy{.name = "bf16 mixed-precision Adam"};
};

/// Megatron-LM's accounting (Korthikanti et al. 2022, Fig. 1): 16-bit weights, fp32 gradients
/// (gradient accumulation in fp32), fp32 master weights, fp32 Adam moments: 18 bytes/param.
struct megatron_mixed_adam {
  static constexpr precision_policy policy{.name = "Megatron mixed-precision Adam",
                                           .gradient_bytes = 4.0};
};

/// fp8 matrix units with the DeepSeek-V3 recipe (arXiv:2412.19437, Sec. 3.3): fp8 GEMM inputs,
/// bf16 working weights and gradients in memory, fp32 master weights, bf16 Adam moments.
struct fp8_deepseek_v3 {
  static constexpr precision_policy policy{.name = "fp8 compute (DeepSeek-V3)",
                                           .optimizer_state_bytes = 2.0,
                                           .compute = number_format::fp8};
};

/// 8-bit Adam (Dettmers et al. 2022): block-wise quantised moments, 1 byte each (the small
/// per-block scales are ignored), otherwise as bf16 mixed-precision Adam.
struct bf16_adam_8bit {
  static constexpr precision_policy policy{.name = "bf16 with 8-bit Adam",
                                           .optimizer_state_bytes = 1.0};
};

/// How to Scale Your Model's accounting (training.md, applied-training.md): bf16 parameters and
/// two fp32 Adam moments, "2 + 8 = 10 bytes/param"; gradients and master weights left out.
struct scaling_book_adam {
  static constexpr precision_policy policy{.name = "bf16 params + fp32 Adam (book)",
                                           .gradient_bytes = 0.0,
                                           .master_bytes = 0.0};
};

}  // namespace precision

}  // namespace shardplan
