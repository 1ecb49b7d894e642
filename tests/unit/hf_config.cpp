// Reading a Hugging Face config.json into a shape (io/hf_config.hpp): the shipped configs give
// their catalogue shapes, the counts equal the published ones, the KV cache of local layers stops
// at the window, and every malformed config is one line naming its field.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <tuple>
#include <string>
#include <vector>

#include <shardplan/io/hf_config.hpp>
#include <shardplan/io/import/common.hpp>
#include <shardplan/io/model_report.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/plan_header.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/serving/kv_cache.hpp>
#include <shardplan/training/memory.hpp>

using namespace shardplan;

namespace {

io::hf_model shipped(const std::string& file) {
  return io::read_hf_config_file(SHARDPLAN_SOURCE_DIR "/examples/models/" + file);
}

io::hf_model from_text(const std::string& text) {
  return io::model_from_hf_config(nlohmann::json::parse(text), "test");
}

std::string error_of_config(const std::string& text) {
  try {
    (void)io::model_from_hf_config(io::detail::parse(text), "test");
  } catch (const io::bad_input& e) {
    return e.what();
  }
  return "";
}

/// A published figure `stated` to its last digit: within `half` (half that digit), as a relative
/// tolerance of `half` over the band's top, so that no value outside the band passes.
doctest::Approx to_stated_digit(double stated, double half) {
  return doctest::Approx(stated).epsilon(half / (stated + half)).scale(0.0);
}

double kv_per_token(const model_shape& m, double context) {
  return kv_bytes_at_context(m, number_format::bf16, context).value() / context;
}

// Gemma 3 27B's text model as its config gives it (google/gemma-3-27b-it, text_config; Gemma
// Team 2025, arXiv:2503.19786, Table 1 and Sec. 2.1: 62 layers, d_model 5376, 32 heads, 16 KV
// heads of 128, five local layers of a 1024-token window to one global); the fields the
// multimodal config leaves out take Gemma3TextConfig's defaults. Written here from those
// sources: no verbatim copy was found to ship (examples/models/SOURCES.md).
const char* gemma3_27b = R"({
  "architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
  "text_config": {"hidden_size": 5376, "intermediate_size": 21504, "model_type": "gemma3_text",
    "num_attention_heads": 32, "num_hidden_layers": 62, "num_key_value_heads": 16,
    "head_dim": 128, "query_pre_attn_scalar": 168, "sliding_window": 1024,
    "rope_scaling": {"factor": 8.0, "rope_type": "linear"}},
  "vision_config": {"hidden_size": 1152}})";

// Llama 4 Scout's text model (meta-llama/Llama-4-Scout-17B-16E, text_config; Meta's model card:
// 48 layers, d_model 5120, 40 heads, 8 KV heads of 128, 16 experts with one active and a shared
// one, chunked attention of 8192 tokens on three layers of four). Written from those sources.
const char* llama4_scout = R"({
  "architectures": ["Llama4ForConditionalGeneration"], "model_type": "llama4",
  "text_config": {"hidden_size": 5120, "intermediate_size": 8192,
    "intermediate_size_mlp": 16384, "num_attention_heads": 40, "num_hidden_layers": 48,
    "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 202048,
    "num_local_experts": 16, "num_experts_per_tok": 1, "interleave_moe_layer_step": 1,
    "attention_chunk_size": 8192, "use_qk_norm": true, "model_type": "llama4_text"},
  "vision_config": {"hidden_size": 1408}})";

}  // namespace

