#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One measured row of the benchmark suite: a workload or one point of a sweep.
struct BenchResult: Sendable {
    /// Workload name (`w1`, `w3-fast`, `sweep-layers`, …).
    var name: String
    /// The sweep parameter for sweep rows (`"layers=100"`), empty for workloads.
    var variant: String = ""
    var stats: BenchStats
    /// Pixels counted for Mpix/s per timed sample (covered pixels; raw pixels for PNG).
    var pixels: Int
    var threads: Int
    /// Peak resident set size of the process after this row (bytes, `getrusage`).
    var peakRSS: Int
    /// Load average (1 min) when the row finished.
    var load: Double
    /// Free-form note (PNG size, frame count, …).
    var note: String = ""

    /// Covered megapixels per second at the median time.
    var mpixPerSecond: Double { stats.medianMs > 0 ? Double(pixels) / (stats.medianMs * 1000) : 0 }
}

/// The machine a run happened on, for the JSON and the docs table.
struct BenchMachine {
    var cpu: String
    var cores: Int
    var simd: String
    var loadStart: Double
    var date: String

    static func current(simd: String) -> BenchMachine {
        var model = "unknown"
        if let s = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = s.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return BenchMachine(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount, simd: simd,
                            loadStart: BenchClock.loadAverage(), date: f.string(from: Date()))
    }
}

/// Table and JSON output.
enum BenchReport {
    static let header = "workload         | variant          | thr |  median ms |    min ms |    max ms |   cpu ms |   Mpix/s | peak MiB | load | note"

    static func row(_ r: BenchResult) -> String {
        let s = r.stats
        return [pad(r.name, 16), pad(r.variant, 16), pad(String(r.threads), 3, left: true),
                pad(fixed(s.medianMs, 3), 10, left: true), pad(fixed(s.minMs, 3), 9, left: true),
                pad(fixed(s.maxMs, 3), 9, left: true), pad(fixed(s.cpuMedianMs, 3), 8, left: true),
                pad(fixed(r.mpixPerSecond, 1), 8, left: true), pad(fixed(Double(r.peakRSS) / 1_048_576, 1), 8, left: true),
                pad(fixed(r.load, 2), 4, left: true), r.note].joined(separator: " | ")
    }

    /// `{"workloads": [...], "machine": {...}}` (numbers in ms, Mpix/s, bytes).
    static func json(_ results: [BenchResult], machine m: BenchMachine) -> String {
        let rows = results.map { r -> String in
            let s = r.stats
            var f = ["\"name\": \(quote(r.name))"]
            if !r.variant.isEmpty { f.append("\"variant\": \(quote(r.variant))") }
            f += ["\"median_ms\": \(num(s.medianMs))", "\"min_ms\": \(num(s.minMs))", "\"max_ms\": \(num(s.maxMs))",
                  "\"cpu_median_ms\": \(num(s.cpuMedianMs))", "\"mpix_per_s\": \(num(r.mpixPerSecond))",
                  "\"threads\": \(r.threads)", "\"frames\": \(s.samples)", "\"pixels\": \(r.pixels)",
                  "\"peak_rss_bytes\": \(r.peakRSS)", "\"load\": \(num(r.load))"]
            if !r.note.isEmpty { f.append("\"note\": \(quote(r.note))") }
            return "    {" + f.joined(separator: ", ") + "}"
        }
        let machine = "{\"cpu\": \(quote(m.cpu)), \"cores\": \(m.cores), \"simd\": \(quote(m.simd)), "
            + "\"load_start\": \(num(m.loadStart)), \"load_end\": \(num(BenchClock.loadAverage())), \"date\": \(quote(m.date))}"
        return "{\"workloads\": [\n" + rows.joined(separator: ",\n") + "\n  ],\n  \"machine\": " + machine + "}"
    }

    static func num(_ v: Double) -> String { v.isFinite ? fixed(v, 4) : "null" }

    static func quote(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if c.value < 0x20 { out += String(format: "\\u%04x", c.value) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    static func fixed(_ v: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", v) }

    static func pad(_ s: String, _ n: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return left ? fill + s : s + fill
    }
}
