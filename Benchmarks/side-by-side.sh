#!/usr/bin/env bash
# Side by side: the peers harness and `flipbook-benchmarks --json` in the same session, then one
# table of ratios (Flipbook ÷ each peer) per workload (W1 W2 W4 W6a W6b W7), with the issue-5,
# issue-6 and issue-12 targets marked met or not. ONLY=W6a,W6b,W7 limits the peers harness. Absolute times on this shared machine move ~10% between runs (more under
# load), so only same-session ratios are claimed.
#
#   bash Benchmarks/side-by-side.sh                  # from the project root
#   SKIP_INSTALL=1 RUNS=1 bash Benchmarks/side-by-side.sh
#   SKIP_PEERS=1 bash Benchmarks/side-by-side.sh     # reuse $RESULTS/run-1.json from an earlier run
#   SKIP_BUILD=1 BENCH=/path/to/flipbook-benchmarks bash Benchmarks/side-by-side.sh
#   W2_ROUNDS=12 bash Benchmarks/side-by-side.sh     # more W2/anchor process pairs (default 8)
#
# The harness writes to RESULTS (default /tmp/peers-results) and OUT (default /tmp/peers-out),
# never into ../shared/peers/results.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS=${PEERS:-/work/shared/peers}
export RESULTS=${RESULTS:-/tmp/peers-results}
export OUT=${OUT:-/tmp/peers-out}
export RUNS=${RUNS:-1}
FB_OUT=${FB_OUT:-/tmp/flipbook-bench}
# The suite is the Benchmarks package (Benchmarks/Package.swift), built in release.
BENCH=${BENCH:-$ROOT/Benchmarks/.build/release/flipbook-benchmarks}
PY=${PY:-/tmp/peers-venv/bin/python}
[ -x "$PY" ] || PY=python3
mkdir -p "$RESULTS" "$OUT" "$FB_OUT"

if [ -z "${SKIP_BUILD:-}" ]; then   # incremental: quick when the release build is up to date
  swift build -c release --package-path "$ROOT/Benchmarks" --product flipbook-benchmarks || { echo "release build failed" >&2; exit 1; }
fi

if [ -z "${SKIP_PEERS:-}" ]; then
  echo "== peers harness (RESULTS=$RESULTS OUT=$OUT RUNS=$RUNS ${SKIP_INSTALL:+SKIP_INSTALL=1})"
  bash "$PEERS/run.sh" || { echo "peers harness failed" >&2; exit 1; }
fi

echo "== flipbook-benchmarks (1 thread: w1 w2 w4 w3 w6a w6b w7; 2 threads: w1 w6a w6b; e2e on all cores, e2e-w6a/b on 1 and 2)"
"$BENCH" --json --threads 1 --workload w1 --workload w2 --workload w4 --workload w3 --workload e2e \
    --workload w6a --workload w6b --workload w7 --workload e2e-w6a --workload e2e-w6b \
    --save "$FB_OUT" > "$FB_OUT/bench-1.json" || exit 1
"$BENCH" --json --threads 2 --workload w1 --workload w6a --workload w6b > "$FB_OUT/bench-2.json" || exit 1

echo "== image check (compare.py vs ref-c; W6b, W7 vs ref-ss)"
for w in w1 w2 w4 w6a; do
  [ -f "$OUT/${w}_ref-c-scalar.png" ] && "$PY" "$PEERS/compare.py" "$FB_OUT/$w.png" "$OUT/${w}_ref-c-scalar.png" | sed "s/^/$w: /"
done
for w in w6b w7; do
  [ -f "$OUT/${w}_ref-ss.png" ] && "$PY" "$PEERS/compare.py" "$FB_OUT/$w.png" "$OUT/${w}_ref-ss.png" | sed "s/^/$w: /"
done

python3 "$ROOT/Benchmarks/ratios.py" --peers "$RESULTS" "$FB_OUT/bench-1.json" "$FB_OUT/bench-2.json"

# The add-sat anchor moves 0.13-0.28 ms from one process to the next on this host (W2 far less):
# the W2 target is also read from fresh process pairs, interleaved.
echo "== W2 against the memory anchor, ${W2_ROUNDS:-8} fresh process pairs (Benchmarks/w2-anchor.py)"
"$PY" "$ROOT/Benchmarks/w2-anchor.py" --rounds "${W2_ROUNDS:-8}" --python "$PY" --peers "$PEERS" --bench "$BENCH" \
    || echo "w2-anchor.py failed (needs the peers build and venv)" >&2

echo "== gradients (issue 15): Flipbook, then Skia and Blend2D on the same 200-layer scenes"
"$BENCH" --threads 1 --workload gradients --save "$FB_OUT" || exit 1
"$PY" "$ROOT/Benchmarks/peers-gradients.py" --save "$FB_OUT" || echo "peers-gradients.py failed (needs the peers venv)" >&2

echo "== text (issue 16): Flipbook, then Skia on the same 61 lines (DejaVu Sans)"
"$BENCH" --threads 1 --workload text --save "$FB_OUT" || exit 1
"$PY" "$ROOT/Benchmarks/peers-text.py" --save "$FB_OUT" || echo "peers-text.py failed (needs the peers venv)" >&2