TEST_CASE("every shipped config reads to its catalogue shape") {
  const std::vector<std::pair<std::string, model_shape>> files = {
      {"qwen3-0.6b.json", models::qwen3_0_6b::shape},
      {"qwen3-1.7b.json", models::qwen3_1_7b::shape},
      {"qwen3-8b.json", models::qwen3_8b::shape},
      {"qwen3-32b.json", models::qwen3_32b::shape},
      {"qwen3-30b-a3b.json", models::qwen3_30b_a3b::shape},
      {"qwen3-235b-a22b.json", models::qwen3_235b_a22b::shape},
      {"qwen2.5-7b.json", models::qwen2_5_7b::shape},
      {"llama3.1-8b.json", models::llama3_1_8b::shape},
      {"mistral-7b-v0.1.json", models::mistral_7b_v0_1::shape},
      {"mixtral-8x22b.json", models::mixtral_8x22b::shape},
      {"gemma2-9b-it.json", models::gemma2_9b::shape},
      {"gpt-oss-20b.json", models::gpt_oss_20b::shape},
      {"gpt-oss-120b.json", models::gpt_oss_120b::shape},
      {"phi3-mini-4k.json", models::phi3_mini_4k::shape},
      {"olmo2-13b.json", models::olmo2_13b::shape},
      {"deepseek-v3.json", models::deepseek_v3::shape},
      {"llama3.1-70b.json", models::llama3_1_70b::shape},
      {"llama3.1-405b.json", models::llama3_1_405b::shape},
      {"qwen3-coder-480b-a35b.json", models::qwen3_coder_480b_a35b::shape},
      {"kimi-k2.json", models::kimi_k2::shape},
  };
  for (const auto& entry : files) {
    const std::string& file = entry.first;
    const model_shape& preset = entry.second;
    CAPTURE(file);
    const io::hf_model m = shipped(file);
    CHECK(io::detail::importer::shape_difference(m.shape, preset) == "");
    // Qwen3-Coder's config carries two keys Qwen3MoeConfig does not have (qkv_bias false,
    // shared_expert_intermediate_size 0), which transformers keeps as attributes and never reads.
    CHECK(m.unknown.size() == (file == "qwen3-coder-480b-a35b.json" ? 2u : 0u));
  }
}

