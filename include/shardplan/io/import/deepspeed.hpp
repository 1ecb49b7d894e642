// DeepSpeed: a config JSON (with // comments, parsed with nlohmann-json) read into a plan file,
// with the model and the sequence length a DeepSpeed config does not hold given by the request.
#pragma once

// Where the names and rules come from (stored copies of deepspeedai/DeepSpeed at
// edaa7221267243c7be7fb49c5d5f5c4fb97b4641, 2026-08-22):
//   - deepspeed/runtime/config.py: DeepSpeedConfig reads the file with hjson and
//     dict_raise_error_on_duplicate_keys (a repeated key is an error); its world size is the
//     data-parallel world of the model-parallel unit (or WORLD_SIZE / sequence_parallel_size
//     without one); _set_batch_related_parameters derives the missing one of train_batch_size,
//     train_micro_batch_size_per_gpu and gradient_accumulation_steps (gradient accumulation 1
//     when only one is given) and _batch_assertion requires train_batch_size = micro x
//     accumulation x data-parallel world; get_pipeline_config's "stages" is not read by the
//     engine (PipelineModule(num_stages) in the model code sets PP).
//   - deepspeed/runtime/precision_config.py: "bf16" (or the old "bfloat16") and "fp16", each
//     {"enabled": ...}; bf16_master_weights_and_grads and bf16_optimizer_states.
//   - deepspeed/runtime/zero/config.py: zero_optimization.stage (0 when absent; a bare true is
//     the deprecated spelling of stage 1, read_zero_config_deprecated), overlap_comm (None
//     becomes true at stage 3 and false below it, overlap_comm_valid; read at 38327e07),
//     mics_shard_size.
//   - deepspeed/runtime/tensor_parallel/config.py: tensor_parallel.autotp_size (AutoTP).
//   - "auto" values are filled by the Hugging Face Trainer before DeepSpeed sees them
//     (transformers' integrations/deepspeed.py, HfTrainerDeepSpeedConfig.trainer_config_process):
//     train_micro_batch_size_per_gpu <- per_device_train_batch_size (TrainingArguments' default
//     8), gradient_accumulation_steps <- gradient_accumulation_steps (1), train_batch_size <-
//     world x both, fp16.enabled <- fp16, bf16.enabled <- bf16 (both false by default). The
//     overrides per_device_train_batch_size=N, gradient_accumulation_steps=N, bf16=true and
//     fp16=true give the Trainer's arguments; without them its defaults are used and said.
// A DeepSpeed config names neither the model nor the sequence length (the data loader's):
// the request names the model (--model) and the override seq_len=N gives the length; neither is
// guessed. Tensor, pipeline and expert degrees live in the model code: the overrides
// tensor_parallel=N, pipeline_parallel=N, expert_parallel=N give them (1 when not given).

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <shardplan/io/import/common.hpp>
#include <string>
#include <utility>
#include <vector>

namespace shardplan::io::detail::importer::deepspeed {

/// `text` without its trailing commas (a comma whose next token closes an object or array),
/// which DeepSpeed's hjson reader accepts; strings and comments are left as they are. Sets
/// `dropped` when one was.
inline std::string without_trailing_commas(const std::string& text, bool& dropped) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  auto skip_blank = [&](std::size_t j) {  // past spaces and comments from j
    while (j < text.size()) {
      if (std::isspace(static_cast<unsigned char>(text[j])) != 0) {
        ++j;
      } else if (text.compare(j, 2, "//") == 0) {
        j = text.find('\n', j);
        if (j == std::string::npos) return text.size();
      } else if (text.compare(j, 2, "/*") == 0) {
        j = text.find("*/", j + 2);
        if (j == std::string::npos) return text.size();
        j += 2;
      } else {
        break;
      }
    }
    return j;
  };
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == '"') {  // a string, escapes included
      const std::size_t start = i++;
      while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, text.size());
      out.append(text, start, i - start);
    } else if (text.compare(i, 2, "//") == 0 || text.compare(i, 2, "/*") == 0) {
      const std::size_t end = skip_blank(i);
      out.append(text, i, end - i);
      i = end;
    } else if (ch == ',') {
      const std::size_t next = skip_blank(i + 1);
      const bool trailing = next < text.size() && (text[next] == '}' || text[next] == ']');
      if (!trailing) out.push_back(ch);
      dropped = dropped || trailing;
      ++i;
    } else {
      out.push_back(ch);
      ++i;
    }
  }
  return out;
}

