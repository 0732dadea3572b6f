"""Timing shared by the Benchmarks/peers-*.py scripts (imported from the script's folder)."""
import statistics, time


def timed(frame, frames):
    """Runs `frame` 3 times to warm up, then `frames` times; returns (median, min) in ms."""
    for _ in range(3):
        frame()
    ts = []
    for _ in range(frames):
        t = time.perf_counter()
        frame()
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts), min(ts)
