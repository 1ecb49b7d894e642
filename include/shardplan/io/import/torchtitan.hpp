// torchtitan: a TOML job config (JobConfig, up to v0.2.x, parsed with toml++) or the JSON that
// current versions save (debug.save_config_file) read into a plan file.
#pragma once

// Where the names and rules come from (stored copies of pytorch/torchtitan):
//   TOML job configs: torchtitan/config/job_config.py at v0.2.2
//   (73a0e6979dd10b6b1904098eb3c8f62c18ab87ce) and at v0.2.0 (29624e37...), where the quantize
//   sections are [quantize.linear.float8] / [quantize.linear.mx] and the converters
//   "quantize.linear.float8" / "quantize.linear.mx" (components/quantization/float8.py, mx.py:
//   register_model_converter); before v0.2.0 (v0.1.0 f7084fc7, and
//   6404b932421f5ce382e7dac5ad381b2c17b1373c that io/launch/torchtitan.hpp targets) the sections
//   are [float8] / [mx] and the converters "float8" / "mx"; before 8570415c (2025-06-05)
//   training.local_batch_size was training.batch_size. Defaults (JobConfig at v0.2.2): model llama3
//   / debugmodel, local_batch_size 8, global_batch_size -1 (= local x DP), seq_len 2048,
//   dp_replicate 1, dp_shard -1 (the ranks left after replicate, CP, TP, PP: ParallelDims._validate
//   in torchtitan/distributed/parallel_dims.py, which then asserts the product is WORLD_SIZE),
//   pipeline schedule "1F1B", pipeline_parallel_microbatch_size 1, first/last stage 1 layer
//   lighter, activation_checkpoint.mode "selective" with selective_ac_option "2" (every second
//   layer, activation_checkpoint.py), float8 recipe None = tensorwise (float8.py logs "Float8
//   tensorwise scaled training active"). Batch: global_batch_size must be a multiple of
//   local_batch_size x DP (train.py); with PP the local batch is split into micro-batches of
//   pipeline_parallel_microbatch_size. Stages: with pipeline_parallel_layers_per_stage, stages =
//   ceil((layers + first_less + last_less) / layers_per_stage), a multiple of PP; without it 1
//   stage per rank for single-stage schedules, 2 for the others
//   (distributed/pipeline_parallel.py). Flavors: every language model's, as models/torchtitan.hpp
//   gives them.
//   The saved JSON: Trainer.Config.to_dict in torchtitan/trainer.py at HEAD
//   b5bcd76c66d0acb1a08b176d9639425bc55e0b2a (model_spec {name, flavor, model}; every other
//   field as its dataclass; fields starting with "_" left out, so model converters are not
//   recorded), TrainingConfig and ParallelismConfig of torchtitan/config/configs.py
//   (num_tokens_per_microbatch_per_dp_rank 16384, num_tokens_per_train_step -1 = per
//   micro-batch x num_pp_microbatches x DP and a multiple of it (trainer.py), max_context_length
//   2048, enable_sequence_parallel true, num_pp_microbatches 1), and the activation
//   checkpointing configs of torchtitan/distributed/activation_checkpoint.py (null: none;
//   SelectiveAC has force_recompute_mm_shapes_by_fqns, MemoryBudgetAC memory_budget, FullAC
//   only the base fields).
//   Schedule names: torch.distributed.pipelining.schedules.get_schedule_class (case-insensitive:
//   1F1B, Interleaved1F1B, GPipe, LoopedBFS, InterleavedZeroBubble, PipelineScheduleSingle,
//   PipelineScheduleMulti, ZBVZeroBubble, DualPipeV).

#include <toml++/toml.h>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <shardplan/io/import/bash.hpp>
#include <shardplan/io/import/common.hpp>
#include <shardplan/models/torchtitan.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardplan::io::detail::importer::torchtitan {

/// A TOML document as a JSON tree (dates and times as their TOML text, inf and nan as strings).
inline nlohmann::json from_toml(const toml::node& n, int depth) {
  if (depth > 64) return nullptr;
  if (const toml::table* t = n.as_table()) {
    nlohmann::json j = nlohmann::json::object();
    for (auto&& [key, value] : *t) j[std::string(key.str())] = from_toml(value, depth + 1);
    return j;
  }
  if (const toml::array* a = n.as_array()) {
    nlohmann::json j = nlohmann::json::array();
    for (const toml::node& e : *a) j.push_back(from_toml(e, depth + 1));
    return j;
  }
  if (const auto* i = n.as_integer()) return i->get();
  if (const auto* f = n.as_floating_point()) {
    const double x = f->get();
    if (std::isfinite(x)) return x;
    return x != x ? "nan" : (x > 0 ? "inf" : "-inf");
  }
  if (const auto* s = n.as_string()) return s->get();
  if (const auto* b = n.as_boolean()) return b->get();
  std::ostringstream text;
  if (const auto* d = n.as_date())
    text << d->get();
  else if (const auto* t = n.as_time())
    text << t->get();
  else if (const auto* dt = n.as_date_time())
    text << dt->get();
  return text.str();
}

