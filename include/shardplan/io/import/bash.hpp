// The part of bash a launch script needs, read without running anything: variables and arrays
// (`VAR=value`, `VAR+=value`, `ARR=( ... )`, `ARR+=( ... )`, export/declare), their expansions
// (`$VAR`, `${VAR}`, `${VAR:-default}`, `${ARR[@]}`, `$((arithmetic))`, word splitting and quote
// removal), line continuations, comments, here-documents, `if`/`elif`/`else` on `[[ ]]`, `[ ]`
// and `test`, `&&` and `||`. What it cannot know (a command's output, a positional argument, a
// variable the script does not set, a file test) stays marked as unresolved, and a branch whose
// condition cannot be decided is refused when it assigns anything.
// Used by the Megatron-LM importer (io/import/megatron.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <shardplan/io/import/common.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardplan::io::detail::importer::bash {

/// An unresolved piece inside an expanded word is kept as "\x01what\x02", so that the word can
/// still be split and stored; the importer refuses it only where its value is needed.
inline constexpr char open_mark = '\x01';
inline constexpr char close_mark = '\x02';

inline std::string unresolved(const std::string& what) {
  return std::string(1, open_mark) + what + close_mark;
}
inline bool resolved(const std::string& s) { return s.find(open_mark) == std::string::npos; }
/// The first unresolved piece's description.
inline std::string first_unresolved(const std::string& s) {
  const std::size_t a = s.find(open_mark);
  if (a == std::string::npos) return {};
  const std::size_t b = s.find(close_mark, a);
  return s.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
}
/// The word as a person reads it: unresolved pieces as their descriptions.
inline std::string shown(const std::string& s) {
  std::string out;
  for (char ch : s)
    if (ch != open_mark && ch != close_mark) out += ch;
  return out;
}

enum class tok : std::uint8_t {
  word,
  newline,
  semi,
  and_if,
  or_if,
  pipe,
  amp,
  lparen,
  rparen,
  redirect,
  end
};

struct token {
  tok kind = tok::end;
  std::string text;  ///< a word's raw text (quotes kept), or the operator
  int line = 0;
  bool array_open = false;  ///< a word "NAME=" or "NAME+=" glued to the "(" that follows it
};

/// Limits that keep a hostile script cheap: its tokens, the nesting of its quotes, parentheses
/// and blocks, and the bytes its variables may hold.
inline constexpr std::size_t max_tokens = 400'000;
inline constexpr int max_nesting = 64;
inline constexpr std::size_t max_variable_bytes = 4 * 1024 * 1024;

inline bool is_name_start(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}
inline bool is_name_char(char ch) { return is_name_start(ch) || (ch >= '0' && ch <= '9'); }

/// The length of a "NAME=" or "NAME+=" prefix of `raw` (0 when it has none).
inline std::size_t assignment_prefix(std::string_view raw) {
  if (raw.empty() || !is_name_start(raw[0])) return 0;
  std::size_t i = 1;
  while (i < raw.size() && is_name_char(raw[i])) ++i;
  if (i < raw.size() && raw[i] == '=') return i + 1;
  if (i + 1 < raw.size() && raw[i] == '+' && raw[i + 1] == '=') return i + 2;
  return 0;
}

/// Splits a script into tokens.
class lexer {
 public:
  lexer(const context& c, std::string_view text) : c_(c), s_(text) {}

  std::vector<token> run() {
    for (char ch : s_)
      if (ch == open_mark || ch == close_mark || ch == '\0')
        c_.fail("line " + std::to_string(line_of(ch)),
                "a control character the script may not hold");
    while (pos_ < s_.size()) {
      if (out_.size() > max_tokens) c_.fail("script", "has too many words");
      const char ch = s_[pos_];
      if (ch == ' ' || ch == '\t' || ch == '\r') {
        ++pos_;
      } else if (ch == '\\' && peek(1) == '\n') {
        pos_ += 2;
        ++line_;
      } else if (ch == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (ch == '\n') {
        push(tok::newline, "\n");
        ++pos_;
        ++line_;
        skip_heredocs();
      } else if (ch == ';') {
        pos_ += peek(1) == ';' ? 2 : 1;
        push(tok::semi, ";");
      } else if (ch == '&') {
        if (peek(1) == '&') {
          pos_ += 2;
          push(tok::and_if, "&&");
        } else if (peek(1) == '>') {
          pos_ += peek(2) == '>' ? 3 : 2;
          push(tok::redirect, "&>");
        } else {
          ++pos_;
          push(tok::amp, "&");
        }
      } else if (ch == '|') {
        if (peek(1) == '|') {
          pos_ += 2;
          push(tok::or_if, "||");
        } else {
          pos_ += peek(1) == '&' ? 2 : 1;
          push(tok::pipe, "|");
        }
      } else if (ch == '(') {
        ++pos_;
        push(tok::lparen, "(");
      } else if (ch == ')') {
        ++pos_;
        push(tok::rparen, ")");
      } else if (ch == '<' || ch == '>') {
        redirect();
      } else {
        word();
      }
    }
    push(tok::end, "");
    return std::move(out_);
  }

 private:
  const context& c_;
  std::string_view s_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::vector<token> out_;
  std::vector<std::pair<std::string, bool>> heredocs_;  ///< delimiter, strip leading tabs

  char peek(std::size_t k) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  int line_of(char ch) const {
    int line = 1;
    for (char x : s_) {
      if (x == ch) break;
      if (x == '\n') ++line;
    }
    return line;
  }
  void push(tok kind, std::string text, bool array_open = false) {
    out_.push_back({kind, std::move(text), line_, array_open});
  }
  [[noreturn]] void unterminated(const char* what, int line) const {
    c_.fail("line " + std::to_string(line), std::string("unterminated ") + what);
  }

  /// `<`, `>`, `>>`, `>&`, `<&`, `<<<`, and `<<` / `<<-` here-documents (their bodies are
  /// skipped at the end of the line).
  void redirect() {
    if (s_.compare(pos_, 3, "<<<") == 0) {
      pos_ += 3;
      push(tok::redirect, "<<<");
      return;
    }
    if (s_.compare(pos_, 2, "<<") == 0) {
      pos_ += 2;
      bool strip = false;
      if (peek(0) == '-') {
        strip = true;
        ++pos_;
      }
      while (peek(0) == ' ' || peek(0) == '\t') ++pos_;
      std::string delimiter;
      while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != ' ' && s_[pos_] != '\t' &&
             s_[pos_] != ';' && s_[pos_] != '|' && s_[pos_] != '&' && s_[pos_] != '<' &&
             s_[pos_] != '>' && s_[pos_] != '(' && s_[pos_] != ')') {
        if (s_[pos_] != '\'' && s_[pos_] != '"' && s_[pos_] != '\\') delimiter += s_[pos_];
        ++pos_;
      }
      if (delimiter.empty())
        c_.fail("line " + std::to_string(line_), "a here-document without a delimiter");
      heredocs_.emplace_back(delimiter, strip);
      push(tok::redirect, "<<");
      // The delimiter is consumed; the redirect needs no target word.
      push(tok::word, "''");
      return;
    }
    std::string op(1, s_[pos_]);
    ++pos_;
    while (pos_ < s_.size() && (s_[pos_] == '>' || s_[pos_] == '&' || s_[pos_] == '|') &&
           op.size() < 3) {
      op += s_[pos_];
      ++pos_;
    }
    push(tok::redirect, op);
    // ">&2", "2>&1": the descriptor after "&" is the target.
    if (op.back() == '&') {
      std::string fd;
      while (pos_ < s_.size() && ((s_[pos_] >= '0' && s_[pos_] <= '9') || s_[pos_] == '-')) {
        fd += s_[pos_];
        ++pos_;
      }
      if (!fd.empty()) push(tok::word, fd);
    }
  }

