// libFuzzer target for the job-file reader of `shardplan compare` (io/job_file.hpp): any input is
// either refused with one line (`bad_input`) or becomes a training or a serving job whose figures
// are finite and positive where the reader promises. Nothing else may happen: no crash, hang,
// other exception or undefined behaviour under the sanitizers. (The comparison a job starts, a
// search on every system family, is too slow for a fuzzer's pace; the tool tests run it.)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <shardplan/io/job_file.hpp>
#include <string>

namespace {

[[noreturn]] void broken(const std::string& what) {
  std::cerr << "broken invariant: " << what << "\n";
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shardplan;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const io::job_file job = io::read_job_file(text);
    if (job.serving_job_given) {
      // A latency target is optional: 0 means none (search/compare.hpp), never negative.
      const double ttft = job.serve.time_to_first_token.value();
      const double tpot = job.serve.time_per_output_token.value();
      if (!(ttft >= 0.0) || !(tpot >= 0.0) || !std::isfinite(ttft) || !std::isfinite(tpot))
        broken("a serving job with a negative or non-finite latency target");
      if (job.serve.generated_tokens < 1 || job.serve.prompt_tokens < 0)
        broken("a serving job without generated tokens");
    } else {
      if (!(job.train.tokens > 0.0) || !std::isfinite(job.train.tokens))
        broken("a training job without a finite token budget");
      if (job.train.chips < 1) broken("a training job without chips");
    }
  } catch (const io::bad_input& e) {
    const std::string what = e.what();
    if (what.empty() || what.find('\n') != std::string::npos)
      broken("a bad-input message that is not one line: " + what);
  }
  return 0;
}
