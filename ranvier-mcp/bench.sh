#!/usr/bin/env bash
# Benchmarks ranvier-mcp on the cart example (release builds): the wall time of `ranvier-mcp call` and of a reload
# under `ranvier-mcp supervise` once the rebuilt binary is stable, each run N times (default 20); prints the medians.
# Usage: ranvier-mcp/bench.sh [N]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
runs="${1:-20}"

# the binaries cargo builds (wherever CARGO_TARGET_DIR points)
built() {
    cargo build --quiet --release "$@" --message-format=json \
        | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable"):
        print(m["executable"])'
}
cart="$(built -p ranvier-examples --example cart)"
tool="$(built -p ranvier-mcp --bin ranvier-mcp)"

now_ms() { date +%s%N | awk '{ printf "%.3f", $1 / 1000000 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

args='{"messages": [{"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}}, {"message": "set_discount", "args": {"percent": 10}}]}'
calls=()
for _ in $(seq "$runs"); do
    start=$(now_ms)
    "$tool" call "$cart" dispatch "$args" > /dev/null
    calls+=("$(awk -v a="$start" -v b="$(now_ms)" 'BEGIN { printf "%.3f", b - a }')")
done
call_median=$(printf '%s\n' "${calls[@]}" | median)

# a reload: replace the watched binary, wait until it is stable, then time the tools/call that reloads it
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$cart" "$work/cart"
coproc SUP { "$tool" supervise "$work/cart" 2> "$work/stderr"; }
send() { printf '%s\n' "$1" >&"${SUP[1]}"; }
receive() { local line; IFS= read -r line <&"${SUP[0]}"; printf '%s' "$line"; }
send '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
receive > /dev/null
send '{"jsonrpc":"2.0","method":"notifications/initialized"}'
send '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dispatch","arguments":'"$args"'}}'
receive > /dev/null
reloads=()
for i in $(seq "$runs"); do
    cp "$cart" "$work/cart.new" && mv "$work/cart.new" "$work/cart"
    sleep 0.8 # the binary is stable after 0.5 s
    start=$(now_ms)
    send '{"jsonrpc":"2.0","id":'"$((i + 1))"',"method":"tools/call","params":{"name":"snapshot","arguments":{}}}'
    reply="$(receive)"
    reloads+=("$(awk -v a="$start" -v b="$(now_ms)" 'BEGIN { printf "%.3f", b - a }')")
    case "$reply" in *"reloaded "*"replayed 2 messages"*) ;; *) echo "no reload in: $reply" >&2; exit 1 ;; esac
done
exec {SUP[1]}>&-
wait "$SUP_PID" 2> /dev/null || true
reload_median=$(printf '%s\n' "${reloads[@]}" | median)

echo "ranvier-mcp call (cart, release, dispatch of 2 messages): median ${call_median} ms over $runs runs"
echo "ranvier-mcp supervise reload (cart, release, replay of 2 messages, binary stable): median ${reload_median} ms over $runs runs"
