#!/usr/bin/env bash
# Builds the coverage-guided fuzz targets (Fuzz/Sources/flipbook-libfuzzer) with libFuzzer,
# AddressSanitizer (Swift and C) and UndefinedBehaviorSanitizer (C: swiftc has no
# -sanitize=undefined on Linux), release-optimised, into .build-libfuzzer; prints the binary.
# Usage: bash Fuzz/libfuzzer.sh   (then: BIN TARGET [libFuzzer flags] CORPUS...; Fuzz/run.sh does it)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLAGS=(-c release --package-path "$ROOT/Fuzz" --scratch-path "$ROOT/.build-libfuzzer"
       --sanitize=address
       -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld
       -Xcc -fsanitize=fuzzer-no-link,undefined -Xcc -fno-sanitize-recover=undefined)
swift build "${FLAGS[@]}" --product flipbook-libfuzzer >&2
echo "$(swift build "${FLAGS[@]}" --show-bin-path)/flipbook-libfuzzer"