/// The decoder of torchtitan's model `name` and `flavor` (models/torchtitan.hpp), or a refusal
/// naming the key: a hybrid model the shape cannot describe, or a flavor the table lacks.
inline const models::torchtitan::flavor& flavor_model(const context& c, const std::string& key,
                                                      const std::string& name,
                                                      const std::string& flavor) {
  if (const models::torchtitan::flavor* f = models::torchtitan::find_flavor(name, flavor))
    return *f;
  if (name == "qwen3_5")
    c.fail(key, "torchtitan's qwen3_5 " + flavor +
                    " puts GatedDeltaNet linear attention in three layers of four, which a "
                    "shardplan shape cannot describe");
  if (name == "muse_glimmer")
    c.fail(key, "torchtitan's muse_glimmer " + flavor +
                    " has an output gate per attention layer and a soft-capped head, which a "
                    "shardplan shape cannot describe");
  std::vector<std::string_view> known;
  for (const models::torchtitan::flavor& f : models::torchtitan::flavors)
    if (f.model == name) known.push_back(f.name);
  if (known.empty()) {
    std::vector<std::string_view> names;
    for (const models::torchtitan::flavor& f : models::torchtitan::flavors)
      if (std::find(names.begin(), names.end(), f.model) == names.end()) names.push_back(f.model);
    c.fail(key, "'" + name + "' is not a torchtitan language model the importer knows (" +
                    name_list(names) + "); give --model NAME or --model-config FILE");
  }
  c.fail(key, "torchtitan's " + name + " has no flavor '" + flavor + "' (its flavors: " +
                  name_list(known) + "); give --model NAME or --model-config FILE");
}

/// The model: the decoder torchtitan builds for model.name and model.flavor, or the request's.
/// A config whose flavor has another shape than the requested model is refused.
inline void read_model(context& c, plan_parts& p, key_tree& t, const std::string& section) {
  const bool named = t.has(section + ".name") || t.has(section + ".flavor");
  const std::string name = t.text(section + ".name", "llama3");
  const std::string flavor = t.text(section + ".flavor", "debugmodel");
  const std::string key = section + (t.has(section + ".flavor") ? ".flavor" : ".name");
  if (model_given(c.src)) {
    const model_shape& m = requested_model(c);
    const models::torchtitan::flavor* f =
        named ? models::torchtitan::find_flavor(name, flavor) : nullptr;
    const std::string difference = f != nullptr ? shape_difference(f->shape, m) : "";
    if (!difference.empty())
      c.fail(key, "torchtitan's " + name + " " + flavor + " is not the requested " +
                      std::string(m.name) + " (" + difference + ")");
    if (f == nullptr && named)
      c.note("model: torchtitan's " + name + " " + flavor + " is taken as the requested " +
             std::string(m.name));
    p.model = m;
    p.model_name = std::string(m.name);
    return;
  }
  if (!named)
    c.fail(section + ".flavor",
           "no model.name and model.flavor (torchtitan's default is llama3 debugmodel, a test "
           "model); give --model NAME");
  const models::torchtitan::flavor& f = flavor_model(c, key, name, flavor);
  p.model = f.shape;
  p.model_name = std::string(f.shape.name);
  c.note("model: torchtitan's " + name + " " + flavor + " as its code builds it, " +
         std::string(f.source) +
         (catalogue_model(p.model_name) != nullptr ? "; the catalogue's " + p.model_name : ""));
}

/// The pipeline schedule and the stages per rank.
inline void read_pipeline(context& c, plan_parts& p, key_tree& t) {
  const std::string key = "parallelism.pipeline_parallel_schedule";
  const std::string schedule = t.text(key, "1F1B");
  std::string lower;
  for (char ch : schedule) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  bool single = true;
  if (lower == "gpipe")
    p.schedule = "gpipe";
  else if (lower == "1f1b" || lower == "pipelineschedulesingle")
    p.schedule = "1f1b";
  else if (lower == "interleaved1f1b" || lower == "loopedbfs" || lower == "pipelineschedulemulti") {
    p.schedule = "interleaved";
    single = false;
    if (lower != "interleaved1f1b")
      c.note(key + " " + schedule + ": costed as the interleaved 1F1B schedule");
  } else if (lower == "interleavedzerobubble" || lower == "zbvzerobubble" || lower == "dualpipev") {
    p.schedule = "zero_bubble";
    single = false;
  } else {
    c.fail(key, "'" + schedule +
                    "' is not a schedule of torch.distributed.pipelining (1F1B, "
                    "Interleaved1F1B, GPipe, LoopedBFS, InterleavedZeroBubble, ZBVZeroBubble, "
                    "DualPipeV, PipelineScheduleSingle, PipelineScheduleMulti)");
  }
  if (p.pipeline <= 1) {
    p.schedule = "1f1b";
    return;
  }
  const std::int64_t first =
      t.integer("parallelism.pipeline_parallel_first_stage_less_layers", 1, 0, max_count);
  const std::int64_t last =
      t.integer("parallelism.pipeline_parallel_last_stage_less_layers", 1, 0, max_count);
  std::int64_t per_rank = single ? 1 : 2;
  const std::string lps_key = "parallelism.pipeline_parallel_layers_per_stage";
  if (t.has(lps_key) && !t.at(lps_key)->is_null()) {
    const std::int64_t lps = t.integer(lps_key, 1, 1, max_count);
    const std::int64_t units = p.model.layers + first + last;
    const std::int64_t stages = (units + lps - 1) / lps;
    if (stages % p.pipeline != 0)
      c.fail(lps_key, std::to_string(stages) + " stages (ceil((" + std::to_string(p.model.layers) +
                          " + " + std::to_string(first) + " + " + std::to_string(last) + ") / " +
                          std::to_string(lps) + ")) do not divide among PP " +
                          std::to_string(p.pipeline));
    per_rank = stages / p.pipeline;
    if (single && per_rank != 1)
      c.fail(lps_key,
             "a single-stage schedule needs 1 stage per rank, not " + std::to_string(per_rank));
    if (!single && per_rank < 2)
      c.fail(lps_key, "a multi-stage schedule needs at least 2 stages per rank");
  } else if (!single) {
    c.note("pipeline: 2 stages per rank, torchtitan's default for a multi-stage schedule");
  }
  if (p.schedule == "zero_bubble") {
    c.note(key + " " + schedule +
           ": costed as shardplan's zero-bubble (ZB-H1) schedule with one "
           "stage per rank; the " +
           std::to_string(per_rank) + " stages per rank are not modelled");
    per_rank = 1;
  }
  p.virtual_stages = per_rank;
  // torchtitan splits whatever the remainder (`_generate_llm_fqn_per_model_part`).
  p.uneven_stages = (p.model.layers + first + last) % (p.pipeline * p.virtual_stages) != 0;
  p.embedding_weight = first;
  p.loss_weight = last;
}