TEST_CASE("parameter counts equal the released checkpoints'") {
  // safetensors indexes' total_size: bytes of bf16 (2) or fp32 (4) weights
  // (examples/models/SOURCES.md gives each index's copy).
  CHECK(parameters(models::mistral_7b_v0_1::shape).total == 14'483'464'192 / 2);
  CHECK(parameters(models::olmo2_13b::shape).total == 54'864'793'600 / 4);
  CHECK(parameters(models::qwen2_5_7b::shape).total == 15'231'233'024 / 2);
  // Gemma 2 report (arXiv:2408.00118) Table 2: 9B has 8,324,201,984 non-embedding parameters
  // (its embedding row counts a 256,128 vocabulary; the released config has 256,000).
  const parameter_counts g = parameters(models::gemma2_9b::shape);
  CHECK(g.total - g.embedding == 8'324'201'984);

  // Published to the stated digits: total, and active or non-embedding as the card gives it.
  const auto billions = [](std::int64_t n) { return static_cast<double>(n) / 1e9; };
  struct published {
    model_shape shape;
    double total;       // billions
    double second;      // billions: non-embedding, or active
    bool active;        // `second` is active parameters (else non-embedding)
    double rounding;    // half the last stated digit
  };
  const std::vector<published> cards = {
      {models::qwen3_0_6b::shape, 0.6, 0.44, false, 0.005},  // Qwen3 model cards
      {models::qwen3_1_7b::shape, 1.7, 1.4, false, 0.05},
      {models::qwen3_8b::shape, 8.2, 6.95, false, 0.005},
      {models::qwen3_32b::shape, 32.8, 31.2, false, 0.05},
      {models::qwen3_30b_a3b::shape, 30.5, 29.9, false, 0.05},
      {models::qwen3_235b_a22b::shape, 235.0, 234.0, false, 0.5},
      {models::qwen3_235b_a22b::shape, 235.0, 22.0, true, 0.5},
      {models::mixtral_8x22b::shape, 141.0, 39.0, true, 0.5},  // Mistral's announcement
      {models::qwen3_coder_480b_a35b::shape, 480.0, 35.0, true, 0.5},  // Qwen3-Coder card
      // Llama 3.1 model card: "70B" and "405B", dense (active = total), to the unit.
      {models::llama3_1_70b::shape, 70.0, 70.0, true, 1.0},
      {models::llama3_1_405b::shape, 405.0, 405.0, true, 1.0},
  };
  // "Active" as DeepSeek, Moonshot and OpenAI count it: the output head but not the input
  // embedding (a lookup) with the layers a token passes through.
  const auto active_with_head = [&](const model_shape& m) {
    return billions(parameters(m).active_without_embeddings + m.vocab * m.d_model);
  };
  // Kimi K2's README: 1T total (held within 50B), 32B activated.
  CHECK(billions(parameters(models::kimi_k2::shape).total) == to_stated_digit(1000.0, 50.0));
  CHECK(active_with_head(models::kimi_k2::shape) == to_stated_digit(32.0, 0.5));
  // DeepSeek-V3's README: 671B total, 37B activated.
  CHECK(billions(parameters(models::deepseek_v3::shape).total) == to_stated_digit(671.0, 0.5));
  CHECK(active_with_head(models::deepseek_v3::shape) == to_stated_digit(37.0, 0.5));
  for (const published& p : cards) {
    CAPTURE(p.shape.name);
    const parameter_counts c = parameters(p.shape);
    const double stated = p.active ? billions(c.active)
                                   : billions(c.total) - billions(p.shape.vocab * p.shape.d_model *
                                                                  (p.shape.tied_embeddings ? 1 : 2));
    CHECK(billions(c.total) == to_stated_digit(p.total, std::max(p.rounding, 0.05)));
    CHECK(stated == to_stated_digit(p.second, p.rounding));
  }
  // gpt-oss model card (arXiv:2508.10925): 116.83B and 20.91B total; 5.13B and 3.61B active.
  for (const auto& card : {std::tuple{models::gpt_oss_120b::shape, 116.83, 5.13},
                           std::tuple{models::gpt_oss_20b::shape, 20.91, 3.61}}) {
    const model_shape& shape = std::get<0>(card);
    CHECK(billions(parameters(shape).total) == to_stated_digit(std::get<1>(card), 0.005));
    CHECK(active_with_head(shape) == to_stated_digit(std::get<2>(card), 0.005));
  }
}

TEST_CASE("Qwen3 32B's count, written out") {
  const std::int64_t d = 5120, v = 151936, heads = 64, kv = 8, hd = 128, ff = 25600, layers = 64;
  const std::int64_t attention = d * heads * hd + 2 * d * kv * hd + heads * hd * d + 2 * hd;
  const std::int64_t layer = attention + 3 * d * ff + 2 * d;
  CHECK(parameters(models::qwen3_32b::shape).total == 2 * v * d + layers * layer + d);
  // gpt-oss-20b: biases on q, k, v, o; a sink per head; 32 experts with gate-up and down biases;
  // a router with a bias.
  const std::int64_t D = 2880, E = 32, I = 2880, H = 64, K = 8, h = 64, L = 24, V = 201088;
  const std::int64_t oss_attention = 2 * D * H * h + 2 * D * K * h + (H + 2 * K) * h + D + H;
  const std::int64_t oss_moe = E * (3 * D * I + 2 * I + D) + E * D + E;
  CHECK(parameters(models::gpt_oss_20b::shape).total ==
        2 * V * D + L * (oss_attention + oss_moe + 2 * D) + D);
}

TEST_CASE("KV bytes per token at 4k, 32k and 128k, derived by hand") {
  const double k4 = 4096, k32 = 32768, k128 = 131072;
  // Mistral 7B: every layer keeps 4096 tokens; 2·8·128 elements of 2 bytes a layer.
  const model_shape mistral = models::mistral_7b_v0_1::shape;
  const double mistral_layer = 2.0 * 8 * 128 * 2;
  CHECK(kv_per_token(mistral, k4) == doctest::Approx(32 * mistral_layer).scale(0.0));
  CHECK(kv_per_token(mistral, k32) == doctest::Approx(32 * mistral_layer * 4096 / k32).scale(0.0));
  CHECK(kv_per_token(mistral, k128) ==
        doctest::Approx(32 * mistral_layer * 4096 / k128).scale(0.0));

  // Gemma 3 27B: 10 of 62 layers global (every sixth), 52 keep 1024 tokens; 2·16·128·2 bytes.
  const model_shape gemma = from_text(gemma3_27b).shape;
  CHECK(global_attention_layers(gemma) == 10);
  const double gemma_layer = 2.0 * 16 * 128 * 2;
  for (const double c : {k4, k32, k128})
    CHECK(kv_per_token(gemma, c) ==
          doctest::Approx(gemma_layer * (10 * c + 52 * 1024) / c).scale(0.0));

  // gpt-oss-120b: 18 of 36 layers global, 18 keep 128 tokens; 2·8·64·2 bytes.
  const model_shape oss = models::gpt_oss_120b::shape;
  for (const double c : {k4, k32, k128})
    CHECK(kv_per_token(oss, c) ==
          doctest::Approx(2.0 * 8 * 64 * 2 * (18 * c + 18 * 128) / c).scale(0.0));

  // Llama 4 Scout: 12 of 48 layers global (every fourth, no positions), 36 keep their chunk of
  // up to 8192 tokens; 2·8·128·2 bytes.
  const model_shape scout = from_text(llama4_scout).shape;
  CHECK(global_attention_layers(scout) == 12);
  const double scout_layer = 2.0 * 8 * 128 * 2;
  CHECK(kv_per_token(scout, k4) == doctest::Approx(48 * scout_layer).scale(0.0));
  for (const double c : {k32, k128})
    CHECK(kv_per_token(scout, c) ==
          doctest::Approx(scout_layer * (12 * c + 36 * 8192) / c).scale(0.0));

  // DeepSeek-V3: the latent (512) and the rope key (64) on all 61 layers, whatever the context.
  const model_shape ds = shipped("deepseek-v3.json").shape;
  for (const double c : {k4, k32, k128})
    CHECK(kv_per_token(ds, c) == doctest::Approx((512 + 64) * 2.0 * 61).scale(0.0));
}

TEST_CASE("Llama 4 and Gemma 3 configs give their parameter counts") {
  // Scout: 109B total, 17B active (Meta's model card), the text model of the 16-expert release.
  const parameter_counts scout = parameters(from_text(llama4_scout).shape);
  // The card's 109B counts the vision encoder too, which the text model leaves out.
  CHECK(static_cast<double>(scout.total) < 109e9);
  CHECK(static_cast<double>(scout.total) == doctest::Approx(109e9).epsilon(0.02).scale(0.0));
  CHECK(static_cast<double>(scout.active) / 1e9 == to_stated_digit(17.0, 0.5));
  // Gemma 3 27B: 25,600M non-embedding parameters (Gemma 3 report, Table 1).
  const model_shape gemma = from_text(gemma3_27b).shape;
  const parameter_counts g = parameters(gemma);
  CHECK(static_cast<double>(g.total - g.embedding) / 1e6 == to_stated_digit(25'600, 50));
  CHECK(gemma.qk_norm == qk_norm_kind::per_head);
  CHECK(gemma.layer_norms == 4);
  CHECK(gemma.vocab == 262208);  // Gemma3TextConfig's default: the config leaves it out
}

TEST_CASE("attention FLOPs of a sliding window follow the window") {
  // Mistral at 32k tokens, causal: a query attends to min(position, 4096) keys, on average
  // w - w²/(2s); each key costs 2·(128 + 128) FLOP per head.
  const model_shape m = models::mistral_7b_v0_1::shape;
  const double s = 32768, w = 4096;
  const double expected = 2.0 * 32 * (128 + 128) * 32 * (w - w * w / (2 * s));
  CHECK(forward_flops_per_token(m, 32768, attention_flops::causal).attention ==
        doctest::Approx(expected).scale(0.0));
  // Within the window, a global layer's count.
  model_shape global = m;
  global.local = {};
  CHECK(forward_flops_per_token(m, 2048, attention_flops::causal).attention ==
        doctest::Approx(forward_flops_per_token(global, 2048, attention_flops::causal).attention)
            .scale(0.0));
}

TEST_CASE("a model read from a config round-trips through a plan file") {
  for (const model_shape& m : {models::gpt_oss_120b::shape, models::gemma2_9b::shape,
                               models::olmo2_13b::shape, models::qwen2_5_7b::shape}) {
    CAPTURE(m.name);
    model_shape renamed = m;
    renamed.name = "custom";
    const nlohmann::ordered_json j = io::detail::model_json(renamed);
    std::string name;
    const model_shape back = io::detail::read_model(nlohmann::json::parse(j.dump()), name);
    CHECK(io::detail::importer::shape_difference(back, m) == "");
    CHECK(name == "custom");
  }
}

TEST_CASE("a plan file's model can be a Hugging Face config") {
  const std::string plan = R"({"model": {"hf_config": "qwen3-8b.json"}, "system": {"preset": "dgx_h100_superpod", "nodes": 1},
    "training": {"parallelism": {"data": 8}, "batch": {"global_sequences": 64, "micro_batch": 1, "seq_len": 4096}}})";
  const io::plan_file f =
      io::read_plan_file(plan, {SHARDPLAN_SOURCE_DIR "/examples/models", ""});
  CHECK(f.model_name == "qwen3-8b");
  CHECK(io::detail::importer::shape_difference(f.plan.model, models::qwen3_8b::shape) == "");
  // --model-config replaces the file's model.
  const io::plan_file g = io::read_plan_file(
      R"({"system": {"preset": "dgx_h100_superpod", "nodes": 1},
          "training": {"parallelism": {"data": 8},
          "batch": {"global_sequences": 64, "micro_batch": 1, "seq_len": 4096}}})",
      {"", SHARDPLAN_SOURCE_DIR "/examples/models/gpt-oss-20b.json"});
  CHECK(g.model_name == "gpt-oss-20b");
  std::string missing;
  try {
    (void)io::read_plan_file(R"({"model": {"hf_config": "nowhere.json"},
      "system": {"preset": "dgx_h100_superpod", "nodes": 1},
      "training": {"parallelism": {"data": 8}, "batch": {"global_sequences": 64,
      "micro_batch": 1, "seq_len": 4096}}})");
  } catch (const io::bad_input& e) {
    missing = e.what();
  }
  CHECK(missing.rfind("model.hf_config: cannot read nowhere.json", 0) == 0);
}

TEST_CASE("keys that change no estimate are listed, never dropped") {
  const io::hf_model m = shipped("gpt-oss-120b.json");
  const auto has = [](const std::vector<std::string>& v, const std::string& k) {
    return std::find(v.begin(), v.end(), k) != v.end();
  };
  CHECK(has(m.ignored, "rope_scaling"));
  CHECK(has(m.ignored, "initial_context_length"));
  const io::hf_model odd = from_text(R"({"architectures": ["LlamaForCausalLM"],
    "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
    "intermediate_size": 128, "my_new_field": 3})");
  CHECK(has(odd.unknown, "my_new_field"));
  const std::string text = io::model_text(odd, {4096}, false);
  CHECK(text.find("my_new_field") != std::string::npos);
}

