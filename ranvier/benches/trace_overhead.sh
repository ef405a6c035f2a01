#!/usr/bin/env bash
# Runs the trace overhead bench untraced and traced (release builds both) and prints traced / untraced per shape:
# by default the best wall-clock time of three runs of each build, taken in turn (pinned to one core when `taskset`
# exists).
# Usage: ranvier/benches/trace_overhead.sh [--ir]   (from the workspace root; honours CARGO_TARGET_DIR)
#   --ir  counts instructions per shape under valgrind's callgrind instead of timing (steady on a busy machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
bench_binary() {
    cargo bench -q -p ranvier-rs --bench trace_overhead --no-run --message-format=json "$@" 2>/dev/null |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "trace_overhead" and m.get("executable"):
        print(m["executable"])'
}
untraced_bin=$(bench_binary)
traced_bin=$(bench_binary --features trace)
shapes=(deep_chain broad_fan_out diamond cutoff effects)
if [ "${1:-}" = "--ir" ]; then
    count() { SHAPE=$2 TRACE_BENCH_ROUNDS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" 2>&1 |
        grep -o 'Collected : [0-9]*' | grep -o '[0-9]*'; }
    printf '%-14s %16s %16s %8s\n' shape untraced traced ratio
    for shape in "${shapes[@]}"; do
        u=$(count "$untraced_bin" "$shape")
        t=$(count "$traced_bin" "$shape")
        awk -v s="$shape" -v u="$u" -v t="$t" 'BEGIN { printf "%-14s %16d %16d %7.2fx\n", s, u, t, t / u }'
    done
    exit 0
fi
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c 0); fi
"$traced_bin" | grep "ring slot" || true
for _ in 1 2 3; do
    "${pin[@]}" "$untraced_bin" | grep ns/op | sed 's/^/U /'
    "${pin[@]}" "$traced_bin" | grep ns/op | sed 's/^/T /'
done | awk -v order="${shapes[*]}" '
    $1 == "U" { if (!($2 in u) || $3 < u[$2]) u[$2] = $3 }
    $1 == "T" { if (!($2 in t) || $3 < t[$2]) t[$2] = $3 }
    END {
        printf "%-14s %14s %14s %8s\n", "shape", "untraced", "traced", "ratio"
        n = split(order, names, " ")
        for (i = 1; i <= n; i++) { s = names[i]; printf "%-14s %11.1f ns %11.1f ns %7.2fx\n", s, u[s], t[s], t[s] / u[s] }
    }'
