#!/usr/bin/env bash
# fuzz/run.sh: runs the libFuzzer harnesses of a build configured with -DATTN_BUILD_FUZZERS=ON.
#
#   fuzz/run.sh BUILD SECONDS [lesson python answer]
#
# SECONDS > 0: fuzzes each harness (all three by default) for SECONDS of wall time, FUZZ_JOBS
# (default 2) at a time, starting from the seeds; new inputs are kept in BUILD/fuzz/corpus/NAME for the next run.
# SECONDS = 0: runs every seed once (the CTest test `fuzz_seeds`): a regression test.
# Exit 0 if no harness crashed. A crash (sanitizer report, uncaught exception, stack overflow, an
# input taking over 10 s, over 2 GB) keeps the input in BUILD/fuzz/artifacts/; this script
# prints the end of the fuzzer's log, the input's size and first bytes, and how to reproduce it.
#
# Seeds: lessons/*.lesson and fuzz/corpus/lesson/ (the lesson reader); every ```python cell of
# lessons/ (extracted here), tests/corpus/python/ and fuzz/corpus/python/ (the Python parser);
# tests/answers/ and fuzz/corpus/answer/ (the answer reader). fuzz/NAME.dict: tokens to splice in.
# What it is not: a build step (configure and build first; see docs/development.md, "Sanitizers, fuzzing and CI").
set -euo pipefail
build=$(cd "${1:?usage: fuzz/run.sh BUILD SECONDS [lesson python answer]}" && pwd)
seconds=${2:?usage: fuzz/run.sh BUILD SECONDS [lesson python answer]}
shift 2
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(lesson python answer)
src=$(cd "$(dirname "$0")/.." && pwd)
work=$build/fuzz
mkdir -p "$work/artifacts" "$work/logs"

# The Python seeds: each ```python cell of the lessons as its own file.
rm -rf "$work/seeds"
mkdir -p "$work/seeds/python"
awk -v out="$work/seeds/python" '
  /^```python/ { inside = 1; n++; file = sprintf("%s/%s-%03d.py", out, FILENAME, n); sub(/.*\//, "", file); file = out "/" file; next }
  /^```/ && inside { inside = 0; close(file); next }
  inside { print > file }
' "$src"/lessons/*.lesson

seeds_of() {
  case $1 in
    lesson) echo "$src/lessons" "$src/fuzz/corpus/lesson" ;;
    python) echo "$work/seeds/python" "$src/fuzz/corpus/python"; [ -d "$src/tests/corpus/python" ] && echo "$src/tests/corpus/python" ;;
    answer) echo "$src/tests/answers" "$src/fuzz/corpus/answer" ;;
  esac
  return 0
}

# run NAME: one harness; its log in $work/logs/NAME.log.
run() {
  local name=$1 bin=$build/fuzz/fuzz_$1 corpus
  [ -x "$bin" ] || { echo "fuzz/run.sh: no $bin (configure $build with -DATTN_BUILD_FUZZERS=ON and build it)" >&2; return 2; }
  local -a opts=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "-artifact_prefix=$work/artifacts/$name-"
                 "-dict=$src/fuzz/$name.dict")
  if [ "$seconds" -eq 0 ]; then
    corpus=$(mktemp -d)   # -runs=0: read and run every seed once, fuzz nothing
    opts+=(-runs=0)
  else
    corpus=$work/corpus/$name
    mkdir -p "$corpus"
    opts+=("-max_total_time=$seconds")
  fi
  # shellcheck disable=SC2046
  local rc=0
  "$bin" "${opts[@]}" "$corpus" $(seeds_of "$name") >"$work/logs/$name.log" 2>&1 || rc=$?
  [ "$seconds" -eq 0 ] && rm -rf "$corpus"
  return $rc
}

report() {
  local name=$1 rc=$2 f
  echo "fuzz_$name: FAILED (exit $rc); the end of $work/logs/$name.log:"
  tail -n 40 "$work/logs/$name.log" | sed 's/^/  | /'
  for f in "$work/artifacts/$name-"*; do
    [ -e "$f" ] || continue
    echo "  input $f ($(wc -c <"$f") bytes), first bytes:"
    od -A d -c "$f" | head -n 8 | sed 's/^/  | /'
    echo "  reproduce: $build/fuzz/fuzz_$name $f"
  done
}

# FUZZ_JOBS harnesses at a time (default 2: one per core of the CI machine).
jobs=${FUZZ_JOBS:-2}
declare -A pid status
for name in "${names[@]}"; do
  if [ "$seconds" -eq 0 ]; then
    status[$name]=0
    run "$name" || status[$name]=$?
  else
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run "$name" &
    pid[$name]=$!
  fi
done
failed=0
for name in "${names[@]}"; do
  if [ "$seconds" -ne 0 ]; then
    status[$name]=0
    wait "${pid[$name]}" || status[$name]=$?
  fi
  if [ "${status[$name]}" -eq 0 ]; then
    echo "fuzz_$name: ok: $(grep -E '^(Done|#[0-9]+[[:space:]]+DONE)' "$work/logs/$name.log" | tail -n 1)" \
         "$(grep -E '^stat::(number_of_executed_units|new_units_added)' "$work/logs/$name.log" | tr '\n' ' ')"
  else
    report "$name" "${status[$name]}"
    failed=1
  fi
done
exit $failed