TEST_CASE("a malformed or unsupported config is one line naming the field") {
  const std::string sizes =
      R"("hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
         "intermediate_size": 128)";
  const std::string base = sizes + R"(, "num_key_value_heads": 2)";
  const auto llama = [&](const std::string& extra) {
    return R"({"architectures": ["LlamaForCausalLM"], )" + sizes + extra + "}";
  };
  struct bad {
    std::string text;
    std::string starts;
  };
  const std::vector<bad> cases = {
      {"[1, 2]", "config: must be a JSON object"},
      {"{}", "architectures: missing"},
      {R"({"architectures": "LlamaForCausalLM"})", "architectures: must list one"},
      {R"({"architectures": []})", "architectures: must list one"},
      {R"({"architectures": ["A", "B"]})", "architectures: must list one"},
      {R"({"architectures": [3]})", "architectures: must list one"},
      {R"({"architectures": ["BertModel"]})", "architectures: 'BertModel' is not read"},
      {R"({"architectures": ["LlamaForCausalLM"]})", "num_hidden_layers: missing"},
      {R"({"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 0})",
       "num_hidden_layers: must be at least 1"},
      {R"({"architectures": ["LlamaForCausalLM"], "hidden_size": "64"})",
       "num_hidden_layers: missing"},
      {R"({"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2, "hidden_size": "64"})",
       "hidden_size: must be an integer"},
      {R"({"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2, "hidden_size": 64.5})",
       "hidden_size: must be a whole number"},
      {R"({"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2, "hidden_size": -64})",
       "hidden_size: must be at least 1"},
      {R"({"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2, "hidden_size": 1e12})",
       "hidden_size: is too large"},
      {R"({"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2, "hidden_size": 64})",
       "num_attention_heads: missing"},
      {llama(R"(, "num_key_value_heads": 3)"), "num_key_value_heads: must divide the heads"},
      {llama(R"(, "num_key_value_heads": 8)"), "num_key_value_heads: is too large"},
      {llama(R"(, "head_dim": 0)"), "head_dim: must be at least 1"},
      {llama(R"(, "tie_word_embeddings": "yes")"), "tie_word_embeddings: must be true or false"},
      {llama(R"(, "attention_bias": true)"), "attention_bias: biases on attention or on the MLP"},
      {llama(R"(, "sliding_window": 4096)"), "sliding_window: is not read for this architecture"},
      {llama(R"(, "num_local_experts": 8)"), "num_local_experts: experts are not read"},
      {R"({"architectures": ["MixtralForCausalLM"], )" + base + R"(, "num_local_experts": 8,
          "num_experts_per_tok": 9})",
       "num_experts_per_tok: is too large"},
      {R"({"architectures": ["Qwen3MoeForCausalLM"], )" + base + R"(, "num_experts": 8,
          "num_experts_per_tok": 2})",
       "moe_intermediate_size: missing"},
      {R"({"architectures": ["Qwen3MoeForCausalLM"], )" + base + R"(, "num_experts": 8,
          "num_experts_per_tok": 2, "moe_intermediate_size": 32, "mlp_only_layers": [1]})",
       "mlp_only_layers: only leading layers"},
      {R"({"architectures": ["Qwen3ForCausalLM"], )" + base + R"(, "use_sliding_window": true})",
       "use_sliding_window: true is not read"},
      {R"({"architectures": ["GptOssForCausalLM"], )" + base + R"(, "num_local_experts": 4,
          "num_experts_per_tok": 2, "layer_types": ["sliding_attention"]})",
       "layer_types: must list one type per layer"},
      {R"({"architectures": ["GptOssForCausalLM"], )" + base + R"(, "num_local_experts": 4,
          "num_experts_per_tok": 2, "layer_types": ["full_attention", "sliding_attention"]})",
       "layer_types: only a repeating pattern"},
      {R"({"architectures": ["GptOssForCausalLM"], )" + base + R"(, "num_local_experts": 4,
          "num_experts_per_tok": 2, "layer_types": ["sliding_attention", "diagonal"]})",
       "layer_types[1]: unknown layer type"},
      {R"({"architectures": ["DeepseekV3ForCausalLM"], )" + base + R"(, "kv_lora_rank": 16})",
       "qk_nope_head_dim: missing"},
      {R"({"architectures": ["DeepseekV3ForCausalLM"], )" + base + R"(, "kv_lora_rank": 16,
          "qk_nope_head_dim": 8, "qk_rope_head_dim": 8, "v_head_dim": 8, "n_routed_experts": 4,
          "num_experts_per_tok": 2, "moe_intermediate_size": 32, "moe_layer_freq": 2})",
       "moe_layer_freq: only 1 is read"},
      {R"({"architectures": ["Llama4ForConditionalGeneration"], "text_config": 3})",
       "text_config: missing"},
      {R"({"architectures": ["Llama4ForConditionalGeneration"], "text_config": {)" + base +
           R"(, "num_local_experts": 4, "num_experts_per_tok": 1, "moe_layers": [0]}})",
       "text_config.moe_layers: only every N-th layer being MoE is read"},
      {R"({"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 1000000,
          "hidden_size": 10000000, "num_attention_heads": 1, "vocab_size": 100,
          "intermediate_size": 100})",
       "hidden_size: gives more than 10^15 parameters"},
      {R"({"architectures": ["DeepseekV3ForCausalLM"], "num_hidden_layers": 100,
          "hidden_size": 1000, "num_attention_heads": 1000, "vocab_size": 1000,
          "intermediate_size": 1000, "kv_lora_rank": 10000000, "qk_nope_head_dim": 1,
          "qk_rope_head_dim": 1, "v_head_dim": 10000000, "n_routed_experts": null})",
       "hidden_size: gives more than 10^15 parameters"},
      {R"({"architectures": ["Qwen3ForCausalLM"], )" + base + R"(, "attention_bias": true})",
       "attention_bias: true is not read for this architecture"},
      {R"({"architectures": ["MixtralForCausalLM"], )" + sizes + R"(, "num_local_experts": 4,
          "num_experts_per_tok": 2})",
       "num_key_value_heads: missing, and transformers' default 8 does not divide the heads"},
      {"{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": 1, \"hidden_size\": 2}",
       "hidden_size: is given twice"},
      {"{\"architectures\": [", "malformed JSON"},
  };
  CHECK(cases.size() >= 30);
  for (const bad& b : cases) {
    CAPTURE(b.text);
    const std::string e = error_of_config(b.text);
    CHECK(e.rfind(b.starts, 0) == 0);
    CHECK(e.find('\n') == std::string::npos);
  }
}