/// Refuses a config with none of DeepSpeed's top-level keys (deepspeed/runtime/constants.py at
/// deepspeedai/DeepSpeed ac2f3a34, and the sections runtime/config.py reads from other modules:
/// zero_optimization, activation_checkpointing, pipeline, tensor_parallel, monitors, profilers):
/// another program's JSON would otherwise be read as a config that sets nothing.
inline void refuse_unless_deepspeed(const context& c, const nlohmann::json& root) {
  static constexpr std::string_view keys[] = {
      "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps",
      "optimizer", "scheduler", "fp16", "bf16", "bfloat16", "amp", "torch_autocast",
      "zero_optimization", "zero_allow_untested_optimizer", "zero_force_ds_cpu_optimizer",
      "gradient_clipping", "steps_per_print", "wall_clock_breakdown", "memory_breakdown",
      "communication_data_type", "seq_parallel_communication_data_type", "prescale_gradients",
      "gradient_predivide_factor", "sparse_gradients", "disable_allgather", "dump_state",
      "activation_checkpointing", "pipeline", "tensor_parallel", "sequence_parallel_size",
      "data_types", "checkpoint", "dataloader_drop_last", "graph_harvesting", "sparse_attention",
      "flops_profiler", "tensorboard", "wandb", "csv_monitor", "comms_logger", "aio",
      "compression_training", "data_efficiency", "elasticity", "autotuning", "eigenvalue",
      "progressive_layer_drop", "vocabulary_size"};
  refuse_unless_known(
      c, top_level_keys(root),
      [](const std::string& key) {
        return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
      },
      "a DeepSpeed config gives train_batch_size or train_micro_batch_size_per_gpu at least",
      "DeepSpeed's config keys", "DeepSpeed");
}

