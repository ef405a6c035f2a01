#!/usr/bin/env bash
# The core's tests under valgrind's memcheck and under AddressSanitizer (nightly), failing on any memory error or
# definite leak: what checks the graph's unsafe code (its node handles, the pool its nodes live in, the recorder's
# ring). `.ci/run` calls it after the tests; run it alone from anywhere in the checkout.
#
# memcheck runs the debug test binaries the README's test command builds (the pool as it ships: a node used after
# its block went back to the pool is not seen there, its block being still allocated). AddressSanitizer builds in a
# target dir of its own (`target/asan`) with `--cfg ranvier_asan`, which poisons the blocks the pool keeps, so a use
# after free is reported there even when the block is pooled. Leak detection is on in both.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
export CARGO_INCREMENTAL=0
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo

if ! command -v valgrind >/dev/null; then
    if [ "${CI:-}" = "true" ]; then
        echo "== installing valgrind"
        $sudo apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
    else
        echo "memcheck.sh needs valgrind (Debian: apt-get install valgrind)" >&2
        exit 1
    fi
fi
if ! cargo +nightly --version >/dev/null 2>&1; then
    if [ "${CI:-}" = "true" ]; then
        echo "== installing the nightly toolchain"
        rustup toolchain install nightly --profile minimal
    else
        echo "memcheck.sh needs the nightly toolchain (rustup toolchain install nightly --profile minimal)" >&2
        exit 1
    fi
fi
valgrind --version
cargo +nightly --version

target=x86_64-unknown-linux-gnu
# Two tests are left to the README's test command, which runs them: they parse every file of the crate (and of the
# examples) with `syn` to check the source readers' shortcuts against a full parse, safe code that touches no node,
# and took minutes under valgrind.
skip=(
    --skip trace::source::ends::tests::both_ends_agree_with_span_over_this_crate_s_sources
    --skip trace::source::mods::tests::the_same_as_the_parsed_index_over_this_crate_s_sources_and_the_examples
)

# AddressSanitizer's build starts first, in the background: valgrind runs a program on one core, and the other
# core builds meanwhile (its own target dir, so neither waits for the other's lock).
asan_flags="-Zsanitizer=address --cfg ranvier_asan"
asan_log=$(mktemp)
RUSTFLAGS="$asan_flags" cargo +nightly test -q --no-run --target $target --target-dir target/asan -p ranvier-rs \
    --no-default-features --lib >"$asan_log" 2>&1 &
asan_build=$!

echo "== memcheck: the core's tests (its unit tests and its behaviour tests, ranvier/src/core_tests.rs) under valgrind"
runner="valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$runner" cargo test -q -p ranvier-rs --no-default-features --lib -- "${skip[@]}"

echo "== AddressSanitizer (nightly, leak detection on): the same tests, pooled blocks poisoned"
if ! wait "$asan_build"; then
    cat "$asan_log"
    echo "the AddressSanitizer build failed" >&2
    exit 1
fi
RUSTFLAGS="$asan_flags" ASAN_OPTIONS="detect_leaks=1" cargo +nightly test -q --target $target --target-dir target/asan \
    -p ranvier-rs --no-default-features --lib -- "${skip[@]}"

echo "== memcheck and AddressSanitizer passed"
