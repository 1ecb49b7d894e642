// Unit tests of the chips' inside (chip.hpp's chip_microarchitecture and its derived rates) over
// the whole catalogue at run time; the book's answers are static tests in
// tests/static/microarchitecture.cpp.
#include <doctest/doctest.h>

#include <shardplan/hardware/catalog.hpp>
#include <string>

namespace {

using namespace shardplan;
namespace hw = shardplan::hardware;

TEST_CASE("every catalogue chip states its compute units") {
  for (const chip_figures& c : catalog_chips) {
    CAPTURE(std::string(c.name));
    CHECK(c.arch.compute_units > 0);
  }
}

TEST_CASE("a chip's matrix peaks rebuilt from its units match its datasheet where it has a clock") {
  for (const chip_figures& c : catalog_chips) {
    if (matrix_clock_of(c.arch) == 0.0) continue;  // v6e, TPU7x: no published clock
    for (number_format f : all_number_formats) {
      if (f == number_format::fp32) continue;
      CAPTURE(std::string(c.name));
      CAPTURE(std::string(name_of(f)));
      // No rate on the datasheet: none from the units either.
      if (value_of(peak(c, f)) == 0.0) {
        CHECK(value_of(matrix_peak(c.arch, f)) == 0.0);
        continue;
      }
      // 3%: datasheets round to two or three digits (B200 TF32 1.1e15 against 1.128e15).
      CHECK(value_of(matrix_peak(c.arch, f)) ==
            doctest::Approx(value_of(peak(c, f))).epsilon(0.03).scale(0.0));
    }
  }
}

TEST_CASE("a chip whose clock is not published rebuilds no peak: zero, not a guess") {
  CHECK(value_of(mxu_peak(hw::tpu_v6e::figures.arch)) == 0.0);
  CHECK(value_of(matrix_peak(hw::tpu7x::figures.arch, number_format::bf16)) == 0.0);
  CHECK(value_of(vector_fp32_peak(hw::b200::figures.arch)) == 0.0);
}

TEST_CASE("an on-chip intensity whose bandwidth is not given is zero, not infinite") {
  CHECK(value_of(l2_intensity(hw::b200::figures)) == 0.0);
  CHECK(value_of(smem_intensity(hw::mi300x::figures)) == 0.0);
  CHECK(value_of(l2_intensity(hw::h100_sxm::figures)) ==
        doctest::Approx(989.4e12 / 5.5e12).scale(0.0));
}

TEST_CASE("a user chip written without its inside still compiles and reads as not given") {
  constexpr chip_figures mine = {.name = "mine", .peak_bf16 = 1e15 * flop / second};
  static_assert(mine.arch.compute_units == 0);
  CHECK(value_of(matrix_peak(mine.arch, number_format::bf16)) == 0.0);
  CHECK(value_of(vector_fp32_peak(mine.arch)) == 0.0);
  CHECK(value_of(smem_intensity(mine)) == 0.0);
}

TEST_CASE("derived Hopper parts keep the H100's inside") {
  CHECK(hw::h200::figures.arch.compute_units == 132);
  CHECK(hw::h800::figures.arch.compute_units == 132);
  CHECK(value_of(hw::a100_40gb::figures.arch.l2) == value_of(hw::a100_80gb::figures.arch.l2));
}

}  // namespace