  void skip_heredocs() {
    for (const auto& [delimiter, strip] : heredocs_) {
      while (pos_ < s_.size()) {
        std::size_t end = s_.find('\n', pos_);
        if (end == std::string_view::npos) end = s_.size();
        std::string_view body_line = s_.substr(pos_, end - pos_);
        if (strip)
          while (!body_line.empty() && body_line.front() == '\t') body_line.remove_prefix(1);
        if (!body_line.empty() && body_line.back() == '\r') body_line.remove_suffix(1);
        pos_ = end < s_.size() ? end + 1 : end;
        ++line_;
        if (body_line == delimiter) break;
      }
    }
    heredocs_.clear();
  }

  /// Skips a quoted or nested construct starting at `pos_` (at its opening character), appending
  /// its raw text to `raw`: '...', "...", `...`, $( ... ), $(( ... )), ${ ... }.
  void construct(std::string& raw, int depth) {
    if (depth > max_nesting) c_.fail("line " + std::to_string(line_), "nests too deeply");
    const int start_line = line_;
    const char ch = s_[pos_];
    if (ch == '\'') {
      const std::size_t end = s_.find('\'', pos_ + 1);
      if (end == std::string_view::npos) unterminated("single quote", start_line);
      for (std::size_t k = pos_; k <= end; ++k)
        if (s_[k] == '\n') ++line_;
      raw.append(s_.substr(pos_, end - pos_ + 1));
      pos_ = end + 1;
      return;
    }
    if (ch == '"' || ch == '`') {
      raw += ch;
      ++pos_;
      while (true) {
        if (pos_ >= s_.size()) unterminated(ch == '"' ? "double quote" : "backquote", start_line);
        const char x = s_[pos_];
        if (x == ch) {
          raw += x;
          ++pos_;
          return;
        }
        if (x == '\\' && pos_ + 1 < s_.size()) {
          if (s_[pos_ + 1] == '\n') {
            ++line_;
            pos_ += 2;
            continue;
          }
          raw.append(s_.substr(pos_, 2));
          pos_ += 2;
          continue;
        }
        if (ch == '"' && x == '$' && (peek(1) == '(' || peek(1) == '{')) {
          raw += '$';
          ++pos_;
          construct(raw, depth + 1);
          continue;
        }
        if (ch == '"' && x == '`') {
          construct(raw, depth + 1);
          continue;
        }
        if (x == '\n') ++line_;
        raw += x;
        ++pos_;
      }
    }
    // "(" of $( ... ) or "{" of ${ ... }: to the matching closer, quotes inside skipped.
    const char open = ch;
    const char close = open == '(' ? ')' : '}';
    int level = 0;
    while (true) {
      if (pos_ >= s_.size()) unterminated(open == '(' ? "$( ... )" : "${ ... }", start_line);
      const char x = s_[pos_];
      if (x == '\'' || x == '"' || x == '`') {
        construct(raw, depth + 1);
        continue;
      }
      if (x == '\\' && pos_ + 1 < s_.size()) {
        raw.append(s_.substr(pos_, 2));
        if (s_[pos_ + 1] == '\n') ++line_;
        pos_ += 2;
        continue;
      }
      if (x == '\n') ++line_;
      raw += x;
      ++pos_;
      if (x == open) {
        ++level;
        if (level > max_nesting) c_.fail("line " + std::to_string(line_), "nests too deeply");
      } else if (x == close) {
        --level;
        if (level == 0) return;
      }
    }
  }

  void word() {
    std::string raw;
    const int start_line = line_;
    while (pos_ < s_.size()) {
      const char ch = s_[pos_];
      if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == ';' || ch == '&' ||
          ch == '|' || ch == ')' || ch == '<' || ch == '>')
        break;
      if (ch == '(') {
        // "NAME=(" opens an array; any other "(" ends the word ("f()" declares a function).
        const std::size_t prefix = assignment_prefix(raw);
        if (prefix == raw.size() && prefix > 0) {
          out_.push_back({tok::word, raw, start_line, true});
          return;
        }
        break;
      }
      if (ch == '\\') {
        if (peek(1) == '\n') {
          pos_ += 2;
          ++line_;
          continue;
        }
        raw.append(s_.substr(pos_, pos_ + 1 < s_.size() ? 2 : 1));
        pos_ += pos_ + 1 < s_.size() ? 2 : 1;
        continue;
      }
      if (ch == '\'' || ch == '"' || ch == '`') {
        construct(raw, 0);
        continue;
      }
      if (ch == '$' && (peek(1) == '(' || peek(1) == '{')) {
        raw += '$';
        ++pos_;
        construct(raw, 0);
        continue;
      }
      raw += ch;
      ++pos_;
    }
    // "2>&1": a descriptor number glued to a redirection belongs to it.
    if (pos_ < s_.size() && (s_[pos_] == '<' || s_[pos_] == '>') &&
        raw.find_first_not_of("0123456789") == std::string::npos)
      return;
    if (!raw.empty()) out_.push_back({tok::word, raw, start_line, false});
  }
};

/// A variable: a scalar is an array of one element.
struct variable {
  std::vector<std::string> values;
  bool array = false;
};

/// Tri-state truth: a condition may be undecidable.
enum class truth : std::uint8_t { no, yes, unknown };

inline truth negate(truth t) {
  return t == truth::unknown ? t : (t == truth::yes ? truth::no : truth::yes);
}
inline truth both(truth a, truth b) {
  if (a == truth::no || b == truth::no) return truth::no;
  if (a == truth::yes && b == truth::yes) return truth::yes;
  return truth::unknown;
}
inline truth either(truth a, truth b) {
  if (a == truth::yes || b == truth::yes) return truth::yes;
  if (a == truth::no && b == truth::no) return truth::no;
  return truth::unknown;
}

/// One command the script runs (not a builtin): its words after expansion and its line.
struct command {
  std::vector<std::string> words;
  int line = 0;
  /// The assignments before the command ("NGPU=8 ./run_train.sh"): its environment only.
  std::vector<std::pair<std::string, std::string>> environment;
};

/// What a script sets and runs, read without running it.
class shell {
 public:
  shell(context& c, std::vector<token> tokens) : c_(c), t_(std::move(tokens)) {}

  /// Reads the whole script.
  void run() {
    try {
      list(true, 0);
      if (t_[i_].kind != tok::end) fail_at(t_[i_].line, "unexpected '" + shown(t_[i_].text) + "'");
    } catch (const stop_reading&) {
    }
    for (const std::string& name : unset_seen_)
      c_.note("$" + name + " is not set in the script: a condition reads it as empty");
  }

  const std::vector<command>& commands() const { return commands_; }
  const std::map<std::string, variable>& variables() const { return vars_; }
  /// The arrays in the order they were first assigned.
  const std::vector<std::string>& array_order() const { return array_order_; }

 private:
  context& c_;
  std::vector<token> t_;
  std::size_t i_ = 0;
  std::map<std::string, variable> vars_;
  std::vector<std::string> array_order_;
  std::vector<command> commands_;
  std::size_t bytes_ = 0;
  bool stopped_ = false;  ///< `exit` ran
  struct stop_reading {};
  std::vector<std::string> unset_seen_;  ///< variables a condition read as empty
  void saw_unset(const std::string& name) {
    if (std::find(unset_seen_.begin(), unset_seen_.end(), name) == unset_seen_.end() &&
        unset_seen_.size() < 100)
      unset_seen_.push_back(name);
  }
  int depth_ = 0;
  /// While probing (reading a branch that does not run), what it would do.
  std::vector<std::string> probe_assigns_;
  bool probe_runs_ = false;

  [[noreturn]] void fail_at(int line, const std::string& message) const {
    c_.fail("line " + std::to_string(line), message);
  }
  const token& cur() const { return t_[i_]; }
  bool at_word(std::string_view w) const { return cur().kind == tok::word && cur().text == w; }
  void skip_newlines() {
    while (cur().kind == tok::newline || cur().kind == tok::semi) ++i_;
  }

  struct depth_guard {
    shell& s;
    explicit depth_guard(shell& x) : s(x) {
      if (++s.depth_ > max_nesting) s.fail_at(s.cur().line, "nests too deeply");
    }
    ~depth_guard() { --s.depth_; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
  };

