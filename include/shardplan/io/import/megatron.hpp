// Megatron-LM: a launch script (bash, read by io/import/bash.hpp) or an argument file, its
// pretrain_gpt.py arguments read into a plan file.
#pragma once

// Where the names and rules come from (stored copies of the project's sources):
//   NVIDIA/Megatron-LM 000c4ac24f61159c138b0975def722c65245983c (main after core_r0.14, the
//   commit io/launch/megatron.hpp targets):
//   - megatron/training/arguments.py: every flag read below, its default and choices
//     (_add_network_size_args, _add_training_args, _add_distributed_args, _add_moe_args,
//     _add_mla_args, _add_mixed_precision_args, _add_tokenizer_args), and validate_args: data
//     parallelism = WORLD_SIZE / (TP x PP x CP) ("world size is not divisible by
//     total_model_size"), global batch default micro x DP, the ffn default (4h, or
//     int((4h x 2 / 3) / 64) x 64 with --swiglu), kv_channels = hidden / heads, required
//     num_layers, hidden_size, num_attention_heads and max_position_embeddings, max positions at
//     least the sequence length, sequence parallelism switched off at TP 1, the virtual pipeline
//     size from --num-layers-per-virtual-pipeline-stage or --num-virtual-stages-per-pipeline-rank
//     or the layout's stage count, moe_ffn_hidden_size defaulting to ffn_hidden_size, and
//     moe_freq_type / _eval_pattern for --moe-layer-freq (only ",0-9[]()+*").
//   - megatron/training/tokenizer/tokenizer.py: build_tokenizer pads the vocabulary
//     (_vocab_size_with_padding: up to a multiple of --make-vocab-size-divisible-by x TP) and
//     NullTokenizer's size is --vocab-size + 1 (the EOD token).
//   - megatron/core/transformer/pipeline_parallel_layer_layout.py: parse_str_to_list (commas
//     removed, "(...)*n" then "x*n" unrolled, stages split at "|").
//   The GPT-2 BPE vocabulary of 50,257 tokens: Radford et al. 2019 / Brown et al. 2020 Sec. 2.1,
//   as models/gpt.hpp's gpt3_175b cites it.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <shardplan/io/import/bash.hpp>
#include <shardplan/io/import/common.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardplan::io::detail::importer::megatron {

/// One flag of the command line: its values, how often it was given, whether the importer used
/// it.
struct flag {
  std::string name;
  std::vector<std::string> values;
  int count = 0;
  bool used = false;
};

/// pretrain_gpt.py's arguments, as argparse would take them: "--flag v1 v2", "--flag=v", the
/// last of a repeated flag counts.
class arguments {
 public:
  arguments(context& c, const std::vector<std::string>& words) : c_(c) {
    flag* current = nullptr;
    for (const std::string& w : words) {
      if (w.size() > 2 && w[0] == '-' && w[1] == '-' && bash::resolved(w.substr(0, 3))) {
        const std::size_t eq = w.find('=');
        const std::string name = w.substr(0, eq);
        current = &get(name);
        ++current->count;
        current->values.clear();
        if (eq != std::string::npos) current->values.push_back(w.substr(eq + 1));
      } else if (w == "--") {
        current = nullptr;
      } else if (current != nullptr) {
        current->values.push_back(w);
      } else {
        c_.unused_key("a positional argument '" + bash::shown(w) + "'");
      }
    }
    for (const flag& f : flags_)
      if (f.count > 1)
        c_.note(f.name + " is given " + std::to_string(f.count) +
                " times: the last counts, as argparse takes it");
  }

  /// Sets a flag as an override does ("key=value"; "key=true" for a switch, "key=false" drops
  /// it).
  void override_with(const std::string& key, const std::string& value) {
    std::string name = key;
    while (!name.empty() && name[0] == '-') name.erase(0, 1);
    name = "--" + name;
    if (value == "false") {
      flags_.erase(std::remove_if(flags_.begin(), flags_.end(),
                                  [&](const flag& f) { return f.name == name; }),
                   flags_.end());
      c_.note("override: " + name + " dropped");
      return;
    }
    flag& f = get(name);
    ++f.count;
    f.values.clear();
    if (value != "true") f.values.push_back(value);
    c_.note("override: " + name + (value == "true" ? std::string() : " " + value));
  }

  /// The flag, marked used; null when not given.
  const flag* find(std::string_view name) {
    for (flag& f : flags_)
      if (f.name == name) {
        f.used = true;
        return &f;
      }
    return nullptr;
  }
  bool given(std::string_view name) const {
    for (const flag& f : flags_)
      if (f.name == name) return true;
    return false;
  }

  /// A switch (store_true): given or not.
  bool on(std::string_view name) {
    const flag* f = find(name);
    if (f == nullptr) return false;
    // What the script cannot resolve after a switch is most often a variable it leaves unset,
    // which bash expands to no word at all ("--use-distributed-optimizer $EXTRA"): listed.
    bool unresolved = !f->values.empty();
    for (const std::string& v : f->values) unresolved = unresolved && !bash::resolved(v);
    if (unresolved) {
      for (const std::string& v : f->values)
        c_.unused_key("'" + bash::shown(v) + "' after the switch " + std::string(name));
      return true;
    }
    if (!f->values.empty())
      c_.fail(std::string(name),
              "is a switch and takes no value (given '" + bash::shown(f->values[0]) + "')");
    return true;
  }

  /// A flag's one value, resolved; empty when not given.
  std::optional<std::string> text(std::string_view name) {
    const flag* f = find(name);
    if (f == nullptr) return std::nullopt;
    const std::string n(name);
    if (f->values.empty()) c_.fail(n, "needs a value");
    if (f->values.size() > 1) {
      std::string all;
      for (const std::string& v : f->values) {
        all += ' ';  // appended: g++ 12 -O3 warns falsely on " " + ... (-Wrestrict)
        all += bash::shown(v);
      }
      c_.fail(n, "takes one value (given" + all + ")");
    }
    const std::string& v = f->values[0];
    if (!bash::resolved(v))
      c_.fail(n, "its value " + bash::first_unresolved(v) + " cannot be resolved");
    return v;
  }

  std::int64_t integer(std::string_view name, std::int64_t fallback, std::int64_t lo,
                       std::int64_t hi) {
    const std::optional<std::string> v = text(name);
    if (!v) return fallback;
    std::int64_t x = 0;
    if (!parse_integer(*v, x))
      c_.fail(std::string(name), "must be a whole number (given '" + *v + "')");
    if (x < lo || x > hi)
      c_.fail(std::string(name), "must be between " + std::to_string(lo) + " and " +
                                     std::to_string(hi) + " (given " + *v + ")");
    return x;
  }

