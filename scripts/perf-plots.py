#!/usr/bin/env python3
"""Draw the scaling sweeps of `flipbook-benchmarks --json` as SVG plots (docs/performance.md,
"Scaling"). Standard library only.

    B=Benchmarks/.build/release/flipbook-benchmarks
    $B --workload sweeps --frames 10 --json > /tmp/sweeps.json
    python3 scripts/perf-plots.py /tmp/sweeps.json docs/performance
    python3 scripts/perf-plots.py --cpu /tmp/sweeps.json docs/performance

Reads one or more JSON files of the suite (`{"workloads": [...], "machine": {...}}`, the format
of BenchReport.json) and writes, into the output folder, one plot per sweep found in them:

- `sweep-threads.svg`: W1 (64 layers, 1080p) with 1 … cores + 1 compositor threads, median ms
  per frame, with the ideal 1/threads line up to the core count;
- `sweep-resolution.svg`: W1 scaled from 480p to 4K, median ms against the frame's megapixels,
  with the line proportional to pixels through the 1080p point;
- `sweep-layers.svg`: 1 … 10,000 small layers (32×32, rotated, opacity 0.8) on 1080p, both axes
  logarithmic, with the O(n) line through the largest point;
- `sweep-depth.svg`: W1 under 1 … 32 nested containers, plain and with group opacity per level.

A row is used when its `name` is `sweep-…` and it has `variant` and `median_ms`; the other
fields are optional. `--cpu` plots the median process CPU time (`cpu_median_ms`) instead of the
median wall time, for a sitting where other jobs held the cores (except the threads sweep:
CPU time sums the threads, so that plot stays in wall time). The title of each plot carries the run's date, CPU, SIMD and load (the
`machine` object), so a plot is never read without its sitting. Rows of one sweep taken with
different `--threads` are drawn as separate series.
"""
import json
import math
import os
import sys

W, H = 760, 460
LEFT, RIGHT, TOP, BOTTOM = 80, 30, 84, 390  # plot area
COLOURS = ["#1f5fbf", "#d2691e", "#2e8b57", "#8b3a8b"]
METRIC = {"key": "median_ms", "label": "median ms per frame (wall)"}


def nice_max(v):
    """A round number at or above v for the axis top."""
    if v <= 0:
        return 1
    mag = 10 ** math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * mag >= v - 1e-12:
            return m * mag
    return 10 * mag


def fmt(v):
    """A number with about three significant digits, no trailing zeros."""
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return f"{v:.2f}".rstrip("0").rstrip(".")


def load(paths):
    rows, machines = [], []
    for p in paths:
        with open(p) as f:
            doc = json.load(f)
        m = doc.get("machine", {})
        machines.append(m)
        for r in doc.get("workloads", []):
            if str(r.get("name", "")).startswith("sweep-") and "variant" in r and r.get("median_ms") is not None:
                v = r.get(METRIC["key"]) if r["name"] != "sweep-threads" else r["median_ms"]
                if v is None:
                    sys.exit(f"{p}: {r['name']} {r['variant']} has no {METRIC['key']}")
                rows.append(dict(r, _machine=m, _ms=v))
    return rows, machines


def sitting(m):
    """The lines naming the run: date, CPU, cores, SIMD, load; then the machine's note, if any."""
    parts = []
    if m.get("date"):
        parts.append(m["date"].replace("T", " ").replace(":00Z", "").replace("Z", "") + " UTC")
    if m.get("cpu"):
        parts.append(m["cpu"] + (f", {m['cores']} cores" if m.get("cores") else ""))
    if m.get("simd"):
        parts.append(m["simd"])
    lo, hi = m.get("load_start"), m.get("load_end")
    if lo is not None:
        parts.append(f"load {lo:g}" + (f"–{hi:g}" if hi is not None and hi != lo else ""))
    lines = [" · ".join(parts)]
    if m.get("note"):
        lines.append(m["note"])
    return lines