/// The degrees of [parallelism] over the world: dp_shard -1 takes the ranks left.
inline void read_degrees(context& c, plan_parts& p, key_tree& t, std::int64_t world) {
  std::string absent;
  for (const char* k :
       {"data_parallel_replicate_degree", "tensor_parallel_degree", "pipeline_parallel_degree",
        "context_parallel_degree", "expert_parallel_degree"})
    if (!t.has(std::string("parallelism.") + k))
      absent += (absent.empty() ? "" : ", ") + std::string(k);
  if (!absent.empty()) c.note("parallelism." + absent + ": not given; torchtitan's default 1");
  const std::int64_t replicate =
      t.integer("parallelism.data_parallel_replicate_degree", 1, 1, max_degree);
  std::int64_t shard = t.integer("parallelism.data_parallel_shard_degree", -1, -1, max_degree);
  if (shard == 0) c.fail("parallelism.data_parallel_shard_degree", "must be -1 or at least 1");
  p.tensor = t.integer("parallelism.tensor_parallel_degree", 1, 1, max_degree);
  p.pipeline = t.integer("parallelism.pipeline_parallel_degree", 1, 1, max_degree);
  p.context = t.integer("parallelism.context_parallel_degree", 1, 1, max_degree);
  p.expert = t.integer("parallelism.expert_parallel_degree", 1, 1, max_degree);
  const std::int64_t others = replicate * p.tensor * p.pipeline * p.context;
  if (shard == -1) {
    shard = world / others;
    c.note("parallelism.data_parallel_shard_degree -1: " + std::to_string(shard) + " = world " +
           std::to_string(world) + " / (replicate x CP x TP x PP)");
    if (shard < 1)
      c.fail("parallelism.data_parallel_shard_degree",
             "leaves no rank: replicate x CP x TP x PP = " + std::to_string(others) +
                 " exceeds the world of " + std::to_string(world));
  }
  if (shard * others != world)
    c.fail("parallelism.data_parallel_shard_degree",
           "replicate " + std::to_string(replicate) + " x shard " + std::to_string(shard) +
               " x CP " + std::to_string(p.context) + " x TP " + std::to_string(p.tensor) +
               " x PP " + std::to_string(p.pipeline) + " is not the world of " +
               std::to_string(world) + " (ParallelDims asserts it)");
  p.data = replicate * shard;
  const std::string reshard = t.text("parallelism.fsdp_reshard_after_forward", "default");
  if (reshard != "default" && reshard != "always" && reshard != "never")
    c.fail("parallelism.fsdp_reshard_after_forward",
           "must be \"default\", \"always\" or \"never\"");
  if (shard > 1) {
    p.zero_stage = reshard == "never" ? 2 : 3;
    if (reshard == "never")
      c.note(
          "fsdp_reshard_after_forward never: FSDP2 keeps the parameters gathered from forward "
          "to backward, counted as ZeRO-2");
    if (replicate > 1)
      c.note("HSDP (replicate " + std::to_string(replicate) + " x shard " + std::to_string(shard) +
             "): shardplan's ZeRO shards over all " + std::to_string(p.data) +
             " data-parallel replicas (an approximation)");
  }
  p.sequence_parallel = p.tensor > 1;
  if (t.has("parallelism.expert_tensor_parallel_degree")) {
    const std::int64_t etp =
        t.integer("parallelism.expert_tensor_parallel_degree", 1, 1, max_degree);
    if (p.expert > 1 && etp != p.tensor)
      c.note("expert_tensor_parallel_degree " + std::to_string(etp) +
             ": shardplan splits the experts over TP " + std::to_string(p.tensor) +
             " like the "
             "other layers (an approximation)");
  }
}

/// The precision from the model converters and the mixed-precision dtype.
inline void read_precision(context& c, plan_parts& p, key_tree& t,
                           const std::vector<std::string>& converters) {
  bool float8 = false;
  bool mx = false;
  std::string recipe_key;
  for (const std::string& conv : converters) {
    if (conv == "float8") {
      float8 = true;
      recipe_key = "float8.recipe_name";
    } else if (conv == "quantize.linear.float8") {
      float8 = true;
      recipe_key = "quantize.linear.float8.recipe_name";
    } else if (conv == "Float8LinearConverter") {
      float8 = true;
      recipe_key = "";
    } else if (conv == "mx" || conv == "quantize.linear.mx" || conv == "MXFP8LinearConverter") {
      mx = true;
    } else {
      c.note("model.converters: '" + conv + "' does not change what the plan counts");
    }
  }
  if (float8 && mx) c.fail("model.converters", "float8 and mx converters together");
  if (float8 && recipe_key.empty()) {
    // Float8LinearConverter.Config at HEAD: recipe_name "rowwise" (the default) or
    // "rowwise_with_gw_hp" (components/quantization/float8.py at b5bcd76).
    p.precision = "fp8_rowwise";
  } else if (float8) {
    const std::string recipe = t.text(recipe_key, "");
    if (recipe.empty() || recipe == "tensorwise")
      p.precision = "fp8_tensorwise";
    else if (recipe == "rowwise" || recipe == "rowwise_with_gw_hp")
      p.precision = "fp8_rowwise";
    else
      c.fail(recipe_key, "must be \"tensorwise\", \"rowwise\" or \"rowwise_with_gw_hp\"");
    if (recipe.empty()) c.note(recipe_key + " not given: torchao's default tensorwise scaling");
  } else if (mx) {
    p.precision = "mxfp8";
  }
  const std::string param = t.text("training.mixed_precision_param", "bfloat16");
  if (param != "bfloat16" && param != "float32")
    c.fail("training.mixed_precision_param", "must be \"bfloat16\" or \"float32\"");
  if (param == "float32" && !float8 && !mx)
    c.note(
        "training.mixed_precision_param float32: fp32 training, counted with the "
        "bf16_mixed_adam preset's bytes (an approximation)");
  const std::string dtype = t.text("training.dtype", "float32");
  if (dtype == "bfloat16")
    c.note(
        "training.dtype bfloat16: parameters, gradients and optimizer states in bf16 with no "
        "fp32 copy; no preset counts that, bf16_mixed_adam is used");
  else if (dtype != "float32")
    c.fail("training.dtype", "must be \"bfloat16\" or \"float32\"");
}

