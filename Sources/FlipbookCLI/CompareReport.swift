import FlipbookCompare

/// The result of `flipbook compare`: one entry per frame, an exit code, and two renderings
/// (a table for people, JSON for machines). Built by ``CompareCommand/execute()``.
struct CompareReport: Equatable {
    /// What happened to one frame.
    enum Status: String, Equatable {
        case same, different, missingExpected = "missing-expected", missingActual = "missing-actual"
        case sizeMismatch = "size-mismatch", unreadable
        /// Bad input makes the exit code 2.
        var isBadInput: Bool { self == .sizeMismatch || self == .unreadable }
    }

    struct Entry: Equatable {
        var name: String
        var status: Status
        var comparison: ImageComparison?
        /// Why the frame is bad input (sizes, decode error), naming the file.
        var detail: String?
        var diffPath: String?
    }

    var tolerance: Tolerance
    var entries: [Entry]
    /// `DIR/index.html` when `--report DIR` wrote a review page.
    var reportPath: String? = nil

    /// 0 when every frame is within tolerance, 2 when any input is bad (unreadable, sizes
    /// differ), otherwise 1 (a frame differs or is missing on either side).
    var exitCode: Int32 {
        if entries.contains(where: { $0.status.isBadInput }) { return 2 }
        return entries.allSatisfy { $0.status == .same } ? 0 : 1
    }

    func count(_ s: Status) -> Int { entries.filter { $0.status == s }.count }

    /// The summary table, e.g.
    /// ```
    /// frame     result      max Δ  differing         PSNR dB  max ΔE00
    /// a.png     same            0  0 (0%)                  ∞  -
    /// ```
    var table: String {
        var rows = [["frame", "result", "max Δ", "differing", "PSNR dB", "max ΔE00"]]
        for e in entries {
            if let c = e.comparison {
                rows.append([e.name, e.status.rawValue, "\(c.maxChannelDelta)",
                             "\(c.differingPixelCount) (\(_pct(c.differingFraction)))",
                             c.psnr.isInfinite ? "∞" : _num(c.psnr), c.maxDeltaE.map { _num($0) } ?? "-"])
            } else {
                rows.append([e.name, e.status.rawValue, "-", "-", "-", "-"])
            }
        }
        let widths = (0..<6).map { col in rows.map { $0[col].count }.max()! }
        let rightAligned: Set<Int> = [2, 4, 5]
        var lines = rows.map { row in
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        for e in entries where e.detail != nil || e.diffPath != nil {
            if let d = e.detail { lines.append("\(e.name): \(d)") }
            if let p = e.diffPath { lines.append("\(e.name): diff written to \(p)") }
        }
        if let p = reportPath { lines.append("review page: \(p)") }
        lines.append("summary: \(entries.count) frame\(entries.count == 1 ? "" : "s"), \(count(.same)) within tolerance, "
                     + "\(count(.different)) different, \(count(.missingExpected) + count(.missingActual)) missing, "
                     + "\(count(.sizeMismatch) + count(.unreadable)) bad input (tolerance: \(tolerance))")
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object (keys in a fixed order; PSNR of identical frames is `null`).
    var json: String {
        var frames: [String] = []
        for e in entries {
            var f = ["\"name\":\(_jsonString(e.name))", "\"status\":\"\(e.status.rawValue)\""]
            if let c = e.comparison {
                f += ["\"width\":\(c.width)", "\"height\":\(c.height)", "\"maxChannelDelta\":\(c.maxChannelDelta)",
                      "\"changedPixels\":\(c.changedPixelCount)", "\"differingPixels\":\(c.differingPixelCount)",
                      "\"allowedDifferingPixels\":\(c.allowedDifferingPixels)",
                      "\"differingFraction\":\(c.differingFraction)",
                      "\"psnr\":\(c.psnr.isFinite ? "\(c.psnr)" : "null")",
                      "\"maxDeltaE\":\(c.maxDeltaE.map { "\($0)" } ?? "null")"]
            }
            if let d = e.detail { f.append("\"detail\":\(_jsonString(d))") }
            if let p = e.diffPath { f.append("\"diff\":\(_jsonString(p))") }
            frames.append("{" + f.joined(separator: ",") + "}")
        }
        let t = "{\"maxChannelDelta\":\(tolerance.maxChannelDelta),\"maxDeltaE\":\(tolerance.maxDeltaE.map { "\($0)" } ?? "null"),"
            + "\"maxDifferingPixels\":\(_jsonString(tolerance.maxDifferingPixels.description))}"
        return "{\"exitCode\":\(exitCode),\"tolerance\":\(t),\"summary\":{\"frames\":\(entries.count),"
            + "\"same\":\(count(.same)),\"different\":\(count(.different)),"
            + "\"missing\":\(count(.missingExpected) + count(.missingActual)),"
            + "\"badInput\":\(count(.sizeMismatch) + count(.unreadable))},\"frames\":[" + frames.joined(separator: ",") + "]"
            + (reportPath.map { ",\"report\":\(_jsonString($0))" } ?? "") + "}"
    }

    func _num(_ x: Double) -> String {
        let s = x * 100
        let r = (s.rounded()) / 100
        return "\(r)"
    }
    func _pct(_ f: Double) -> String {
        let p = (f * 100_000).rounded() / 1000
        return p == p.rounded() ? "\(Int(p))%" : "\(p)%"
    }
}

/// A JSON string literal: quotes, backslashes and control characters escaped.
func _jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if u.value < 0x20 {
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
