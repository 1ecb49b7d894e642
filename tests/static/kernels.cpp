// Static tests of the kernel model's GEMM fractions: at the shape where the "Maximum Achievable
// Matmul FLOPS" search (stas00/ml-engineering, compute/accelerator/README.md, MAMF table) found
// each chip's best matmul, the model gives that chip's measured fraction of peak.
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/hardware/amd.hpp>
#include <shardplan/hardware/nvidia.hpp>

namespace {

using namespace shardplan;
namespace hw = shardplan::hardware;

constexpr bool within(double x, double expected, double tolerance) {
  return x > expected * (1.0 - tolerance) && x < expected * (1.0 + tolerance);
}
constexpr double mamf_tolerance = 0.005;

// A100 SXM bf16: 271.2 of 312 TFLOP/s at 1024x10240x5120.
static_assert(within(gemm_efficiency(hw::a100_80gb::figures, number_format::bf16,
                                     {1024, 10240, 5120}),
                     271.2 / 312.0, mamf_tolerance));
// H100 SXM bf16: 794.5 of 989 at 2048x2048x13312; fp8: 1402.6 of 1979 at 1024x9216x14336.
static_assert(within(gemm_efficiency(hw::h100_sxm::figures, number_format::bf16,
                                     {2048, 2048, 13312}),
                     794.5 / 989.0, mamf_tolerance));
static_assert(within(gemm_efficiency(hw::h100_sxm::figures, number_format::fp8,
                                     {1024, 9216, 14336}),
                     1402.6 / 1979.0, mamf_tolerance));
// B200 SXM bf16: 1745 of 2250 at 1792x16128x3072; fp8: 3432.5 of 4500 at 15360x4096x3072.
static_assert(within(gemm_efficiency(hw::b200::figures, number_format::bf16,
                                     {1792, 16128, 3072}),
                     1745.0 / 2250.0, mamf_tolerance));
static_assert(within(gemm_efficiency(hw::b200::figures, number_format::fp8,
                                     {15360, 4096, 3072}),
                     3432.5 / 4500.0, mamf_tolerance));

// MI300X bf16 (its own kernel figures, hardware/amd.hpp): 668.4 of 1300 at 10240x15360x8192.
static_assert(within(gemm_efficiency(hw::mi300x::figures, number_format::bf16,
                                     {10240, 15360, 8192}),
                     668.4 / 1300.0, mamf_tolerance));

// The reduction depth: a GEMM of depth k runs at k / (k + 496) of the deep limit. Derivation:
// 4096 x 4096 tiles fill 132 SMs in 8 waves of 128 x 128 (1024 tiles / 132 = 7.76, so 1024 /
// 1056 of the last wave's slots); at k = 512 the depth factor is 512 / 1008.
static_assert(within(gemm_shape_efficiency(hw::h100_sxm::figures, {4096, 4096, 512}),
                     1024.0 / 1056.0 * 512.0 / 1008.0, 1e-12));

}  // namespace