/// A v0.2.x (TOML, or JSON of the same shape) job config.
inline void read_job_config(context& c, plan_parts& p, key_tree& t, std::int64_t world) {
  read_model(c, p, t, "model");
  read_degrees(c, p, t, world);
  read_pipeline(c, p, t);
  std::string local_key = "training.local_batch_size";
  if (!t.has(local_key) && t.has("training.batch_size")) {
    local_key = "training.batch_size";
    c.note("training.batch_size: torchtitan's name for local_batch_size before June 2025");
  }
  if (!t.has(local_key)) c.note("training.local_batch_size not given: torchtitan's default 8");
  const std::int64_t local = t.integer(local_key, 8, 1, max_sequences);
  const std::int64_t global = t.integer("training.global_batch_size", -1, -1, max_sequences);
  if (!t.has("training.seq_len")) c.note("training.seq_len not given: torchtitan's default 2048");
  p.seq_len = t.integer("training.seq_len", 2048, 1, max_seq_len);
  if (global == 0) c.fail("training.global_batch_size", "must be -1 or at least 1");
  p.global_sequences = global > 0 ? global : local * p.data;
  if (p.global_sequences % (local * p.data) != 0)
    c.fail("training.global_batch_size", std::to_string(p.global_sequences) +
                                             " is not a multiple of local_batch_size " +
                                             std::to_string(local) + " x DP " +
                                             std::to_string(p.data) + " (train.py asserts it)");
  if (p.pipeline > 1) {
    p.micro_batch = t.integer("parallelism.pipeline_parallel_microbatch_size", 1, 1, max_sequences);
    if (local % p.micro_batch != 0)
      c.fail("parallelism.pipeline_parallel_microbatch_size",
             std::to_string(p.micro_batch) + " does not divide local_batch_size " +
                 std::to_string(local));
  } else {
    p.micro_batch = local;
  }
  // activation checkpointing
  const std::string mode = t.text("activation_checkpoint.mode", "selective");
  if (!t.has("activation_checkpoint.mode"))
    c.note("activation_checkpoint.mode not given: torchtitan's default selective");
  if (mode == "none") {
    p.recompute = "none";
  } else if (mode == "full") {
    p.recompute = "full";
  } else if (mode == "selective") {
    const std::string option = t.text("activation_checkpoint.selective_ac_option", "2");
    std::int64_t every = 0;
    if (option == "op") {
      p.recompute = "selective";
    } else if (parse_integer(option, every) && every >= 1) {
      p.recompute = every == 1 ? "full" : "selective";
      if (every > 1)
        c.note("activation_checkpoint selective_ac_option " + option +
               ": full checkpointing of "
               "every " +
               option +
               "th layer, counted as selective recomputation (an "
               "approximation)");
    } else {
      c.fail("activation_checkpoint.selective_ac_option",
             "must be \"op\" or a positive whole number");
    }
  } else if (mode == "memory_budget") {
    p.recompute = "selective";
    c.note("activation_checkpoint.mode memory_budget: counted as selective recomputation");
  } else {
    c.fail("activation_checkpoint.mode",
           "must be \"none\", \"selective\", \"full\" or \"memory_budget\"");
  }
  read_precision(c, p, t, t.strings("model.converters"));
}

