// The README's example: catalogue types, compile-time facts and formatted figures.
#include <iostream>
#include <shardplan/shardplan.hpp>
using namespace shardplan;
using chip = hardware::h100_sxm;
using model = models::llama3_70b;

constexpr bytes bf16_weights = static_cast<double>(parameters(model::shape).total) * 2.0 * byte;
static_assert(bf16_weights > chip::figures.memory);              // does not fit one H100
static_assert(memory_intensity(chip::figures).value() > 290.0);  // C/W_hbm = 295 FLOP/byte

int main() {
  std::cout << model::shape.name << ": " << format(bf16_weights) << " of bf16 weights; "
            << chip::figures.name << ": " << format(chip::figures.memory) << " at "
            << format(chip::figures.memory_bandwidth) << "\n";
}
// Output:
// llama3-70b: 141 GB of bf16 weights; h100 sxm: 80 GB at 3.35 TB/s