/// Reads a DeepSpeed config into a plan file.
inline outcome import_deepspeed(const source& src) {
  context c{src, "deepspeed", {}, {}};
  bool dropped = false;
  const std::string text = without_trailing_commas(config_text(src), dropped);
  if (dropped) c.note("trailing commas: ignored, as DeepSpeed's hjson reader ignores them");
  nlohmann::json root = parse_json(c, text, true);
  if (!root.is_object()) c.fail("JSON", "must be an object");
  std::int64_t seq_len = 0;
  std::int64_t tensor = 0;
  std::int64_t pipeline = 0;
  std::int64_t expert = 0;
  std::int64_t per_device = 0;  // the Trainer's per_device_train_batch_size, when given
  std::int64_t hf_accumulation = 0;
  int hf_bf16 = -1;  // the Trainer's bf16 / fp16 arguments: -1 not given, else 0 or 1
  int hf_fp16 = -1;
  for (const std::string& o : src.overrides) {
    const auto [key, value] = split_override(c, o);
    if (key == "bf16" || key == "fp16") {
      if (value != "true" && value != "false")
        c.fail("override " + key, "must be true or false (given '" + value + "')");
      (key == "bf16" ? hf_bf16 : hf_fp16) = value == "true" ? 1 : 0;
      c.note("override: " + key + "=" + value + " (the Trainer's argument)");
      continue;
    }
    if (key == "per_device_train_batch_size" ||
        (key == "gradient_accumulation_steps" && root.value(key, nlohmann::json()) == "auto")) {
      std::int64_t& x = key == "per_device_train_batch_size" ? per_device : hf_accumulation;
      if (!parse_integer(value, x) || x < 1 || x > max_sequences)
        c.fail("override " + key, "must be a whole number from 1 to " +
                                      std::to_string(max_sequences) + " (given '" + value + "')");
      c.note("override: " + key + "=" + value + " (the Trainer's argument)");
      continue;
    }
    std::int64_t* degree = key == "seq_len"             ? &seq_len
                           : key == "tensor_parallel"   ? &tensor
                           : key == "pipeline_parallel" ? &pipeline
                           : key == "expert_parallel"   ? &expert
                                                        : nullptr;
    if (degree != nullptr) {
      const std::int64_t hi = key == "seq_len" ? max_seq_len : max_degree;
      if (!parse_integer(value, *degree) || *degree < 1 || *degree > hi)
        c.fail("override " + key, "must be a whole number from 1 to " + std::to_string(hi) +
                                      " (given '" + value + "')");
      c.note("override: " + key + "=" + value);
      continue;
    }
    set_path(c, root, key, override_value(value));
    c.note("override: " + key + " = " + value);
  }
  refuse_unless_deepspeed(c, root);
  key_tree t(c, root);
  plan_parts p;
  p.framework = "deepspeed";

  // ---- the model: only the request names it ----------------------------------------------------
  if (!model_given(src))
    c.fail("model", "a DeepSpeed config does not name the model; give --model NAME (one of: " +
                        catalogue_names() + ")");
  const model_shape& m = requested_model(c);
  p.model = m;
  p.model_name = std::string(m.name);
  if (seq_len == 0)
    c.fail("seq_len",
           "a DeepSpeed config does not give the sequence length (the data loader "
           "sets it); give the override seq_len=N");
  p.seq_len = seq_len;

  // ---- degrees -------------------------------------------------------------------------------
  if (t.has("tensor_parallel.autotp_size")) {
    const std::int64_t autotp = t.integer("tensor_parallel.autotp_size", 0, 0, max_degree);
    if (tensor != 0 && autotp > 1 && autotp != tensor)
      c.fail("tensor_parallel.autotp_size", std::to_string(autotp) +
                                                ", but the override tensor_parallel gives " +
                                                std::to_string(tensor));
    if (tensor == 0 && autotp > 0) tensor = autotp;
  }
  p.tensor = tensor > 0 ? tensor : 1;
  p.pipeline = pipeline > 0 ? pipeline : 1;
  p.expert = expert > 0 ? expert : 1;
  if (tensor == 0 && pipeline == 0)
    c.note(
        "tensor and pipeline parallelism: not in a DeepSpeed config (the model code sets "
        "them); 1 each unless the overrides tensor_parallel=N and pipeline_parallel=N say");
  p.context = t.integer("sequence_parallel_size", 1, 1, max_degree);
  if (p.context > 1)
    c.note("sequence_parallel_size " + std::to_string(p.context) +
           ": DeepSpeed-Ulysses (all-to-all over heads), costed as context parallelism (a ring)");
  system_names names;
  const system_figures system = requested_system(c, names);
  const std::int64_t world = world_size(c, system, 0, "");
  const std::int64_t model_parallel = p.tensor * p.pipeline * p.context;
  if (world % model_parallel != 0)
    c.fail("world size", std::to_string(world) + " devices are not a multiple of TP " +
                             std::to_string(p.tensor) + " x PP " + std::to_string(p.pipeline) +
                             " x SP " + std::to_string(p.context));
  p.data = world / model_parallel;
  // PipelineModule splits the layers by its partition_method; stages need not be equal.
  p.uneven_stages = p.pipeline > 1 && m.layers % p.pipeline != 0;

  // ---- batch: DeepSpeed's derivation -----------------------------------------------------------
  // "auto": the Trainer's value (trainer_config_process), its default when not given.
  const std::int64_t trainer_micro = per_device > 0 ? per_device : 8;
  const std::int64_t trainer_accumulation = hf_accumulation > 0 ? hf_accumulation : 1;
  auto batch_key = [&](const char* key, std::int64_t filled, const char* from) -> std::int64_t {
    const nlohmann::json* v = t.at(key);
    if (v == nullptr || v->is_null()) return 0;
    if (v->is_string() && v->get<std::string>() == "auto") {
      c.note(std::string(key) + " \"auto\": " + std::to_string(filled) +
             ", as the Hugging Face Trainer fills it (" + from + ")");
      return filled;
    }
    return t.integer(key, 0, 1, max_sequences);
  };
  std::int64_t micro = batch_key(
      "train_micro_batch_size_per_gpu", trainer_micro,
      per_device > 0 ? "per_device_train_batch_size" : "per_device_train_batch_size's default 8");
  std::int64_t accumulation =
      batch_key("gradient_accumulation_steps", trainer_accumulation,
                hf_accumulation > 0 ? "gradient_accumulation_steps"
                                    : "gradient_accumulation_steps' default 1");
  std::int64_t train = batch_key("train_batch_size", p.data * trainer_micro * trainer_accumulation,
                                 "world x per-device batch x accumulation");
  const std::int64_t dp = p.data;
  if (train > 0 && micro > 0 && accumulation > 0) {
  } else if (train > 0 && micro > 0) {
    accumulation = train / micro / dp;
    c.note("gradient_accumulation_steps: " + std::to_string(accumulation) +
           " = train_batch_size / micro-batch / data parallelism " + std::to_string(dp));
  } else if (train > 0 && accumulation > 0) {
    micro = train / dp / accumulation;
    c.note("train_micro_batch_size_per_gpu: " + std::to_string(micro) +
           " = train_batch_size / data parallelism " + std::to_string(dp) + " / accumulation");
  } else if (micro > 0 && accumulation > 0) {
    train = micro * accumulation * dp;
    c.note("train_batch_size: " + std::to_string(train) +
           " = micro-batch x accumulation x data "
           "parallelism " +
           std::to_string(dp));
  } else if (train > 0) {
    accumulation = 1;
    micro = train / dp;
    c.note("only train_batch_size: gradient accumulation 1, micro-batch " + std::to_string(micro));
  } else if (micro > 0) {
    accumulation = 1;
    train = micro * dp;
    c.note("only train_micro_batch_size_per_gpu: gradient accumulation 1, train_batch_size " +
           std::to_string(train));
  } else if (per_device > 0) {
    // A config that leaves the batch to the Trainer (transformers' deepspeed integration sets
    // train_micro_batch_size_per_gpu and the accumulation from its arguments).
    micro = per_device;
    if (accumulation == 0) accumulation = trainer_accumulation;
    train = micro * accumulation * dp;
    c.note("no batch key: the Hugging Face Trainer's per_device_train_batch_size " +
           std::to_string(micro) + " and gradient_accumulation_steps " +
           std::to_string(accumulation));
  } else {
    c.fail("train_batch_size",
           "either train_batch_size or train_micro_batch_size_per_gpu is needed (DeepSpeedConfig "
           "asserts it); under the Hugging Face Trainer, give per_device_train_batch_size=N");
  }
  if (micro < 1 || accumulation < 1 || train != micro * accumulation * dp)
    c.fail("train_batch_size", std::to_string(train) + " is not micro-batch " +
                                   std::to_string(micro) + " x accumulation " +
                                   std::to_string(accumulation) + " x data parallelism " +
                                   std::to_string(dp) + " (DeepSpeed's _batch_assertion)");
  p.global_sequences = train;
  p.micro_batch = micro;

  // ---- ZeRO ------------------------------------------------------------------------------------
  if (t.has("zero_optimization")) {
    const nlohmann::json& z = root.at("zero_optimization");
    if (z.is_boolean()) {
      (void)t.at("zero_optimization");
      p.zero_stage = z.get<bool>() ? 1 : 0;
      c.note("zero_optimization: " + std::string(z.get<bool>() ? "true" : "false") +
             ", DeepSpeed's deprecated spelling of stage " + std::to_string(p.zero_stage));
    } else if (z.is_object()) {
      p.zero_stage = t.integer("zero_optimization.stage", 0, 0, 3);
      // DeepSpeedZeroConfig.overlap_comm: None means true at stage 3 and false below it
      // (overlap_comm_valid); shardplan models ZeRO-3 overlapped and stage 0 never.
      const bool overlap = t.boolean("zero_optimization.overlap_comm", p.zero_stage == 3);
      if (deepspeed_reads_overlap_comm(p.zero_stage)) {
        p.overlap_comm = overlap;
      } else if (p.zero_stage == 3 && !overlap) {
        c.note("zero_optimization.overlap_comm false at stage 3: shardplan models ZeRO-3's "
               "gathers and reductions overlapped (an approximation)");
      } else if (p.zero_stage == 0 && overlap) {
        c.note("zero_optimization.overlap_comm true at stage 0: DeepSpeed reads it only with "
               "ZeRO; the gradient all-reduce runs after the backward pass");
      }
      // offload_optimizer and offload_param (deepspeed/runtime/zero/offload_config.py; where
      // each state then lives, stage_1_and_2.py and stage3.py at deepspeedai/DeepSpeed
      // edaa7221: `offloads::zero_offload`, `zero1_offload`, `zero3_offload`).
      auto device = [&](const std::string& key) {
        const std::string d = t.text(key, "none");
        if (d != "none" && d != "cpu" && d != "nvme")
          c.fail(key, "must be \"none\", \"cpu\" or \"nvme\"");
        return d;
      };
      const std::string optimizer_device = device("zero_optimization.offload_optimizer.device");
      const std::string param_device = device("zero_optimization.offload_param.device");
      const bool legacy_cpu = t.boolean("zero_optimization.cpu_offload", false);
      if (optimizer_device != "none" || legacy_cpu) {
        p.offload = p.zero_stage == 3   ? offloads::zero3_offload
                    : p.zero_stage == 1 ? offloads::zero1_offload
                                        : offloads::zero_offload;
        if (p.zero_stage == 0)
          c.fail("zero_optimization.offload_optimizer",
                 "offloads ZeRO's optimizer partition: it needs a ZeRO stage of 1 or more");
        if (optimizer_device == "nvme")
          c.note("zero_optimization.offload_optimizer.device nvme: the states are counted in "
                 "host memory, where DeepSpeed stages them (an over-estimate of the host's need)");
        const double ratio = t.number("zero_optimization.offload_optimizer.ratio", 1.0);
        if (!(ratio >= 0.0 && ratio <= 1.0))
          c.fail("zero_optimization.offload_optimizer.ratio", "must be between 0 and 1");
        if (ratio < 1.0)
          c.note("zero_optimization.offload_optimizer.ratio: every sub-group whose index is at "
                 "least (1 - ratio) x their count goes to the CPU; with one sub-group (the "
                 "default sub_group_size 1e9) that is all of it, as counted");
      }
      if (param_device != "none") {
        if (p.zero_stage != 3)
          c.fail("zero_optimization.offload_param", "is ZeRO-3's: it needs stage 3");
        p.offload.parameters_on_host = true;
      }
      const std::int64_t mics = t.integer("zero_optimization.mics_shard_size", -1, -1, max_world);
      if (mics > 0)
        c.note("zero_optimization.mics_shard_size " + std::to_string(mics) +
               ": shardplan's ZeRO shards over every data-parallel replica (an approximation)");
    } else {
      c.fail("zero_optimization", "must be an object (or true / false)");
    }
  }

  // ---- precision -------------------------------------------------------------------------------
  const std::string bf16_key = t.has("bf16") || !t.has("bfloat16") ? "bf16" : "bfloat16";
  auto enabled = [&](const std::string& key, int trainer) {
    const nlohmann::json* v = t.at(key);
    if (v != nullptr && v->is_string() && v->get<std::string>() == "auto") {
      c.note(key + " \"auto\": " + (trainer == 1 ? "true" : "false") +
             ", as the Hugging Face Trainer fills it (" +
             (trainer < 0 ? "TrainingArguments' default false" : "the override") + ")");
      return trainer == 1;
    }
    return t.boolean(key, false);
  };
  const bool bf16 = enabled(bf16_key + ".enabled", hf_bf16);
  const bool fp16 = enabled("fp16.enabled", hf_fp16);
  if (bf16 && fp16) c.fail("fp16.enabled", "and bf16.enabled are both true");
  p.precision = "bf16_mixed_adam";
  if (fp16)
    c.note("fp16: counted as 16-bit mixed precision with the bf16_mixed_adam preset's bytes");
  if (!bf16 && !fp16)
    c.note(
        "neither bf16 nor fp16 enabled: fp32 training, counted with the bf16_mixed_adam "
        "preset's bytes (an approximation)");
  const bool bf16_master = t.boolean(bf16_key + ".bf16_master_weights_and_grads", false);
  const bool bf16_states = t.boolean(bf16_key + ".bf16_optimizer_states", false);
  if (bf16 && (bf16_master || bf16_states))
    c.note(
        "bf16 master weights, gradients or optimizer states: no preset counts them in bf16; "
        "bf16_mixed_adam (fp32) is used");

  // ---- recomputation ---------------------------------------------------------------------------
  if (t.has("activation_checkpointing")) {
    p.recompute = "full";
    c.note(
        "activation_checkpointing: it configures deepspeed.checkpointing; which layers the "
        "model checkpoints is the model code's (full recomputation assumed); its keys are "
        "listed as unused");
  }

  check_degrees(c, p, world, "override expert_parallel", "train_batch_size");
  t.report_unused();
  return finish(c, p);
}

}  // namespace shardplan::io::detail::importer::deepspeed
