#!/usr/bin/env python3
"""W2 against its memory anchor, one fresh process after another.

Issue 12 asks for W2 (one 1920x1080 layer at opacity 0.5 over the canvas) to take at most 1.3x
the peers harness's "2 reads + 1 write" anchor (a saturating byte add over two frames' bytes,
C -O3 -march=native). Both are bound by how fast the core streams 16.6 MB through the caches,
and that depends on the physical pages a process happens to get: on this machine the anchor's
median moved between 0.13 and 0.28 ms from one process to the next
(docs/performance-history/2026-11-27-sessions.md), far more than Flipbook's W2 does. A single harness run therefore says little about the ratio.

This script alternates fresh processes: the harness's own anchor code (bench.py's CLib and
run_memory, imported from the peers folder, so the same buffers, warm-ups and 120 samples), then
`flipbook-benchmarks suite --workload w2` (its median over --frames frames), ROUNDS times, and
prints every pair, the median of each and the median of the per-pair ratios.

    python3 Benchmarks/w2-anchor.py                      # from the project root
    python3 Benchmarks/w2-anchor.py --rounds 12 --frames 300

Needs the peers harness to have been built once (bash ../shared/peers/run.sh: it makes
/tmp/peers-build/libpeers*.so and the venv with numpy) and the release benchmarks. Writes
nothing anywhere.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ANCHOR = r'''
import json, sys, types
sys.path.insert(0, sys.argv[1])
import bench
lib = sys.argv[2]
clib, native = bench.CLib(lib), bench.CLib(lib.replace('libpeers.so', 'libpeers-native.so'))
res = {'workloads': {}}
bench.run_memory(clib, native, types.SimpleNamespace(quick=False), res)
st = res['workloads']['memory']['engines']['2 reads+1 write: add-sat (C -O3 native)']
print('ANCHOR', json.dumps(st['median_s'] * 1e3))
'''


def anchor_ms(python, peers, lib):
    out = subprocess.run([python, '-c', ANCHOR, peers, lib], check=True, capture_output=True, text=True).stdout
    return float([l for l in out.splitlines() if l.startswith('ANCHOR ')][-1].split()[1])


def w2_ms(bench, frames):
    out = subprocess.run([bench, 'suite', '--workload', 'w2', '--frames', str(frames), '--threads', '1', '--json'],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)['workloads'][0]['median_ms']


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rounds', type=int, default=8)
    ap.add_argument('--frames', type=int, default=200, help='W2 frames per process (median)')
    ap.add_argument('--peers', default=os.path.join(os.path.dirname(ROOT), 'shared', 'peers'))
    ap.add_argument('--lib', default='/tmp/peers-build/libpeers.so')
    ap.add_argument('--python', default='/tmp/peers-venv/bin/python')
    ap.add_argument('--bench', default=os.path.join(ROOT, 'Benchmarks', '.build', 'release', 'flipbook-benchmarks'))
    a = ap.parse_args()
    for path, what in [(a.lib.replace('libpeers.so', 'libpeers-native.so'), 'the peers library (run ../shared/peers/run.sh once)'),
                       (a.python, 'the peers venv (run ../shared/peers/run.sh once)'),
                       (a.bench, 'the release benchmarks (swift build -c release --package-path Benchmarks)')]:
        if not os.path.exists(path):
            sys.exit('w2-anchor: %s is missing: %s' % (path, what))
    anchors, w2s, ratios = [], [], []
    print('round  anchor ms  W2 ms  W2/anchor')
    for r in range(a.rounds):
        an = anchor_ms(a.python, a.peers, a.lib)
        w = w2_ms(a.bench, a.frames)
        anchors.append(an); w2s.append(w); ratios.append(w / an)
        print('%5d  %9.3f  %5.3f  %9.2f' % (r + 1, an, w, w / an), flush=True)
    print('anchor: median %.3f ms (%.3f-%.3f); W2: median %.3f ms (%.3f-%.3f)' % (
        statistics.median(anchors), min(anchors), max(anchors), statistics.median(w2s), min(w2s), max(w2s)))
    print('W2 / anchor: median of the pairs %.2f (%.2f-%.2f); of the medians %.2f; target <= 1.3' % (
        statistics.median(ratios), min(ratios), max(ratios), statistics.median(w2s) / statistics.median(anchors)))


if __name__ == '__main__':
    main()