class Plot:
    def __init__(self, title, subtitle, xlabel, ylabel):
        self.out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
                    'font-family="DejaVu Sans, sans-serif" font-size="12">',
                    f'<rect width="{W}" height="{H}" fill="white"/>',
                    f'<text x="{W / 2}" y="24" text-anchor="middle" font-size="15">{esc(title)}</text>',
                    *[f'<text x="{W / 2}" y="{44 + 16 * i}" text-anchor="middle" font-size="11" fill="#555">{esc(line)}</text>'
                      for i, line in enumerate(subtitle)],
                    f'<rect x="{LEFT}" y="{TOP}" width="{W - RIGHT - LEFT}" height="{BOTTOM - TOP}" fill="none" stroke="#888"/>',
                    f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 28}" text-anchor="middle">{esc(xlabel)}</text>',
                    f'<text x="{LEFT - 55}" y="{(TOP + BOTTOM) / 2}" text-anchor="middle" '
                    f'transform="rotate(-90 {LEFT - 55} {(TOP + BOTTOM) / 2})">{esc(ylabel)}</text>']
        self.legend = 0

    def axes(self, X, Y, xticks, yticks, xtext=fmt, ytext=fmt):
        for t in yticks:
            y = Y(t)
            self.out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}" stroke="#eee"/>')
            self.out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{ytext(t)}</text>')
        for t in xticks:
            x = X(t)
            self.out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{BOTTOM}" stroke="#eee"/>')
            self.out.append(f'<text x="{x:.1f}" y="{BOTTOM + 16}" text-anchor="middle">{xtext(t)}</text>')

    def series(self, name, pts, colour, labels=None):
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        self.out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.6"/>')
        for i, (x, y) in enumerate(pts):
            self.out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>')
            if labels:
                self.out.append(f'<text x="{x + 6:.1f}" y="{y - 7:.1f}" fill="{colour}">{esc(labels[i])}</text>')
        self.key(name, colour, dashed=False)

    def guide(self, name, pts):
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        self.out.append(f'<polyline points="{path}" fill="none" stroke="#c00" stroke-width="1.2" stroke-dasharray="6,4"/>')
        self.key(name, "#c00", dashed=True)

    def key(self, name, colour, dashed):
        y = TOP + 16 + 17 * self.legend
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        self.out.append(f'<line x1="{LEFT + 10}" y1="{y - 4}" x2="{LEFT + 30}" y2="{y - 4}" stroke="{colour}" stroke-width="2"{dash}/>')
        self.out.append(f'<text x="{LEFT + 35}" y="{y}">{esc(name)}</text>')
        self.legend += 1

    def write(self, path):
        with open(path, "w") as f:
            f.write("\n".join(self.out + ["</svg>"]) + "\n")


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def by_threads(rows):
    groups = {}
    for r in rows:
        groups.setdefault(r.get("threads", 1), []).append(r)
    return sorted(groups.items())


def lin(lo, hi, a, b):
    return lambda v: a + (b - a) * (v - lo) / (hi - lo)


def plot_threads(rows, dst):
    rows = sorted(rows, key=lambda r: r.get("threads", int(r["variant"].split("=")[1])))
    ts = [r.get("threads", int(r["variant"].split("=")[1])) for r in rows]
    ms = [r["_ms"] for r in rows]
    m = rows[0]["_machine"]
    cores = m.get("cores") or max(1, max(ts) - 1)
    p = Plot("W1 (64 layers, 1920×1080): compositor threads", sitting(m), "compositor threads",
             "median ms per frame (wall)")
    ytop = nice_max(max(ms) * 1.15)
    X, Y = lin(0.5, max(ts) + 0.5, LEFT, W - RIGHT), lin(0, ytop, BOTTOM, TOP)
    p.axes(X, Y, ts, [ytop * i / 5 for i in range(6)], xtext=lambda t: str(int(t)))
    ideal = [(t, ms[0] / min(t, cores)) for t in ts]
    p.guide(f"ideal: 1 thread ÷ min(threads, {cores} cores)", [(X(t), Y(v)) for t, v in ideal])
    p.series("measured", [(X(t), Y(v)) for t, v in zip(ts, ms)], COLOURS[0],
             [f"{fmt(v)} ms ({ms[0] / v:.2f}×)" for v in ms])
    p.write(dst)


def plot_resolution(rows, dst):
    p = None
    for k, (threads, group) in enumerate(by_threads(rows)):
        dims = [tuple(int(v) for v in r["variant"].split("x")) for r in group]
        pts = sorted((w * h / 1e6, r["_ms"], f"{w}×{h}") for (w, h), r in zip(dims, group))
        if p is None:
            m = group[0]["_machine"]
            p = Plot("W1 scaled: frame size", sitting(m), "frame size (megapixels)", METRIC["label"])
            xtop = nice_max(max(x for x, _, _ in pts) * 1.1)
            ytop = nice_max(max(v for _, v, _ in pts) * 1.2)
            X, Y = lin(0, xtop, LEFT, W - RIGHT), lin(0, ytop, BOTTOM, TOP)
            p.axes(X, Y, [xtop * i / 5 for i in range(6)], [ytop * i / 5 for i in range(6)])
            ref = min(pts, key=lambda q: abs(q[0] - 1920 * 1080 / 1e6))
            p.guide(f"proportional to pixels, through {ref[2]}",
                    [(X(0), Y(0)), (X(xtop), Y(min(ytop, ref[1] * xtop / ref[0])))] if ref[1] * xtop / ref[0] <= ytop
                    else [(X(0), Y(0)), (X(ytop * ref[0] / ref[1]), Y(ytop))])
        p.series(f"measured, {threads} thread{'s' if threads != 1 else ''}", [(X(x), Y(v)) for x, v, _ in pts],
                 COLOURS[k % len(COLOURS)], [f"{lab}: {fmt(v)} ms" for _, v, lab in pts])
    p.write(dst)


