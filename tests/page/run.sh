#!/usr/bin/env bash
# The live page (ranvier::mcp::http::page) in a real browser: Debian's chromium, driven by chromedriver over
# WebDriver from node (webdriver.mjs speaks the protocol with node's fetch: no npm package), against the built cart
# example. Screenshots of each state go to $CARGO_TARGET_DIR/page-screenshots (target/page-screenshots).
# Needs node >= 18, cargo, chromium and chromium-driver (`apt-get install chromium chromium-driver`).
# Usage: tests/page/run.sh            the end-to-end tests (debug cart: traced, so the graph is tested too)
#        tests/page/run.sh --measure  dispatch-to-page latency (median of 100) and page weight, release cart
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."

for tool in node chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "tests/page/run.sh: $tool is missing (apt-get install chromium chromium-driver nodejs)" >&2; exit 1; }
done

# the cart binary cargo builds (wherever CARGO_TARGET_DIR points); `--workspace`, not `-p ranvier-examples`, so the
# dependencies have the features `cargo test --workspace` built them with and nothing is compiled again
cart_binary() {
    cargo build --quiet "$@" --workspace --example cart --message-format=json | node -e '
let input = "";
process.stdin.on("data", (chunk) => (input += chunk)).on("end", () => {
    for (const line of input.split("\n").filter(Boolean)) {
        const message = JSON.parse(line);
        if (message.reason === "compiler-artifact" && message.target.name === "cart" && message.executable) {
            console.log(message.executable);
        }
    }
});'
}

target="${CARGO_TARGET_DIR:-target}"
export SCREENSHOTS="$target/page-screenshots"
if [ "${1:-}" = "--measure" ]; then
    cart="$(cart_binary --release)"
    [ -x "$cart" ] || { echo "tests/page/run.sh: cargo named no cart binary" >&2; exit 1; }
    CART="$cart" node "$here/measure.mjs"
    exit 0
fi
cart="$(cart_binary)"
[ -x "$cart" ] || { echo "tests/page/run.sh: cargo named no cart binary" >&2; exit 1; }
echo "live page tests: $(chromium --version 2>/dev/null), $(chromedriver --version | cut -d' ' -f1-2), node $(node --version), cart $cart"
CART="$cart" node --test --test-concurrency=1 "$here/page.test.mjs" </dev/null
echo "screenshots in $SCREENSHOTS"
