#!/usr/bin/env python3
"""Plot a soak CSV (`make soak`, docs/soak.md) as an SVG: RSS (MiB) and time per frame against
the frame index, in two stacked panels sharing the x axis. Standard library only.

    python3 scripts/soak-plot.py docs/soak/soak-3600.csv docs/soak/soak-3600.svg

Panel 1: this process's RSS, ffmpeg's RSS, and the memory bound of the verdict (flat:
max(1.25 × RSS after warm-up, RSS after warm-up + 64 MiB), from frame WARMUP on).
Panel 2: CPU ms per frame of the process (the verdict's measure), with the drift bound (1.5 × the
median of the first 10 samples after the warm-up).
Panel 3: wall ms per frame (the machine is shared: wall time includes the neighbours and the
ffmpeg pipe) and the 1-minute load average (right-hand scale of its own: the label says it).
"""
import csv
import sys

WARMUP = 500  # frames; the baseline is the first sample at or after it (SoakVerdict)


def nice_max(v):
    """A round number at or above v for the axis top."""
    if v <= 0:
        return 1
    mag = 10 ** (len(str(int(v))) - 1)
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * mag >= v:
            return m * mag
    return 10 * mag


def ticks(top, n=5):
    return [top * i / n for i in range(n + 1)]


def main(src, dst):
    with open(src) as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    if not rows:
        sys.exit(f"{src}: no samples")
    frames = [r["frame"] for r in rows]
    rss = [r["rss_mib"] for r in rows]
    ff = [r["ffmpeg_rss_mib"] for r in rows]
    cpu = [r["cpu_ms_per_frame"] for r in rows]
    wall = [r["wall_ms_per_frame"] for r in rows]
    load = [r["load1"] for r in rows]
    # The verdict's warm-up: WARMUP frames, at most a quarter of the run in whole samples.
    first = frames[0] - (frames[1] - frames[0] if len(frames) > 1 else frames[0])
    step = frames[1] - frames[0] if len(frames) > 1 else 100
    warmup = first + min(WARMUP, max(step, (frames[-1] - first) // 4 // step * step))
    base = next((r["rss_mib"] for r in rows if r["frame"] >= warmup), rss[0])
    bound = max(base * 1.25, base + 64)
    after = [r["cpu_ms_per_frame"] for r in rows if r["frame"] >= warmup]
    early = sorted(after[:min(10, len(after) // 2)])
    drift = 1.5 * (early[len(early) // 2] if len(early) % 2 else (early[len(early) // 2 - 1] + early[len(early) // 2]) / 2) if early else None

    W, H = 960, 860
    left, right = 80, 30
    panels = [(40, 270), (320, 550), (600, 800)]  # (top, bottom) of each plot area
    x0, x1 = left, W - right
    fmax = max(frames)
    xtop = nice_max(fmax)

    def X(f):
        return x0 + (x1 - x0) * f / xtop

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="DejaVu Sans, sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">Flipbook soak: {int(fmax)} frames, '
           f'{rows[-1]["wall_s"] / 60:.0f} min, 1920×1080, PNG + MP4</text>']

    def panel(top, bottom, series, ymax, ylabel, extra=None):
        def Y(v):
            return bottom - (bottom - top) * v / ymax
        out.append(f'<rect x="{x0}" y="{top}" width="{x1 - x0}" height="{bottom - top}" fill="none" stroke="#888"/>')
        for t in ticks(ymax):
            y = Y(t)
            out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="#eee"/>')
            out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{t:g}</text>')
        for t in ticks(xtop):
            x = X(t)
            out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="#eee"/>')
            out.append(f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">{int(t)}</text>')
        out.append(f'<text x="{x0 - 55}" y="{(top + bottom) / 2}" text-anchor="middle" '
                   f'transform="rotate(-90 {x0 - 55} {(top + bottom) / 2})">{ylabel}</text>')
        if extra:
            extra(Y)
        for i, (name, ys, colour) in enumerate(series):
            pts = " ".join(f"{X(f):.1f},{Y(min(v, ymax)):.1f}" for f, v in zip(frames, ys))
            out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="1.3"/>')
            lx = x0 + 10 + 190 * i
            out.append(f'<line x1="{lx}" y1="{top + 14}" x2="{lx + 20}" y2="{top + 14}" stroke="{colour}" stroke-width="2"/>')
            out.append(f'<text x="{lx + 25}" y="{top + 18}">{name}</text>')

    def bound_line(Y):
        y = Y(bound)
        out.append(f'<line x1="{X(warmup):.1f}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="#c00" stroke-dasharray="6,4"/>')
        out.append(f'<text x="{x1 - 4}" y="{y - 5:.1f}" text-anchor="end" fill="#c00">bound {bound:.0f} MiB</text>')

    panel(*panels[0], [("Flipbook RSS", rss, "#1f5fbf"), ("ffmpeg RSS", ff, "#999")],
          nice_max(max(max(rss), max(ff), bound) * 1.05), "RSS (MiB)", bound_line)
    def drift_line(Y):
        if drift is None:
            return
        y = Y(drift)
        out.append(f'<line x1="{X(warmup):.1f}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="#c00" stroke-dasharray="6,4"/>')
        out.append(f'<text x="{x1 - 4}" y="{y - 5:.1f}" text-anchor="end" fill="#c00">drift bound {drift:.1f} ms</text>')

    panel(*panels[1], [("CPU ms/frame (Flipbook process)", cpu, "#d2691e")],
          nice_max(max(max(cpu), drift or 0) * 1.1), "CPU ms per frame", drift_line)
    lmax = nice_max(max(load) * 1.05)
    wmax = nice_max(max(wall) * 1.05)
    # The load average drawn on the wall-time scale: load × wmax / lmax.
    panel(*panels[2], [("wall ms/frame", wall, "#2e8b57"), (f"load average (1 min; top = {lmax:g})", [v * wmax / lmax for v in load], "#aaa")],
          wmax, "wall ms per frame")
    out.append(f'<text x="{(x0 + x1) / 2}" y="{H - 20}" text-anchor="middle">frame index</text>')
    out.append("</svg>")
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: soak-plot.py SOAK.csv OUT.svg")
    main(sys.argv[1], sys.argv[2])
