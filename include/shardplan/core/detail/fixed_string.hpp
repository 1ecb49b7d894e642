// A string usable as a template argument: mesh axis names such as axis<"dp", 64>; and a string
// spelled out as character template arguments, for diagnostics.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

namespace shardplan::detail {

template <std::size_t N>
struct fixed_string {
  char data[N]{};
  constexpr fixed_string(const char (&s)[N]) {  // NOLINT: implicit by design
    for (std::size_t i = 0; i < N; ++i) data[i] = s[i];
  }
  constexpr std::string_view view() const { return {data, N - 1}; }
};

/// `Template<'t', 'p'>` for a type `Text` whose `value` is the string_view "tp". Compilers print
/// character arguments as characters, where clang 14 prints a `fixed_string` argument as its
/// character codes (`{{116, 112, 0}}`), so diagnostics name axes this way.
template <class Text, template <char...> class Template,
          class = std::make_index_sequence<Text::value.size()>>
struct spelled;
template <class Text, template <char...> class Template, std::size_t... I>
struct spelled<Text, Template, std::index_sequence<I...>> {
  using type = Template<Text::value[I]...>;
};

}  // namespace shardplan::detail
