#!/usr/bin/env bash
# The traced tools at scale, both builds in one table (the README's): for each N, start-up untraced and traced,
# then `explain` of the sum, `graph` and `node` of the sum (traced only: the untraced build has no such tools), each
# the median of RANVIER_BENCH_ROUNDS (5) calls or start-ups, by wall clock, with the load average while each row ran.
# Usage: tests/benches/traced_scale.sh [--ir] [N ...]   (from anywhere; N defaults to 1000 10000 100000)
#   --ir  adds callgrind's instruction counts of one start-up and one call of each tool (inclusive costs of
#         `build_app` + `McpAdapter::new`, `explain_on_graph`, `graph`, `node_page`; load-independent; slow at 100,000)
set -euo pipefail
cd "$(dirname "$0")/../.."
ir=0
if [ "${1:-}" = "--ir" ]; then
    ir=1
    shift
fi
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then sizes=(1000 10000 100000); fi
bench_binary() {
    cargo bench -q -p ranvier-tests --bench traced_scale --no-run --message-format=json "$@" 2>/dev/null |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "traced_scale" and m.get("executable"):
        print(m["executable"])'
}
untraced_bin=$(bench_binary)
traced_bin=$(bench_binary --features trace)
# the rows of one build: `| N | start-up | dispatch | snapshot | explain | graph | node | load |`
untraced_rows=$("$untraced_bin" "${sizes[@]}" | grep '^| [0-9]')
traced_rows=$("$traced_bin" "${sizes[@]}" | grep '^| [0-9]')
# inclusive instructions of each named function in one run with one call per tool
counts() { # binary n -> "startup explain graph node" (M instructions; - where the build has no such tool)
    local out
    out=$(mktemp)
    RANVIER_BENCH_ROUNDS=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$1" "$2" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | python3 -c '
import re, sys
want = {"build": "traced_scale::build_app", "adapter": "ranvier::mcp::McpAdapter::new",
        "explain": "ranvier::mcp::explain::explain_on_graph", "graph": "ranvier::mcp::traced::answers::graph",
        "node": "ranvier::mcp::traced::answers::node_page"}
got = {}
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \(.*?\)\s+\S*?:(.*?) \[", line) or re.match(r"\s*([\d,]+)\s+\S*?:(.*?) \[", line)
    if not m:
        continue
    name = re.sub(r"::h[0-9a-f]{16}$", "", m.group(2).strip())
    for key, full in want.items():
        if name == full and key not in got:
            got[key] = int(m.group(1).replace(",", ""))
def mi(v):
    return "-" if v is None else "%.1f" % (v / 1e6)
start = got.get("build", 0) + got.get("adapter", 0) if "build" in got else None
print(mi(start), mi(got.get("explain")), mi(got.get("graph")), mi(got.get("node")))'
    rm -f "$out"
}
echo "wall clock: median of ${RANVIER_BENCH_ROUNDS:-5} (ms), $(nproc) CPUs; load average (1 min) before–after each build's row"
echo "| N | start-up untraced | start-up traced | \`explain\` of the sum | \`graph\` | \`node\` of the sum | load (untraced; traced) |"
echo "|---|---|---|---|---|---|---|"
python3 - "$untraced_rows" "$traced_rows" "${sizes[@]}" <<'PY'
import sys
def rows(text):
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        out[cells[0]] = cells
    return out
untraced, traced = rows(sys.argv[1]), rows(sys.argv[2])
for n in sys.argv[3:]:
    u, t = untraced.get(n, ["?"] * 8), traced.get(n, ["?"] * 8)
    print(f"| {n} | {u[1]} | {t[1]} | {t[4]} | {t[5]} | {t[6]} | {u[7]}; {t[7]} |")
PY
if [ "$ir" = 1 ]; then
    echo
    echo "callgrind: instructions of one start-up and one call (M)"
    echo "| N | start-up untraced | start-up traced | traced ÷ untraced | \`explain\` of the sum | \`graph\` | \`node\` of the sum |"
    echo "|---|---|---|---|---|---|---|"
    for n in "${sizes[@]}"; do
        read -r us _ _ _ <<<"$(counts "$untraced_bin" "$n")"
        read -r ts te tg tn <<<"$(counts "$traced_bin" "$n")"
        ratio=$(awk -v u="$us" -v t="$ts" 'BEGIN { if (u + 0 > 0) printf "%.2f×", t / u; else print "-" }')
        echo "| $n | $us | $ts | $ratio | $te | $tg | $tn |"
    done
fi
