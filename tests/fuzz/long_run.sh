#!/usr/bin/env bash
# The long fuzz run: at least 10^7 executions of shardplan_fuzz_plan_file (the plan-file reader,
# check's text and JSON reports, the four exports and a search on at most 16 chips, with the
# invariants of tests/fuzz/invariants.hpp), then one line of figures:
#
#   executions 10000000, crashes 0 (...)
#
# Usage: tests/fuzz/long_run.sh [BUILD_DIR]
#   BUILD_DIR  a clang build tree (default build/fuzz; configured with $CXX, default clang++-14,
#              and the fuzzer built there when it is missing)
# Environment:
#   RUNS       executions in all (default 10000000)
#   JOBS       fuzzer processes at once (default 1; each runs chunks of CHUNK executions)
#   CHUNK      executions per fuzzer process (default 1000000)
#   CORPUS     the corpus folder (default BUILD_DIR/fuzz_long_corpus; kept between runs)
#   MAX_CRASHES  crashes after which the run stops (default 1)
# A crash, a broken invariant, a leak, a timeout or an out-of-memory stops its chunk: its input is
# kept in BUILD_DIR/fuzz_long_artifacts/ and counted; the run goes on until MAX_CRASHES. The exit
# status is 0 when all RUNS executions ran without a crash. At about 2,000-14,000 executions a second a job (clang 14,
# -O1 with ASan and UBSan), 10^7 executions take 15-80 minutes a job.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${1:-$source_dir/build/fuzz}
runs=${RUNS:-10000000}
jobs=${JOBS:-1}
chunk=${CHUNK:-1000000}
max_crashes=${MAX_CRASHES:-1}
corpus=${CORPUS:-$build_dir/fuzz_long_corpus}
artifacts=$build_dir/fuzz_long_artifacts
fuzzer=$build_dir/tests/shardplan_fuzz_plan_file

if [[ ! -x $fuzzer ]]; then
  cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER="${CXX:-clang++-14}" \
        -DCMAKE_BUILD_TYPE=Debug > /dev/null
  cmake --build "$build_dir" --target shardplan_fuzz_plan_file
fi
mkdir -p "$corpus" "$artifacts"
cp -n "$source_dir"/examples/plans/*.json "$source_dir"/tests/fuzz/seeds/*.json \
      "$source_dir"/tests/fuzz/regressions/* "$corpus"/ 2> /dev/null || true

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
executions=0
crashes=0
round=0
start=$SECONDS
while (( executions < runs )); do
  before=$executions
  pids=()
  for (( j = 0; j < jobs && executions + j * chunk < runs; ++j )); do
    n=$(( runs - executions - j * chunk < chunk ? runs - executions - j * chunk : chunk ))
    "$fuzzer" "$corpus" -runs="$n" -seed=$(( round * jobs + j + 1 )) -max_len=2048 -timeout=10 \
        -rss_limit_mb=4096 -dict="$source_dir/tests/fuzz/plan_file.dict" \
        -artifact_prefix="$artifacts/" -print_final_stats=1 > "$logs/$j.log" 2>&1 &
    pids+=("$!")
  done
  for (( j = 0; j < ${#pids[@]}; ++j )); do
    status=0
    wait "${pids[$j]}" || status=$?
    log=$logs/$j.log
    done_runs=$(sed -n 's/^Done \([0-9]*\) runs in.*/\1/p' "$log" | tail -n 1)
    if [[ -z $done_runs ]]; then  # stopped early: its last status line says how far it got
      done_runs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -n 1)
    fi
    executions=$(( executions + ${done_runs:-0} ))
    if (( status != 0 )); then
      crashes=$(( crashes + 1 ))
      echo "crash (exit $status), round $round job $j:" >&2
      grep -m 1 -A 3 -E 'invariant broken|ERROR: |runtime error' "$log" >&2 || true
      grep -m 1 'Test unit written to' "$log" >&2 || true
    fi
  done
  if (( crashes >= max_crashes )); then
    echo "stopping after $crashes crash(es); the inputs are in $artifacts" >&2
    break
  fi
  if (( executions == before )); then
    echo "no progress in round $round (a crash on loading the corpus?); stopping" >&2
    break
  fi
  round=$(( round + 1 ))
  echo "... executions $executions of $runs, crashes $crashes, $(( SECONDS - start )) s" >&2
done
echo "executions $executions, crashes $crashes ($(( SECONDS - start )) s, $jobs job(s), corpus $corpus)"
(( crashes == 0 && executions >= runs ))
