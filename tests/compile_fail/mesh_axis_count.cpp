// EXPECT: shardplan: a mesh has between 1 and 8 axes
// Rule: a plan holds at most 8 mesh axes (`max_mesh_axes`), so a mesh has between 1 and 8. The
// broken variant adds a ninth axis; the twin has 8.
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using m = mesh<axis<"a", 2>, axis<"b", 2>, axis<"c", 2>, axis<"d", 2>, axis<"e", 2>,
               axis<"f", 2>, axis<"g", 2>, axis<"h", 2>, axis<"i", 2>>;
#else
using m = mesh<axis<"a", 2>, axis<"b", 2>, axis<"c", 2>, axis<"d", 2>, axis<"e", 2>,
               axis<"f", 2>, axis<"g", 2>, axis<"h", 2>>;
#endif

static_assert(m::axes.size() > 0);
