// Elementary functions the standard library does not offer as constexpr before C++26: the
// natural logarithm and the exponential, to about 1e-15 relative.
#pragma once

namespace shardplan::detail {

/// ln(x) for x > 0 (0 for x <= 0, which no caller passes): x = m·2^k with m in [1, 2), then
/// ln m = 2·atanh((m − 1)/(m + 1)) by its series (|z| <= 1/3: 20 terms reach 1e-19).
constexpr double natural_log(double x) {
  if (x <= 0.0) return 0.0;
  constexpr double ln2 = 0.693147180559945309417;
  int k = 0;
  while (x >= 2.0) {
    x /= 2.0;
    ++k;
  }
  while (x < 1.0) {
    x *= 2.0;
    --k;
  }
  const double z = (x - 1.0) / (x + 1.0);
  const double z2 = z * z;
  double term = z;
  double sum = 0.0;
  for (int n = 0; n < 24; ++n) {
    sum += term / static_cast<double>(2 * n + 1);
    term *= z2;
  }
  return static_cast<double>(k) * ln2 + 2.0 * sum;
}

/// e^x: x = k·ln 2 + r with |r| <= ln 2 / 2, e^r by its Taylor series (24 terms), times 2^k.
/// Saturates to 0 below −700 and to e^700 above 700.
constexpr double exponential(double x) {
  constexpr double ln2 = 0.693147180559945309417;
  if (x < -700.0) return 0.0;
  if (x > 700.0) x = 700.0;
  const double kf = x / ln2;
  const int k = static_cast<int>(kf >= 0.0 ? kf + 0.5 : kf - 0.5);
  // k·ln 2 in two parts (Cody and Waite): the high part's product with k is exact.
  constexpr double ln2_high = 0.693147180369123816490;
  constexpr double ln2_low = 1.90821492927058770002e-10;
  const double r = (x - static_cast<double>(k) * ln2_high) - static_cast<double>(k) * ln2_low;
  double term = 1.0;
  double sum = 1.0;
  for (int n = 1; n < 24; ++n) {
    term *= r / static_cast<double>(n);
    sum += term;
  }
  double scale = 1.0;
  for (int i = 0; i < (k >= 0 ? k : -k); ++i) scale *= 2.0;
  return k >= 0 ? sum * scale : sum / scale;
}

}  // namespace shardplan::detail