  /// Reads `text` (a string `sh -c` runs, at `line`) as script text in this shell: its commands
  /// are recorded and its assignments made. What the script could not resolve in the string
  /// stays unresolved: each such part is a placeholder word while the text is read.
  void run_string(const std::string& text, int line) {
    depth_guard guard(*this);
    std::vector<std::string> parts;
    auto placeholder = [](std::size_t n) {
      return "__shardplan_unresolved_" + std::to_string(n) + "__";
    };
    std::string plain;
    for (std::size_t k = 0; k < text.size(); ++k) {
      // A template's placeholder ("--vocab-file <PATH TO gpt-vocab.json>", as Megatron-LM's
      // examples write them) is one unresolved word, not two redirections.
      if (text[k] == '<' && k + 1 < text.size() && text[k + 1] >= 'A' && text[k + 1] <= 'Z') {
        const std::size_t end = text.find_first_of("<>\n\"'$`", k + 1);
        if (end != std::string::npos && text[end] == '>') {
          plain += placeholder(parts.size());
          parts.push_back(unresolved(text.substr(k, end - k + 1) + " (a placeholder)"));
          k = end;
          continue;
        }
      }
      if (text[k] != open_mark) {
        plain += text[k];
        continue;
      }
      const std::size_t end = text.find(close_mark, k);
      if (end == std::string::npos) break;
      plain += placeholder(parts.size());
      parts.push_back(text.substr(k, end - k + 1));
      k = end;
    }
    std::vector<token> tokens = lexer(c_, plain).run();
    for (token& t : tokens) t.line = line;
    const std::size_t first = commands_.size();
    std::swap(t_, tokens);
    const std::size_t at = i_;
    i_ = 0;
    struct restore {
      shell& s;
      std::vector<token>& saved;
      std::size_t at;
      ~restore() {
        std::swap(s.t_, saved);
        s.i_ = at;
      }
    } back{*this, tokens, at};
    auto put_back = [&](std::string& w) {
      for (std::size_t n = parts.size(); n-- > 0;) {
        const std::string mark = placeholder(n);
        for (std::size_t p = w.find(mark); p != std::string::npos; p = w.find(mark, p))
          w.replace(p, mark.size(), parts[n]);
      }
    };
    try {
      list(true, 0);
      if (cur().kind != tok::end) fail_at(line, "sh -c: unexpected '" + shown(cur().text) + "'");
    } catch (const stop_reading&) {
    }
    for (std::size_t n = first; n < commands_.size(); ++n) {
      for (std::string& w : commands_[n].words) put_back(w);
      for (auto& [key, value] : commands_[n].environment) put_back(value);
    }
    for (auto& [key, v] : vars_)
      for (std::string& value : v.values) put_back(value);
  }

  // ---- expansion ---------------------------------------------------------------------------

  /// How a word is expanded: split unquoted expansions into fields (commands, array elements) or
  /// not (assignments, [[ ]]); take a variable the script never sets as empty (conditions) or as
  /// unresolved (values).
  struct mode {
    bool split = true;
    bool unset_is_empty = false;
  };

  const variable* lookup(const std::string& name) const {
    const auto it = vars_.find(name);
    return it == vars_.end() ? nullptr : &it->second;
  }

  /// The value of a parameter reference (without operators) as a list of elements, or empty
  /// with `set` false when it is not set.
  std::vector<std::string> parameter(const std::string& name, const std::string& index, bool& set,
                                     bool& all, mode m) const {
    set = false;
    all = index == "@" || index == "*";
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') {
      if (name == "0") {
        set = true;
        return {unresolved("$0 (the script's own name)")};
      }
      return {};  // positional arguments: the script is read as run without any
    }
    if (name == "@" || name == "*" || name == "#") {  // as run without arguments
      set = true;
      all = name != "#";
      return name == "#" ? std::vector<std::string>{"0"} : std::vector<std::string>{};
    }
    if (name == "?" || name == "$" || name == "!" || name == "-") {
      set = true;
      return {unresolved("$" + name + " (a special parameter)")};
    }
    const variable* v = lookup(name);
    if (v == nullptr) return {};
    set = true;
    if (all) return v->values;
    std::int64_t k = 0;
    if (!index.empty() && !parse_integer(index, k)) {
      (void)m;
      return {unresolved("${" + name + "[" + index + "]}")};
    }
    if (k < 0 || static_cast<std::size_t>(k) >= v->values.size()) return {std::string()};
    return {v->values[static_cast<std::size_t>(k)]};
  }

  static std::string describe_unset(const std::string& name) {
    if (name.size() == 1 && name[0] >= '1' && name[0] <= '9')
      return "$" + name + " (the script's argument " + name + ")";
    return "$" + name + " (not set in the script)";
  }

  /// `${...}`: the elements it expands to (`all` when it is a [@] / [*] of several).
  std::vector<std::string> brace(const std::string& body, bool& all, mode m, int depth) {
    all = false;
    if (body.empty()) return {unresolved("${}")};
    if (body[0] == '#' && body.size() > 1) {  // ${#NAME}, ${#NAME[@]}
      std::string name = body.substr(1);
      std::string index;
      const std::size_t b = name.find('[');
      if (b != std::string::npos && name.back() == ']') {
        index = name.substr(b + 1, name.size() - b - 2);
        name = name.substr(0, b);
      }
      bool set = false;
      bool many = false;
      const std::vector<std::string> v = parameter(name, index, set, many, m);
      if (!set && !m.unset_is_empty) return {unresolved(describe_unset(name))};
      if (!set) saw_unset(name);
      if (many) return {std::to_string(v.size())};
      const std::string s = v.empty() ? std::string() : v[0];
      if (!resolved(s)) return {unresolved("${#" + name + "}")};
      return {std::to_string(s.size())};
    }
    std::size_t k = 0;
    std::string name;
    if (is_name_start(body[0])) {
      while (k < body.size() && is_name_char(body[k])) name += body[k++];
    } else if (body[0] >= '0' && body[0] <= '9') {
      while (k < body.size() && body[k] >= '0' && body[k] <= '9') name += body[k++];
    } else if (std::string_view("@*#?$!-").find(body[0]) != std::string_view::npos) {
      name = body.substr(0, 1);
      k = 1;
    } else {
      return {unresolved("${" + body + "}")};
    }
    std::string index;
    if (k < body.size() && body[k] == '[') {
      const std::size_t close = body.find(']', k);
      if (close == std::string::npos) return {unresolved("${" + body + "}")};
      index = body.substr(k + 1, close - k - 1);
      k = close + 1;
    }
    bool set = false;
    std::vector<std::string> v = parameter(name, index, set, all, m);
    const bool empty = v.empty() || (v.size() == 1 && v[0].empty());
    if (k == body.size()) {
      if (!set && !m.unset_is_empty) return {unresolved(describe_unset(name))};
      if (!set) saw_unset(name);
      return v;
    }
    const bool colon = body[k] == ':';
    const std::size_t op_at = colon ? k + 1 : k;
    if (op_at >= body.size()) return {unresolved("${" + body + "}")};
    const char op = body[op_at];
    if (std::string_view("-=+?").find(op) == std::string_view::npos)
      return {unresolved("${" + body + "} (an expansion the importer does not evaluate)")};
    const std::string word = body.substr(op_at + 1);
    const bool missing = !set || (colon && empty);
    auto alternative = [&]() {
      mode inner = m;
      inner.split = false;
      std::vector<std::string> f = expand(word, inner, depth + 1);
      return f.empty() ? std::string() : f[0];
    };
    switch (op) {
      case '-':
        if (missing) return {alternative()};
        return v;
      case '=':
        if (missing) {
          const std::string value = alternative();
          if (is_name_start(name[0])) assign(name, {value}, false, false, cur().line);
          return {value};
        }
        return v;
      case '+':
        if (!missing) return {alternative()};
        return {std::string()};
      default:  // '?'
        if (missing) return {unresolved(describe_unset(name))};
        return v;
    }
  }

  /// $(( ... )): integer arithmetic with + - * / % and parentheses, or an unresolved piece.
  std::string arithmetic(const std::string& text, mode m, int depth) {
    mode inner = m;
    inner.split = false;
    std::vector<std::string> f = expand_inside_quotes(text, inner, depth + 1);
    const std::string e = f.empty() ? std::string() : f[0];
    if (!resolved(e)) return unresolved("$((" + shown(e) + "))");
    std::size_t p = 0;
    bool ok = true;
    const std::int64_t value = arith_sum(e, p, ok, 0);
    while (p < e.size() && (e[p] == ' ' || e[p] == '\t')) ++p;
    if (!ok || p != e.size()) return unresolved("$((" + e + "))");
    return std::to_string(value);
  }

