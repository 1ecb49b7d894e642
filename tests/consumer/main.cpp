// A consumer of the installed (find_package) or vendored (add_subdirectory) shardplan package.
#include <iostream>
#include <shardplan/shardplan.hpp>

using namespace shardplan;

// The book's v5e threshold, 1.97e14 / 8.2e11 = 240 FLOP/byte, from the catalogue's types.
static_assert(memory_intensity(hardware::tpu_v5e::figures).value() > 235.0);
// Meta's released LLaMA-3 8B checkpoint has 8,030,261,248 parameters.
static_assert(parameters(models::llama3_8b::shape).total == 8'030'261'248);

int main() {
  std::cout << "H100 SXM bf16: " << format(hardware::h100_sxm::figures.peak_bf16) << "\n";
  return format(hardware::h100_sxm::figures.memory) == "80 GB" ? 0 : 1;
}
