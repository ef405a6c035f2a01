#!/usr/bin/env bash
# Runs the trace overhead bench untraced and traced (release builds both) and prints traced / untraced per shape.
# Usage: ranvier/benches/trace_overhead.sh   (from the workspace root; honours CARGO_TARGET_DIR)
set -euo pipefail
cd "$(dirname "$0")/../.."
untraced=$(cargo bench -q -p ranvier --bench trace_overhead 2>/dev/null)
traced=$(cargo bench -q -p ranvier --bench trace_overhead --features trace 2>/dev/null)
echo "$traced" | grep "ring slot" || true
printf '%-14s %14s %14s %8s\n' shape untraced traced ratio
paste <(echo "$untraced" | grep ns/op) <(echo "$traced" | grep ns/op) |
    awk '{ printf "%-14s %11.1f ns %11.1f ns %7.2fx\n", $1, $2, $5, $5 / $2 }'
