// Prints quantities the way engineers read them: "989 TFLOP/s", "80 GB", "3.35 TB/s", "1.2 ms".
#pragma once

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include <shardplan/core/units.hpp>

namespace shardplan {

namespace detail {

/// `value` rounded to `digits` significant digits, printed without trailing zeros.
inline std::string significant(double value, int digits) {
  if (value == 0.0 || !std::isfinite(value)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
  }
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = digits - 1 - magnitude;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals > 0 ? decimals : 0, value);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

/// Rounds to `digits` significant digits (so that 999.7 becomes 1000 before a prefix is chosen).
inline double round_significant(double value, int digits) {
  if (value == 0.0 || !std::isfinite(value)) return value;
  const double scale =
      std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(value)))));
  return std::round(value * scale) / scale;
}

/// Prints `value` (in base units) with the SI prefix that puts its mantissa in [1, 1000).
inline std::string with_si_prefix(double value, std::string_view unit, int digits) {
  static constexpr std::array<std::string_view, 9> prefixes = {"", "k", "M", "G", "T",
                                                               "P", "E", "Z", "Y"};
  double mantissa = round_significant(value, digits);
  std::size_t p = 0;
  while (std::fabs(mantissa) >= 1000.0 && p + 1 < prefixes.size()) {
    mantissa = round_significant(mantissa / 1000.0, digits);
    ++p;
  }
  return significant(mantissa, digits) + " " + std::string(prefixes[p]) + std::string(unit);
}

}  // namespace detail

/// Default significant digits of a formatted quantity.
inline constexpr int format_digits = 3;

/// "6.3e24 FLOP" prints as "6.3 YFLOP".
inline std::string format(flops q, int digits = format_digits) {
  return detail::with_si_prefix(q.value(), "FLOP", digits);
}
/// "989 TFLOP/s".
inline std::string format(flop_rate q, int digits = format_digits) {
  return detail::with_si_prefix(q.value(), "FLOP/s", digits);
}
/// "80 GB" (SI prefixes; see format_binary for GiB).
inline std::string format(bytes q, int digits = format_digits) {
  return detail::with_si_prefix(q.value(), "B", digits);
}
/// "3.35 TB/s".
inline std::string format(byte_rate q, int digits = format_digits) {
  return detail::with_si_prefix(q.value(), "B/s", digits);
}
/// "295 FLOP/B".
inline std::string format(intensity q, int digits = format_digits) {
  return detail::significant(detail::round_significant(q.value(), digits), digits) + " FLOP/B";
}

/// "1.2 ms", "850 us", "14 s", "3.2 h", "44 days".
inline std::string format(seconds q, int digits = format_digits) {
  const double s = q.value();
  const double a = std::fabs(s);
  auto in = [&](double unit, std::string_view name) {
    return detail::significant(detail::round_significant(s / unit, digits), digits) + " " +
           std::string(name);
  };
  if (a == 0.0) return "0 s";
  if (a < 1e-6) return in(1e-9, "ns");
  if (a < 1e-3) return in(1e-6, "us");
  if (a < 1.0) return in(1e-3, "ms");
  if (a < 120.0) return in(1.0, "s");
  if (a < 7200.0) return in(60.0, "min");
  if (a < 172800.0) return in(3600.0, "h");
  return in(86400.0, "days");
}

/// Bytes with binary prefixes: "16 GiB", "512 KiB".
inline std::string format_binary(bytes q, int digits = format_digits) {
  static constexpr std::array<std::string_view, 7> prefixes = {"", "Ki", "Mi", "Gi",
                                                               "Ti", "Pi", "Ei"};
  double mantissa = detail::round_significant(q.value(), digits);
  std::size_t p = 0;
  while (std::fabs(mantissa) >= 1024.0 && p + 1 < prefixes.size()) {
    mantissa = detail::round_significant(mantissa / 1024.0, digits);
    ++p;
  }
  return detail::significant(mantissa, digits) + " " + std::string(prefixes[p]) + "B";
}

/// A count printed with an SI suffix: 70553706496 -> "70.6 B".
inline std::string format_count(double n) {
  static constexpr std::array<const char*, 5> suffixes = {"", " k", " M", " B", " T"};
  std::size_t i = 0;
  double m = detail::round_significant(n, format_digits);
  while (m >= 1000.0 && i + 1 < suffixes.size()) {
    m = detail::round_significant(m / 1000.0, format_digits);
    ++i;
  }
  return detail::significant(m, format_digits) + suffixes[i];
}

}  // namespace shardplan
