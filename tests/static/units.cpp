// Static tests of units.hpp: compiling is passing.
#include <shardplan/core/units.hpp>

namespace {
using namespace shardplan;

template <class A, class B>
concept addable = requires(A a, B b) { a + b; };
template <class A, class B>
concept comparable = requires(A a, B b) { a < b; };

// Quantities of one dimension add and compare; different dimensions do not.
static_assert(addable<bytes, bytes>);
static_assert(!addable<bytes, seconds>);
static_assert(!addable<flops, bytes>);
static_assert(!addable<flop_rate, byte_rate>);
static_assert(!comparable<bytes, seconds>);

// Derived units are products and quotients of FLOP, byte and second.
static_assert(std::is_same_v<decltype(flops{} / seconds{}), flop_rate>);
static_assert(std::is_same_v<decltype(bytes{} / seconds{}), byte_rate>);
static_assert(std::is_same_v<decltype(flop_rate{} / byte_rate{}), intensity>);
static_assert(std::is_same_v<decltype(bytes{} / byte_rate{}), seconds>);

// Prefixes and bits are plain scale factors.
static_assert((80.0 * giga * byte).value() == 80e9);
static_assert((1.0 * kibi * byte).value() == 1024.0);
static_assert((400.0 * giga * bits * byte / second).value() == 50e9);
static_assert((2.0 * tera * flop) / (1.0 * tera * flop / second) == 2.0 * second);
}  // namespace