/// The JSON current torchtitan saves (Trainer.Config.to_dict), or the tree the command line
/// builds over a config function (`converters` then are the function's).
inline void read_saved_config(context& c, plan_parts& p, key_tree& t, std::int64_t world,
                              const std::vector<std::string>* converters) {
  read_model(c, p, t, "model_spec");
  if (const nlohmann::json* model = t.at("model_spec.model")) {
    // The saved model tree: its dims checked against the catalogue model, the rest unused.
    if (model->is_object()) {
      auto check = [&](const char* key, std::int64_t want) {
        const auto it = model->find(key);
        if (it == model->end() || !it->is_number_integer()) return;
        if (it->get<std::int64_t>() != want)
          c.fail(std::string("model_spec.model.") + key, std::to_string(it->get<std::int64_t>()) +
                                                             ", but " + p.model_name + " has " +
                                                             std::to_string(want));
      };
      check("dim", p.model.d_model);
      check("vocab_size", p.model.vocab);
      const auto layers = model->find("layers");
      if (layers != model->end() && layers->is_array() &&
          static_cast<std::int64_t>(layers->size()) != p.model.layers)
        c.fail("model_spec.model.layers", std::to_string(layers->size()) + " layers, but " +
                                              p.model_name + " has " +
                                              std::to_string(p.model.layers));
    }
    c.unused_key("model_spec.model = (the model's config tree; its dims checked against " +
                 p.model_name + ")");
  }
  read_degrees(c, p, t, world);
  if (!t.boolean("parallelism.enable_sequence_parallel", true) && p.tensor > 1) {
    p.sequence_parallel = false;
  }
  read_pipeline(c, p, t);
  const std::string per_key = "training.num_tokens_per_microbatch_per_dp_rank";
  const std::int64_t per = t.integer(per_key, 16384, 1, max_sequences * 1000);
  if (!t.has("training.max_context_length"))
    c.note("training.max_context_length not given: torchtitan's default 2048");
  p.seq_len = t.integer("training.max_context_length", 2048, 1, max_seq_len);
  if (per % p.seq_len != 0)
    c.fail(per_key, std::to_string(per) + " tokens are not whole sequences of max_context_length " +
                        std::to_string(p.seq_len));
  p.micro_batch = per / p.seq_len;
  const std::int64_t pp_micro =
      p.pipeline > 1 ? t.integer("parallelism.num_pp_microbatches", 1, 1, max_sequences) : 1;
  if (p.pipeline <= 1) (void)t.at("parallelism.num_pp_microbatches");
  const std::int64_t step_tokens = per * pp_micro * p.data;
  const std::int64_t given =
      t.integer("training.num_tokens_per_train_step", -1, -1, max_sequences * max_seq_len);
  if (given == 0) c.fail("training.num_tokens_per_train_step", "must be -1 or at least 1");
  const std::int64_t tokens = given > 0 ? given : step_tokens;
  if (tokens % step_tokens != 0)
    c.fail("training.num_tokens_per_train_step",
           std::to_string(tokens) + " is not a multiple of the " + std::to_string(step_tokens) +
               " tokens of one accumulation step (trainer.py raises)");
  p.global_sequences = tokens / p.seq_len;
  // activation checkpointing: null, or the fields of the policy's config
  const nlohmann::json* ac = t.at("activation_checkpoint");
  if (ac == nullptr) {
    p.recompute = "selective";
    c.note("activation_checkpoint not given: torchtitan's default SelectiveAC");
  } else if (ac->is_null()) {
    p.recompute = "none";
  } else if (ac->is_object() && ac->contains("memory_budget")) {
    p.recompute = "selective";
    c.note("activation_checkpoint: MemoryBudgetAC, counted as selective recomputation");
  } else if (ac->is_object() && ac->contains("force_recompute_mm_shapes_by_fqns")) {
    p.recompute = "selective";
  } else if (ac->is_object()) {
    p.recompute = "full";
  } else {
    c.fail("activation_checkpoint", "must be null or an object");
  }
  if (converters == nullptr) {
    c.note("the saved JSON does not record model converters (fp8): counted in bf16");
    read_precision(c, p, t, {});
  } else {
    read_precision(c, p, t, *converters);
  }
}

/// A config function of torchtitan's registries at HEAD (models/{llama3,deepseek_v3,qwen3,
/// gpt_oss}/config_registry.py at b5bcd76: llama3_8b :194, llama3_70b :267, llama3_405b :305;
/// deepseek_v3_16b :141, deepseek_v3_671b :209; qwen3_0_6b :186, qwen3_1_7b :216, qwen3_14b
/// :270, qwen3_30b_a3b :305, qwen3_32b :340; gpt_oss_20b :71, gpt_oss_120b :104) and what it
/// sets that the plan reads.
struct config_function {
  std::string_view name;
  std::string_view model;    ///< model_registry's model name
  std::string_view flavor;   ///< its flavor
  std::int64_t tokens = 0;   ///< training.num_tokens_per_microbatch_per_dp_rank
  std::int64_t context = 0;  ///< training.max_context_length
  std::int64_t tensor = 1;
  std::int64_t expert = 1;
  std::string_view schedule;   ///< parallelism.pipeline_parallel_schedule
  std::string_view ac;         ///< the activation checkpointing policy
  std::string_view converter;  ///< "", "Float8LinearConverter", "MXFP8LinearConverter"
  /// compile.components, space-separated; "" when compile.enable is False.
  std::string_view compiled;
};

/// Compile: llama3_8b_mxfp8 sets CompileConfig(enable=True, components=["model"]), llama3_405b
/// CompileConfig(enable=True, ...) with the default components ["model", "loss"],
/// deepseek_v3_671b (and so its float8 variant) CompileConfig(enable=True, components=["loss"]);
/// the others keep CompileConfig's default, enable=False.
inline constexpr config_function config_functions[] = {
    {"llama3_8b", "llama3", "8B", 1 * 8192, 8192, 1, 1, "1F1B", "selective", "", ""},
    {"llama3_8b_mxfp8", "llama3", "8B", 1 * 8192, 8192, 1, 1, "1F1B", "selective",
     "MXFP8LinearConverter", "model"},
    {"llama3_70b", "llama3", "70B", 8 * 8192, 8192, 8, 1, "1F1B", "full", "", ""},
    {"llama3_405b", "llama3", "405B", 2 * 8192, 8192, 8, 1, "1F1B", "full",
     "Float8LinearConverter", "model loss"},
    {"deepseek_v3_671b", "deepseek_v3", "671B", 4 * 4096, 4096, 1, 2, "Interleaved1F1B",
     "selective", "", "loss"},
    {"deepseek_v3_671b_float8", "deepseek_v3", "671B", 4 * 4096, 4096, 1, 2, "Interleaved1F1B",
     "selective", "Float8LinearConverter", "loss"},
    {"deepseek_v3_16b", "deepseek_v3", "16B", 4 * 4096, 4096, 1, 8, "Interleaved1F1B",
     "selective", "", "loss"},
    {"qwen3_0_6b", "qwen3", "0.6B", 4 * 4096, 4096, 1, 1, "1F1B", "selective", "", ""},
    {"qwen3_1_7b", "qwen3", "1.7B", 4 * 4096, 4096, 1, 1, "1F1B", "selective", "", ""},
    {"qwen3_14b", "qwen3", "14B", 4 * 4096, 4096, 1, 1, "1F1B", "full", "", ""},
    {"qwen3_30b_a3b", "qwen3", "30B-A3B", 2 * 4096, 4096, 1, 1, "1F1B", "full", "", ""},
    {"qwen3_32b", "qwen3", "32B", 2 * 4096, 4096, 1, 1, "1F1B", "full", "", ""},
    {"gpt_oss_20b", "gpt_oss", "20b", 1 * 8192, 8192, 1, 1, "1F1B", "full", "", ""},
    {"gpt_oss_120b", "gpt_oss", "120b", 1 * 8192, 8192, 1, 1, "1F1B", "full", "", ""},
};

