#!/bin/sh
# Behaviour diff of two cart builds over a 1,000-message journal: `ranvier-mcp compare` (both builds started, the
# journal replayed into each, step lines compared message by message), timed end to end. The two builds are the
# release cart and a copy of it (two binaries, two processes); run it from the repository root:
#
#     benchmarks/behaviour_diff.sh
set -eu
# two builds: a target selection (`--example`) applies to every package named, and ranvier-mcp has no such example
cargo build -q --release -p ranvier-examples --example cart
cargo build -q --release -p ranvier-mcp --bin ranvier-mcp
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp target/release/examples/cart "$dir/cart-b"
# 1,000 messages: adds over 50 skus, removals, discounts, a clear every 250
python3 - > "$dir/messages.json" <<'PY'
import json
messages = []
for i in range(1000):
    if i % 250 == 249:
        messages.append({"message": "clear", "args": {}})
    elif i % 10 == 3:
        messages.append({"message": "set_discount", "args": {"percent": i % 50}})
    elif i % 10 == 7:
        messages.append({"message": "remove_item", "args": {"sku": f"sku-{(i * 7) % 50}"}})
    else:
        messages.append({"message": "add_item", "args": {"sku": f"sku-{i % 50}", "unitPrice": 100 + i % 37, "quantity": 1 + i % 3}})
print(json.dumps({"messages": messages}))
PY
RANVIER_JOURNAL="$dir/journal.jsonl" target/release/ranvier-mcp call target/release/examples/cart dispatch \
    "$(cat "$dir/messages.json")" > /dev/null
echo "journal: $(wc -l < "$dir/journal.jsonl") messages"
start=$(date +%s%N)
target/release/ranvier-mcp compare target/release/examples/cart "$dir/cart-b" "$dir/journal.jsonl"
end=$(date +%s%N)
echo "compare: $(( (end - start) / 1000000 )) ms"
start=$(date +%s%N)
target/release/ranvier-mcp replay --check target/release/examples/cart "$dir/journal.jsonl" | tail -1
end=$(date +%s%N)
echo "replay --check: $(( (end - start) / 1000000 )) ms"
