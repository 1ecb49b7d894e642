#!/usr/bin/env bash
# Prints the -fsyntax-only time of tests/benchmark/search_constexpr.cpp (the LLaMA-3 405B plan
# search on 16,384 H100 at 16M tokens, run in constant expressions) for g++-12 and clang++-14
# (and clang++-16 when installed), with the compilers' default constexpr limits, next to the
# headers' baseline (tests/benchmark/baseline.cpp). Both spaces: `best_plan`'s compile-time space
# and the targeted one that contains the run-time search's best plan. Best of N runs (default 3).
# Usage: tests/benchmark/search_compile_time.sh [runs]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
include="$here/../../include"
runs="${1:-3}"
best() {
  local best="" t
  for _ in $(seq "$runs"); do
    t=$( { /usr/bin/time -f "%e" "$@" >/dev/null; } 2>&1 | tail -1)
    if [[ -z "$best" ]] || awk "BEGIN{exit !($t < $best)}"; then best="$t"; fi
  done
  echo "$best"
}
printf "%-12s %12s %22s %22s\n" compiler "baseline (s)" "best_plan space (s)" "targeted space (s)"
for cxx in g++-12 clang++-14 clang++-16; do
  command -v "$cxx" >/dev/null || continue
  flags=(-std=c++20 -I"$include" -fsyntax-only)
  base=$(best "$cxx" "${flags[@]}" "$here/baseline.cpp")
  small=$(best "$cxx" "${flags[@]}" "$here/search_constexpr.cpp")
  targeted=$(best "$cxx" "${flags[@]}" -DSHARDPLAN_TARGETED_SEARCH "$here/search_constexpr.cpp")
  printf "%-12s %12s %22s %22s\n" "$cxx" "$base" "$small" "$targeted"
done