/// True when the text is command-line arguments (a launch line or script, or a bash array of
/// "--section.option value" words) rather than TOML.
inline bool is_command_line(const std::string& text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.rfind("--", 0) == 0 || line.rfind("torchrun", 0) == 0) return true;
    // "[NAME=value ...] ./run_train.sh ..." or "python -m torchtitan.train ...".
    std::istringstream words{std::string(line)};
    for (std::string w; words >> w;) {
      if (w.ends_with("run_train.sh") || w == "torchtitan.train") return true;
      if (bash::assignment_prefix(w) == 0 && w != "python" && w != "python3" && w != "-m") break;
    }
    std::size_t k = 0;
    while (k < line.size() && bash::is_name_char(line[k])) ++k;
    if (k > 0 && line.substr(k).rfind("=(", 0) == 0) return true;
    start = end + 1;
  }
  return false;
}

/// torchtitan's run_train.sh as its launch line gives it (run_train.sh at HEAD b5bcd76, lines
/// 29-47): MODULE (default llama3) and CONFIG (default llama3_debugmodel) are --module and
/// --config, NGPU (default 8) is torchrun's --nproc_per_node on one node; each from the command's
/// environment ("NGPU=8 MODULE=... ./run_train.sh") or the script's variables. v0.2.x's
/// CONFIG_FILE names a TOML job config, which is imported itself.
inline void read_run_train(context& c, const bash::shell& sh, const bash::command& launched,
                           std::string& module, std::string& function, std::int64_t& world) {
  auto given = [&](const std::string& name, std::string& value) {
    for (const auto& [key, v] : launched.environment)
      if (key == name) value = v;
    if (!value.empty()) return true;
    const auto it = sh.variables().find(name);
    if (it == sh.variables().end() || it->second.values.empty()) return false;
    value = it->second.values[0];
    return true;
  };
  std::string file;
  if (given("CONFIG_FILE", file))
    c.fail("CONFIG_FILE", "'" + bash::shown(file) +
                              "' is a TOML job config (torchtitan v0.2.x's run_train.sh): import "
                              "that file");
  for (auto [name, value, fallback] :
       {std::tuple<const char*, std::string*, const char*>{"MODULE", &module, "llama3"},
        {"CONFIG", &function, "llama3_debugmodel"}}) {
    if (!given(name, *value)) {
      *value = fallback;
      c.note(std::string(name) + ": not given; run_train.sh's default " + fallback);
    } else if (!bash::resolved(*value)) {
      c.fail(name, "its value " + bash::first_unresolved(*value) + " cannot be resolved");
    }
  }
  std::string ngpu;
  std::int64_t n = 8;
  if (given("NGPU", ngpu) && (!bash::resolved(ngpu) || !parse_integer(ngpu, n) || n < 1 ||
                              n > max_world))
    c.fail("NGPU", "must be a whole number of GPUs (given '" + bash::shown(ngpu) + "')");
  world = n;
  c.note("NGPU " + std::to_string(n) + (ngpu.empty() ? " (run_train.sh's default)" : "") +
         ": run_train.sh runs torchrun --nproc_per_node=" + std::to_string(n) + " on one node");
}