def plot_layers(rows, dst):
    p = None
    for k, (threads, group) in enumerate(by_threads(rows)):
        pts = sorted((int(r["variant"].split("=")[1]), r["_ms"]) for r in group)
        if p is None:
            m = group[0]["_machine"]
            p = Plot("Many small layers (32×32, rotated, opacity 0.8) on 1920×1080", sitting(m),
                     "layers (log scale)", METRIC["label"] + ", log scale")
            xlo, xhi = 10 ** math.floor(math.log10(min(n for n, _ in pts))), 10 ** math.ceil(math.log10(max(n for n, _ in pts)))
            ylo = 10 ** math.floor(math.log10(min(v for _, v in pts)))
            yhi = 10 ** math.ceil(math.log10(max(v for _, v in pts) * 1.5))
            lx, ly = lin(math.log10(xlo), math.log10(xhi), LEFT + 20, W - RIGHT - 60), lin(math.log10(ylo), math.log10(yhi), BOTTOM, TOP)
            X, Y = (lambda v: lx(math.log10(v))), (lambda v: ly(math.log10(v)))
            decades = lambda lo, hi: [10 ** e for e in range(round(math.log10(lo)), round(math.log10(hi)) + 1)]
            p.axes(X, Y, decades(xlo, xhi), decades(ylo, yhi), xtext=lambda t: f"{int(t):,}", ytext=fmt)
            n1, v1 = pts[-1]
            per = v1 / n1
            p.guide(f"O(n): {fmt(per * 1000)} µs per layer (the largest point)",
                    [(X(n), Y(per * n)) for n in (max(xlo, ylo / per), xhi) if ylo <= per * n <= yhi * 10])
        p.series(f"measured, {threads} thread{'s' if threads != 1 else ''}", [(X(n), Y(v)) for n, v in pts],
                 COLOURS[k % len(COLOURS)], [f"{fmt(v)} ms" for _, v in pts])
    p.write(dst)


def plot_depth(rows, dst):
    plain = sorted((int(r["variant"].split("=")[1].split()[0]), r["_ms"]) for r in rows if "groups" not in r["variant"])
    groups = sorted((int(r["variant"].split("=")[1].split()[0]), r["_ms"]) for r in rows if "groups" in r["variant"])
    m = rows[0]["_machine"]
    p = Plot("W1 under nested containers: depth", sitting(m), "depth (log scale)", METRIC["label"])
    ds = sorted({d for d, _ in plain + groups})
    ytop = nice_max(max(v for _, v in plain + groups) * 1.15)
    lx = lin(0, math.log2(max(ds)), LEFT + 30, W - RIGHT - 60)
    X, Y = (lambda d: lx(math.log2(d))), lin(0, ytop, BOTTOM, TOP)
    p.axes(X, Y, ds, [ytop * i / 5 for i in range(6)], xtext=lambda t: str(int(t)))
    for k, (name, pts) in enumerate((("plain containers", plain), ("group opacity at every level", groups))):
        if pts:
            p.series(name, [(X(d), Y(v)) for d, v in pts], COLOURS[k], [f"{fmt(v)}" for _, v in pts])
    p.write(dst)


PLOTS = {"sweep-threads": plot_threads, "sweep-resolution": plot_resolution,
         "sweep-layers": plot_layers, "sweep-depth": plot_depth}


def main(argv):
    if argv and argv[0] == "--cpu":
        argv = argv[1:]
        METRIC.update(key="cpu_median_ms", label="median process CPU ms per frame")
    if len(argv) < 2:
        sys.exit("usage: perf-plots.py [--cpu] SWEEPS.json [MORE.json ...] OUT_DIR")
    *srcs, outdir = argv
    rows, _ = load(srcs)
    if not rows:
        sys.exit("no sweep rows (name sweep-…, with variant and median_ms) in " + ", ".join(srcs))
    os.makedirs(outdir, exist_ok=True)
    for name, draw in PLOTS.items():
        sel = [r for r in rows if r["name"] == name]
        if sel:
            dst = os.path.join(outdir, name + ".svg")
            draw(sel, dst)
            print(f"{dst}: {len(sel)} points")


if __name__ == "__main__":
    main(sys.argv[1:])
