// Tests of core/math.hpp: the constexpr logarithm and exponential against the standard library's.
#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>

#include <shardplan/core/math.hpp>

using shardplan::detail::exponential;
using shardplan::detail::natural_log;

static_assert(natural_log(1.0) == 0.0);
static_assert(exponential(0.0) == 1.0);

TEST_CASE("natural_log and exponential agree with std::log and std::exp to 1e-14") {
  // 1e-14 of 1 + |log x|: absolute near x = 1, where the log passes through 0, relative above.
  for (double x : {1e-300, 1e-9, 0.001, 0.5, 0.999999, 1.5, 2.0, 3.0, 10.0, 12345.678, 1e300})
    CHECK(natural_log(x) == doctest::Approx(std::log(x)).epsilon(1e-14).scale(1.0));
  for (double x : {-700.0, -30.0, -1.0, -1e-6, 1e-6, 0.5, 1.0, 10.0, 100.0, 700.0})
    CHECK(exponential(x) == doctest::Approx(std::exp(x)).epsilon(1e-14).scale(0.0));
  CHECK(exponential(-800.0) == 0.0);
  CHECK(exponential(natural_log(179.0)) == doctest::Approx(179.0).epsilon(1e-14).scale(0.0));
}
