// Precision policies: the number format of each kind of training state and of the matrix units.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>

#include <shardplan/hardware/chip.hpp>

namespace shardplan {

/// How an fp8 (or fp4) recipe scales its tensors before the matmul. The scaling decides what
/// the casts cost (`training/operations.hpp`) and how close the GEMMs come to the fp8 peak.
/// - `none`: no low-precision matmuls (bf16, fp16).
/// - `delayed_tensorwise`: one scale per tensor from an amax history (Transformer Engine's
///   `DelayedScaling`, Micikevicius et al. 2022 arXiv:2209.05433); the amax is found in the cast.
/// - `tensorwise`: one scale per tensor from this step's amax (torchao Float8 "tensorwise",
///   Transformer Engine's current scaling): an amax pass before each cast.
/// - `rowwise`: one scale per row (torchao Float8 "rowwise"): the transposed operands of the
///   backward pass are cast again along the other axis.
/// - `blockwise`: 1x128 tiles of activations and 128x128 blocks of weights (DeepSeek-V3,
///   arXiv:2412.19437 Sec. 3.3.2), scales applied in the GEMM's accumulation.
/// - `mx_block32`: OCP microscaling, 32 elements share an 8-bit exponent scale (MXFP8 on
///   Blackwell, applied by the tensor cores).
/// - `nv_block16`: NVFP4, 16 elements share an fp8 scale (Blackwell).
enum class low_precision_scaling : std::uint8_t {
  none,
  delayed_tensorwise,
  tensorwise,
  rowwise,
  blockwise,
  mx_block32,
  nv_block16,
};

/// The name a recipe's scaling goes by in reports and plan files.
constexpr std::string_view scaling_name(low_precision_scaling s) {
  switch (s) {
    case low_precision_scaling::none: return "none";
    case low_precision_scaling::delayed_tensorwise: return "delayed tensorwise";
    case low_precision_scaling::tensorwise: return "tensorwise";
    case low_precision_scaling::rowwise: return "rowwise";
    case low_precision_scaling::blockwise: return "blockwise";
    case low_precision_scaling::mx_block32: return "mx block 32";
    case low_precision_scaling::nv_block16: return "nvfp4 block 16";
  }
  return "?";
}

/// Bytes per parameter, gradient, master copy and optimizer state, and the compute format.
/// A zero byte count means the state is not kept (e.g. no fp32 master copy).
/// `compute` is the format of the linear layers' matmuls (the weight GEMMs of attention, MLP and
/// experts). With an fp8 or fp4 `compute`, attention's QK^T and PV stay in bf16 unless
/// `low_precision_attention`, and the logits stay in bf16: no published fp8 training recipe
/// (Transformer Engine, torchao Float8, DeepSeek-V3) converts them.
struct precision_policy {
  std::string_view name;
  double parameter_bytes = 2.0;  ///< the working copy the forward pass reads (bf16: 2)
  double gradient_bytes = 2.0;   ///< accumulated gradients (bf16: 2; fp32 accumulation: 4)
  double master_bytes = 4.0;     ///< fp32 master weights the optimizer updates (0: none)
  double optimizer_state_bytes = 4.0;  ///< bytes of one optimizer state per parameter
  std::int64_t optimizer_states = 2;   ///< Adam: first and second moment
  double activation_bytes = 2.0;       ///< stored activations
  number_format compute = number_format::bf16;  ///< the linear layers' matmul input format
  low_precision_scaling scaling = low_precision_scaling::none;  ///< how fp8/fp4 inputs are scaled
  bool low_precision_attention = false;  ///< attention's products in `compute` too (FA3 fp8)
};

/// The format attention's QK^T and PV run in: bf16 (fp16 where the recipe is fp16) unless the
/// The format of the matmuls no low-precision recipe converts (the logits; attention unless the
/// recipe says so): the compute format when it is 16 or 32 bits (fp16 on a V100, which has no
/// bf16), else bf16.
constexpr number_format unconverted_format(const precision_policy& p) {
  const bool low = p.compute == number_format::fp8 || p.compute == number_format::fp4 ||
                   p.compute == number_format::int8 || p.compute == number_format::int4;
  return low ? number_format::bf16 : p.compute;
}

/// recipe puts attention in its low-precision format too.
constexpr number_format attention_format(const precision_policy& p) {
  return p.low_precision_attention ? p.compute : unconverted_format(p);
}

/// A type that names a precision policy: it carries `static constexpr precision_policy policy`.
template <class T>
concept PrecisionSpec = requires {
  { T::policy } -> std::convertible_to<const precision_policy&>;
};

/// Bytes of a gradient element as the policy holds it, the parameters' where it counts none (the
/// book's accounting).
constexpr double held_gradient_bytes(const precision_policy& p) {
  return p.gradient_bytes > 0.0 ? p.gradient_bytes : p.parameter_bytes;
}

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

/// fp8 matrix units with the DeepSeek-V3 recipe (arXiv:2412.19437, Sec. 3.3): fp8 GEMM inputs
/// with 1x128 / 128x128 block scales, bf16 working weights and gradients in memory, fp32 master
/// weights, bf16 Adam moments.
struct fp8_deepseek_v3 {
  static constexpr precision_policy policy{.name = "fp8 compute (DeepSeek-V3)",
                                           .optimizer_state_bytes = 2.0,
                                           .compute = number_format::fp8,
                                           .scaling = low_precision_scaling::blockwise};
};

/// Transformer Engine's fp8 recipe (`DelayedScaling`, as Megatron-Core `--fp8-format hybrid`,
/// NeMo and llm-foundry run it): linear layers in fp8 with per-tensor scales from an amax
/// history; bf16 weights and gradients, fp32 master weights and Adam moments (16 bytes/param).
struct fp8_delayed {
  static constexpr precision_policy policy{.name = "fp8 linear layers (delayed scaling)",
                                           .compute = number_format::fp8,
                                           .scaling = low_precision_scaling::delayed_tensorwise};
};

/// torchao Float8 with dynamic tensorwise scales (torchtitan `--model.converters float8`,
/// `recipe_name = "tensorwise"`): linear layers in fp8, one scale per tensor from this step's
/// amax; otherwise bf16 mixed-precision Adam.
struct fp8_tensorwise {
  static constexpr precision_policy policy{.name = "fp8 linear layers (tensorwise scaling)",
                                           .compute = number_format::fp8,
                                           .scaling = low_precision_scaling::tensorwise};
};

/// torchao Float8 with rowwise scales (torchtitan `recipe_name = "rowwise"`): linear layers in
/// fp8, one scale per row; otherwise bf16 mixed-precision Adam.
struct fp8_rowwise {
  static constexpr precision_policy policy{.name = "fp8 linear layers (rowwise scaling)",
                                           .compute = number_format::fp8,
                                           .scaling = low_precision_scaling::rowwise};
};

/// MXFP8 on Blackwell (Megatron-Core `--fp8-recipe mxfp8`): linear layers in fp8 with a shared
/// 8-bit exponent per 32 elements, applied by the tensor cores; otherwise bf16 mixed-precision
/// Adam.
struct mxfp8 {
  static constexpr precision_policy policy{.name = "mxfp8 linear layers",
                                           .compute = number_format::fp8,
                                           .scaling = low_precision_scaling::mx_block32};
};

/// NVFP4 on Blackwell (Megatron-Core `--fp4-format e2m1`): linear layers in fp4 with an fp8
/// scale per 16 elements; otherwise bf16 mixed-precision Adam.
struct nvfp4 {
  static constexpr precision_policy policy{.name = "nvfp4 linear layers",
                                           .compute = number_format::fp4,
                                           .scaling = low_precision_scaling::nv_block16};
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