/// HEAD's command line (ConfigManager: --module, --config, then "--section.option value",
/// "--section.flag" / "--section.no_flag" for booleans, and the activation-checkpoint:POLICY
/// subcommand) as the tree Trainer.Config.to_dict would save, over the config function's values.
inline nlohmann::json command_line_tree(context& c, const std::string& text,
                                        std::vector<std::string>& converters,
                                        std::int64_t& launched_world) {
  bash::lexer lexer(c, text);
  bash::shell sh(c, lexer.run());
  sh.run();
  std::vector<std::string> launcher;
  const bash::command* launched = nullptr;
  const std::vector<std::string> words = bash::command_words(
      c, sh, launcher, "torchtitan",
      [](const std::string& w, int) {
        return w == "torchtitan.train" || w.ends_with("run_train.sh");
      },
      &launched);
  std::string module;
  std::string function;
  launched_world = launcher.empty() ? 0 : bash::launcher_world(c, launcher);
  if (launched != nullptr && launched->words[launcher.size()].ends_with("run_train.sh"))
    read_run_train(c, sh, *launched, module, function, launched_world);
  auto is_subcommand = [](const std::string& w) {
    const std::size_t colon = w.find(':');
    return colon != std::string::npos && colon > 0 && w.find_first_of(" ./=") == std::string::npos;
  };
  nlohmann::json cli = nlohmann::json::object();
  std::string policy;
  for (std::size_t k = 0; k < words.size(); ++k) {
    const std::string& w = words[k];
    if (w.rfind("--", 0) != 0 || w.size() == 2) {
      if (is_subcommand(w))
        policy = w;
      else
        c.unused_key("a positional argument '" + bash::shown(w) + "'");
      continue;
    }
    std::string name = w.substr(2);
    std::string value;
    bool has_value = false;
    const std::size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    } else if (k + 1 < words.size() && words[k + 1].rfind("--", 0) != 0 &&
               !is_subcommand(words[k + 1])) {
      value = words[++k];
      has_value = true;
    }
    for (char& ch : name)
      if (ch == '-') ch = '_';
    // A list option (tyro reads `--compile.components model loss`): every word up to the next
    // option or subcommand.
    if (name == "compile.components" && eq == std::string::npos) {
      nlohmann::json list = nlohmann::json::array();
      if (has_value) list.push_back(value);
      while (k + 1 < words.size() && words[k + 1].rfind("--", 0) != 0 &&
             !is_subcommand(words[k + 1]))
        list.push_back(words[++k]);
      for (const nlohmann::json& x : list)
        if (!bash::resolved(x.get<std::string>()))
          c.fail("--compile.components",
                 "its value " + bash::first_unresolved(x.get<std::string>()) +
                     " cannot be resolved");
      set_path(c, cli, name, list);
      continue;
    }
    const bool read = name == "module" || name == "config" || name.rfind("parallelism.", 0) == 0 ||
                      name.rfind("training.", 0) == 0 || name == "compile.enable" ||
                      name.rfind("activation_checkpoint.", 0) == 0;
    if (has_value && !bash::resolved(value)) {
      if (read)
        c.fail("--" + name, "its value " + bash::first_unresolved(value) + " cannot be resolved");
      value = bash::shown(value);
    }
    if (name == "module") {
      module = value;
      continue;
    }
    if (name == "config") {
      function = value;
      continue;
    }
    if (name == "job.config_file")
      c.fail("--job.config_file", "a TOML job config: import that file (torchtitan v0.2.x)");
    if (name.empty() || name.find("..") != std::string::npos || name.back() == '.')
      c.fail("--" + name, "is not an option name");
    nlohmann::json v;
    if (has_value) {
      v = override_value(value);
    } else {
      const std::size_t dot = name.rfind('.');
      const std::string last = name.substr(dot == std::string::npos ? 0 : dot + 1);
      if (last.rfind("no_", 0) == 0) {
        name = name.substr(0, dot == std::string::npos ? 0 : dot + 1) + last.substr(3);
        v = false;
      } else {
        v = true;
      }
    }
    set_path(c, cli, name, v);
  }
  // The config function's values, then the command line over them.
  nlohmann::json root = nlohmann::json::object();
  const std::string short_module =
      module.substr(module.rfind('.') == std::string::npos ? 0 : module.rfind('.') + 1);
  const config_function* f = nullptr;
  for (const config_function& x : config_functions)
    if (x.name == function && (module.empty() || short_module == x.model)) f = &x;
  if (f != nullptr) {
    root["model_spec"] = {{"name", std::string(f->model)}, {"flavor", std::string(f->flavor)}};
    root["training"] = {{"num_tokens_per_microbatch_per_dp_rank", f->tokens},
                        {"max_context_length", f->context}};
    root["parallelism"] = {{"tensor_parallel_degree", f->tensor},
                           {"expert_parallel_degree", f->expert},
                           {"pipeline_parallel_schedule", std::string(f->schedule)}};
    if (!f->converter.empty()) converters.push_back(std::string(f->converter));
    if (!f->compiled.empty()) {
      nlohmann::json components = nlohmann::json::array();
      std::istringstream listed{std::string(f->compiled)};
      for (std::string w; listed >> w;) components.push_back(w);
      root["compile"] = {{"enable", true}, {"components", components}};
    }
    c.note("--config " + function + ": torchtitan's config function (models/" +
           std::string(f->model) + "/config_registry.py at b5bcd76) gives the model " +
           std::string(f->model) + " " + std::string(f->flavor) +
           " and the values the command line does not");
    if (policy.empty()) policy = "activation-checkpoint:" + std::string(f->ac);
  } else if (!function.empty() || !module.empty()) {
    if (!model_given(c.src)) {
      std::vector<std::string_view> known;
      for (const config_function& x : config_functions) known.push_back(x.name);
      c.fail("--config", "'" + function + "' of --module '" + module +
                             "' is not a config function the importer knows (" +
                             name_list(known) + "); give --model NAME");
    }
    c.note("--config " + function +
           ": not a config function the importer knows; the model is "
           "the requested one and torchtitan's dataclass defaults fill what the command line "
           "does not give");
  }
  merge_json(root, cli);
  if (policy.empty()) {
    c.note("activation checkpointing: not given, SelectiveAC (Trainer.Config's default)");
    policy = "activation-checkpoint:selective";
  }
  const std::string ac = policy.substr(policy.find(':') + 1);
  nlohmann::json options =
      root.contains("activation_checkpoint") && root["activation_checkpoint"].is_object()
          ? root["activation_checkpoint"]
          : nlohmann::json::object();
  if (policy.substr(0, policy.find(':')) != "activation-checkpoint")
    c.fail(policy, "is not a subcommand the importer knows (activation-checkpoint:POLICY)");
  if (ac == "none") {
    root["activation_checkpoint"] = nullptr;
  } else if (ac == "selective") {
    options["force_recompute_mm_shapes_by_fqns"] = {"moe.router.gate"};
    root["activation_checkpoint"] = options;
  } else if (ac == "full") {
    root["activation_checkpoint"] = options;
  } else if (ac == "memory-budget" || ac == "memory_budget") {
    if (!options.contains("memory_budget")) options["memory_budget"] = 0.5;
    root["activation_checkpoint"] = options;
  } else {
    c.fail(policy,
           "is not an activation checkpointing policy (none, selective, full, memory-budget)");
  }
  return root;
}

