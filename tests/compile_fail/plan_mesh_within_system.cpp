// EXPECT: shardplan: the mesh has more devices than the system@@mesh_fits_system<[a-z_:]*{4096}, [a-z_:]*{2048}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: every mesh device is a chip of the system. The mesh is 64 x 8 x 8 = 4096 devices; a DGX
// H100 SuperPOD of 256 nodes has 256 x 8 = 2048 H100s. The twin is the 512-node SuperPOD (4096).
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/training_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr std::int64_t nodes = 256;
#else
constexpr std::int64_t nodes = 512;
#endif

using plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<nodes>,
    mesh<axis<"dp", 64>, axis<"pp", 8>, axis<"tp", 8>>,
    zero<1, "dp">, pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>,
    recompute::selective, precision::bf16_mixed_adam>;
SHARDPLAN_REQUIRE_FEASIBLE(plan);
