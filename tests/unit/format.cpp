// Tests of format.hpp: quantities print as engineers read them.
#include <doctest/doctest.h>

#include <shardplan/core/format.hpp>

using namespace shardplan;

TEST_CASE("rates, sizes and durations print with SI prefixes and three significant digits") {
  // The style guide's examples: H100 bf16 989.4 TFLOP/s, 80 GB of HBM, 3.35 TB/s, 1.2 ms.
  CHECK(format(989.4 * tera * flop / second) == "989 TFLOP/s");
  CHECK(format(80.0 * giga * byte) == "80 GB");
  CHECK(format(3.35 * tera * byte / second) == "3.35 TB/s");
  CHECK(format(1.2 * milli * second) == "1.2 ms");
}

TEST_CASE("a mantissa that rounds up to 1000 moves to the next prefix") {
  CHECK(format(999.7 * giga * byte) == "1 TB");
  CHECK(format(1978.9 * tera * flop / second) == "1.98 PFLOP/s");
}

TEST_CASE("very large FLOP counts and very small durations") {
  // LLaMA-3 70B: 6 * 70e9 * 15e12 = 6.3e24 FLOP (How to Scale Your Model, applied-training).
  CHECK(format(6.0 * 70e9 * 15e12 * flop) == "6.3 YFLOP");
  CHECK(format(294.0 * nano * second) == "294 ns");
  CHECK(format(188.0 * micro * second) == "188 us");
  CHECK(format(0.0 * byte) == "0 B");
}

TEST_CASE("long durations print in minutes, hours and days") {
  CHECK(format(90.0 * second) == "90 s");
  CHECK(format(600.0 * second) == "10 min");
  CHECK(format(3.0 * 3600.0 * second) == "3 h");
  // 3.8e6 s is the book's 44 days for LLaMA-3 70B on a full v5p pod.
  CHECK(format(3.8e6 * second) == "44 days");
}

TEST_CASE("intensities print in FLOP per byte and binary sizes in GiB") {
  CHECK(format((1.97e14 * flop / second) / (8.2e11 * byte / second)) == "240 FLOP/B");
  // 2 * 8192 * 64 * 8192 bytes is the book's 8 GiB KV cache (transformers.md).
  CHECK(format_binary(2.0 * 8192 * 64 * 8192 * byte) == "8 GiB");
  CHECK(format_binary(512.0 * kibi * byte) == "512 KiB");
}
