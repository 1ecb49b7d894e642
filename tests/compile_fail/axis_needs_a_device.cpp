// EXPECT: shardplan: a mesh axis needs at least one device
// Rule: a mesh axis has at least one device; an axis of 0 is a typo (an axis of 1 is allowed and
// does nothing). The twin's tensor axis has 8 devices. (Used inside a mesh, clang 14 adds a
// second error where the mesh reads the broken axis; the axis alone gives exactly this one.)
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tensor_devices = 0;
#else
constexpr std::int64_t tensor_devices = 8;
#endif

using tp = axis<"tp", tensor_devices>;
static_assert(tp::value.size == tensor_devices);
