// A static test that does not hold, planted so that the `static_tests.catch_a_planted_failure`
// test can show that the static-test check fails when a file stops compiling. It is built only
// by that test (EXCLUDE_FROM_ALL).
#include <shardplan/core/units.hpp>

static_assert(1 + 1 == 3, "shardplan: planted: a static test that does not hold");
