// What every reader of JSON input shares: the error a mistake becomes (one line naming the field),
// the strict parser, and the readers of one field (whole numbers in a range, names from a table).
// Part of the optional shardplan::io target (it needs nlohmann-json 3.11 or later).
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <initializer_list>
#include <limits>
#include <set>
#include <nlohmann/json.hpp>
#include <shardplan/hardware/system_presets.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace shardplan::io {

/// A plan file's mistake: a one-line message that names the field.
struct bad_input : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A library rule's text without its "shardplan: " prefix, for a message that has its own
/// ("shardplan: FILE: system.nodes: a dgx h100 superpod has at most 2048 nodes ...").
inline std::string rule_message(std::string_view text) {
  constexpr std::string_view prefix = "shardplan: ";
  if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
  return std::string(text);
}

namespace detail {

using json = nlohmann::json;

/// `text` with its control characters written as \n, \t or \xNN, so that a message that echoes
/// the input (a key, a name) stays one line.
inline std::string printable(const std::string& text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (u < 0x20 || u == 0x7f) {
      constexpr const char* hex = "0123456789abcdef";
      out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
    } else out += c;
  }
  return out;
}

[[noreturn]] inline void fail(const std::string& path, const std::string& what) {
  throw bad_input(printable(path + ": " + what));
}

inline std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

/// "a, b, c" of a list of names.
template <class Names>
std::string name_list(const Names& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  return list;
}

/// Parses JSON, rejecting a key given twice in one object (nlohmann-json would keep the last)
/// and nesting deeper than any plan file needs (which would cost memory quadratic in the depth).
inline json parse(const std::string& text) {
  constexpr std::size_t max_depth = 64;
  struct frame {
    bool array = false;
    std::string path;
    std::set<std::string> keys;
    std::string last_key;
    std::size_t next_index = 0;
  };
  std::vector<frame> open;
  const auto child_path = [&open]() -> std::string {
    if (open.empty()) return "";
    frame& top = open.back();
    if (!top.array) return join(top.path, top.last_key);
    return top.path + "[" + std::to_string(top.next_index++) + "]";
  };
  const json::parser_callback_t on_event = [&](int, json::parse_event_t event, json& parsed) {
    using e = json::parse_event_t;
    if (event == e::object_start || event == e::array_start) {
      if (open.size() >= max_depth)
        fail("plan file", "nests deeper than " + std::to_string(max_depth) + " levels");
      std::string path = child_path();
      open.push_back({event == e::array_start, std::move(path), {}, {}, 0});
    } else if (event == e::object_end || event == e::array_end) {
      if (!open.empty()) open.pop_back();
    } else if (event == e::key && !open.empty()) {
      frame& top = open.back();
      const std::string key = parsed.get<std::string>();
      if (!top.keys.insert(key).second)
        fail(join(top.path, key), "is given twice (each key may appear once)");
      top.last_key = key;
    } else if (event == e::value && !open.empty() && open.back().array) {
      ++open.back().next_index;
    }
    return true;
  };
  try {
    return json::parse(text, on_event);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e3030
    throw bad_input(std::string("malformed JSON: ") + e.what());
  }
}

/// `j` is an object of no key but `allowed` (any list of names).
template <class Names>
void only_keys_of(const json& j, const std::string& path, const Names& allowed) {
  if (!j.is_object()) fail(path, "must be an object");
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) fail(join(path, key), "unknown key (known: " + name_list(allowed) + ")");
  }
}

inline void only_keys(const json& j, const std::string& path,
                      std::initializer_list<const char*> allowed) {
  only_keys_of(j, path, allowed);
}
inline void only_keys(const json& j, const std::string& path,
                      const std::vector<const char*>& allowed) {
  only_keys_of(j, path, allowed);
}

/// A whole number in [lo, hi] (an integral number such as 64.0 counts; lo >= 0).
inline std::int64_t whole(const json& v, const std::string& where, std::int64_t lo,
                          std::int64_t hi) {
  const std::string too_large = "is too large (at most " + std::to_string(hi) + ")";
  const std::string too_small = "must be at least " + std::to_string(lo);
  if (!v.is_number()) fail(where, "must be an integer");
  if (v.is_number_float()) {
    const double x = v.get<double>();
    if (std::trunc(x) != x) fail(where, "must be a whole number");
    if (x < static_cast<double>(lo)) fail(where, too_small);
    if (x > static_cast<double>(hi)) fail(where, too_large);
    return static_cast<std::int64_t>(x);
  }
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
    fail(where, too_large);
  const auto x = v.get<std::int64_t>();
  if (x < lo) fail(where, too_small);
  if (x > hi) fail(where, too_large);
  return x;
}

/// An integer field in [lo, hi]; `fallback` when absent, or an error when `required`.
inline std::int64_t integer(const json& j, const std::string& path, const char* key,
                            std::int64_t lo, std::int64_t hi, bool required,
                            std::int64_t fallback = 0) {
  const std::string where = join(path, key);
  if (!j.contains(key)) {
    if (required) fail(where, "missing");
    return fallback;
  }
  return whole(j.at(key), where, lo, hi);
}

