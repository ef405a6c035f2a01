#!/usr/bin/env bash
# Runs each fuzz target for a bounded time (SECONDS per target, default 45) on the nightly toolchain, with
# AddressSanitizer, and prints the executions run and the crashes found per target. Not part of CI's tests.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`) and the nightly toolchain. The corpus each run grows is kept in
# fuzz/corpus/TARGET (not committed) and read again by the next run, beside the committed seeds in fuzz/seeds/TARGET.
# A crash is saved in fuzz/artifacts/TARGET; replay it with `cargo +nightly fuzz run TARGET FILE`.
set -uo pipefail
cd "$(dirname "$0")"

seconds=${1:-45}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(messages stdio_lines http_request journal)

cargo +nightly fuzz build || exit 1

failed=0
summary=()
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    before=$(find "artifacts/$target" -type f | wc -l)
    log=$(mktemp)
    echo "== $target: ${seconds} s"
    cargo +nightly fuzz run "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1
    status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    crashes=$(($(find "artifacts/$target" -type f | wc -l) - before))
    corpus=$(find "corpus/$target" -type f | wc -l)
    if [ "$status" -ne 0 ]; then
        failed=1
        grep -E '^(==[0-9]+==ERROR|thread .* panicked|SUMMARY)' "$log" | head -5
        echo "   (the whole log: $log)"
    else
        rm -f "$log"
    fi
    summary+=("$(printf '%-14s %10s executions  %d crashes  %5d corpus files  exit %d' "$target" "${runs:-?}" "$crashes" "$corpus" "$status")")
done

echo "== summary (${seconds} s per target)"
printf '%s\n' "${summary[@]}"
exit $failed
