// EXPECT: (no match for .*operator\+|invalid operands to binary expression)
// Adding bytes to seconds is a dimension error; the twin adds bytes to bytes.
#include <shardplan/core/units.hpp>

using namespace shardplan;
constexpr bytes b = 80.0 * giga * byte;
constexpr seconds t = 1.0 * second;
#ifdef SHARDPLAN_COMPILE_FAIL
constexpr auto sum = b + t;
#else
constexpr auto sum = b + b;
#endif
static_assert(sum.value() > 0.0);
