#!/usr/bin/env bash
# What #[derive(Messages)] costs at compile time: builds a crate holding a 50-variant message enum (20 struct
# variants of 3 fields, one with a range; 20 unit; 10 newtype) with and without the derive, N times each, and prints
# the median wall time of rebuilding that crate alone (dependencies are built once first).
# Usage: ui-tests/compile-cost.sh [runs=10] [--release]
set -euo pipefail
runs=${1:-10}
profile=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}/compile-cost
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "derive-cost"
version = "0.1.0"
edition = "2024"
[workspace]
[features]
derive = []
[dependencies]
ranvier = { path = "$root/ranvier" }
serde = { version = "1", features = ["derive"] }
schemars = "1"
TOML
{
  echo '#![allow(dead_code)]'
  echo '#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]'
  echo 'pub struct Payload { pub id: u64, pub note: Option<String> }'
  echo '#[derive(Debug)]'
  echo '#[cfg_attr(feature = "derive", derive(ranvier::Messages), message(rename_all = "camelCase"))]'
  echo 'pub enum Msg {'
  for i in $(seq 0 49); do
    case $((i % 5)) in
      0|1) echo "    /// Message $i.
    Struct$i { sku_$i: String, unit_price: i64, #[cfg_attr(feature = \"derive\", message(range(min = 1)))] quantity: u32 },";;
      2|3) echo "    Unit$i,";;
      *) echo "    Newtype$i(Payload),";;
    esac
  done
  echo '}'
} > "$dir/src/lib.rs"
cd "$dir"
cargo build -q $profile 2>/dev/null && cargo build -q $profile --features derive 2>/dev/null
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for mode in plain derive; do
  flags=$([ $mode = derive ] && echo "--features derive" || true)
  for _ in $(seq "$runs"); do
    touch src/lib.rs
    start=$(date +%s%N); cargo build -q $profile $flags 2>/dev/null; end=$(date +%s%N)
    echo $(((end - start) / 1000000))
  done | median | xargs printf "%-7s median %s ms over $runs builds\n" "$mode"
done