  std::int64_t required(std::string_view name, std::int64_t lo, std::int64_t hi) {
    if (!given(name))
      c_.fail(std::string(name), "missing (Megatron-LM's validate_args requires it)");
    return integer(name, 0, lo, hi);
  }

  double decimal(std::string_view name, double fallback) {
    const std::optional<std::string> v = text(name);
    if (!v) return fallback;
    double x = 0.0;
    if (!parse_decimal(*v, x)) c_.fail(std::string(name), "must be a number (given '" + *v + "')");
    return x;
  }

  /// One of `choices`, or the default.
  std::string choice(std::string_view name, std::string fallback,
                     std::initializer_list<std::string_view> choices) {
    const std::optional<std::string> v = text(name);
    if (!v) return fallback;
    for (std::string_view ch : choices)
      if (*v == ch) return *v;
    c_.fail(std::string(name), "must be " + quoted_choices(std::vector<std::string_view>(choices)) +
                                   " (given '" + *v + "')");
  }

  /// Every flag the importer did not use, with its values.
  void report_unused() {
    for (const flag& f : flags_) {
      if (f.used) continue;
      std::string line = f.name;
      for (const std::string& v : f.values) {
        line += ' ';  // appended, not " " + ...: g++ 12 -O3 warns falsely on that (-Wrestrict)
        line += bash::shown(v);
      }
      c_.unused_key(line);
    }
  }

 private:
  context& c_;
  std::vector<flag> flags_;

  flag& get(const std::string& name) {
    for (flag& f : flags_)
      if (f.name == name) return f;
    flags_.push_back({name, {}, 0, false});
    return flags_.back();
  }
};

/// A list expression of --moe-layer-freq ("([0]*3+[1]*58)"), evaluated as Python would: lists
/// concatenate with +, repeat with * by a whole number. Empty with `error` set when malformed.
struct pattern_value {
  bool is_list = false;
  std::int64_t number = 0;
  std::vector<std::int64_t> list;
};

class pattern_parser {
 public:
  explicit pattern_parser(std::string_view s) : s_(s) {}
  pattern_value run(std::string& error) {
    pattern_value v = sum(0);
    if (error_.empty() && p_ != s_.size()) error_ = "unexpected '" + std::string(1, s_[p_]) + "'";
    error = error_;
    return v;
  }

 private:
  static constexpr std::size_t max_length = 1'000'000;
  std::string_view s_;
  std::size_t p_ = 0;
  std::string error_;

  pattern_value sum(int depth) {
    pattern_value a = product(depth);
    while (error_.empty() && p_ < s_.size() && s_[p_] == '+') {
      ++p_;
      const pattern_value b = product(depth);
      if (!error_.empty()) break;
      if (a.is_list != b.is_list) {
        error_ = "adds a list and a number";
        break;
      }
      if (a.is_list) {
        if (a.list.size() + b.list.size() > max_length) {
          error_ = "is too long";
          break;
        }
        a.list.insert(a.list.end(), b.list.begin(), b.list.end());
      } else if (__builtin_add_overflow(a.number, b.number, &a.number)) {
        error_ = "overflows";
      }
    }
    return a;
  }
  pattern_value product(int depth) {
    pattern_value a = atom(depth);
    while (error_.empty() && p_ < s_.size() && s_[p_] == '*') {
      ++p_;
      const pattern_value b = atom(depth);
      if (!error_.empty()) break;
      if (a.is_list && b.is_list) {
        error_ = "multiplies two lists";
        break;
      }
      if (!a.is_list && !b.is_list) {
        if (__builtin_mul_overflow(a.number, b.number, &a.number)) error_ = "overflows";
        continue;
      }
      const pattern_value& l = a.is_list ? a : b;
      const std::int64_t n = a.is_list ? b.number : a.number;
      pattern_value r;
      r.is_list = true;
      if (n > 0) {
        if (l.list.size() > 0 && static_cast<std::uint64_t>(n) > max_length / l.list.size()) {
          error_ = "is too long";
          break;
        }
        for (std::int64_t k = 0; k < n; ++k)
          r.list.insert(r.list.end(), l.list.begin(), l.list.end());
      }
      a = std::move(r);
    }
    return a;
  }
  pattern_value atom(int depth) {
    pattern_value v;
    if (depth > 64) {
      error_ = "nests too deeply";
      return v;
    }
    if (p_ >= s_.size()) {
      error_ = "ends early";
      return v;
    }
    if (s_[p_] == '(') {
      ++p_;
      v = sum(depth + 1);
      if (error_.empty()) {
        if (p_ < s_.size() && s_[p_] == ')')
          ++p_;
        else
          error_ = "has '(' without ')'";
      }
      return v;
    }
    if (s_[p_] == '[') {
      ++p_;
      v.is_list = true;
      while (error_.empty() && p_ < s_.size() && s_[p_] != ']') {
        const pattern_value e = sum(depth + 1);
        if (!error_.empty()) break;
        if (e.is_list) {
          error_ = "nests a list in a list";
          break;
        }
        v.list.push_back(e.number);
        if (p_ < s_.size() && s_[p_] == ',')
          ++p_;
        else if (p_ < s_.size() && s_[p_] != ']')
          error_ = "has '" + std::string(1, s_[p_]) + "'";
      }
      if (error_.empty()) {
        if (p_ < s_.size())
          ++p_;
        else
          error_ = "has '[' without ']'";
      }
      return v;
    }
    std::int64_t x = 0;
    bool any = false;
    while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') {
      if (x > 1'000'000'000) {
        error_ = "has a number too large";
        return v;
      }
      x = x * 10 + (s_[p_] - '0');
      ++p_;
      any = true;
    }
    if (!any) error_ = "has '" + std::string(1, s_[p_]) + "'";
    v.number = x;
    return v;
  }
};

