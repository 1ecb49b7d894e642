// EXPECT: shardplan: an axis is placed on at most one level
// Rule: `axis<Name, Size, on<"level">>` places an axis within one level of the system; a second
// `on<>` would make the placement ambiguous. The twin places the tensor axis on "node" once.
// (Used inside a mesh, clang 14 adds a second error where the mesh reads the broken axis; the
// axis alone gives exactly this one.)
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using tp = axis<"tp", 8, on<"node">, on<"node">>;
#else
using tp = axis<"tp", 8, on<"node">>;
#endif

static_assert(tp::value.size == 8);
