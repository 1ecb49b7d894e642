// Tests of units.hpp: the FLOP / byte / second system converts and refuses mixed dimensions.
#include <doctest/doctest.h>

#include <shardplan/core/units.hpp>

using namespace shardplan;

TEST_CASE("a network port quoted in bits carries an eighth of the bytes") {
  // A 400 Gb/s ConnectX-7 port moves 50 GB/s (the book's DGX H100 node egress is 8 x 50 GB/s).
  const byte_rate port = 400.0 * giga * bits * byte / second;
  CHECK(port.value() == doctest::Approx(50e9).scale(0.0));
}

TEST_CASE("binary and SI prefixes differ by the published ratio") {
  // 16 GiB = 17.18 GB.
  CHECK((16.0 * gibi * byte).value() == doctest::Approx(17.179869184e9).scale(0.0));
}

TEST_CASE("time is work over rate and intensity is rate over bandwidth") {
  // How to Scale Your Model, roofline.md: 1e12 FLOP on an H100 at 9.89e14 FLOP/s take 1.01 ms.
  const seconds t = 1e12 * flop / (9.89e14 * flop / second);
  CHECK(t.value() == doctest::Approx(1.01e-3).epsilon(0.005).scale(0.0));
  // roofline.md Q5: 9.89e14 / 3.35e12 = 295 FLOP/byte.
  const intensity i = (9.89e14 * flop / second) / (3.35e12 * byte / second);
  CHECK(i.value() == doctest::Approx(295.2).epsilon(0.001).scale(0.0));
}
