#!/usr/bin/env bash
# Runs the coverage-guided fuzz targets (libFuzzer + AddressSanitizer + UBSan; Fuzz/libfuzzer.sh
# builds them) for SECONDS each, one after another (or JOBS at once).
#   bash Fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]      default 60 s; all six targets
# Each target's corpus lives in .build-libfuzzer/corpus/TARGET (kept between runs, out of git);
# seeds come from the samples and fixtures (copied into .build-libfuzzer/seeds/TARGET). An
# input that crashes, leaks, runs over 5 s (-timeout; confirmed by CPU time alone, see
# confirm_timeouts) or makes the process use more than 1 GiB
# (-rss_limit_mb, -malloc_limit_mb) is written to Tests/Fixtures/fuzz/TARGET-{crash,leak,
# timeout,oom}-SHA1, the target restarted, and the run's exit status is 1; the test suite
# replays every kept input (FuzzReplayTests). Summary lines (runs, coverage, new corpus
# entries, peak RSS) go to stdout and to .build-libfuzzer/logs/summary.tsv.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_PER=${1:-60}; shift || true
TARGETS=${*:-scene png jpeg lottie font compositor}
OUT=${OUT:-$ROOT/Tests/Fixtures/fuzz}
WORK=${WORK:-$ROOT/.build-libfuzzer}
JOBS=${JOBS:-1}
BIN=$(bash "$ROOT/Fuzz/libfuzzer.sh") || { echo "fuzz build failed" >&2; exit 1; }
mkdir -p "$OUT" "$WORK/logs"

