// EXPECT: shardplan: the mesh has more devices than the system@@mesh_fits_system<[a-z_:]*{16}, [a-z_:]*{8}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: the serving mesh fits on the system's chips. One DGX H100 node has 8 GPUs; a 16-way
// tensor-parallel mesh does not fit on it. The twin uses the node's 8.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t tp = 16;
#else
constexpr std::int64_t tp = 8;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>,
                          mesh<axis<"tp", tp>>, tensor<"tp">, serve_batch<8>,
                          prompt_tokens<4000>, generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
