// EXPECT: shardplan: the chip has no matrix units for the compute format@@chip_computes_in_format<[^>]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: the matmuls run in a format the chip's matrix units have. The H100 has no int4 tensor
// cores (its int4 peak is zero); the twin multiplies in fp8.
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/serving/serving_plan.hpp>

using namespace shardplan;

#ifdef SHARDPLAN_COMPILE_FAIL
constexpr number_format multiply_in = number_format::int4;
#else
constexpr number_format multiply_in = number_format::fp8;
#endif

using plan = serving_plan<models::llama3_70b, systems::dgx_h100_superpod<1>,
                          mesh<axis<"tp", 8>>, tensor<"tp">, weights<number_format::int4>,
                          compute_in<multiply_in>, serve_batch<8>, prompt_tokens<4000>,
                          generated_tokens<96>>;
SHARDPLAN_REQUIRE_SERVABLE(plan);
