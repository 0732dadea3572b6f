#!/usr/bin/env bash
# Makes docs/review-page.png, the README's picture of the review page (docs/visual-testing.md):
# renders samples/scenes/progress-ring.json as it is and with its easing changed (a visual
# regression), compares the two with `flipbook compare --report`, and takes a headless-Chromium
# screenshot of the page on one of the failing frames.
#
#   scripts/review-page-screenshot.sh [OUTPUT.png]     (default docs/review-page.png)
#
# FLIPBOOK (default .build/release/flipbook, else .build/debug/flipbook) and CHROMIUM
# (default chromium) name the programs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/review-page.png}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
flipbook=${FLIPBOOK:-}
if [ -z "$flipbook" ]; then
  for f in .build/release/flipbook .build/debug/flipbook; do [ -x "$f" ] && { flipbook="$PWD/$f"; break; }; done
fi
[ -n "$flipbook" ] || { echo "no flipbook binary: swift build first (or set FLIPBOOK)" >&2; exit 1; }
chromium=${CHROMIUM:-chromium}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scene=samples/scenes/progress-ring.json
sed 's/"easeInEaseOut"/"linear"/' "$scene" > "$work/changed.json"
# 12 frames (6 fps over the 2 s scene) at 144×144 pixels: the first and the last two are equal.
"$flipbook" render "$scene" -o "$work/expected" --fps 6 --scale 0.45 --quiet
"$flipbook" render "$work/changed.json" -o "$work/actual" --fps 6 --scale 0.45 --quiet
status=0
(cd "$work" && "$flipbook" compare expected actual --report review > /dev/null) || status=$?
[ "$status" -eq 1 ] || { echo "flipbook compare exited $status, expected 1 (frames differ)" >&2; exit 1; }
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-color-profile=srgb \
  --force-device-scale-factor=1 --window-size=1280,640 --virtual-time-budget=3000 \
  --screenshot="$out" "file://$work/review/index.html#frame_00003.png" 2> "$work/chromium.log" \
  || { cat "$work/chromium.log" >&2; exit 1; }
echo "wrote $out"