# seeds TARGET: copies the target's seed files (by suffix) into $WORK/seeds/TARGET.
seeds() {
  local t=$1 dir="$WORK/seeds/$1"; rm -rf "$dir"; mkdir -p "$dir"
  case $t in
    scene) cp "$ROOT"/samples/scenes/*.json "$dir/" ;;
    compositor) cp "$ROOT"/samples/scenes/*.json "$dir/" ;;
    png) cp "$ROOT"/Tests/FlipbookPNGTests/Fixtures/*.png "$ROOT"/samples/scenes/images/*.png "$dir/" 2>/dev/null ;;
    jpeg) cp "$ROOT"/Tests/FlipbookJPEGTests/Fixtures/*.jpg "$dir/" ;;
    lottie) cp "$ROOT"/Tests/Fixtures/lottie/fixtures/*.json "$ROOT"/Tests/Fixtures/lottie/fuzz-seeds/* \
               "$ROOT"/Tests/Fixtures/lottie/features/*.json "$ROOT"/samples/lottie/*.json "$ROOT"/samples/lottie/*.lottie "$dir/" 2>/dev/null ;;
    font) cp "$ROOT"/Fuzz/seeds/font/*.ttf "$ROOT"/Fuzz/seeds/font/*.otf "$ROOT"/Fuzz/seeds/font/*.ttc "$ROOT"/Fuzz/seeds/font/*.woff "$dir/" ;;
  esac
  # Inputs kept by earlier runs of this target are seeds too (crashes and leaks — fixed, or
  # the run stops at once — not timeouts, which a loaded machine could time out again).
  for f in "$OUT"/"$t"-crash-* "$OUT"/"$t"-leak-* "$OUT"/crash-"$t"-* "$OUT"/rss-"$t"-*; do [ -f "$f" ] && cp "$f" "$dir/"; done
  return 0
}

# confirm_timeouts TARGET LOG: libFuzzer's -timeout is wall-clock time, so on a loaded machine
# (several fuzzers, builds) an input can pass 5 s while using far less CPU. Each new timeout
# artifact is run again alone; it stays a finding only if it uses more than 5 s of CPU time
# (user + system), else it moves to $WORK/unconfirmed and the log says so.
confirm_timeouts() {
  local t=$1 log=$2 f cpu
  for f in "$OUT"/"$t"-timeout-*; do
    [ -f "$f" ] || continue
    grep -q "confirmed $(basename "$f")" "$log" 2>/dev/null && continue
    cpu=$( { TIMEFORMAT='%U %S'; time SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
             "$BIN" "$t" -runs=1 "$f" >/dev/null 2>&1; } 2>&1 | awk '{print $1 + $2}')
    if awk -v c="$cpu" 'BEGIN {exit !(c <= 5)}'; then
      mkdir -p "$WORK/unconfirmed"; mv "$f" "$WORK/unconfirmed/"
      echo "timeout not confirmed $(basename "$f"): ${cpu} s of CPU alone (moved to $WORK/unconfirmed)" >> "$log"
    else
      echo "timeout confirmed $(basename "$f"): ${cpu} s of CPU alone" >> "$log"
    fi
  done
}

# run TARGET: fuzzes one target for SECONDS_PER, restarting after a finding. Each round (one
# libFuzzer process) logs to its own file; the target's log is their concatenation.
run() {
  local t=$1 corpus="$WORK/corpus/$1" log="$WORK/logs/$1.log" status=0
  mkdir -p "$corpus" "$WORK/logs/$1"; seeds "$t"
  local before; before=$(ls "$corpus" | wc -l)
  local dict=(); [ -f "$ROOT/Fuzz/dictionaries/$t.dict" ] && dict=(-dict="$ROOT/Fuzz/dictionaries/$t.dict")
  local end=$(( $(date +%s) + SECONDS_PER )) round=0 runs=0 cov="" ft=""
  rm -f "$WORK/logs/$1"/round-*.log; : > "$log"
  while [ "$(date +%s)" -lt "$end" ]; do
    local left=$(( end - $(date +%s) ))
    [ "$left" -ge 1 ] || break      # (-max_total_time=0 would mean no limit)
    round=$((round + 1))
    local rlog="$WORK/logs/$1/round-$round.log"
    # SWIFT_BACKTRACE: the Swift runtime's crash handler would fight ASan's over a finding.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:symbolize=1 \
    LSAN_OPTIONS=suppressions="$ROOT/Fuzz/lsan.supp":print_suppressions=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      "$BIN" "$t" -max_total_time="$left" -timeout=5 -rss_limit_mb=1024 -malloc_limit_mb=1024 \
        ${dict[@]+"${dict[@]}"} -artifact_prefix="$OUT/$t-" -print_final_stats=1 \
        -seed=$((20261207 + round)) "$corpus" "$WORK/seeds/$t" > "$rlog" 2>&1
    local rc=$?
    # Executions of this round: the last status line's counter (a round that ends in a
    # finding prints no final statistics); coverage: the last status line seen.
    local last; last=$(grep -E '^#[0-9]+' "$rlog" | tail -1)
    runs=$(( runs + $(echo "$last" | sed -E 's/^#([0-9]+).*/\1/;t;s/.*/0/') ))
    [ -n "$last" ] && cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | awk '{print $2}') && ft=$(echo "$last" | grep -oE 'ft: [0-9]+' | awk '{print $2}')
    local artifact; artifact=$(grep -oE "Test unit written to [^ ]+" "$rlog" | tail -1 | awk '{print $5}')
    cat "$rlog" >> "$log"
    if [ -n "$artifact" ] && [ -f "$artifact" ]; then
      confirm_timeouts "$t" "$log"
      if [ -f "$artifact" ]; then status=1; echo "$t: finding kept: $(basename "$artifact") (see $rlog)"; fi
    elif [ $rc -ne 0 ]; then
      status=1; echo "$t: libFuzzer exited $rc without an input to keep (see $rlog)"; break
    fi
  done
  local after; after=$(ls "$corpus" | wc -l)
  local rss; rss=$(grep -hoE 'rss: [0-9]+Mb' "$WORK/logs/$1"/round-*.log | grep -oE '[0-9]+' | sort -n | tail -1)
  local line
  line=$(printf '%s\t%s\t%ss\t%s rounds\t%s runs\tcov %s\tft %s\tcorpus %s -> %s (+%s)\tpeak RSS %s MiB\t%s' \
    "$(date -u +%FT%TZ)" "$t" "$SECONDS_PER" "$round" "$runs" "${cov:-?}" "${ft:-?}" "$before" "$after" $((after - before)) "${rss:-?}" \
    "$([ $status -eq 0 ] && echo clean || echo FINDINGS)")
  echo "$line"; echo "$line" >> "$WORK/logs/summary.tsv"
  return $status
}

status=0
if [ "$JOBS" -le 1 ]; then
  for t in $TARGETS; do run "$t" || status=1; done
else
  # JOBS targets at a time (one process each).
  pids=()
  for t in $TARGETS; do
    run "$t" & pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 5; done
  done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
fi
exit $status