/// The product of named factors, checked before it can overflow: more than `limit` is one line
/// naming every factor and its number ("data 65536 x tensor 65536 x ...").
inline std::int64_t product(const std::string& where,
                            std::initializer_list<std::pair<const char*, std::int64_t>> factors,
                            std::int64_t limit, const std::string& what) {
  std::int64_t n = 1;
  bool over = false;
  for (const auto& [name, x] : factors) {
    if (x > 0 && n > limit / x) over = true;
    if (!over) n *= x;
  }
  if (!over) return n;
  std::string terms;  // the factors that multiply (a degree of 1 is left out)
  for (const auto& [name, x] : factors)
    if (x != 1) terms += (terms.empty() ? "" : " x ") + std::string(name) + " " + std::to_string(x);
  fail(where, terms + " " + what + " (at most " + std::to_string(limit) + ")");
}

// Sizes large enough for any real model or cluster, small enough that products stay in 64 bits.
inline constexpr std::int64_t max_dim = 10'000'000;
inline constexpr std::int64_t max_count = 1'000'000;

inline constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

inline double number(const json& j, const std::string& path, const char* key, double lo,
                     double hi, double fallback) {
  const std::string where = join(path, key);
  if (!j.contains(key)) return fallback;
  const json& v = j.at(key);
  if (!v.is_number()) fail(where, "must be a number");
  const double x = v.get<double>();
  if (!(x >= lo && x <= hi))
    fail(where, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
  return x;
}

inline bool boolean(const json& j, const std::string& path, const char* key, bool fallback) {
  if (!j.contains(key)) return fallback;
  if (!j.at(key).is_boolean()) fail(join(path, key), "must be true or false");
  return j.at(key).get<bool>();
}

inline std::string text(const json& j, const std::string& path, const char* key) {
  if (!j.contains(key)) fail(join(path, key), "missing");
  if (!j.at(key).is_string()) fail(join(path, key), "must be a string");
  return j.at(key).get<std::string>();
}

/// Which of `options` the string `given` names (by `same_name`), or -1.
inline int option_index(std::string_view given, std::initializer_list<std::string_view> options) {
  int i = 0;
  for (std::string_view o : options) {
    if (same_name(given, o)) return i;
    ++i;
  }
  return -1;
}

/// "\"a\", \"b\" or \"c\"" of a list of names.
template <class Names>
std::string quoted_choices(const Names& names) {
  std::string list;
  std::size_t k = 0;
  const std::size_t count = std::size(names);
  for (const auto& o : names) {
    const char* separator = k == 0 ? "" : k + 1 == count ? " or " : ", ";
    list.append(separator).append("\"").append(std::string_view(o)).append("\"");
    ++k;
  }
  return list;
}

/// One of `options` by `same_name`, as its index; else "must be \"a\", \"b\" or \"c\"".
inline int choice(const std::string& where, const std::string& given,
                  std::initializer_list<std::string_view> options) {
  const int i = option_index(given, options);
  if (i >= 0) return i;
  fail(where, "must be " + quoted_choices(options));
}

/// A name a plan file spells and the value it stands for: one table per choice, read by
/// `read_plan_file` and written by `plan_file_text` (io/plan_writer.hpp), so that the two
/// cannot disagree.
template <class T>
struct named {
  std::string_view name;
  T value;
};

/// The names of a table, in its order.
template <class T, std::size_t N>
std::vector<std::string_view> names_of(const named<T> (&table)[N]) {
  std::vector<std::string_view> out;
  for (const named<T>& x : table) out.push_back(x.name);
  return out;
}

/// The entry of `table` that `given` names (by `same_name`), or null.
template <class T, std::size_t N>
const named<T>* find_named(const named<T> (&table)[N], std::string_view given) {
  for (const named<T>& x : table)
    if (same_name(x.name, given)) return &x;
  return nullptr;
}

/// The value `given` names in `table`; else "must be \"a\", \"b\" or \"c\"".
template <class T, std::size_t N>
T pick(const std::string& where, const std::string& given, const named<T> (&table)[N]) {
  if (const named<T>* x = find_named(table, given)) return x->value;
  fail(where, "must be " + quoted_choices(names_of(table)));
}

/// The name of `value` in `table`, or "" when the table has none for it.
template <class T, std::size_t N>
std::string_view name_in(const named<T> (&table)[N], const T& value) {
  for (const named<T>& x : table)
    if (x.value == value) return x.name;
  return {};
}

}  // namespace detail
/// The text of the file at `path` (standard input when `path` is "-"). Throws `bad_input`
/// ("cannot read PATH: why") when it cannot be read.
inline std::string input_text(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    if (std::cin.bad()) throw bad_input("cannot read standard input");
    return text.str();
  }
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw bad_input("cannot read " + path + ": no such file");
  if (std::filesystem::is_directory(status))
    throw bad_input("cannot read " + path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input("cannot read " + path + ": cannot open it");
  text << in.rdbuf();
  if (in.bad()) throw bad_input("cannot read " + path + ": read error");
  return text.str();
}

}  // namespace shardplan::io