TEST_CASE("every key of a shape is read, written and in the C++ header and docs/models.md") {
  // A shape in which every field differs from a default shape's.
  model_shape all_set{
      .name = "every-key", .layers = 8, .d_model = 64, .d_ff = 96, .heads = 4, .kv_heads = 2,
      .head_dim = 24, .vocab = 100, .gated_mlp = false, .tied_embeddings = true, .biases = true,
      .norm = norm_kind::layer_norm, .position_embeddings = 128,
      .moe = {.experts = 4, .top_k = 2, .shared_experts = 1, .expert_d_ff = 32,
              .dense_layers = 2, .router_bias = true, .every = 2},
      .mla = {.q_lora_rank = 16, .kv_lora_rank = 8, .qk_nope_head_dim = 8,
              .qk_rope_head_dim = 4, .v_head_dim = 8},
      .local = {.window = 16, .global_every = 3, .kind = local_attention_kind::chunked},
      .qk_norm = qk_norm_kind::whole, .qkv_bias = true, .layer_norms = 4,
      .attention_sinks = true};
  REQUIRE(first_broken_rule(all_set) == shape_rule::none);
  const model_shape plain{};
  int keys = 0;
  for_each_shape_field([&](const char* key, auto get, const char*) {
    CAPTURE(key);
    CHECK(!(get(all_set) == get(plain)));
    ++keys;
  });
  CHECK(keys >= 31);
  const nlohmann::ordered_json j = io::detail::model_json(all_set);
  std::string name;
  const model_shape back = io::detail::read_model(nlohmann::json::parse(j.dump()), name);
  CHECK(io::detail::importer::shape_difference(back, all_set) == "");

  // The C++ header writes every field, under its group: ".every = 2," inside ".moe = {".
  io::detail::cpp_writer w;
  io::detail::write(w, all_set);
  for_each_shape_field([&](const char* key, auto, const char*) {
    const std::string k = key;
    const std::string member = k.substr(k.find('.') == std::string::npos ? 0 : k.find('.') + 1);
    CAPTURE(key);
    CHECK(w.text.find("." + member + " = ") != std::string::npos);
  });
  CHECK(w.text.find(".local = {\n.window = 16,\n.global_every = 3,") != std::string::npos);

  std::ifstream in(SHARDPLAN_SOURCE_DIR "/docs/models.md");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find(io::detail::model_key_reference()) != std::string::npos);
}

