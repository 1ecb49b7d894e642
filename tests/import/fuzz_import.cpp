// libFuzzer target for the importers (io/import.hpp). The first byte picks the format, the
// model the request names, whether DeepSpeed's seq_len override is given and the system; the
// rest is the config file. Any input is either refused with one line (`bad_input`, naming the
// file) or becomes a plan file that `read_plan_file` accepts, with notes and unused keys of one
// line each. Nothing else may happen: no crash, hang, other exception or undefined behaviour
// under the sanitizers. Run longer than CI does with
//   build/<dir>/tests/import/shardplan_fuzz_import CORPUS tests/import/fuzz_seeds
//     -dict=tests/import/fuzz_import.dict -max_len=4096 -timeout=10
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <shardplan/io/import.hpp>
#include <string>

#ifndef SHARDPLAN_IMPORT_FUZZ_DIR
#error "SHARDPLAN_IMPORT_FUZZ_DIR must name a scratch folder"
#endif

namespace {

[[noreturn]] void broken(const std::string& what) {
  std::cerr << "broken invariant: " << what << "\n";
  std::abort();
}

bool one_line(const std::string& s) { return s.find('\n') == std::string::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shardplan::io;
  if (size == 0) return 0;
  const std::uint8_t pick = data[0];
  namespace fs = std::filesystem;
  static const fs::path dir = [] {
    const fs::path d = fs::path(SHARDPLAN_IMPORT_FUZZ_DIR) / std::to_string(::getpid());
    fs::create_directories(d);
    return d;
  }();
  const fs::path file = dir / "config.txt";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  import_request r;
  r.from = static_cast<import_format>(pick & 3);
  r.path = file.string();
  static constexpr const char* models[] = {"", "llama3-8b", "mixtral-8x7b", "deepseek-v3"};
  r.model = models[(pick >> 2) & 3];
  if (pick & 16) r.overrides.push_back("seq_len=4096");
  r.system = (pick & 32) ? nlohmann::json{{"preset", "tpu_v5e_slice"}, {"shape", {4, 4}}}
                         : nlohmann::json{{"preset", "dgx_h100_superpod"}, {"nodes", 2}};
  if (pick & 64) r.world_size = 8;
  try {
    const import_result out = import_config(r);
    try {
      (void)read_plan_file(out.plan.dump());
    } catch (const bad_input& e) {
      broken(std::string("the imported plan does not read: ") + e.what());
    }
    for (const std::string& s : out.notes)
      if (!one_line(s)) broken("a note of several lines: " + s);
    for (const std::string& s : out.unused)
      if (!one_line(s)) broken("an unused key of several lines: " + s);
  } catch (const bad_input& e) {
    const std::string what = e.what();
    if (!one_line(what)) broken("a message of several lines: " + what);
    if (what.rfind(r.path, 0) != 0) broken("a message that does not name the file: " + what);
  }
  return 0;
}
