#!/usr/bin/env bash
# Follows the README's "Your first app" from `cargo new` to the first explain answer, in a fresh directory with its
# own target, and prints the seconds at each step. Usage: benchmarks/first_app_time.sh [CHECKOUT] (default: this one).
# Needs bc. The app's text is the example the README shows (examples/examples/todos.rs), copied rather than typed.
set -euo pipefail
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
work=$(mktemp -d)
unset CARGO_TARGET_DIR # each project its own target, as a newcomer's
start=$(date +%s.%N)
t() { echo "[$(echo "$(date +%s.%N) - $start" | bc | cut -c1-6) s] $*"; }
cd "$work"
cargo new -q todos && cd todos
cat >> Cargo.toml <<TOML
ranvier-rs = { path = "$repo/ranvier" }
TOML
cp "$repo/examples/examples/todos.rs" src/main.rs
t "cargo new, Cargo.toml and main.rs written"
cargo install -q --path "$repo/ranvier-mcp" --root "$work/bin"
t "ranvier-mcp installed"
cargo build -q
t "cargo build"
"$work/bin/bin/ranvier-mcp" call target/debug/todos explain '{"node": "left", "messages": [{"message": "add", "args": {"title": "milk"}}, {"message": "done", "args": {"index": 0}}]}'
t "first explain answered"