TEST_CASE("transformers' defaults and bias rules are read as each architecture has them") {
  const auto has = [](const std::vector<std::string>& v, const std::string& k) {
    return std::find(v.begin(), v.end(), k) != v.end();
  };
  // MistralConfig's window is 4096 when the key is absent, none when it is null; its attention
  // and MLP never have biases whatever attention_bias says.
  const io::hf_model mistral = from_text(R"({"architectures": ["MistralForCausalLM"],
    "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
    "num_key_value_heads": 8, "vocab_size": 32000, "intermediate_size": 14336,
    "attention_bias": true})");
  CHECK(mistral.shape.local.window == 4096);
  CHECK(has(mistral.defaulted, "sliding_window = 4096"));
  CHECK(!mistral.shape.biases);
  CHECK(has(mistral.ignored, "attention_bias"));
  CHECK(io::detail::importer::shape_difference(mistral.shape, models::mistral_7b_v0_1::shape) ==
        "");
  // DeepseekV2Config: absent shared experts are 2, an absent q_lora_rank 1536.
  const io::hf_model v2 = from_text(R"({"architectures": ["DeepseekV2ForCausalLM"],
    "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
    "intermediate_size": 128, "kv_lora_rank": 16, "qk_nope_head_dim": 8, "qk_rope_head_dim": 8,
    "v_head_dim": 8, "n_routed_experts": 4, "num_experts_per_tok": 2,
    "moe_intermediate_size": 32})");
  CHECK(v2.shape.moe.shared_experts == 2);
  CHECK(v2.shape.mla.q_lora_rank == 1536);
  // A layer pattern longer than the stack (Gemma 3's 6 on 2 layers): no global layer, and the
  // shape reads back from a plan file. A layer_types list on a model without windows leaves none.
  const io::hf_model tiny = from_text(R"({"architectures": ["Gemma3ForCausalLM"],
    "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
    "num_key_value_heads": 2, "vocab_size": 100, "intermediate_size": 128, "head_dim": 16,
    "sliding_window": 8})");
  CHECK(global_attention_layers(tiny.shape) == 0);
  model_shape named = tiny.shape;
  named.name = "tiny";
  std::string name;
  CHECK(io::detail::importer::shape_difference(
            io::detail::read_model(nlohmann::json::parse(io::detail::model_json(named).dump()), name),
            tiny.shape) == "");
  const io::hf_model qwen = from_text(R"({"architectures": ["Qwen3ForCausalLM"],
    "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
    "num_key_value_heads": 2, "vocab_size": 100, "intermediate_size": 128,
    "use_sliding_window": false, "layer_types": ["sliding_attention", "full_attention"]})");
  CHECK(qwen.shape.local.window == 0);
  CHECK(qwen.shape.local.global_every == 0);
}

