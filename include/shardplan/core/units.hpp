// The FLOP / byte / second unit system, its quantity aliases, unit constants and prefixes.
#pragma once

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/base_units/information/byte.hpp>
#include <boost/units/base_units/si/second.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/unit.hpp>

namespace shardplan {

namespace units {

namespace bu = boost::units;

/// The dimension of work: one floating-point (or integer) operation.
struct flop_base_dimension : bu::base_dimension<flop_base_dimension, 1301> {};
using flop_dimension = flop_base_dimension::dimension_type;

/// One operation; a multiply-add counts as two.
struct flop_base_unit : bu::base_unit<flop_base_unit, flop_dimension, 1302> {
  static constexpr const char* name() { return "flop"; }
  static constexpr const char* symbol() { return "FLOP"; }
};

/// FLOP, Boost's information byte and the SI second in one system.
using system = bu::make_system<flop_base_unit, bu::information::byte_base_unit,
                               bu::si::second_base_unit>::type;

using flop_unit = bu::unit<flop_dimension, system>;
using byte_unit = bu::unit<bu::information_dimension, system>;
using second_unit = bu::unit<bu::time_dimension, system>;
using flop_rate_unit = decltype(flop_unit{} / second_unit{});
using byte_rate_unit = decltype(byte_unit{} / second_unit{});
using intensity_unit = decltype(flop_unit{} / byte_unit{});
using dimensionless_unit = bu::unit<bu::dimensionless_type, system>;

}  // namespace units

/// A count of operations, in FLOP (double: counts reach 1e25 and more).
using flops = boost::units::quantity<units::flop_unit, double>;
/// A size, in bytes (double: sizes reach 1e15 and more).
using bytes = boost::units::quantity<units::byte_unit, double>;
/// A duration, in seconds.
using seconds = boost::units::quantity<units::second_unit, double>;
/// A compute rate, in FLOP/s.
using flop_rate = boost::units::quantity<units::flop_rate_unit, double>;
/// A bandwidth, in bytes per second.
using byte_rate = boost::units::quantity<units::byte_rate_unit, double>;
/// An arithmetic intensity, in FLOP per byte.
using intensity = boost::units::quantity<units::intensity_unit, double>;

/// Unit constants: `989.4 * tera * flop / second`, `80.0 * giga * byte`.
inline constexpr units::flop_unit flop{};
inline constexpr units::byte_unit byte{};
inline constexpr units::second_unit second{};

/// SI prefixes (powers of ten).
inline constexpr double nano = 1e-9;
inline constexpr double micro = 1e-6;
inline constexpr double milli = 1e-3;
inline constexpr double kilo = 1e3;
inline constexpr double mega = 1e6;
inline constexpr double giga = 1e9;
inline constexpr double tera = 1e12;
inline constexpr double peta = 1e15;
inline constexpr double exa = 1e18;

/// Binary prefixes (powers of two), for memories sold in GiB.
inline constexpr double kibi = 1024.0;
inline constexpr double mebi = kibi * 1024.0;
inline constexpr double gibi = mebi * 1024.0;
inline constexpr double tebi = gibi * 1024.0;
inline constexpr double pebi = tebi * 1024.0;

/// Data rates quoted in bits (network ports: "400 Gb/s"): one bit is an eighth of a byte.
inline constexpr double bits = 1.0 / 8.0;

/// The plain number inside a quantity, in the base unit of our system (FLOP, B, s and their ratios).
template <class Unit>
constexpr double value_of(boost::units::quantity<Unit, double> q) {
  return q.value();
}

}  // namespace shardplan
