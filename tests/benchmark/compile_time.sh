#!/usr/bin/env bash
# Prints the -fsyntax-only time of a translation unit that checks one full training plan against
# one that includes only the Boost.Units and standard headers it uses, for each compiler; the
# target is a ratio of at most 1.5. Best of N runs (default 5) to damp a busy machine.
# Usage: tests/benchmark/compile_time.sh [runs]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
include="$here/../../include"
runs="${1:-5}"
best() {
  local cxx="$1" file="$2" best="" t
  for _ in $(seq "$runs"); do
    t=$( { /usr/bin/time -f "%e" "$cxx" -std=c++20 -I"$include" -fsyntax-only "$file"; } 2>&1 | tail -1)
    if [[ -z "$best" ]] || awk "BEGIN{exit !($t < $best)}"; then best="$t"; fi
  done
  echo "$best"
}
printf "%-12s %12s %12s %8s\n" compiler "baseline (s)" "one plan (s)" ratio
for cxx in g++-12 clang++-14 clang++-16; do
  command -v "$cxx" >/dev/null || continue
  base=$(best "$cxx" "$here/baseline.cpp")
  plan=$(best "$cxx" "$here/one_plan.cpp")
  printf "%-12s %12s %12s %8s\n" "$cxx" "$base" "$plan" "$(awk "BEGIN{printf \"%.2f\", $plan / $base}")"
done
