#!/usr/bin/env bash
# The plain driver (flipbook-fuzz, no coverage feedback; for toolchains without libFuzzer, e.g.
# Xcode's on macOS — `make fuzz-plain`). Runs the fuzz targets for a while each, keeping going after a crash: the input that killed
# the driver (OUT/current-TARGET) is kept as OUT/crash-TARGET-N and the driver restarts with a
# new seed. Usage: bash Fuzz/run-plain.sh [SECONDS_PER_TARGET] [TARGET...]   (default 60; all targets)
# Found inputs go under Tests/Fixtures/fuzz/ (replayed by the test suite).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_PER=${1:-60}; shift || true
TARGETS=${*:-scene png jpeg compositor lottie}
OUT=${OUT:-$ROOT/Tests/Fixtures/fuzz}
swift build -c release --package-path "$ROOT/Fuzz" >/dev/null || { echo "fuzz build failed" >&2; exit 1; }
BIN=$(swift build -c release --package-path "$ROOT/Fuzz" --show-bin-path)/flipbook-fuzz
mkdir -p "$OUT"
status=0
for t in $TARGETS; do
  case $t in
    png) corpus=(--corpus "$ROOT/Tests/FlipbookPNGTests/Fixtures" --corpus "$OUT") ;;
    jpeg) corpus=(--corpus "$ROOT/Tests/FlipbookJPEGTests/Fixtures" --corpus "$OUT") ;;
    lottie)
      corpus=(--corpus "$ROOT/Tests/Fixtures/lottie/fixtures" --corpus "$ROOT/Tests/Fixtures/lottie/fuzz-seeds")
      [ -d "$ROOT/samples/lottie" ] && corpus+=(--corpus "$ROOT/samples/lottie")
      corpus+=(--corpus "$OUT") ;;
    *) corpus=(--corpus "$ROOT/samples/scenes" --corpus "$OUT") ;;
  esac
  end=$(( $(date +%s) + SECONDS_PER )); seed=$RANDOM; n=0
  while [ "$(date +%s)" -lt "$end" ]; do
    left=$(( end - $(date +%s) ))
    "$BIN" "$t" --seconds "$left" --seed "$seed" "${corpus[@]}" --out "$OUT"; rc=$?
    if [ $rc -ge 128 ] && [ -f "$OUT/current-$t" ]; then
      n=$((n + 1)); mv "$OUT/current-$t" "$OUT/crash-$t-$seed-$n"; echo "crash ($rc) kept as crash-$t-$seed-$n"; status=1
    elif [ $rc -ne 0 ]; then
      status=1
    fi
    seed=$((seed + 1))
  done
done
exit $status
