#!/usr/bin/env bash
# tools/bench.sh: how long one `attn lesson NAME` takes and how much memory it needs, per lesson.
# Wall time is the mean over RUNS runs of the whole process (start-up, reading every lesson file,
# running and printing), from `perf stat -r RUNS` when perf works here, else from a shell loop
# (which adds the loop's own fork cost); memory is the peak resident set size from GNU time. For comparison it
# times the same cells in PyTorch when /usr/bin/python3 has torch (not needed otherwise).
# Usage: tools/bench.sh [BUILD_DIR] [RUNS]     (defaults: build 50)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-50}
attn="$build/attn"
[ -x "$attn" ] || { echo "bench: $attn not built (run the README's build command first)" >&2; exit 2; }
printf '%-14s %12s %14s\n' lesson "ms per run" "peak RSS (MB)"
for lesson in $("$attn" list --format json | sed -n 's/.*"name": "\([^"]*\)".*/\1/p'); do
  if perf stat -r 1 true > /dev/null 2>&1; then
    secs=$(perf stat -r "$runs" "$attn" lesson "$lesson" 2>&1 >/dev/null | awk '/seconds time elapsed/ { print $1 }')
    ns=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1e9 }')
  else
    start=$(date +%s%N)
    for _ in $(seq "$runs"); do "$attn" lesson "$lesson" > /dev/null; done
    ns=$(( ($(date +%s%N) - start) / runs ))
  fi
  rss=$( { /usr/bin/time -f '%M' "$attn" lesson "$lesson" > /dev/null; } 2>&1 )
  awk -v l="$lesson" -v t="$ns" -v r="$rss" 'BEGIN { printf "%-14s %12.2f %14.1f\n", l, t / 1e6, r / 1024 }'
done
start_ns=$(perf stat -r "$runs" "$attn" --version 2>&1 >/dev/null | awk '/seconds time elapsed/ { printf "%.2f", $1 * 1e3 }' || true)
[ -n "$start_ns" ] && echo "(process start-up alone, attn --version: $start_ns ms)"
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  echo
  echo "PyTorch, the same cells of lesson causal (tools/make_golden.py's runner), one process:"
  /usr/bin/time -f '  %e s wall, %M KB peak RSS' /usr/bin/python3 -c '
import sys; sys.path.insert(0, "tools"); import make_golden as m
name, cpu, echo, steps = m.parse_lesson("lessons/causal.lesson"); m.run_cells(steps, {}, echo)' 
fi
