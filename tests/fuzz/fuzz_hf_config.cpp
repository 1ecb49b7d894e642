// libFuzzer target for the Hugging Face config reader (io/hf_config.hpp) and what `shardplan
// model` prints of it: any input is either refused with one line (`bad_input`) or becomes a shape
// that obeys every shape rule, whose parameter counts are positive and add up, and whose KV
// cache and FLOPs per token are finite and positive at every context, with a local layer's cache
// never above a global one's. Nothing else may happen: no crash, hang, other exception or
// undefined behaviour under the sanitizers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <shardplan/io/hf_config.hpp>
#include <shardplan/io/model_report.hpp>
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
    const io::hf_model m = io::model_from_hf_config(io::detail::parse(text), "fuzz");
    const model_shape s = m.shape_named();
    if (first_broken_rule(s) != shape_rule::none) broken("a shape that breaks a rule");
    const parameter_counts c = parameters(s);
    if (c.total <= 0 || c.active <= 0 || c.active > c.total) broken("parameter counts");
    if (c.attention + c.mlp + c.norms + c.embedding + c.position_embedding != c.total)
      broken("parameter counts that do not add up");
    if (global_attention_layers(s) < 0 || global_attention_layers(s) > s.layers)
      broken("global layers outside the stack");
    for (const double context : {1.0, 4096.0, 131072.0}) {
      const double kv = kv_bytes_at_context(s, number_format::bf16, context).value();
      const double all = kv_bytes_per_token(s, number_format::bf16).value() * context;
      if (!(kv > 0.0) || !std::isfinite(kv) || kv > all * (1.0 + 1e-12))
        broken("a KV cache that is not finite and positive, or above every layer's");
      const double f =
          forward_flops_per_token(s, static_cast<std::int64_t>(context), attention_flops::causal)
              .total();
      if (!(f > 0.0) || !std::isfinite(f)) broken("FLOPs per token");
    }
    (void)io::model_text(m, {4096}, false);
  } catch (const io::bad_input& e) {
    const std::string what = e.what();
    if (what.empty() || what.find('\n') != std::string::npos)
      broken("a bad-input message that is not one line: " + what);
  }
  return 0;
}
