#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Clocks and statistics for the benchmark suite.
///
/// Every sample records two times for the same interval:
/// - **wall** (`CLOCK_MONOTONIC`): what a user waits; inflated when other processes share the
///   cores (this machine runs several builds at once);
/// - **cpu** (`CLOCK_PROCESS_CPUTIME_ID`): CPU time of the whole process, which does not count
///   time spent waiting for a core. With one worker thread it is the steadier number; with
///   several it is the *sum* over threads (so cpu ÷ wall ≈ the parallelism obtained).
enum BenchClock {
    /// Monotonic wall time in seconds.
    @inline(__always) static func wall() -> Double { read(CLOCK_MONOTONIC) }
    /// Process CPU time in seconds (all threads).
    @inline(__always) static func cpu() -> Double { read(CLOCK_PROCESS_CPUTIME_ID) }

    @inline(__always) private static func read(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Times `body` once: (wall seconds, cpu seconds).
    @inline(__always) static func measure(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let w0 = wall(), c0 = cpu()
        try body()
        let c1 = cpu(), w1 = wall()
        return (w1 - w0, c1 - c0)
    }

    /// Peak resident set size of this process so far, in bytes (`getrusage`, `ru_maxrss` is KiB on Linux).
    static func peakRSS() -> Int {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Int(u.ru_maxrss) * 1024
    }

    /// Current resident set size in bytes (`/proc/self/statm`, second field × page size), or 0.
    static func currentRSS() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let f = s.split(separator: " ")
        guard f.count > 1, let pages = Int(f[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The 1-minute load average (`/proc/loadavg`), or -1 when unknown.
    static func loadAverage() -> Double {
        guard let s = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
              let first = s.split(separator: " ").first, let v = Double(first) else { return -1 }
        return v
    }
}

/// Summary of one workload's timed samples (milliseconds).
struct BenchStats: Sendable {
    var samples: Int
    var medianMs: Double, minMs: Double, maxMs: Double
    /// Median of the per-sample process CPU times.
    var cpuMedianMs: Double

    /// Median (mean of the two middle values for an even count), min and max of each series.
    init(wall: [Double], cpu: [Double]) {
        samples = wall.count
        medianMs = Self.median(wall) * 1000
        minMs = (wall.min() ?? 0) * 1000
        maxMs = (wall.max() ?? 0) * 1000
        cpuMedianMs = Self.median(cpu) * 1000
    }

    static func median(_ v: [Double]) -> Double {
        if v.isEmpty { return 0 }
        let s = v.sorted(), n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }
}

/// Runs the peers' protocol on `frame`: `warmups` untimed calls, then `frames` calls timed one
/// by one. Setup belongs outside `frame`.
func benchLoop(warmups: Int = 3, frames: Int, _ frame: () throws -> Void) rethrows -> BenchStats {
    for _ in 0..<warmups { try frame() }
    var wall: [Double] = [], cpu: [Double] = []
    wall.reserveCapacity(frames); cpu.reserveCapacity(frames)
    for _ in 0..<frames {
        let t = try BenchClock.measure(frame)
        wall.append(t.wall); cpu.append(t.cpu)
    }
    return BenchStats(wall: wall, cpu: cpu)
}
