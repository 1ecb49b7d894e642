// Compile-time baseline: only the Boost.Units headers (and standard headers) a plan check uses.
#include <array>
#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/base_units/information/byte.hpp>
#include <boost/units/base_units/si/second.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/unit.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

int main() {}
