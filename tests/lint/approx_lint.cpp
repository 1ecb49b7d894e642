// Fails when a test's doctest::Approx can pass on 0: every Approx(...) chain must set its scale
// (`.scale(0.0)`: the tolerance relative to the values compared; doctest's default scale of 1
// makes `.epsilon(e)` an absolute ±e on values under 1). A tolerance that is absolute on purpose
// says why in a comment holding "absolute:" on the line the Approx starts.
// Usage: shardplan_approx_lint FILE... (prints each offence as FILE:LINE and exits 1).
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

// The index just past the parenthesis that closes the one opened before `i` (or the end).
std::size_t past_closing(const std::string& s, std::size_t i) {
  int depth = 1;
  while (i < s.size() && depth > 0) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    ++i;
  }
  return i;
}

std::size_t skip_space(const std::string& s, std::size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  return i;
}

// The offences of one file's text: lines of Approx chains without `.scale(`.
int offences(const std::string& name, const std::string& s) {
  int found = 0;
  const std::string call = "Approx(";
  for (std::size_t at = s.find(call); at != std::string::npos; at = s.find(call, at + 1)) {
    std::size_t i = past_closing(s, at + call.size());
    bool scaled = false;
    for (;;) {
      const std::size_t j = skip_space(s, i);
      if (s.compare(j, 7, ".scale(") == 0) {
        scaled = true;
        i = past_closing(s, j + 7);
      } else if (s.compare(j, 9, ".epsilon(") == 0) {
        i = past_closing(s, j + 9);
      } else {
        break;
      }
    }
    const std::size_t line_start = s.rfind('\n', at) + 1;  // npos + 1 == 0
    const std::size_t line_end = s.find('\n', at);
    const std::string line = s.substr(line_start, line_end - line_start);
    if (scaled || line.find("absolute:") != std::string::npos) continue;
    std::size_t number = 1;
    for (std::size_t k = 0; k < at; ++k) number += s[k] == '\n' ? 1 : 0;
    std::printf("%s:%zu: doctest::Approx without .scale(): it passes on values near 0\n",
                name.c_str(), number);
    ++found;
  }
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  int found = 0;
  for (int a = 1; a < argc; ++a) {
    std::ifstream in(argv[a]);
    if (!in) {
      std::printf("%s: cannot be read\n", argv[a]);
      return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    found += offences(argv[a], text.str());
  }
  std::printf("%d Approx without .scale() in %d files\n", found, argc - 1);
  return found == 0 ? 0 : 1;
}
