// What the launch-config exporters share: the plan's facts, the escapers, the line builder.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <shardplan/hardware/system.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>

// What each exporter targets, and where its names were checked (git snapshots of the projects'
// repositories, read with `git show <commit>:<path>`), is written at the top of its header; the
// pinned commits, each also the commit of its key list in tests/export/:
//   Megatron-LM        io/launch/megatron.hpp    NVIDIA/Megatron-LM
//                                                000c4ac24f61159c138b0975def722c65245983c
//   torchtitan (HEAD)  io/launch/torchtitan.hpp  pytorch/torchtitan
//                                                b5bcd76c66d0acb1a08b176d9639425bc55e0b2a
//   torchtitan v0.2.2  io/launch/torchtitan.hpp  pytorch/torchtitan v0.2.2
//                                                73a0e6979dd10b6b1904098eb3c8f62c18ab87ce
//   MaxText            io/launch/maxtext.hpp     AI-Hypercomputer/maxtext
//                                                e591f30cbbf217ed67ef71263ec0538239f9c3b8
//   DeepSpeed          io/launch/deepspeed.hpp   deepspeedai/DeepSpeed
//                                                edaa7221267243c7be7fb49c5d5f5c4fb97b4641
//
// Strings from the plan (a model or system name of a user's type can hold anything) reach an
// export only in comment lines, where `comment_text` turns control characters into spaces, and
// in the string values below (torchtitan's job.description, DeepSpeed's "_comment"), which
// `double_quoted` escapes so that the target's parser reads the same text back. Every string
// value goes through `double_quoted` (TOML, YAML, JSON) or `bash_word` (a single-quoted bash
// word, which bash never expands); bytes that are not UTF-8 become U+FFFD, since none of the
// formats holds anything but Unicode text.

namespace shardplan {

namespace detail::launch {

/// The plan's degrees and batch as the exporters use them. Counts are 64-bit integers.
struct facts {
  std::int64_t devices = 1;
  std::int64_t data = 1;  ///< every data-parallel replica, ZeRO and expert axes included
  std::int64_t zero_stage = 0;
  std::int64_t zero = 1;      ///< devices that shard model states (1 without ZeRO)
  std::int64_t replicas = 1;  ///< data / zero: plain replicas beside the ZeRO group
  std::int64_t tensor = 1;
  bool sequence_parallel = false;
  std::int64_t pipeline = 1;
  std::int64_t virtual_stages = 1;
  std::int64_t context = 1;
  std::int64_t expert = 1;
  std::int64_t sequences = 0;  ///< global batch in sequences
  std::int64_t seq_len = 0;
  std::int64_t micro_batch = 1;    ///< sequences per micro-batch per replica
  std::int64_t micro_batches = 0;  ///< micro-batches per replica per step
};

inline facts facts_of(const training_plan_values& p) {
  const parallel_degrees& d = p.setup.degrees;
  const batch_settings& b = p.setup.batch;
  facts f;
  f.devices = mesh_devices(p);
  f.data = d.data;
  f.zero_stage = d.zero_stage;
  f.zero = d.zero_stage > 0 ? d.zero : 1;
  f.replicas = f.zero > 0 && f.data % f.zero == 0 ? f.data / f.zero : f.data;
  f.tensor = d.tensor;
  f.sequence_parallel = d.sequence_parallel && d.tensor > 1;
  f.pipeline = d.pipeline;
  f.virtual_stages = d.virtual_stages;
  f.context = d.context;
  f.expert = d.expert;
  f.seq_len = b.seq_len;
  f.micro_batch = b.micro_batch;
  f.sequences = b.seq_len > 0 ? b.global_tokens / b.seq_len : 0;
  f.micro_batches = d.data > 0 && b.micro_batch > 0 ? f.sequences / d.data / b.micro_batch : 0;
  return f;
}

inline std::string n(std::int64_t x) { return std::to_string(x); }

/// One code point of UTF-8 text: its value and its length in bytes (0: not well-formed UTF-8).
struct code_point {
  std::uint32_t value = 0;
  std::size_t length = 0;
};

/// The code point that starts `s` (RFC 3629: shortest form, no surrogates, at most U+10FFFF).
constexpr code_point first_code_point(std::string_view s) {
  if (s.empty()) return {};
  const auto byte = [&](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i]));
  };
  const std::uint32_t lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  // The length, the lead byte's payload and the smallest value of each multi-byte form.
  struct form {
    std::uint32_t mask, bits, payload, smallest;
    std::size_t length;
  };
  constexpr form forms[] = {
      {0xE0, 0xC0, 0x1F, 0x80, 2}, {0xF0, 0xE0, 0x0F, 0x800, 3}, {0xF8, 0xF0, 0x07, 0x10000, 4}};
  for (const form& f : forms) {
    if ((lead & f.mask) != f.bits) continue;
    if (s.size() < f.length) return {};
    std::uint32_t v = lead & f.payload;
    for (std::size_t i = 1; i < f.length; ++i) {
      if ((byte(i) & 0xC0) != 0x80) return {};
      v = (v << 6) | (byte(i) & 0x3F);
    }
    if (v < f.smallest || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return {};
    return {v, f.length};
  }
  return {};
}

