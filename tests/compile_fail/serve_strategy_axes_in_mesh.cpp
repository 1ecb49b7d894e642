// EXPECT: shardplan: a strategy names an axis the mesh does not have@@strategies_name_mesh_axes<[a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: every axis a serving strategy names is one of the mesh's. "pt" is a typo for "tp"; the
// twin spells it right.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
using strategy = tensor<"pt">;
#else
using strategy = tensor<"tp">;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>, mesh<axis<"tp", 8>>,
                          strategy, serve_batch<8>, prompt_tokens<4000>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
