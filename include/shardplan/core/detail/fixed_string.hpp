// A string usable as a template argument: mesh axis names such as axis<"dp", 64>.
#pragma once

#include <cstddef>
#include <string_view>

namespace shardplan::detail {

template <std::size_t N>
struct fixed_string {
  char data[N]{};
  constexpr fixed_string(const char (&s)[N]) {  // NOLINT: implicit by design
    for (std::size_t i = 0; i < N; ++i) data[i] = s[i];
  }
  constexpr std::string_view view() const { return {data, N - 1}; }
};

}  // namespace shardplan::detail
