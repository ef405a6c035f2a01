#!/usr/bin/env bash
# Drives the built cart example with an independent MCP client (the Python `mcp` package), in both protocol eras,
# over stdio and over Streamable HTTP (`--http 127.0.0.1:0`).
# Needs python3 and cargo; reaches only PyPI. Usage: tests/python/run.sh [--bench]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/pip install --quiet mcp==2.3.0

# the cart binary cargo builds (wherever CARGO_TARGET_DIR points); `--workspace`, not `-p ranvier-examples`, so the
# dependencies have the features `cargo test --workspace` built them with and nothing is compiled again
cart_binary() {
    cargo build --quiet "$@" --workspace --example cart --message-format=json \
        | python3 -c 'import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message["target"]["name"] == "cart" and message.get("executable"):
        print(message["executable"])'
}

if [ "${1:-}" = "--bench" ]; then
    .venv/bin/python tests/python/bench_dispatch.py "$(cart_binary --release)"
    exit 0
fi

binary="$(cart_binary)"
.venv/bin/python tests/python/test_cart.py "$binary" legacy
.venv/bin/python tests/python/test_cart.py "$binary" modern
.venv/bin/python tests/python/test_cart_http.py "$binary"
.venv/bin/python tests/python/test_approval.py "$binary" legacy
.venv/bin/python tests/python/test_approval.py "$binary" modern