/// The number of leading dense layers --moe-layer-freq gives for `layers` layers.
inline std::int64_t leading_dense_layers(context& c, const std::string& freq, std::int64_t layers) {
  const std::string key = "--moe-layer-freq";
  if (freq.find('[') == std::string::npos) {
    std::int64_t n = 0;
    if (!parse_integer(freq, n) || n < 1) c.fail(key, "must be a whole number or a list pattern");
    if (n == 1) return 0;
    c.fail(key, "one MoE layer in every " + std::to_string(n) +
                    "; shardplan models a run of leading dense layers, then MoE layers");
  }
  for (char ch : freq)
    if (std::string_view(",0123456789[]()+*").find(ch) == std::string_view::npos)
      c.fail(key, "'" + freq + "' is not a pattern Megatron-LM evaluates (only , 0-9 [ ] ( ) + *)");
  std::string error;
  const pattern_value v = pattern_parser(freq).run(error);
  if (!error.empty()) c.fail(key, "'" + freq + "' " + error);
  if (!v.is_list) c.fail(key, "'" + freq + "' is not a list");
  if (static_cast<std::int64_t>(v.list.size()) != layers)
    c.fail(key, "the pattern has " + std::to_string(v.list.size()) + " entries for " +
                    std::to_string(layers) + " layers");
  std::int64_t dense = 0;
  while (dense < layers && v.list[static_cast<std::size_t>(dense)] == 0) ++dense;
  for (std::size_t k = static_cast<std::size_t>(dense); k < v.list.size(); ++k) {
    if (v.list[k] == 1) continue;
    c.fail(key, v.list[k] == 0
                    ? "a dense layer after the first MoE layer; shardplan models a run of leading "
                      "dense layers, then MoE layers"
                    : "entries must be 0 (dense) or 1 (MoE)");
  }
  return dense;
}

/// The stage count of a --pipeline-model-parallel-layout and its decoder layers per stage.
inline std::vector<std::int64_t> layout_stages(context& c, std::string layout) {
  const std::string key = "--pipeline-model-parallel-layout";
  layout.erase(std::remove(layout.begin(), layout.end(), ','), layout.end());
  constexpr std::size_t max_expanded = 1'000'000;
  auto too_long = [&]() { c.fail(key, "unrolls to more than a million characters"); };
  // "(...)*n": a group without nested parentheses, repeated.
  std::string once;
  for (std::size_t k = 0; k < layout.size();) {
    if (layout[k] == '(') {
      const std::size_t close = layout.find(')', k);
      const bool group = close != std::string::npos && close > k + 1 && close + 1 < layout.size() &&
                         layout[close + 1] == '*' && close + 2 < layout.size() &&
                         layout[close + 2] >= '0' && layout[close + 2] <= '9' &&
                         layout.find('(', k + 1) > close;
      if (group) {
        std::size_t e = close + 2;
        std::int64_t n = 0;
        while (e < layout.size() && layout[e] >= '0' && layout[e] <= '9') {
          n = n * 10 + (layout[e] - '0');
          if (n > static_cast<std::int64_t>(max_expanded)) too_long();
          ++e;
        }
        const std::string inner = layout.substr(k + 1, close - k - 1);
        if (once.size() + inner.size() * static_cast<std::size_t>(n) > max_expanded) too_long();
        for (std::int64_t r = 0; r < n; ++r) once += inner;
        k = e;
        continue;
      }
    }
    once += layout[k];
    ++k;
  }
  // "x*n": one character repeated.
  std::string flat;
  for (std::size_t k = 0; k < once.size(); ++k) {
    if (k + 2 < once.size() && once[k + 1] == '*' && once[k + 2] >= '0' && once[k + 2] <= '9') {
      std::size_t e = k + 2;
      std::int64_t n = 0;
      while (e < once.size() && once[e] >= '0' && once[e] <= '9') {
        n = n * 10 + (once[e] - '0');
        if (n > static_cast<std::int64_t>(max_expanded)) too_long();
        ++e;
      }
      if (flat.size() + static_cast<std::size_t>(n) > max_expanded) too_long();
      flat.append(static_cast<std::size_t>(n), once[k]);
      k = e - 1;
      continue;
    }
    flat += once[k];
  }
  std::vector<std::int64_t> stages(1, 0);
  for (char ch : flat) {
    if (ch == '|') {
      stages.push_back(0);
    } else if (ch == 't') {
      ++stages.back();
    } else if (ch != 'E' && ch != 'L' && ch != 'm') {
      c.fail(key, "has '" + std::string(1, ch) +
                      "' (known layer characters: E, L, t, m; stages split by |)");
    }
  }
  return stages;
}

/// Megatron-LM pads the vocabulary to a multiple of `divisible_by` x TP.
inline std::int64_t padded_vocab(std::int64_t vocab, std::int64_t divisible_by, std::int64_t tp) {
  const std::int64_t multiple = divisible_by * tp;
  return (vocab + multiple - 1) / multiple * multiple;
}

/// The words of the Megatron-LM command: those after the Python script of the first command
/// that runs one (a pretrain_*.py script first), else an argument file's, else the arrays'.
inline std::vector<std::string> megatron_words(context& c, const bash::shell& sh,
                                               std::vector<std::string>& launcher,
                                               std::string& program) {
  auto basename = [](const std::string& w) {
    const std::size_t slash = w.rfind('/');
    return slash == std::string::npos ? w : w.substr(slash + 1);
  };
  auto is_script = [](const std::string& w) {
    return w.size() >= 4 && w.compare(w.size() - 3, 3, ".py") == 0;
  };
  const bash::command* launched = nullptr;
  std::vector<std::string> words = bash::command_words(
      c, sh, launcher, "Megatron-LM",
      [&](const std::string& w, int pass) {
        return is_script(w) && (pass > 0 || basename(w).rfind("pretrain", 0) == 0);
      },
      &launched);
  if (launched != nullptr) program = basename(launched->words[launcher.size()]);
  return words;
}