inline constexpr std::string_view replacement_character = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

/// `s` as UTF-8 text: each byte that does not start a well-formed sequence becomes U+FFFD.
inline std::string utf8_text(std::string_view s) {
  std::string out;
  while (!s.empty()) {
    const code_point c = first_code_point(s);
    if (c.length == 0) {
      out += replacement_character;
      s.remove_prefix(1);
    } else {
      out += s.substr(0, c.length);
      s.remove_prefix(c.length);
    }
  }
  return out;
}

/// `s` for a comment line: UTF-8 text with every control character (U+0000 to U+001F and
/// U+007F, which TOML forbids in comments) a space, so that the comment cannot end early and
/// start a line of config.
inline std::string comment_text(std::string_view s) {
  std::string out = utf8_text(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

/// `s` as a double-quoted string that TOML (basic string), JSON and YAML (double-quoted scalar)
/// all read back as `s` (after `utf8_text`): backslash and quote escaped, and \uXXXX for the
/// control characters (U+0000 to U+001F, U+007F to U+009F) and for U+2028 and U+2029 (line
/// separators to some YAML readers); \n, \t, \r, \b and \f in their short forms, which all
/// three formats share.
inline std::string double_quoted(std::string_view s) {
  const std::string text = utf8_text(s);
  std::string out = "\"";
  std::string_view rest = text;
  while (!rest.empty()) {
    const code_point c = first_code_point(rest);
    const std::string_view bytes = rest.substr(0, c.length);
    rest.remove_prefix(c.length);
    switch (c.value) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    if (c.value < 0x20 || (c.value >= 0x7f && c.value <= 0x9f) || c.value == 0x2028 ||
        c.value == 0x2029) {
      constexpr std::string_view hex = "0123456789ABCDEF";
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex[(c.value >> shift) & 0xF];
    } else {
      out += bytes;
    }
  }
  out += '"';
  return out;
}

/// `s` as one bash word: bare when it holds only characters bash gives no meaning to (letters,
/// digits and `_ . / : = + , @ % -`), else single-quoted, each `'` written `'\''`. Bash expands
/// nothing inside single quotes (no `$(...)`, no backticks, no variables), and a single-quoted
/// word may span lines; NUL, which no bash word can hold, becomes U+FFFD like other non-text.
inline std::string bash_word(std::string_view s) {
  const std::string text = utf8_text(s);
  const bool plain = !text.empty() && text.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_./:=+,@%-") == std::string::npos;
  if (plain) return text;
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else if (c == '\0')
      out += replacement_character;
    else
      out += c;
  }
  out += '\'';
  return out;
}

/// Text built line by line, with the target's comment marker ("#").
struct lines {
  std::string out;
  std::string_view marker = "#";
  std::vector<std::string> notes;  ///< every comment line's text, in order (`comment_text` off)

  /// A comment line (`comment_text` of `s`); `notes` keeps `s` itself.
  void note(std::string_view s) {
    notes.emplace_back(s);
    out += marker;
    out += ' ';
    out += comment_text(s);
    out += '\n';
  }
  void raw(std::string_view s) {
    out += s;
    out += '\n';
  }
};

/// "llama3-405b on dgx h100 superpod (16384 devices): DP 128 (ZeRO-1 over 128) x TP 8 (sequence
/// parallel) x PP 16 (2 virtual stages) x CP 1 x EP 1".
inline std::string plan_summary(const training_plan_values& p, const facts& f) {
  std::string s = std::string(p.model.name) + " on " + std::string(p.system.name) + " (" +
                  n(f.devices) + " devices): DP " + n(f.data);
  if (f.zero_stage > 0) s += " (ZeRO-" + n(f.zero_stage) + " over " + n(f.zero) + ")";
  s += " x TP " + n(f.tensor) + (f.sequence_parallel ? " (sequence parallel)" : "");
  s += " x PP " + n(f.pipeline);
  if (f.virtual_stages > 1) s += " (" + n(f.virtual_stages) + " virtual stages)";
  s += " x CP " + n(f.context) + " x EP " + n(f.expert);
  s += "; " + n(f.sequences) + " sequences of " + n(f.seq_len) + " tokens per step, micro-batch " +
       n(f.micro_batch);
  return s;
}

/// One warning line per rule the plan breaks: the export goes on, but says so.
inline void note_violations(lines& out, const training_plan_values& p) {
  const plan_violations v = check(p);
  for (std::size_t i = 0; i < v.count; ++i)
    out.note("warning: the plan breaks a rule: " + describe(v.items[i]));
}

/// One note per feature of the model's shape that the exports do not write (each target has its
/// own option, or none): the export goes on, and says what it left out.
inline void note_model_features(lines& out, const model_shape& m) {
  const auto n = [](std::int64_t x) { return std::to_string(x); };
  if (has_local_attention(m))
    out.note(std::string("not written: ")
                 .append(n(local_attention_layers(m)))
                 .append(" of ")
                 .append(n(m.layers))
                 .append(m.local.kind == local_attention_kind::chunked ? " layers attend in chunks of "
                                                                      : " layers slide over ")
                 .append(n(m.local.window))
                 .append(" tokens (set the target's own option)"));
  if (is_moe(m) && m.moe.every > 1)
    out.note("not written: every " + n(m.moe.every) + "th layer is MoE, the others dense");
  if (m.qk_norm != qk_norm_kind::none) out.note("not written: the query and key norms");
  if (m.qkv_bias) out.note("not written: the biases on the query, key and value projections");
  if (m.layer_norms != 2) out.note("not written: " + n(m.layer_norms) + " norms a layer");
  if (m.attention_sinks) out.note("not written: the attention sinks");
}

/// The comment lines (marked `marker`) every export opens with: `title`, naming the format and
/// the upstream commit it targets; the plan in one line; one warning per rule the plan breaks.
inline lines opening(const training_plan_values& p, const facts& f, std::string_view marker,
                     std::string_view title) {
  lines out{{}, marker, {}};
  out.note(title);
  out.note("plan: " + plan_summary(p, f));
  note_violations(out, p);
  note_model_features(out, p.model);
  return out;
}

/// The schedule as the exports' notes name it (`schedule_name`, but ZB-H1 spelled out).
inline std::string_view launch_schedule_name(pipeline_schedule s) {
  switch (s) {
    case pipeline_schedule::gpipe:
      return "GPipe";
    case pipeline_schedule::one_f_one_b:
      return "1F1B";
    case pipeline_schedule::interleaved:
      return "interleaved 1F1B";
    case pipeline_schedule::zero_bubble:
      return "zero-bubble ZB-H1";
  }
  return "?";
}

/// A non-negative rational as a decimal ("0.125", "2.0"); `exact` is false when it needs more
/// than 12 decimals.
struct decimal {
  std::string text;
  bool exact = true;
};

inline decimal decimal_of(std::int64_t num, std::int64_t den) {
  if (den <= 0) return {"0.0", false};
  std::string s = n(num / den) + ".";
  std::int64_t rem = num % den;
  if (rem == 0) return {s + "0", true};
  for (int i = 0; i < 12 && rem != 0; ++i) {
    rem *= 10;
    s += static_cast<char>('0' + rem / den);
    rem %= den;
  }
  return {s, rem == 0};
}

}  // namespace detail::launch

}  // namespace shardplan