  static void arith_space(const std::string& e, std::size_t& p) {
    while (p < e.size() && (e[p] == ' ' || e[p] == '\t' || e[p] == '\n')) ++p;
  }
  std::int64_t arith_sum(const std::string& e, std::size_t& p, bool& ok, int depth) {
    std::int64_t x = arith_product(e, p, ok, depth);
    while (ok) {
      arith_space(e, p);
      if (p >= e.size() || (e[p] != '+' && e[p] != '-')) break;
      const char op = e[p++];
      const std::int64_t y = arith_product(e, p, ok, depth);
      if (!ok) break;
      if (op == '+' ? __builtin_add_overflow(x, y, &x) : __builtin_sub_overflow(x, y, &x))
        ok = false;
    }
    return x;
  }
  std::int64_t arith_product(const std::string& e, std::size_t& p, bool& ok, int depth) {
    std::int64_t x = arith_unary(e, p, ok, depth);
    while (ok) {
      arith_space(e, p);
      if (p >= e.size() || (e[p] != '*' && e[p] != '/' && e[p] != '%')) break;
      if (e[p] == '*' && p + 1 < e.size() && e[p + 1] == '*') {
        ok = false;  // ** is not evaluated
        break;
      }
      const char op = e[p++];
      const std::int64_t y = arith_unary(e, p, ok, depth);
      if (!ok) break;
      if (op == '*') {
        if (__builtin_mul_overflow(x, y, &x)) ok = false;
      } else if (y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1)) {
        ok = false;
      } else {
        x = op == '/' ? x / y : x % y;
      }
    }
    return x;
  }
  std::int64_t arith_unary(const std::string& e, std::size_t& p, bool& ok, int depth) {
    if (depth > max_nesting) {
      ok = false;
      return 0;
    }
    arith_space(e, p);
    if (p >= e.size()) {
      ok = false;
      return 0;
    }
    if (e[p] == '+' || e[p] == '-') {
      const char op = e[p++];
      const std::int64_t x = arith_unary(e, p, ok, depth + 1);
      if (op == '-') {
        if (x == std::numeric_limits<std::int64_t>::min()) ok = false;
        return ok ? -x : 0;
      }
      return x;
    }
    if (e[p] == '(') {
      ++p;
      const std::int64_t x = arith_sum(e, p, ok, depth + 1);
      arith_space(e, p);
      if (p >= e.size() || e[p] != ')')
        ok = false;
      else
        ++p;
      return x;
    }
    std::string atom;
    while (p < e.size() && is_name_char(e[p])) atom += e[p++];
    if (atom.empty()) {
      ok = false;
      return 0;
    }
    std::int64_t x = 0;
    if (parse_integer(atom, x) && atom.find('_') == std::string::npos) return x;
    if (is_name_start(atom[0])) {  // a bare name in arithmetic is a variable
      const variable* v = lookup(atom);
      if (v != nullptr && !v->values.empty() && parse_integer(v->values[0], x)) return x;
    }
    ok = false;
    return 0;
  }

  /// Appends expansion results to the fields under construction.
  struct field_builder {
    std::vector<std::string> fields;
    std::string cur;
    bool has = false;  ///< `cur` is a field even when empty ("" was given)
    bool vanished = false;  ///< an "all elements" expansion ("$@", "${A[@]}") had none
    void text(const std::string& s) {
      cur += s;
      has = true;
    }
    void split(const std::string& s) {
      bool inside = false;  // an unresolved piece is never split
      for (char ch : s) {
        if (ch == open_mark) inside = true;
        if (ch == close_mark) inside = false;
        if (!inside && (ch == ' ' || ch == '\t' || ch == '\n')) {
          if (has || !cur.empty()) fields.push_back(cur);
          cur.clear();
          has = false;
        } else {
          cur += ch;
          has = true;
        }
      }
    }
    void next_field() {
      fields.push_back(cur);
      cur.clear();
      has = false;
    }
    std::vector<std::string> done() {
      if (has || !cur.empty()) fields.push_back(cur);
      return std::move(fields);
    }
  };

  void charge(std::size_t n) {
    bytes_ += n;
    if (bytes_ > max_variable_bytes) fail_at(cur().line, "the script's words grow too large");
  }

  /// Adds the elements of an expansion to `out`: quoted ones join the current field (several
  /// elements of "${A[@]}" make several fields), unquoted ones are split when `m.split`.
  void add(field_builder& out, const std::vector<std::string>& elements, bool all, bool quoted,
           mode m) {
    for (std::size_t k = 0; k < elements.size(); ++k) {
      charge(elements[k].size());
      if (k > 0) {
        if (all && (quoted || !m.split))
          out.next_field();
        else if (m.split)
          out.split(" ");
        else
          out.text(" ");
      }
      if (quoted || !m.split)
        out.text(elements[k]);
      else
        out.split(elements[k]);
    }
    if (elements.empty() && quoted && !all) out.has = true;
    if (elements.empty() && all) out.vanished = true;
  }

  /// A $-expansion at `p` of raw text `r` (p at '$'): appended to `out`; `p` moves past it.
  void dollar(const std::string& r, std::size_t& p, field_builder& out, bool quoted, mode m,
              int depth) {
    const char next = p + 1 < r.size() ? r[p + 1] : '\0';
    if (next == '(' && p + 2 < r.size() && r[p + 2] == '(') {  // $(( ... ))
      const std::size_t close = matching(r, p + 1);
      const std::size_t inner_end = close >= 1 ? close - 1 : close;
      if (close == std::string::npos || inner_end <= p + 3 || r[inner_end] != ')') {
        add(out, {unresolved("$(" + r.substr(p + 2, 40) + ")")}, false, quoted, m);
        p = close == std::string::npos ? r.size() : close + 1;
        return;
      }
      add(out, {arithmetic(r.substr(p + 3, inner_end - (p + 3)), m, depth)}, false, quoted, m);
      p = close + 1;
      return;
    }
    if (next == '(') {
      const std::size_t close = matching(r, p + 1);
      const std::string inner = r.substr(
          p + 2,
          std::min<std::size_t>(40, (close == std::string::npos ? r.size() : close) - (p + 2)));
      add(out, {unresolved("$(" + inner + ") (a command's output)")}, false, quoted, m);
      p = close == std::string::npos ? r.size() : close + 1;
      return;
    }
    if (next == '{') {
      const std::size_t close = matching(r, p + 1);
      if (close == std::string::npos) {
        add(out, {unresolved("${" + r.substr(p + 2) + "}")}, false, quoted, m);
        p = r.size();
        return;
      }
      bool all = false;
      const std::vector<std::string> v = brace(r.substr(p + 2, close - p - 2), all, m, depth);
      add(out, v, all, quoted, m);
      p = close + 1;
      return;
    }
    if (is_name_start(next)) {
      std::size_t k = p + 1;
      std::string name;
      while (k < r.size() && is_name_char(r[k])) name += r[k++];
      bool set = false;
      bool all = false;
      std::vector<std::string> v = parameter(name, "", set, all, m);
      if (!set && !m.unset_is_empty) v = {unresolved(describe_unset(name))};
      if (!set && m.unset_is_empty) saw_unset(name);
      add(out, v, false, quoted, m);
      p = k;
      return;
    }
    if ((next >= '0' && next <= '9') ||
        std::string_view("@*#?$!-").find(next) != std::string_view::npos) {
      const std::string name(1, next);
      bool set = false;
      bool all = false;
      std::vector<std::string> v = parameter(name, "", set, all, m);
      if (!set && !m.unset_is_empty) v = {unresolved(describe_unset(name))};
      add(out, v, all, quoted, m);
      p += 2;
      return;
    }
    out.text("$");
    ++p;
  }

  /// The index of the character closing the bracket at `open` ('(' or '{'), quotes inside
  /// skipped; npos when there is none.
  static std::size_t matching(const std::string& r, std::size_t open) {
    const char o = r[open];
    const char c = o == '(' ? ')' : '}';
    int level = 0;
    for (std::size_t k = open; k < r.size(); ++k) {
      const char x = r[k];
      if (x == '\\') {
        ++k;
        continue;
      }
      if (x == '\'') {
        const std::size_t e = r.find('\'', k + 1);
        if (e == std::string::npos) return std::string::npos;
        k = e;
        continue;
      }
      if (x == '"') {
        for (++k; k < r.size() && r[k] != '"'; ++k)
          if (r[k] == '\\') ++k;
        continue;
      }
      if (x == o) ++level;
      if (x == c && --level == 0) return k;
    }
    return std::string::npos;
  }

  /// Text read as if inside double quotes (the inside of $(( )) or a here-document): only $ and
  /// backslash are special.
  std::vector<std::string> expand_inside_quotes(const std::string& r, mode m, int depth) {
    field_builder out;
    out.has = true;
    std::size_t p = 0;
    while (p < r.size()) {
      if (r[p] == '$') {
        dollar(r, p, out, true, m, depth);
      } else if (r[p] == '\\' && p + 1 < r.size()) {
        out.text(std::string(1, r[p + 1]));
        p += 2;
      } else {
        out.text(std::string(1, r[p]));
        ++p;
      }
    }
    return out.done();
  }

 public:
  /// The fields a raw word expands to.
  std::vector<std::string> expand(const std::string& r, mode m, int depth = 0) {
    if (depth > 16) return {unresolved("an expansion nested too deeply")};
    field_builder out;
    std::size_t p = 0;
    while (p < r.size()) {
      const char ch = r[p];
      if (ch == '\\') {
        if (p + 1 < r.size()) out.text(std::string(1, r[p + 1]));
        p += 2;
      } else if (ch == '\'') {
        const std::size_t e = r.find('\'', p + 1);
        const std::size_t end = e == std::string::npos ? r.size() : e;
        out.text(r.substr(p + 1, end - p - 1));
        p = end + 1;
      } else if (ch == '"') {
        // "$@" and "${A[@]}" with no elements are no field at all, as bash expands them.
        const bool had = out.has;
        const std::string before = out.cur;
        const std::size_t fields = out.fields.size();
        bool only_expansion = true;
        out.vanished = false;
        out.has = true;
        ++p;
        while (p < r.size() && r[p] != '"') {
          if (r[p] != '$') only_expansion = false;
          if (r[p] == '\\' && p + 1 < r.size()) {
            const char x = r[p + 1];
            if (x == '"' || x == '\\' || x == '$' || x == '`')
              out.text(std::string(1, x));
            else
              out.text(r.substr(p, 2));
            p += 2;
          } else if (r[p] == '$') {
            dollar(r, p, out, true, m, depth);
          } else if (r[p] == '`') {
            const std::size_t e = r.find('`', p + 1);
            add(out, {unresolved("`...` (a command's output)")}, false, true, m);
            p = e == std::string::npos ? r.size() : e + 1;
          } else {
            out.text(std::string(1, r[p]));
            ++p;
          }
        }
        ++p;
        if (only_expansion && out.vanished && out.cur == before && out.fields.size() == fields)
          out.has = had;
      } else if (ch == '$') {
        dollar(r, p, out, false, m, depth);
      } else if (ch == '`') {
        const std::size_t e = r.find('`', p + 1);
        add(out, {unresolved("`...` (a command's output)")}, false, false, m);
        p = e == std::string::npos ? r.size() : e + 1;
      } else {
        out.text(std::string(1, ch));
        ++p;
      }
    }
    std::vector<std::string> f = out.done();
    for (const std::string& s : f) charge(s.size());
    return f;
  }

 private:
  // ---- variables ---------------------------------------------------------------------------

  void assign(const std::string& name, std::vector<std::string> values, bool array, bool append,
              int line) {
    if (probe_depth_ > 0) {
      record(name);
      return;
    }
    std::size_t size = 0;
    for (const std::string& v : values) size += v.size() + 1;
    charge(size);
    variable& v = vars_[name];
    if (array && std::find(array_order_.begin(), array_order_.end(), name) == array_order_.end())
      array_order_.push_back(name);
    if (append) {
      if (array) {
        v.values.insert(v.values.end(), values.begin(), values.end());
        v.array = true;
      } else {
        if (v.values.empty()) v.values.push_back(std::string());
        v.values[0] += values.empty() ? std::string() : values[0];
      }
    } else {
      v.values = std::move(values);
      v.array = array;
    }
    (void)line;
  }

  int probe_depth_ = 0;

  /// Notes, while probing, that the branch would assign `name`.
  void record(const std::string& name) {
    if (probe_depth_ > 0) probe_assigns_.push_back(name);
  }

  /// "NAME=value" / "NAME+=value" (a scalar assignment word), performed when `run`.
  bool scalar_assignment(const token& w, bool run) {
    const std::size_t prefix = assignment_prefix(w.text);
    if (prefix == 0 || w.array_open) return false;
    const bool append = w.text[prefix - 2] == '+';
    const std::string name = w.text.substr(0, prefix - (append ? 2 : 1));
    if (run) {
      std::vector<std::string> f = expand(w.text.substr(prefix), {false, false});
      assign(name, {f.empty() ? std::string() : f[0]}, false, append, w.line);
    } else {
      record(name);
    }
    return true;
  }

  /// "NAME=( words )" / "NAME+=( words )" at the current token (the word with `array_open`).
  void array_assignment(bool run) {
    const token w = cur();
    const std::size_t prefix = assignment_prefix(w.text);
    const bool append = w.text[prefix - 2] == '+';
    const std::string name = w.text.substr(0, prefix - (append ? 2 : 1));
    ++i_;
    if (cur().kind != tok::lparen) fail_at(w.line, "expected '(' after " + w.text);
    ++i_;
    std::vector<std::string> elements;
    while (true) {
      const token& t = cur();
      if (t.kind == tok::rparen) {
        ++i_;
        break;
      }
      if (t.kind == tok::end) fail_at(w.line, "the array " + name + " is not closed with ')'");
      if (t.kind == tok::newline) {
        ++i_;
        continue;
      }
      if (t.kind != tok::word) fail_at(t.line, "unexpected '" + t.text + "' in the array " + name);
      if (run) {
        for (std::string& f : expand(t.text, {true, false})) elements.push_back(std::move(f));
      }
      ++i_;
    }
    if (run)
      assign(name, std::move(elements), true, append, w.line);
    else
      record(name);
  }

  // ---- statements --------------------------------------------------------------------------

  static bool is_terminator(const token& t) {
    if (t.kind == tok::end || t.kind == tok::rparen) return true;
    if (t.kind != tok::word) return false;
    static constexpr std::string_view words[] = {"then", "elif", "else", "fi", "do",
                                                 "done", "esac", "}",    ";;"};
    for (std::string_view w : words)
      if (t.text == w) return true;
    return false;
  }

  /// A list of and-or chains up to a terminator; the status of the last.
  truth list(bool run, int) {
    depth_guard guard(*this);
    truth status = truth::yes;
    while (true) {
      skip_newlines();
      if (is_terminator(cur()) || stopped_) break;
      status = and_or(run);
      if (cur().kind == tok::amp) ++i_;
    }
    return status;
  }

  truth and_or(bool run) {
    truth status = pipeline(run);
    while (cur().kind == tok::and_if || cur().kind == tok::or_if) {
      const bool is_and = cur().kind == tok::and_if;
      ++i_;
      while (cur().kind == tok::newline) ++i_;
      const bool decided = status != truth::unknown;
      const bool runs = run && decided && (is_and ? status == truth::yes : status == truth::no);
      if (run && !decided) {
        guarded_skip([this] { (void)pipeline(false); },
                     "a command after && or || whose "
                     "condition cannot be decided");
        status = truth::unknown;
        continue;
      }
      const truth next = pipeline(runs);
      if (runs) status = next;
    }
    return status;
  }

  /// Reads what `read` reads without running it; refuses it when it would assign or run
  /// something that matters (`why` says why it cannot run).
  template <class Read>
  void guarded_skip(Read read, const std::string& why) {
    const int line = cur().line;
    std::vector<std::string> saved = std::move(probe_assigns_);
    probe_assigns_.clear();
    const bool saved_runs = probe_runs_;
    probe_runs_ = false;
    ++probe_depth_;
    read();
    --probe_depth_;
    std::vector<std::string> assigned = std::move(probe_assigns_);
    const bool runs = probe_runs_;
    probe_assigns_ = std::move(saved);
    probe_runs_ = saved_runs;
    if (probe_depth_ > 0) {  // inside a probe already: report upwards
      probe_assigns_.insert(probe_assigns_.end(), assigned.begin(), assigned.end());
      probe_runs_ = probe_runs_ || runs;
      return;
    }
    if (!assigned.empty())
      c_.fail(assigned.front(), "assigned under " + why + " (line " + std::to_string(line) +
                                    "); set it before, or pass the value as an override");
    if (runs)
      fail_at(line,
              "runs a Python script under " + why + "; the importer cannot tell whether it runs");
    c_.note("line " + std::to_string(line) + ": skipped " + why +
            " (it assigns nothing and runs no Python script)");
  }

  truth pipeline(bool run) {
    bool bang = false;
    if (at_word("!")) {
      bang = true;
      ++i_;
    }
    truth status = compound_or_simple(run);
    bool piped = false;
    while (cur().kind == tok::pipe) {
      ++i_;
      while (cur().kind == tok::newline) ++i_;
      // Later commands of a pipeline run in subshells: nothing they assign stays.
      (void)compound_or_simple(false);
      piped = true;
    }
    if (piped) status = truth::unknown;
    return bang ? negate(status) : status;
  }

  truth compound_or_simple(bool run) {
    depth_guard guard(*this);
    const token& t = cur();
    if (t.kind == tok::word) {
      if (t.text == "if") return if_clause(run);
      if (t.text == "for" && over_arguments()) {
        // The script is read as run with no arguments: a loop over them runs no time.
        c_.note("line " + std::to_string(t.line) +
                ": a loop over the script's arguments runs no time (it is read with none)");
        skip_loop();
        return truth::yes;
      }
      if (t.text == "while" && run && probe_depth_ == 0 && while_runs_no_time()) {
        skip_loop();
        return truth::yes;
      }
      if (t.text == "for" || t.text == "while" || t.text == "until" || t.text == "select" ||
          t.text == "case") {
        if (run && probe_depth_ == 0)
          guarded_skip([this] { skip_loop(); }, "a '" + cur().text + "' block (not evaluated)");
        else
          skip_loop();
        return truth::unknown;
      }
      if (t.text == "function" || (i_ + 2 < t_.size() && t_[i_ + 1].kind == tok::lparen &&
                                   t_[i_ + 2].kind == tok::rparen && !t.array_open)) {
        skip_function();
        return truth::yes;
      }
      if (t.text == "{") {
        ++i_;
        const truth s = list(run, 0);
        if (!at_word("}")) fail_at(t.line, "'{' without '}'");
        ++i_;
        redirections();
        return s;
      }
      if (t.text == "[[") return double_bracket(run);
    }
    if (t.kind == tok::lparen) {
      const int line = t.line;
      ++i_;
      // A subshell: what it assigns does not stay; the commands it runs count.
      std::map<std::string, variable> saved = vars_;
      std::vector<std::string> saved_order = array_order_;
      const truth s = list(run, 0);
      vars_ = std::move(saved);
      array_order_ = std::move(saved_order);
      if (cur().kind != tok::rparen) fail_at(line, "'(' without ')'");
      ++i_;
      redirections();
      return s;
    }
    return simple(run);
  }

  void redirections() {
    while (cur().kind == tok::redirect) {
      ++i_;
      if (cur().kind == tok::word) ++i_;
    }
  }

  /// Whether the `for` at the cursor loops over the script's arguments alone (`for x in "$@"`,
  /// `$@`, `"$*"` or `$*`, or `for x` with no list).
  bool over_arguments() const {
    if (i_ + 2 >= t_.size() || t_[i_ + 1].kind != tok::word) return false;
    const token& after = t_[i_ + 2];
    if (after.kind == tok::semi || after.kind == tok::newline) return true;
    if (after.kind != tok::word || after.text != "in" || i_ + 4 >= t_.size()) return false;
    const token& list = t_[i_ + 3];
    const token& end = t_[i_ + 4];
    const bool arguments = list.kind == tok::word &&
                           (list.text == "\"$@\"" || list.text == "$@" || list.text == "\"$*\"" ||
                            list.text == "$*");
    return arguments && (end.kind == tok::semi || end.kind == tok::newline);
  }

  /// Whether the `while` at the cursor has one test for its condition (`[[ $# -gt 0 ]]`, `[ -n
  /// "$1" ]`) that is false on entry: the loop runs no time, as the loops that read a script's
  /// options do when it is read with no arguments. The cursor stays at the `while`.
  bool while_runs_no_time() {
    const std::size_t at = i_;
    const int line = cur().line;
    ++i_;
    truth first = truth::unknown;
    if (at_word("[[")) {
      first = double_bracket(true);
    } else if (at_word("[") || at_word("test")) {
      first = simple(true);
    }
    const bool one_test = cur().kind == tok::semi || cur().kind == tok::newline;
    i_ = at;
    if (first != truth::no || !one_test) return false;
    c_.note("line " + std::to_string(line) +
            ": a 'while' loop whose condition is false on entry runs no time (the script is "
            "read with no arguments)");
    return true;
  }

  /// for/while/until/select/case ... done/esac, read over (not run).
  void skip_loop() {
    const std::string opener = cur().text;
    const std::string closer = opener == "case" ? "esac" : "done";
    const int line = cur().line;
    int level = 0;
    while (true) {
      const token& t = cur();
      if (t.kind == tok::end) fail_at(line, "'" + opener + "' without '" + closer + "'");
      if (t.kind == tok::word) {
        if (t.text == opener || (closer == "done" && (t.text == "for" || t.text == "while" ||
                                                      t.text == "until" || t.text == "select")))
          ++level;
        else if (t.text == closer && --level == 0) {
          ++i_;
          break;
        }
        if (probe_depth_ > 0) {
          if (assignment_prefix(t.text) > 0) record(t.text.substr(0, t.text.find_first_of("+=")));
          if (runs_python(t.text)) probe_runs_ = true;
        }
      }
      ++i_;
    }
    redirections();
  }

  /// name() { ... } or function name { ... }: the body is read over; calling it is an unknown
  /// command.
  void skip_function() {
    const int line = cur().line;
    while (cur().kind != tok::end && !at_word("{")) ++i_;
    if (cur().kind == tok::end) fail_at(line, "a function without a body");
    int level = 0;
    while (true) {
      const token& t = cur();
      if (t.kind == tok::end) fail_at(line, "a function body without '}'");
      if (t.kind == tok::word && t.text == "{") ++level;
      if (t.kind == tok::word && t.text == "}" && --level == 0) {
        ++i_;
        break;
      }
      ++i_;
    }
    c_.note("line " + std::to_string(line) + ": a function definition is read over (not run)");
  }

  static bool runs_python(const std::string& raw) {
    return raw.size() >= 3 && raw.compare(raw.size() - 3, 3, ".py") == 0;
  }

  truth if_clause(bool run) {
    const int line = cur().line;
    ++i_;                    // if
    bool taken = false;      // a branch has run
    bool undecided = false;  // a condition could not be decided
    while (true) {
      // condition
      const truth cond = list(run && !taken && !undecided, 0);
      if (!at_word("then")) fail_at(line, "'if' without 'then'");
      ++i_;
      const bool decide = run && !taken && !undecided;
      if (decide && cond == truth::unknown) {
        undecided = true;
        guarded_skip([this] { (void)list(false, 0); }, "the branch of the if at line " +
                                                           std::to_string(line) +
                                                           ", whose condition cannot be decided");
      } else {
        const bool runs = decide && cond == truth::yes;
        if (undecided && run)
          guarded_skip([this] { (void)list(false, 0); }, "a later branch of the if at line " +
                                                             std::to_string(line) +
                                                             ", whose condition cannot be decided");
        else
          (void)list(runs, 0);
        if (runs) taken = true;
      }
      if (at_word("elif")) {
        ++i_;
        continue;
      }
      break;
    }
    if (at_word("else")) {
      ++i_;
      const bool runs = run && !taken && !undecided;
      if (undecided && run)
        guarded_skip([this] { (void)list(false, 0); }, "the else of the if at line " +
                                                           std::to_string(line) +
                                                           ", whose condition cannot be decided");
      else
        (void)list(runs, 0);
    }
    if (!at_word("fi")) fail_at(line, "'if' without 'fi'");
    ++i_;
    redirections();
    return undecided ? truth::unknown : truth::yes;
  }

  // ---- tests -------------------------------------------------------------------------------

  /// [[ ... ]]: its words up to "]]", operators included.
  truth double_bracket(bool run) {
    const int line = cur().line;
    ++i_;
    std::vector<std::string> words;
    while (true) {
      const token& t = cur();
      if (t.kind == tok::end || t.kind == tok::newline) fail_at(line, "'[[' without ']]'");
      if (t.kind == tok::word && t.text == "]]") {
        ++i_;
        break;
      }
      if (t.kind == tok::word) {
        if (run) {
          std::vector<std::string> f = expand(t.text, {false, true});
          words.push_back(f.empty() ? std::string() : f[0]);
          if (is_operator_word(t.text)) words.back() = t.text;
        }
      } else {
        words.push_back(t.text);
      }
      ++i_;
    }
    redirections();
    if (!run) return truth::unknown;
    return evaluate_test(words, line);
  }

  static bool is_operator_word(const std::string& raw) {
    static constexpr std::string_view ops[] = {"==",  "=",   "!=",  "-z", "-n", "-eq", "-ne", "-lt",
                                               "-le", "-gt", "-ge", "!",  "-a", "-o",  "=~"};
    for (std::string_view o : ops)
      if (raw == o) return true;
    return false;
  }

  truth evaluate_test(const std::vector<std::string>& w, int line) {
    std::size_t p = 0;
    const truth t = test_or(w, p, 0);
    if (p != w.size()) {
      c_.note("line " + std::to_string(line) + ": a test the importer does not read is undecided");
      return truth::unknown;
    }
    return t;
  }
  truth test_or(const std::vector<std::string>& w, std::size_t& p, int depth) {
    truth t = test_and(w, p, depth);
    while (p < w.size() && (w[p] == "||" || w[p] == "-o")) {
      ++p;
      t = either(t, test_and(w, p, depth));
    }
    return t;
  }
  truth test_and(const std::vector<std::string>& w, std::size_t& p, int depth) {
    truth t = test_not(w, p, depth);
    while (p < w.size() && (w[p] == "&&" || w[p] == "-a")) {
      ++p;
      t = both(t, test_not(w, p, depth));
    }
    return t;
  }
  truth test_not(const std::vector<std::string>& w, std::size_t& p, int depth) {
    if (depth > max_nesting) {
      p = w.size() + 1;
      return truth::unknown;
    }
    if (p < w.size() && w[p] == "!") {
      ++p;
      return negate(test_not(w, p, depth + 1));
    }
    if (p < w.size() && w[p] == "(") {
      ++p;
      const truth t = test_or(w, p, depth + 1);
      if (p < w.size() && w[p] == ")")
        ++p;
      else
        p = w.size() + 1;
      return t;
    }
    return test_primary(w, p);
  }
  static truth test_primary(const std::vector<std::string>& w, std::size_t& p) {
    if (p >= w.size()) {
      p = w.size() + 1;
      return truth::unknown;
    }
    const std::string& a = w[p];
    if (a.size() == 2 && a[0] == '-' && p + 1 < w.size() && !is_binary(w, p)) {
      const std::string& x = w[p + 1];
      p += 2;
      if (a == "-z") return resolved(x) ? (x.empty() ? truth::yes : truth::no) : truth::unknown;
      if (a == "-n") return resolved(x) ? (x.empty() ? truth::no : truth::yes) : truth::unknown;
      return truth::unknown;  // -f, -d, -e, ...: the file system is not looked at
    }
    if (is_binary(w, p)) {
      const std::string& op = w[p + 1];
      const std::string& b = w[p + 2];
      p += 3;
      if (!resolved(a) || !resolved(b)) return truth::unknown;
      if (op == "==" || op == "=") {
        if (b.find_first_of("*?[") != std::string::npos) return truth::unknown;
        return a == b ? truth::yes : truth::no;
      }
      if (op == "!=") {
        if (b.find_first_of("*?[") != std::string::npos) return truth::unknown;
        return a != b ? truth::yes : truth::no;
      }
      if (op == "=~") return truth::unknown;
      std::int64_t x = 0;
      std::int64_t y = 0;
      if (!parse_integer(a, x) || !parse_integer(b, y)) return truth::unknown;
      if (op == "-eq") return x == y ? truth::yes : truth::no;
      if (op == "-ne") return x != y ? truth::yes : truth::no;
      if (op == "-lt") return x < y ? truth::yes : truth::no;
      if (op == "-le") return x <= y ? truth::yes : truth::no;
      if (op == "-gt") return x > y ? truth::yes : truth::no;
      return x >= y ? truth::yes : truth::no;
    }
    ++p;
    return resolved(a) ? (a.empty() ? truth::no : truth::yes) : truth::unknown;
  }
  static bool is_binary(const std::vector<std::string>& w, std::size_t p) {
    if (p + 2 >= w.size()) return false;
    static constexpr std::string_view ops[] = {"==",  "=",   "!=",  "=~",  "-eq",
                                               "-ne", "-lt", "-le", "-gt", "-ge"};
    for (std::string_view o : ops)
      if (w[p + 1] == o) return true;
    return false;
  }

  // ---- simple commands ---------------------------------------------------------------------

  static bool ends_simple(const token& t) {
    return t.kind == tok::newline || t.kind == tok::semi || t.kind == tok::and_if ||
           t.kind == tok::or_if || t.kind == tok::pipe || t.kind == tok::amp ||
           t.kind == tok::rparen || t.kind == tok::end || t.kind == tok::lparen;
  }

  truth simple(bool run) {
    const int line = cur().line;
    // Leading assignments.
    std::vector<token> assignments;
    while (cur().kind == tok::word && assignment_prefix(cur().text) > 0) {
      if (cur().array_open) {
        array_assignment(run);
      } else {
        assignments.push_back(cur());
        ++i_;
      }
    }
    std::vector<token> words;
    while (!ends_simple(cur())) {
      if (cur().kind == tok::redirect) {
        ++i_;
        if (cur().kind == tok::word) ++i_;
        continue;
      }
      if (cur().array_open) {  // "declare -a X=(...)"
        array_assignment(run);
        continue;
      }
      words.push_back(cur());
      ++i_;
    }
    if (cur().kind == tok::lparen) fail_at(cur().line, "unexpected '('");
    if (words.empty()) {
      for (const token& a : assignments) (void)scalar_assignment(a, run);
      return truth::yes;
    }
    if (!run) {
      static constexpr std::string_view launchers[] = {
          "torchrun", "python", "python3", "deepspeed", "srun", "mpirun", "accelerate"};
      for (std::string_view l : launchers)
        if (words[0].text == l) probe_runs_ = true;
      for (const token& w : words)
        if (runs_python(w.text) || w.text.rfind("--", 0) == 0) probe_runs_ = true;
      const std::string& name = words[0].text;
      if (name == "export" || name == "declare" || name == "typeset" || name == "local" ||
          name == "readonly")
        for (std::size_t k = 1; k < words.size(); ++k) (void)scalar_assignment(words[k], false);
      return truth::unknown;
    }
    // Assignments before a command only set its environment.
    const std::vector<std::string> first = expand(words[0].text, {true, false});
    const std::string name = first.empty() ? std::string() : first[0];
    if (name == "export" || name == "declare" || name == "typeset" || name == "local" ||
        name == "readonly") {
      for (const token& a : assignments) (void)scalar_assignment(a, true);
      for (std::size_t k = 1; k < words.size(); ++k)
        if (!scalar_assignment(words[k], true) && words[k].text.rfind('-', 0) != 0) {
          // "export NAME": nothing to set
        }
      return truth::yes;
    }
    if (name == "unset") {
      for (std::size_t k = 1; k < words.size(); ++k) {
        vars_.erase(words[k].text);
        array_order_.erase(std::remove(array_order_.begin(), array_order_.end(), words[k].text),
                           array_order_.end());
      }
      return truth::yes;
    }
    if (name == "true" || name == ":") return truth::yes;
    if (name == "false") return truth::no;
    if (name == "exit" || name == "return") {
      stopped_ = true;
      c_.note("line " + std::to_string(line) + ": the script exits here; what follows is not read");
      throw stop_reading{};
    }
    if (name == "[" || name == "test") {
      std::vector<std::string> args;
      for (std::size_t k = 1; k < words.size(); ++k) {
        std::vector<std::string> f = expand(words[k].text, {false, true});
        args.push_back(is_operator_word(words[k].text) ? words[k].text
                                                       : (f.empty() ? std::string() : f[0]));
      }
      if (name == "[") {
        if (args.empty() || args.back() != "]") fail_at(line, "'[' without ']'");
        args.pop_back();
      }
      return evaluate_test(args, line);
    }
    if (name == "source" || name == ".") {
      c_.note("line " + std::to_string(line) + ": '" + name +
              "' of another file is not followed; what it sets is unknown");
      return truth::unknown;
    }
    static constexpr std::string_view quiet[] = {
        "echo",   "printf", "mkdir", "cd",       "set",        "shift", "sleep", "wait",  "trap",
        "ulimit", "umask",  "pushd", "popd",     "cat",        "rm",    "cp",    "mv",    "ln",
        "touch",  "chmod",  "date",  "hostname", "nvidia-smi", "ls",    "pwd",   "alias", "shopt"};
    for (std::string_view q : quiet)
      if (name == q) return truth::unknown;
    // "sh -c STRING" (or bash, after a launcher such as srun's options): STRING is read here as
    // script text, as the shell it starts would read it; so are eval's words.
    std::vector<std::string> expanded;
    for (const token& w : words)
      for (std::string& f : expand(w.text, {true, false})) expanded.push_back(std::move(f));
    // `eval WORDS`: the words joined by spaces are read as script text, as eval reads them.
    if (!expanded.empty() && expanded[0] == "eval") {
      std::string text;
      for (std::size_t k = 1; k < expanded.size(); ++k) text += (k > 1 ? " " : "") + expanded[k];
      run_string(text, line);
      return truth::unknown;
    }
    for (std::size_t k = 0; k + 2 < expanded.size(); ++k) {
      const std::string& program = expanded[k];
      const std::string base = program.substr(program.rfind('/') + 1);
      if ((base == "sh" || base == "bash") && expanded[k + 1] == "-c") {
        run_string(expanded[k + 2], line);
        return truth::unknown;
      }
    }
    command cmd;
    cmd.line = line;
    for (const token& a : assignments) {
      const std::size_t prefix = assignment_prefix(a.text);
      const std::vector<std::string> value = expand(a.text.substr(prefix), {false, false});
      cmd.environment.emplace_back(a.text.substr(0, a.text.find_first_of("+=")),
                                   value.empty() ? std::string() : value[0]);
    }
    cmd.words = std::move(expanded);
    if (commands_.size() < 10'000) commands_.push_back(std::move(cmd));
    return truth::unknown;
  }
};

