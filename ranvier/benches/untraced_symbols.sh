#!/usr/bin/env bash
# Checks that an untraced release build holds no tracer code: builds the trace_overhead bench untraced and traced
# and counts the recorder's and the queries' functions (`ranvier::graph::record::`, `ranvier::trace::`) in each
# binary's symbols. Untraced must be 0, traced must not be.
# Usage: ranvier/benches/untraced_symbols.sh   (from anywhere in the workspace; honours CARGO_TARGET_DIR)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary() {
    cargo bench -p ranvier-rs --bench trace_overhead --no-run --message-format=json "$@" 2>/dev/null |
        grep '"executable":"' | sed 's/.*"executable":"\([^"]*\)".*/\1/' | tail -1
}
count() { nm -C "$1" | grep -cE ' ranvier::(trace|graph::record::(log|table))::' || true; }
untraced=$(count "$(binary)")
traced=$(count "$(binary --features trace)")
echo "tracer symbols: untraced=$untraced traced=$traced"
if [ "$untraced" -ne 0 ] || [ "$traced" -eq 0 ]; then
    echo "FAIL: expected no tracer symbols untraced and some traced" >&2
    nm -C "$(binary)" | grep -E ' ranvier::(trace|graph::record::(log|table))::' | head >&2 || true
    exit 1
fi
echo "ok: the untraced build holds no tracer code"