/// Reads a Megatron-LM launch script or argument file into a plan file.
inline outcome import_megatron(const source& src) {
  context c{src, "megatron", {}, {}};
  const std::string text = config_text(src);
  bash::lexer lexer(c, text);
  bash::shell sh(c, lexer.run());
  sh.run();
  std::vector<std::string> launcher;
  std::string program;  // the Python script the command runs, "" for an argument file
  arguments a(c, megatron_words(c, sh, launcher, program));
  for (const std::string& o : src.overrides) {
    const auto [key, value] = split_override(c, o);
    a.override_with(key, value);
  }
  plan_parts p;
  p.framework = "megatron_core";
  model_shape& m = p.model;
  if (program == "pretrain_t5.py" || program == "pretrain_bert.py")
    c.fail("script", "runs " + program + ", an encoder" +
                         (program == "pretrain_t5.py" ? std::string("-decoder") : std::string()) +
                         " model; shardplan describes decoder-only models");

  // ---- model ---------------------------------------------------------------------------------
  m.layers = a.required("--num-layers", 1, max_count);
  m.d_model = a.required("--hidden-size", 1, max_dim);
  m.heads = a.required("--num-attention-heads", 1, max_count);
  // --quick-geglu is a gated MLP too (argument_utils.py at d98e8a64: gated_linear_unit with
  // quick_gelu), whose width defaults to 4h as the ungated one's.
  const bool swiglu = a.on("--swiglu");
  const bool quick_geglu = a.on("--quick-geglu");
  if (swiglu && quick_geglu) c.fail("--quick-geglu", "and --swiglu are both given");
  m.gated_mlp = swiglu || quick_geglu;
  const std::int64_t ffn_default =
      swiglu ? static_cast<std::int64_t>(static_cast<double>(8 * m.d_model) / 3.0 / 64.0) * 64
             : 4 * m.d_model;
  if (!a.given("--ffn-hidden-size"))
    c.note("--ffn-hidden-size: not given; Megatron-LM's default " + std::to_string(ffn_default) +
           (swiglu ? " (int((4h x 2 / 3) / 64) x 64 with --swiglu)" : " (4h)"));
  const std::int64_t ffn = a.integer("--ffn-hidden-size", ffn_default, 1, max_dim);
  m.d_ff = ffn;
  const bool mla = a.on("--multi-latent-attention");
  if (mla) {
    m.mla.q_lora_rank = a.integer("--q-lora-rank", 0, 0, max_dim);
    m.mla.kv_lora_rank = a.integer("--kv-lora-rank", 32, 1, max_dim);
    m.mla.qk_nope_head_dim = a.integer("--qk-head-dim", 128, 1, max_dim);
    m.mla.qk_rope_head_dim = a.integer("--qk-pos-emb-head-dim", 64, 1, max_dim);
    m.mla.v_head_dim = a.integer("--v-head-dim", 128, 1, max_dim);
    m.kv_heads = m.heads;
    m.head_dim = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
  } else {
    if (!a.given("--kv-channels") && m.d_model % m.heads != 0)
      c.fail("--hidden-size",
             "must be a multiple of --num-attention-heads when --kv-channels is "
             "not given (validate_args asserts it)");
    if (!a.given("--kv-channels"))
      c.note("--kv-channels: not given; hidden / heads = " + std::to_string(m.d_model / m.heads));
    m.head_dim = a.integer("--kv-channels", m.d_model / m.heads, 1, max_dim);
    if (a.on("--group-query-attention")) {
      m.kv_heads = a.integer("--num-query-groups", 1, 1, max_count);
    } else {
      m.kv_heads = m.heads;
      if (a.given("--num-query-groups"))
        c.note("--num-query-groups without --group-query-attention: Megatron-LM ignores it");
    }
  }
  // Window attention (megatron/core/transformer/utils.py is_layer_window_attention at d98e8a64):
  // --window-size "L,R" is Transformer Engine's (left, right), L + R + 1 keys; every layer slides
  // but each --window-attn-skip-freq N-th (1-based) one, which attends fully. --softmax-type
  // learnable adds a softmax offset per head and layer (dot_product_attention.py), the sinks.
  if (const std::optional<std::string> w = a.text("--window-size")) {
    const std::size_t comma = w->find(',');
    std::int64_t left = 0;
    std::int64_t right = 0;
    if (comma == std::string::npos || !parse_integer(w->substr(0, comma), left) ||
        !parse_integer(w->substr(comma + 1), right) || left < 0 || right < 0 ||
        left >= max_seq_len)
      c.fail("--window-size", "must be two whole numbers L,R (given '" + *w + "')");
    if (right != 0)
      c.fail("--window-size", "a window that looks " + std::to_string(right) +
                                  " tokens ahead is not causal attention");
    m.local.window = left + 1;
    m.local.kind = local_attention_kind::sliding;
    if (const std::optional<std::string> f = a.text("--window-attn-skip-freq")) {
      std::int64_t every = 0;
      if (!parse_integer(*f, every) || every < 1 || every > max_count)
        c.fail("--window-attn-skip-freq",
               "'" + *f + "': only a whole period N (every N-th layer attends fully) is modelled");
      if (every == 1)
        m.local = {};  // every layer attends fully
      else
        m.local.global_every = every;
    }
  }
  const std::string softmax =
      a.choice("--softmax-type", "vanilla", {"vanilla", "off-by-one", "learnable"});
  m.attention_sinks = softmax == "learnable";
  const std::string norm = a.choice("--normalization", "LayerNorm", {"LayerNorm", "RMSNorm"});
  m.norm = norm == "RMSNorm" ? norm_kind::rms_norm : norm_kind::layer_norm;
  m.biases = !a.on("--disable-bias-linear");
  m.tied_embeddings = !a.on("--untie-embeddings-and-output-weights");
  std::string position = a.choice("--position-embedding-type", "learned_absolute",
                                  {"learned_absolute", "rope", "mrope", "relative", "none"});
  if (a.on("--use-rotary-position-embeddings")) position = "rope";
  const bool no_position = a.on("--no-position-embedding");
  p.seq_len = a.required("--seq-length", 1, max_seq_len);
  const std::int64_t max_positions = a.required("--max-position-embeddings", 1, max_dim);
  if (max_positions < p.seq_len)
    c.fail("--max-position-embeddings",
           std::to_string(max_positions) + " is less than --seq-length " +
               std::to_string(p.seq_len) + " (validate_args asserts it is at least as large)");
  m.position_embeddings = position == "learned_absolute" && !no_position ? max_positions : 0;

  // ---- parallelism (the vocabulary's padding needs TP) ----------------------------------------
  std::string absent;
  for (const char* f : {"--tensor-model-parallel-size", "--pipeline-model-parallel-size",
                        "--context-parallel-size", "--expert-model-parallel-size"})
    if (!a.given(f)) absent += (absent.empty() ? "" : ", ") + std::string(f);
  if (!absent.empty()) c.note(absent + ": not given; Megatron-LM's default 1");
  p.tensor = a.integer("--tensor-model-parallel-size", 1, 1, max_degree);
  p.pipeline = a.integer("--pipeline-model-parallel-size", 1, 1, max_degree);
  p.context = a.integer("--context-parallel-size", 1, 1, max_degree);
  p.expert = a.integer("--expert-model-parallel-size", 1, 1, max_degree);

  const std::int64_t experts = a.integer("--num-experts", 0, 1, max_count);
  if (experts > 0) {
    m.moe.experts = experts;
    m.moe.top_k = a.integer("--moe-router-topk", 2, 1, experts);
    if (!a.given("--moe-ffn-hidden-size"))
      c.note("--moe-ffn-hidden-size: not given; Megatron-LM uses --ffn-hidden-size " +
             std::to_string(ffn));
    m.moe.expert_d_ff = a.integer("--moe-ffn-hidden-size", ffn, 1, max_dim);
    const std::int64_t shared = a.integer("--moe-shared-expert-intermediate-size", 0, 1, max_dim);
    if (shared % m.moe.expert_d_ff != 0)
      c.fail("--moe-shared-expert-intermediate-size",
             std::to_string(shared) + " is not a whole number of experts of width " +
                 std::to_string(m.moe.expert_d_ff));
    m.moe.shared_experts = shared / m.moe.expert_d_ff;
    const std::optional<std::string> freq = a.text("--moe-layer-freq");
    m.moe.dense_layers = freq ? leading_dense_layers(c, *freq, m.layers) : 0;
    m.moe.router_bias = a.on("--moe-router-enable-expert-bias");
    if (m.moe.dense_layers == 0) {
      m.d_ff = 0;
      c.note(
          "every layer is a mixture of experts: no dense MLP (--ffn-hidden-size serves as the "
          "experts' default width)");
    }
    if (a.given("--expert-tensor-parallel-size")) {
      const std::int64_t etp = a.integer("--expert-tensor-parallel-size", p.tensor, 1, max_degree);
      if (etp != p.tensor)
        c.note("--expert-tensor-parallel-size " + std::to_string(etp) +
               ": shardplan splits the experts over TP " + std::to_string(p.tensor) +
               " like the other layers (an approximation)");
    }
  } else if (p.expert > 1) {
    c.fail("--expert-model-parallel-size",
           "is " + std::to_string(p.expert) + " without --num-experts (a dense model)");
  }

  // The vocabulary: --padded-vocab-size, else the tokenizer's size padded as build_tokenizer
  // pads it; unknown when the tokenizer is a file the importer cannot read.
  const std::int64_t divisible_by = a.integer("--make-vocab-size-divisible-by", 128, 1, max_dim);
  // pretrain_gpt.py (and 2020's pretrain_gpt2.py, at a5a4192 line 144) runs pretrain(...,
  // args_defaults={'tokenizer_type': 'GPT2BPETokenizer'}): a GPT script that names only
  // --vocab-file and --merge-file has GPT-2's BPE.
  std::string tokenizer = a.text("--tokenizer-type").value_or("");
  if (tokenizer.empty() && (program == "pretrain_gpt.py" || program == "pretrain_gpt2.py")) {
    tokenizer = "GPT2BPETokenizer";
    c.note("--tokenizer-type: not given; " + program + "'s default GPT2BPETokenizer");
  }
  std::int64_t vocab = 0;
  if (a.given("--padded-vocab-size")) {
    vocab = a.integer("--padded-vocab-size", 0, 1, max_dim);
    (void)a.find("--vocab-size");
  } else {
    std::int64_t base = 0;
    std::string why;
    if (tokenizer == "NullTokenizer") {
      if (!a.given("--vocab-size")) c.fail("--vocab-size", "missing (NullTokenizer needs it)");
      base = a.integer("--vocab-size", 0, 1, max_dim - 1) + 1;
      why = "NullTokenizer's --vocab-size + 1 (its EOD token)";
    } else if (a.given("--vocab-size")) {
      base = a.integer("--vocab-size", 0, 1, max_dim);
      why = "--vocab-size, taken as " +
            (tokenizer.empty() ? std::string("the tokenizer") : tokenizer) + "'s size";
    } else if (tokenizer == "GPT2BPETokenizer") {
      base = 50257;
      why = "GPT2BPETokenizer's 50257 tokens";
    }
    if (base > 0) {
      vocab = padded_vocab(base, divisible_by, p.tensor);
      c.note("vocabulary " + std::to_string(vocab) + ": " + why + ", padded to a multiple of " +
             std::to_string(divisible_by) + " x TP " + std::to_string(p.tensor) +
             " as build_tokenizer pads it");
    }
  }
  m.vocab = vocab;

  // ---- world and data parallelism ------------------------------------------------------------
  system_names names;
  const system_figures system = requested_system(c, names);
  const std::int64_t from_launcher = launcher.empty() ? 0 : bash::launcher_world(c, launcher);
  const std::int64_t world =
      world_size(c, system, from_launcher, "launcher (--nproc_per_node x --nnodes)");
  if (world % p.tensor != 0)
    c.fail("--tensor-model-parallel-size",
           std::to_string(p.tensor) + " does not divide the world size " + std::to_string(world));
  if (world % (p.tensor * p.pipeline) != 0)
    c.fail("--pipeline-model-parallel-size",
           "TP " + std::to_string(p.tensor) + " x PP " + std::to_string(p.pipeline) +
               " does not divide the world size " + std::to_string(world));
  if (world % (p.tensor * p.pipeline * p.context) != 0)
    c.fail("--context-parallel-size",
           "TP " + std::to_string(p.tensor) + " x PP " + std::to_string(p.pipeline) + " x CP " +
               std::to_string(p.context) + " does not divide the world size " +
               std::to_string(world));
  p.data = world / (p.tensor * p.pipeline * p.context);
  c.note("data parallelism " + std::to_string(p.data) + " = world " + std::to_string(world) +
         " / (TP " + std::to_string(p.tensor) + " x PP " + std::to_string(p.pipeline) + " x CP " +
         std::to_string(p.context) + ")");
  p.sequence_parallel = a.on("--sequence-parallel");
  if (p.sequence_parallel && p.tensor == 1) {
    p.sequence_parallel = false;
    c.note("--sequence-parallel at TP 1: validate_args switches it off");
  }

  // ---- pipeline stages -------------------------------------------------------------------------
  const bool first_last = a.given("--decoder-first-pipeline-num-layers") ||
                          a.given("--decoder-last-pipeline-num-layers");
  p.first_stage_layers = a.integer("--decoder-first-pipeline-num-layers", 0, 1, m.layers);
  p.last_stage_layers = a.integer("--decoder-last-pipeline-num-layers", 0, 1, m.layers);
  const bool embedding_counted = a.on("--account-for-embedding-in-pipeline-split");
  const bool loss_counted = a.on("--account-for-loss-in-pipeline-split");
  if (first_last && (embedding_counted || loss_counted))
    c.fail(embedding_counted ? "--account-for-embedding-in-pipeline-split"
                             : "--account-for-loss-in-pipeline-split",
           "cannot be given with --decoder-first-pipeline-num-layers or "
           "--decoder-last-pipeline-num-layers (TransformerConfig.__post_init__)");
  if (embedding_counted) p.embedding_weight = 1;
  if (loss_counted) p.loss_weight = 1;
  const std::int64_t accounted =
      m.layers + (embedding_counted ? 1 : 0) + (loss_counted ? 1 : 0);
  const int virtual_ways = (a.given("--num-layers-per-virtual-pipeline-stage") ? 1 : 0) +
                           (a.given("--num-virtual-stages-per-pipeline-rank") ? 1 : 0) +
                           (a.given("--pipeline-model-parallel-layout") ? 1 : 0);
  if (virtual_ways > 1)
    c.fail("--num-virtual-stages-per-pipeline-rank",
           "at most one of --num-layers-per-virtual-pipeline-stage, "
           "--num-virtual-stages-per-pipeline-rank and --pipeline-model-parallel-layout may be "
           "given (validate_args)");
  bool layout_given = false;
  if (const std::optional<std::string> layout = a.text("--pipeline-model-parallel-layout")) {
    layout_given = true;
    const std::vector<std::int64_t> stages = layout_stages(c, *layout);
    const auto count = static_cast<std::int64_t>(stages.size());
    if (count % p.pipeline != 0)
      c.fail(
          "--pipeline-model-parallel-layout",
          std::to_string(count) + " stages do not divide among PP " + std::to_string(p.pipeline));
    std::int64_t layers = 0;
    for (std::int64_t s : stages) layers += s;
    if (layers != m.layers)
      c.fail("--pipeline-model-parallel-layout", "places " + std::to_string(layers) +
                                                     " decoder layers; --num-layers is " +
                                                     std::to_string(m.layers));
    p.virtual_stages = count / p.pipeline;
    p.uneven_stages =
        std::adjacent_find(stages.begin(), stages.end(), std::not_equal_to<>()) != stages.end();
    // One chunk a stage whose middle stages are alike: the layout is its ends and an even rest,
    // which the plan says exactly (first_stage_layers, last_stage_layers); otherwise a ragged
    // split stands in for it.
    const auto middle_begin = stages.begin() + 1;
    const auto middle_end = stages.end() - 1;
    if (p.uneven_stages && p.virtual_stages == 1 && count >= 3 &&
        std::adjacent_find(middle_begin, middle_end, std::not_equal_to<>()) == middle_end &&
        stages[1] > 0) {
      if (stages.front() != stages[1]) p.first_stage_layers = stages.front();
      if (stages.back() != stages[1]) p.last_stage_layers = stages.back();
      p.uneven_stages = false;
    } else if (p.uneven_stages) {
      c.note("--pipeline-model-parallel-layout: its stages' layers are read as a ragged split "
             "(the plan keeps the first and last stage's layers, not each chunk's)");
    }
  } else if (a.given("--num-layers-per-virtual-pipeline-stage")) {
    const std::int64_t per = a.integer("--num-layers-per-virtual-pipeline-stage", 1, 1, max_count);
    if (first_last)
      c.fail("--num-layers-per-virtual-pipeline-stage",
             "uneven first or last stages need --num-virtual-stages-per-pipeline-rank "
             "(validate_args)");
    if (accounted % p.pipeline != 0 || (accounted / p.pipeline) % per != 0)
      c.fail("--num-layers-per-virtual-pipeline-stage",
             std::to_string(accounted) + " layers over PP " + std::to_string(p.pipeline) +
                 " are not whole stages of " + std::to_string(per) + " (validate_args)");
    p.virtual_stages = accounted / p.pipeline / per;
  } else {
    p.virtual_stages = a.integer("--num-virtual-stages-per-pipeline-rank", 1, 1, max_count);
  }
  if (p.pipeline == 1 && p.virtual_stages > 1) {
    c.note("virtual stages without pipeline parallelism: none");
    p.virtual_stages = 1;
  }
  if (!layout_given && !first_last && p.virtual_stages == 1 && accounted % p.pipeline != 0)
    c.fail("--num-layers", std::to_string(accounted) +
                               " layers (embedding and loss counted as "
                               "asked) do not divide among PP " +
                               std::to_string(p.pipeline) + " (validate_args)");
  if (!layout_given && first_last) {
    // Megatron's checks (TransformerConfig.__post_init__ at d98e8a64): the ends hold at least a
    // layer each, and the stages between them split the rest evenly, a whole number per chunk.
    const std::int64_t between = p.pipeline - (p.first_stage_layers > 0 ? 1 : 0) -
                                 (p.last_stage_layers > 0 ? 1 : 0);
    const std::int64_t rest = m.layers - p.first_stage_layers - p.last_stage_layers;
    if ((between == 0) != (rest == 0) || rest < 0 ||
        (between > 0 && rest % (between * p.virtual_stages) != 0) ||
        p.first_stage_layers % p.virtual_stages != 0 || p.last_stage_layers % p.virtual_stages != 0)
      c.fail(p.first_stage_layers > 0 ? "--decoder-first-pipeline-num-layers"
                                      : "--decoder-last-pipeline-num-layers",
             "first " + std::to_string(p.first_stage_layers) + " and last " +
                 std::to_string(p.last_stage_layers) + " of " + std::to_string(m.layers) +
                 " layers leave " + std::to_string(rest) + " for " + std::to_string(between) +
                 " middle stages of " + std::to_string(p.virtual_stages) +
                 " virtual stages: not a whole number of layers per chunk "
                 "(TransformerConfig.__post_init__)");
  }
  if (!layout_given && !first_last)
    p.uneven_stages = accounted % (p.pipeline * p.virtual_stages) != 0;
  p.schedule = p.virtual_stages > 1 ? "interleaved" : "1f1b";

  // ---- data-parallel sharding ------------------------------------------------------------------
  if (a.on("--use-torch-fsdp2")) {
    p.zero_stage = a.on("--torch-fsdp2-no-reshard-after-forward") ? 2 : 3;
  } else if (a.on("--use-megatron-fsdp")) {
    const std::string strategy =
        a.choice("--data-parallel-sharding-strategy", "no_shard",
                 {"no_shard", "optim", "optim_grads", "optim_grads_params"});
    p.zero_stage = strategy == "optim"                ? 1
                   : strategy == "optim_grads"        ? 2
                   : strategy == "optim_grads_params" ? 3
                                                      : 0;
  } else if (a.on("--use-distributed-optimizer")) {
    p.zero_stage = 1;
  }
  if (a.integer("--num-distributed-optimizer-instances", 1, 1, max_degree) > 1)
    c.note(
        "--num-distributed-optimizer-instances: shardplan's plan shards the optimizer over "
        "every data-parallel replica (an approximation)");

  // ---- batch -----------------------------------------------------------------------------------
  // Megatron-LM of 2020 (arguments.py at a5a4192, line 210): --batch-size is "per model
  // instance (local batch size). Global batch size is local batch size times data parallel
  // size": the micro-batch, with no accumulation. Later versions refuse the flag.
  if (!a.given("--micro-batch-size") && a.given("--batch-size")) {
    p.micro_batch = a.integer("--batch-size", 1, 1, max_sequences);
    c.note("--batch-size: Megatron-LM 2020's local batch, the micro-batch, x data parallelism " +
           std::to_string(p.data) + " the global batch");
  } else {
    p.micro_batch = a.required("--micro-batch-size", 1, max_sequences);
  }
  if (!a.given("--global-batch-size"))
    c.note("--global-batch-size: not given; Megatron-LM's default is micro-batch x DP");
  p.global_sequences = a.integer("--global-batch-size", p.micro_batch * p.data, 1, max_sequences);
  if (a.given("--rampup-batch-size"))
    c.note("--rampup-batch-size: the plan takes the final global batch");

  // ---- recomputation ---------------------------------------------------------------------------
  // --recompute-activations sets the granularity to selective (validate_args); the Megatron-LM
  // v2.x flag --checkpoint-activations recomputes every layer from its input (--checkpoint-num-
  // layers 1 a chunk: ParallelTransformer._checkpointed_forward), and later versions exit on it.
  std::string granularity = a.choice("--recompute-granularity", "", {"full", "selective"});
  if (a.on("--recompute-activations")) granularity = "selective";
  if (a.on("--checkpoint-activations")) {
    if (!granularity.empty())
      c.fail("--checkpoint-activations", "Megatron-LM v2.x's flag, given with the newer " +
                                             std::string("--recompute-granularity or ") +
                                             "--recompute-activations");
    granularity = "full";
    c.note("--checkpoint-activations: Megatron-LM v2.x's full recomputation of every layer "
           "(versions from 3.0 refuse the flag)");
  }
  if (granularity == "selective") {
    // --recompute-modules (nargs '+', default ["core_attn"]; the allowed names and the
    // requirements below as `TransformerConfig.__post_init__` checks them,
    // megatron/core/transformer/transformer_config.py at d98e8a64).
    p.recompute = "selective";
    if (const flag* f = a.find("--recompute-modules")) {
      for (const std::string& v : f->values) {
        if (!bash::resolved(v))
          c.fail("--recompute-modules", "its value " + bash::first_unresolved(v) +
                                            " cannot be resolved");
        bool known = false;
        for (std::string_view name : recompute_module_names) known = known || v == name;
        if (!known)
          c.fail("--recompute-modules", "'" + v + "' is not a module shardplan models (known: " +
                                            quoted_choices(recompute_module_names) + ")");
        if (std::find(p.recompute_modules.begin(), p.recompute_modules.end(), v) ==
            p.recompute_modules.end())
          p.recompute_modules.push_back(v);
      }
    }
    auto named = [&](std::string_view x) {
      return std::find(p.recompute_modules.begin(), p.recompute_modules.end(), x) !=
             p.recompute_modules.end();
    };
    if (named("moe_act") && !a.given("--moe-grouped-gemm"))
      c.fail("--recompute-modules",
             "moe_act in recompute_modules is only supported with moe_grouped_gemm.");
    if (named("mla_up_proj") && !a.given("--multi-latent-attention"))
      c.fail("--recompute-modules",
             "mla_up_proj in recompute_modules is only supported with multi_latent_attention.");
    if (p.recompute_modules.size() == 1 && p.recompute_modules[0] == "mlp") {
      p.recompute = "mlp";  // the same set, as plan files have long spelled it
      p.recompute_modules.clear();
    }
    if (a.given("--recompute-method"))
      c.fail("--recompute-method",
             "recompute method is not yet supported for selective recomputing granularity");
  } else if (granularity == "full") {
    p.recompute = "full";
    const std::string method = a.choice("--recompute-method", "", {"uniform", "block"});
    const std::int64_t layers = a.integer("--recompute-num-layers", 1, 1, max_count);
    if (method == "uniform" && layers > 1)
      c.note("--recompute-method uniform with --recompute-num-layers " + std::to_string(layers) +
             ": read as full recomputation of every layer (an approximation)");
    if (method == "block")
      c.note(
          "--recompute-method block: read as full recomputation of every layer (Megatron "
          "recomputes " +
          std::to_string(layers) + " layers per stage)");
  }

  // ---- precision -------------------------------------------------------------------------------
  const bool bf16 = a.on("--bf16");
  const bool fp16 = a.on("--fp16");
  if (bf16 && fp16) c.fail("--fp16", "and --bf16 are both given");
  const std::string fp8 = a.choice("--fp8-format", "", {"e4m3", "hybrid"});
  const std::string fp4 = a.choice("--fp4-format", "", {"e2m1"});
  if (!fp8.empty() && !fp4.empty())
    c.fail("--fp4-format", "and --fp8-format cannot be used together (validate_args)");
  const std::string state_dtype =
      a.choice("--exp-avg-dtype", "fp32", {"fp32", "fp16", "bf16", "fp8"});
  const std::string state_sq_dtype =
      a.choice("--exp-avg-sq-dtype", "fp32", {"fp32", "fp16", "bf16", "fp8"});
  const bool precision_aware = a.on("--use-precision-aware-optimizer");
  // --optimizer-cpu-offload with --optimizer-offload-fraction (default 1.0, arguments.py at
  // d98e8a64): the HybridDeviceOptimizer keeps that share of the master weights, moments and their
  // fp32 gradients in pinned host memory (`offloads::megatron_optimizer_offload`).
  if (a.on("--optimizer-cpu-offload")) {
    if (!precision_aware)
      c.fail("--optimizer-cpu-offload",
             "The optimizer cpu offload must be used in conjunction with "
             "--use-precision-aware-optimizer (Megatron-LM's validate_args)");
    double share = 1.0;
    if (const std::optional<std::string> f = a.text("--optimizer-offload-fraction")) {
      char* end = nullptr;
      share = std::strtod(f->c_str(), &end);
      if (f->empty() || end == nullptr || *end != '\0' || !(share >= 0.0 && share <= 1.0))
        c.fail("--optimizer-offload-fraction", "must be a number between 0 and 1");
    }
    p.offload = offloads::megatron_optimizer_offload;
    p.offload.optimizer = share;
    p.offload.host_gradient_bytes = 4.0 * share;
  }
  const bool two_byte_states = precision_aware &&
                               (state_dtype == "bf16" || state_dtype == "fp16") &&
                               (state_sq_dtype == "bf16" || state_sq_dtype == "fp16");
  const bool one_byte_states = precision_aware && state_dtype == "fp8" && state_sq_dtype == "fp8";
  if (!precision_aware && (a.given("--exp-avg-dtype") || a.given("--exp-avg-sq-dtype")))
    c.note("--exp-avg-dtype without --use-precision-aware-optimizer: fp32 moments");
  if (!fp8.empty()) {
    const std::string recipe = a.choice("--fp8-recipe", "delayed",
                                        {"tensorwise", "delayed", "mxfp8", "blockwise", "custom"});
    if (recipe == "delayed")
      p.precision = "fp8_delayed";
    else if (recipe == "tensorwise")
      p.precision = "fp8_tensorwise";
    else if (recipe == "mxfp8")
      p.precision = "mxfp8";
    else if (recipe == "blockwise") {
      p.precision = "fp8_deepseek_v3";
      if (!two_byte_states)
        c.note(
            "--fp8-recipe blockwise: the fp8_deepseek_v3 preset counts bf16 Adam moments; "
            "this run keeps them in " +
            state_dtype);
    } else {
      p.precision = "fp8_delayed";
      c.note("--fp8-recipe custom: read as delayed scaling (an approximation)");
    }
    if (!bf16) c.note("--fp8-format without --bf16: the working weights counted in bf16");
  } else if (!fp4.empty()) {
    p.precision = "nvfp4";
    (void)a.choice("--fp4-recipe", "nvfp4", {"nvfp4", "custom"});
  } else if (bf16 || fp16) {
    p.precision = one_byte_states ? "bf16_adam_8bit" : "bf16_mixed_adam";
    if (fp16)
      c.note("--fp16: counted as 16-bit mixed precision with the bf16_mixed_adam preset's bytes");
    if (two_byte_states)
      c.note("--exp-avg-dtype " + state_dtype +
             ": no preset keeps 16-bit moments with 16-bit "
             "compute; bf16_mixed_adam (fp32 moments) is used");
    if (one_byte_states)
      c.note("--exp-avg-dtype fp8: 1-byte moments, as the bf16_adam_8bit preset counts them");
  } else {
    p.precision = "bf16_mixed_adam";
    c.note(
        "no --bf16 or --fp16: Megatron-LM trains in fp32; the plan counts the bf16_mixed_adam "
        "preset's bytes (an approximation)");
  }
  p.grad_reduce_in_bf16 = a.on("--grad-reduce-in-bf16");
  // arguments.py at 000c4ac: a store_false switch into async_tensor_model_parallel_allreduce.
  p.sync_tp_backward = a.on("--no-async-tensor-model-parallel-allreduce");
  // validate_args asserts --sequence-parallel with --tp-comm-overlap, after switching sequence
  // parallelism off at TP 1 (megatron/training/arguments.py).
  if (a.on("--tp-comm-overlap")) {
    if (!p.sequence_parallel)
      c.fail("--tp-comm-overlap",
             p.tensor == 1 ? "needs tensor parallelism (validate_args switches sequence "
                             "parallelism off at TP 1, then asserts it)"
                           : "needs --sequence-parallel (validate_args asserts it)");
    p.tp_comm_overlap = true;
  }

  // ---- attention and dropout -------------------------------------------------------------------
  const std::string backend =
      a.choice("--attention-backend", "auto", {"flash", "fused", "unfused", "local", "auto"});
  if (backend == "flash") {
    p.attention_kernel = "flash2";
    c.note(
        "--attention-backend flash: the installed flash-attn package, taken as FlashAttention-2");
  } else if (backend == "fused") {
    p.attention_kernel = "cudnn";
  } else if (backend == "unfused" || backend == "local") {
    p.eager_attention = true;
  }
  const double attention_dropout = a.decimal("--attention-dropout", 0.1);
  const double hidden_dropout = a.decimal("--hidden-dropout", 0.1);
  p.dropout = attention_dropout > 0.0 || hidden_dropout > 0.0;
  if (p.dropout && !(a.given("--attention-dropout") && a.given("--hidden-dropout")))
    c.note(
        "dropout: Megatron-LM's default rate 0.1 applies where --attention-dropout or "
        "--hidden-dropout is not given");

  // ---- the model against the catalogue ---------------------------------------------------------
  if (model_given(src)) {
    settle_model(c, p, [&](const model_shape& named) {
      model_shape x = m;
      x.vocab = named.vocab;
      const std::string field = shape_difference(x, named);
      if (field.empty()) return;
      static constexpr std::pair<std::string_view, std::string_view> flags[] = {
          {"model.layers", "--num-layers"},
          {"model.d_model", "--hidden-size"},
          {"model.d_ff", "--ffn-hidden-size"},
          {"model.heads", "--num-attention-heads"},
          {"model.kv_heads", "--num-query-groups"},
          {"model.head_dim", "--kv-channels"},
          {"model.gated_mlp", "--swiglu"},
          {"model.tied_embeddings", "--untie-embeddings-and-output-weights"},
          {"model.biases", "--disable-bias-linear"},
          {"model.norm", "--normalization"},
          {"model.position_embeddings", "--position-embedding-type"}};
      std::string key = field;
      for (const auto& [f, name] : flags)
        if (field == f) key = name;
      if (field.rfind("model.moe", 0) == 0) key = "--num-experts";
      if (field.rfind("model.mla", 0) == 0) key = "--multi-latent-attention";
      c.fail(key, "the config's model differs from " + std::string(named.name) + " in " + field);
    });
    if (vocab > 0 && vocab != p.model.vocab)
      c.note("vocabulary: the config gives " + std::to_string(vocab) + "; the plan keeps " +
             p.model_name + "'s " + std::to_string(p.model.vocab));
  } else {
    if (vocab == 0) {
      const model_shape* like = catalogue_match(m, true);
      if (like == nullptr)
        c.fail("--vocab-size",
               "the vocabulary is not given (no --vocab-size or --padded-vocab-size, and the "
               "tokenizer '" +
                   tokenizer +
                   "' has no size shardplan knows); give --model NAME or "
                   "the override vocab-size=N");
      m.vocab = padded_vocab(like->vocab, divisible_by, p.tensor);
      c.note("vocabulary: assumed " + std::to_string(like->vocab) + ", that of " +
             std::string(like->name) + " whose shape this is, padded to " +
             std::to_string(m.vocab));
    }
    settle_model(c, p, [](const model_shape&) {});
  }

  check_degrees(c, p, world, "--expert-model-parallel-size", "--global-batch-size");
  a.report_unused();
  return finish(c, p);
}

}  // namespace shardplan::io::detail::importer::megatron
