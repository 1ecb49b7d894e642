// The plan `shardplan report` describes when it is given none: the README's LLaMA-3 70B on 4096
// H100 (interleaved pipeline of 8, ZeRO-1 over 64, tensor parallelism of 8 in a node), costed
// for the book's budget of 15e12 tokens at the example H100 price.
#pragma once

#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/training/training_plan.hpp>

namespace shardplan::io {

using default_plan = training_plan<
    models::llama3_70b, systems::dgx_h100_superpod<512>,
    mesh<axis<"pp", 8>, axis<"dp", 64>, axis<"tp", 8, on<"node">>>, zero<1, "dp">,
    pipeline<"pp", schedule::interleaved<5>>, tensor<"tp", sequence_parallel>,
    batch<global_tokens<16'777'216>, seq_len<8192>, micro_batch<1>>, recompute::selective,
    precision::bf16_mixed_adam>;

/// The run the default plan is reported for: the book's 15e12 tokens for LLaMA-3 70B at the
/// example price of its chip.
inline run_inputs default_run() {
  run_inputs run;
  run.tokens = 15e12;
  run.price_per_chip_hour = example_price_per_chip_hour(default_plan::values.system.chip);
  return run;
}

}  // namespace shardplan::io