/// `compile.enable` and `compile.components` (CompileConfig at b5bcd76 and Compile of
/// job_config.py at v0.2.2: enable False, components ["model", "loss"]): the compiled layers and
/// loss of the plan (`compiled_layers`, `compiled_loss`).
/// Job configs before v0.2.0 have `training.compile` instead (job_config.py at 6404b932: "Whether
/// to compile the model"; it compiles the loss too from bbb1b616e, 2025-04-02, on).
inline void read_compile(context& c, plan_parts& p, key_tree& t) {
  if (t.boolean("training.compile", false)) {
    p.compiled_layers = true;
    p.compiled_loss = true;
    c.note("training.compile: the layers and the loss compiled (torchtitan compiles the loss "
           "with the model from bbb1b616e, 2025-04-02)");
  }
  const bool enable = t.boolean("compile.enable", false);
  std::vector<std::string> components = {"model", "loss"};
  if (t.has("compile.components")) components = t.strings("compile.components");
  for (const std::string& x : components)
    if (x != "model" && x != "loss")
      c.fail("compile.components", "'" + printable(x) + "' is not a component (model, loss)");
  auto has = [&components](const char* x) {
    for (const std::string& y : components)
      if (y == x) return true;
    return false;
  };
  p.compiled_layers = p.compiled_layers || (enable && has("model"));
  p.compiled_loss = p.compiled_loss || (enable && has("loss"));
  // Async TP: CompileConfig.enable_async_tensor_parallel at b5bcd76, Parallelism's before
  // (job_config.py at v0.2.2); both need the model compiled and only rewrite sequence
  // parallelism's collectives, which torchtitan's TP always uses unless told not to.
  for (const char* key :
       {"compile.enable_async_tensor_parallel", "parallelism.enable_async_tensor_parallel"}) {
    if (!t.boolean(key, false)) continue;
    if (!p.compiled_layers)
      c.fail(key, "needs the model compiled (\"model\" in compile.components and "
                  "compile.enable), as torchtitan requires");
    if (p.tensor > 1 && p.sequence_parallel)
      p.tp_comm_overlap = true;
    else
      c.note(std::string(key) +
             ": no effect without tensor and sequence parallelism (nothing to overlap)");
  }
}

/// Refuses a config with none of the sections torchtitan's JobConfig has (torchtitan/config/
/// job_config.py at v0.2.2: job ... debug; [float8] and [mx] before v0.2.0) or the saved
/// configuration's model_spec: an empty file or another program's TOML would otherwise check
/// torchtitan's defaults.
inline void refuse_unless_torchtitan(const context& c, const nlohmann::json& root) {
  static constexpr std::string_view sections[] = {
      "job",        "profiling",  "metrics",    "model",          "optimizer",
      "lr_scheduler", "training", "parallelism", "checkpoint",    "activation_checkpoint",
      "compile",    "quantize",   "comm",       "memory_estimation", "fault_tolerance",
      "experimental", "validation", "debug",    "float8",         "mx",
      "model_spec"};
  refuse_unless_known(
      c, top_level_keys(root),
      [](const std::string& key) {
        return std::find(std::begin(sections), std::end(sections), key) != std::end(sections);
      },
      "a torchtitan job config has sections such as [model], [training] and [parallelism]",
      "the sections of torchtitan's JobConfig", "torchtitan");
}

/// Reads a torchtitan job config (TOML), the JSON current versions save, or current command-line
/// arguments into a plan file.
inline outcome import_torchtitan(const source& src) {
  context c{src, "torchtitan", {}, {}};
  const std::string text = config_text(src);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const bool json = first != std::string::npos && text[first] == '{';
  nlohmann::json root;
  const bool command_line = !json && is_command_line(text);
  std::vector<std::string> converters;
  std::int64_t launched_world = 0;
  if (json) {
    root = parse_json(c, text, false);
    if (!root.is_object()) c.fail("JSON", "must be an object");
  } else if (command_line) {
    root = command_line_tree(c, text, converters, launched_world);
  } else {
    try {
      const toml::table table = toml::parse(text, std::string_view(src.path));
      root = from_toml(table, 0);
    } catch (const toml::parse_error& e) {
      c.fail("line " + std::to_string(e.source().begin.line),
             "malformed TOML: " + std::string(e.description()));
    }
  }
  for (const std::string& o : src.overrides) {
    const auto [key, value] = split_override(c, o);
    set_path(c, root, key, override_value(value));
    c.note("override: " + key + " = " + value);
  }
  if (!command_line) refuse_unless_torchtitan(c, root);
  key_tree t(c, root);
  plan_parts p;
  p.framework = "torchtitan";
  system_names names;
  const system_figures system = requested_system(c, names);
  const std::int64_t world =
      world_size(c, system, launched_world, "launch line (torchrun's --nproc_per_node x --nnodes)");
  const bool saved =
      command_line ||
      (json && (t.has("model_spec") || t.has("training.num_tokens_per_microbatch_per_dp_rank") ||
                t.has("training.max_context_length") || t.has("parallelism.num_pp_microbatches")));
  if (saved)
    read_saved_config(c, p, t, world, command_line ? &converters : nullptr);
  else
    read_job_config(c, p, t, world);
  read_compile(c, p, t);
  check_degrees(c, p, world, "parallelism.expert_parallel_degree",
                saved ? "training.num_tokens_per_train_step" : "training.global_batch_size");
  t.report_unused();
  return finish(c, p);
}

}  // namespace shardplan::io::detail::importer::torchtitan