TEST_CASE("interleaved MoE layers are counted where the stack puts them") {
  // Llama 4 Maverick's pattern: every second layer MoE. A pipeline of 4 over 48 layers gives
  // each stage 6 MoE and 6 dense layers, not 12 dense on the first and 12 MoE on the last.
  model_shape m = models::llama3_8b::shape;
  m.layers = 48;
  m.moe = {.experts = 8, .top_k = 1, .shared_experts = 1, .expert_d_ff = 1024, .every = 2};
  CHECK(moe_layer_count(m) == 24);
  CHECK(moe_layers_in(m, 0, 12) == 6);
  CHECK(moe_layers_in(m, 36, 12) == 6);
  // DeepSeek-V3's three leading dense layers: a stage of 16 from the first holds 13 MoE layers.
  CHECK(moe_layers_in(models::deepseek_v3::shape, 0, 16) == 13);
  CHECK(moe_layers_in(models::deepseek_v3::shape, 45, 16) == 16);
  const parameter_counts c = parameters(m);
  training_setup t;
  t.degrees.pipeline = 4;
  const device_parameters first = parameters_on_device(m, c, t, stage_position::first);
  const device_parameters last = parameters_on_device(m, c, t, stage_position::last);
  CHECK(first.expert == doctest::Approx(6.0 * 8 * static_cast<double>(c.expert)).scale(0.0));
  CHECK(last.expert == doctest::Approx(first.expert).scale(0.0));
}
