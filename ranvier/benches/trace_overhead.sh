#!/usr/bin/env bash
# Runs the trace overhead bench untraced and traced (release builds both) and prints traced / untraced per shape.
# Usage: ranvier/benches/trace_overhead.sh [--ir]   (from the workspace root; honours CARGO_TARGET_DIR)
#   --ir  counts instructions per shape under valgrind's callgrind instead of timing (steady on a busy machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = "--ir" ]; then
    bench_binary() {
        cargo bench -q -p ranvier --bench trace_overhead --no-run --message-format=json "$@" 2>/dev/null |
            python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "trace_overhead" and m.get("executable"):
        print(m["executable"])'
    }
    untraced_bin=$(bench_binary)
    traced_bin=$(bench_binary --features trace)
    count() { SHAPE=$2 TRACE_BENCH_ROUNDS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" 2>&1 |
        grep -o 'Collected : [0-9]*' | grep -o '[0-9]*'; }
    printf '%-14s %16s %16s %8s\n' shape untraced traced ratio
    for shape in deep_chain broad_fan_out diamond cutoff effects; do
        u=$(count "$untraced_bin" "$shape")
        t=$(count "$traced_bin" "$shape")
        awk -v s="$shape" -v u="$u" -v t="$t" 'BEGIN { printf "%-14s %16d %16d %7.2fx\n", s, u, t, t / u }'
    done
    exit 0
fi
untraced=$(cargo bench -q -p ranvier --bench trace_overhead 2>/dev/null)
traced=$(cargo bench -q -p ranvier --bench trace_overhead --features trace 2>/dev/null)
echo "$traced" | grep "ring slot" || true
printf '%-14s %14s %14s %8s\n' shape untraced traced ratio
paste <(echo "$untraced" | grep ns/op) <(echo "$traced" | grep ns/op) |
    awk '{ printf "%-14s %11.1f ns %11.1f ns %7.2fx\n", $1, $2, $5, $5 / $2 }'