/// The arguments a script passes to the program it launches: the words after the first word
/// `is_program(word, pass)` accepts (tried with pass 0, then 1), the words before it going to
/// `launcher`; else, when no command launches it, the words of the lines that start with "--"
/// (an argument file), else the elements of the arrays that hold "--" words. `bad_input` naming
/// the script when there are none.
template <class IsProgram>
std::vector<std::string> command_words(context& c, const shell& sh,
                                       std::vector<std::string>& launcher,
                                       const std::string& program, IsProgram is_program,
                                       const command** launched = nullptr) {
  const command* chosen = nullptr;
  std::size_t at = 0;
  for (int pass = 0; pass < 2 && chosen == nullptr; ++pass)
    for (const command& cmd : sh.commands()) {
      for (std::size_t k = 0; k < cmd.words.size(); ++k) {
        // A program whose folder the script cannot resolve ("${DIR}/pretrain_gpt.py" with DIR
        // from `pwd`) is still that program.
        const std::string& w = cmd.words[k];
        const std::size_t slash = w.rfind('/');
        const bool named = resolved(w) || (slash != std::string::npos &&
                                           resolved(w.substr(slash + 1)) &&
                                           w.rfind(close_mark) < slash);
        if (!named || !is_program(w, pass)) continue;
        chosen = &cmd;
        at = k;
        break;
      }
      if (chosen != nullptr) break;
    }
  if (chosen != nullptr) {
    c.note("the arguments are those of the command at line " + std::to_string(chosen->line) +
           " after " + shown(chosen->words[at]));
    launcher.assign(chosen->words.begin(), chosen->words.begin() + static_cast<std::ptrdiff_t>(at));
    if (launched != nullptr) *launched = chosen;
    return {chosen->words.begin() + static_cast<std::ptrdiff_t>(at) + 1, chosen->words.end()};
  }
  std::vector<std::string> words;
  for (const command& cmd : sh.commands())
    if (!cmd.words.empty() && cmd.words[0].rfind("--", 0) == 0)
      words.insert(words.end(), cmd.words.begin(), cmd.words.end());
  if (!words.empty()) {
    c.note("no command launches " + program + ": the file is read as an argument file");
    return words;
  }
  std::string names;
  for (const std::string& name : sh.array_order()) {
    const auto it = sh.variables().find(name);
    if (it == sh.variables().end()) continue;
    bool flags = false;
    for (const std::string& v : it->second.values) flags = flags || v.rfind("--", 0) == 0;
    if (!flags) continue;
    words.insert(words.end(), it->second.values.begin(), it->second.values.end());
    names += (names.empty() ? "" : ", ") + name;
  }
  if (!words.empty()) {
    c.note("no command launches " + program + ": the arguments are those of the array" +
           (names.find(',') == std::string::npos ? " " : "s ") + names);
    return words;
  }
  c.fail("script", "holds no " + program +
                       " arguments (no command launches it, and no line or "
                       "array holds --options)");
}

