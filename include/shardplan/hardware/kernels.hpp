// Kernels as the chip runs them: the time of one GEMM, one attention call and one memory-bound
// operation from the chip's peak rates, its inside (compute units) and the achievable fractions
// published for each kind of kernel. Every figure is an estimate; `kernel_figures` says where
// each fraction comes from.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

namespace shardplan {

/// The attention kernel a framework calls.
/// - `automatic`: the chip's usual fused kernel (`default_attention_kernel`).
/// - `eager`: unfused, the s x s scores materialised (Megatron-LM 2021-22).
/// - `flash2`: FlashAttention-2 (Dao 2023), also PyTorch SDPA's flash backend.
/// - `flash3`: FlashAttention-3 (Shah et al. 2024), Hopper only.
/// - `cudnn`: cuDNN fused attention (Transformer Engine's default on Hopper and Blackwell).
/// - `splash`: TPU Pallas splash attention (MaxText).
enum class attention_kernel : std::uint8_t { automatic, eager, flash2, flash3, cudnn, splash };

/// The name of a kernel as reports and plan files spell it.
constexpr std::string_view kernel_name(attention_kernel k) {
  switch (k) {
    case attention_kernel::automatic: return "automatic";
    case attention_kernel::eager: return "eager";
    case attention_kernel::flash2: return "flash2";
    case attention_kernel::flash3: return "flash3";
    case attention_kernel::cudnn: return "cudnn";
    case attention_kernel::splash: return "splash";
  }
  return "?";
}

}  // namespace shardplan
