// SHARDPLAN_RULE: a compile-time rule whose first error line names the rule and its numbers.
#pragma once

#include <cstddef>

namespace shardplan {

/// A rule's text as a template argument (at most 255 characters).
struct rule_words {
  char text[256]{};
  consteval rule_words(const char* s) {  // NOLINT: implicit, so that a literal converts
    std::size_t i = 0;
    for (; s[i] != '\0'; ++i) {
      if (i + 1 == sizeof text) throw "shardplan: the text of a rule is at most 255 characters";
      text[i] = s[i];
    }
  }
};

/// Never defined: g++ names it, with the rule's text and the numbers that break it, on the first
/// error line ("invalid use of incomplete type 'struct shardplan::broken_rule<...>'"), where its
/// `static_assert` would print the text alone and the numbers on a note below.
template <rule_words Text, class Numbers>
struct broken_rule;

/// Empty when the rule holds; otherwise derived from the undefined `broken_rule`.
template <rule_words Text, bool Holds, class Numbers>
struct rule_check {};
template <rule_words Text, class Numbers>
struct rule_check<Text, false, Numbers> : broken_rule<Text, Numbers> {};

/// The numbers a rule reports when it has no trait of its own.
template <auto... Numbers>
struct given {};

}  // namespace shardplan

/// Checks `holds` (a constant expression) and, when it fails, stops the build with `text` (a
/// string literal, "shardplan: <the rule>") and `numbers...` (a type whose template arguments are
/// the numbers, usually the rule's trait) on the first error line: clang prints the requirement
/// with its numbers on its static_assert's line; g++ 12 prints only the text there, so there it
/// names `broken_rule<text, numbers>` instead.
#if defined(__GNUC__) && !defined(__clang__)
#define SHARDPLAN_RULE(holds, text, ...)                                                       \
  static_assert(sizeof(::shardplan::rule_check<text, static_cast<bool>(holds), __VA_ARGS__>) > 0, \
                text)
#else
#define SHARDPLAN_RULE(holds, text, ...) static_assert(holds, text)
#endif