/// The world size a torchrun (or deepspeed) launcher gives: --nproc_per_node x --nnodes; 0 when
/// it gives none that is a number.
inline std::int64_t launcher_world(context& c, const std::vector<std::string>& launcher) {
  std::int64_t nproc = 0;
  std::int64_t nnodes = 1;
  for (std::size_t k = 1; k < launcher.size(); ++k) {
    std::string name = launcher[k];
    std::string value;
    const std::size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (name.rfind("--", 0) == 0 && k + 1 < launcher.size() &&
               launcher[k + 1].rfind("--", 0) != 0) {
      value = launcher[k + 1];
    }
    const bool is_nproc = name == "--nproc_per_node" || name == "--nproc-per-node" ||
                          name == "--num_gpus" || name == "--num-gpus";
    const bool is_nnodes = name == "--nnodes" || name == "--num_nodes" || name == "--num-nodes";
    if (name.rfind("--", 0) == 0 && !is_nproc && !is_nnodes)
      c.unused_key("launcher " + shown(launcher[k]) +
                   (eq == std::string::npos && !value.empty() ? " " + shown(value) : ""));
    if (!is_nproc && !is_nnodes) continue;
    std::int64_t x = 0;
    if (!resolved(value) || !parse_integer(value, x) || x < 1 || x > max_world) {
      c.note("launcher " + name + " '" + shown(value) +
             "' is not a number: the world size is not taken from the launcher");
      return 0;
    }
    if (is_nproc)
      nproc = x;
    else
      nnodes = x;
  }
  if (nproc == 0) return 0;
  if (nproc > max_world / nnodes) return 0;
  return nproc * nnodes;
}

}  // namespace shardplan::io::detail::importer::bash
