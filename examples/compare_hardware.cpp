// Which hardware for a job (search/compare.hpp): LLaMA-3 70B served from an 8-GPU H100 node, a
// TPU v5e 4x4 slice and a dual-socket Xeon 8480+ server (int8 weights and cache, 2048 prompt
// and 256 generated tokens a request, at most 500 ms per output token and 60 s to the first);
// then LLaMA-3 405B trained on 15.6T tokens within 90 days on 16,384 chips of H100, B200,
// GB200 NVL72 and TPU v5p systems, each system's best plan found by the search. The $2 a
// chip-hour and 8 cents a kWh are example inputs, not quotes.
#include <iostream>
#include <shardplan/io/compare_report.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/search/compare.hpp>
#include <string>
#include <vector>

using namespace shardplan;

int main() {
  serving_job serve;
  serve.model = models::llama3_70b::shape;
  serve.prompt_tokens = 2048;
  serve.generated_tokens = 256;
  serve.weights = serve.kv = number_format::int8;
  serve.time_per_output_token = 0.5 * second;
  serve.time_to_first_token = 60.0 * second;
  serve.energy.price_per_kwh = 0.08;
  std::vector<compared_system> servers;
  for (const compared_system& s : serving_systems())
    if (s.family == "dgx_h100_superpod" || s.family == "tpu_v5e_slice" ||
        s.family == "xeon_8480_2s")
      servers.push_back(s);
  std::cout << "LLaMA-3 70B, int8, 2048 + 256 tokens a request, TPOT <= 500 ms, TTFT <= 60 s\n"
            << render_text(serving_comparison_table(compare_serving(serve, servers))) << "\n";

  training_job train;
  train.model = models::llama3_405b::shape;
  train.tokens = 15.6e12;
  train.deadline_days = 90.0;
  train.chips = 16384;
  train.global_tokens = 16'777'216;
  train.seq_len = 8192;
  train.run.price_per_chip_hour = 2.0;
  train.energy.price_per_kwh = 0.08;
  std::vector<compared_system> clusters;
  for (std::string_view f : {"dgx_h100_superpod", "dgx_b200_superpod", "gb200_nvl72",
                             "tpu_v5p_slice"})
    clusters.push_back(sized_system(f, train.chips));
  const std::vector<training_option> options = compare_training(train, clusters);
  std::cout << "LLaMA-3 405B, 15.6T tokens within 90 days on 16384 chips\n"
            << render_text(training_comparison_table(options)) << "\n"
            << render_text(training_plans_table(options)) << "\nassumptions:\n";
  for (const std::string& a : comparison_assumptions(train.energy, true))
    std::cout << "- " << a << "\n";
}
// Output:
// LLaMA-3 70B, int8, 2048 + 256 tokens a request, TPOT <= 500 ms, TTFT <= 60 s
// system                                 replica  requests    TTFT    TPOT  tokens/s/chip  tokens/s/user  $/M tokens  tokens/J  kWh/M tokens  energy $/M  binding  front
// -------------------------------------  -------  --------  ------  ------  -------------  -------------  ----------  --------  ------------  ----------  -------  -----
// dgx_h100_superpod (h100 sxm)           2 chips       194  440 ms  212 ms            457           4.71           -     0.359         0.774      $0.062  memory   yes
// xeon_8480_2s (2x xeon platinum 8480+)   1 chip        40  3.16 s  499 ms           80.2              2           -    0.0629          4.42      $0.353  latency
// tpu_v5e_slice (tpu v5e)                8 chips        80  634 ms  175 ms           57.1           5.71           -     0.228          1.22     $0.0974  memory   yes
//
// LLaMA-3 405B, 15.6T tokens within 90 days on 16384 chips
// system                        chips  days  chip-hours     cost    MWh  energy cost  goodput    MFU  binding  deadline                     front
// ----------------------------  -----  ----  ----------  -------  -----  -----------  -------  -----  -------  ---------------------------  -----
// gb200_nvl72 (gb200)           16384  26.4      10.4 M  $20.8 M  21300       $1.7 M    91.8%  45.9%  compute  meets                        yes
// dgx_b200_superpod (b200)      16384    34      13.4 M  $26.7 M  21600      $1.73 M    93.9%  38.8%  compute  meets
// dgx_h100_superpod (h100 sxm)  16384  67.5      26.6 M  $53.1 M  31600      $2.52 M    93.9%  44.3%  compute  meets
// tpu_v5p_slice (tpu v5p)       16384  92.8      36.5 M    $73 M  20800      $1.66 M    91.3%  71.5%  compute  misses: needs ~16.9 k chips
//
// system             best plan                                                                                                                                               step
// -----------------  ----------------------------------------------------------------------------------------------------------------------------------------------------  ------
// gb200_nvl72        pp 1 x dp 2048 x cp 1 x tp 8 with sequence parallelism, ZeRO-2, micro-batch 1, no recomputation                                                       2.25 s
// dgx_b200_superpod  pp 8 x dp 256 x cp 1 x tp 8 with sequence parallelism, ZeRO-2, micro-batch 1, interleaved 1F1B (8 virtual stages) on uneven stages, no recomputation  2.96 s
// dgx_h100_superpod  pp 8 x dp 128 x cp 2 x tp 8 with sequence parallelism, ZeRO-2, micro-batch 1, interleaved 1F1B (8 virtual stages) on uneven stages, no recomputation  5.89 s
// tpu_v5p_slice      pp 1 x dp 2048 x cp 8 x tp 1, ZeRO-3, micro-batch 1, no recomputation                                                                                 7.88 s
//
// assumptions:
// - each system's best plan is the search's fastest (search/search.hpp) on the job's chips; its step time errs by the chip family's measured error
// - failures at LLaMA 3's rates scaled to the system's chips and hosts, a 10-minute restart unless given, Daly's checkpoint interval
// - chips for a missed deadline: the plan's days scaled linearly with chips
// - chip power: the datasheet's rated power (TPU v5e, v5p, v6e, TPU7x and Trainium2 estimated, no figure being published)
// - busy power 100% of rated, exposed communication, bubble and restarts at 50%; host and network: the DGX datasheets' system power beyond the GPUs, else DGX H100's 82% of the chips' power
// - PUE 1.0: IT power only (chips and hosts)
// - energy at $0.08 a kWh (given)
