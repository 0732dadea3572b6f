/// What happened to one snapshot. Only ``matched(_:)`` is a pass: everything else carries a
/// ``message`` that the assertions report as a test failure.
public enum SnapshotOutcome: Sendable {
    /// The actual image is within tolerance of the reference.
    case matched(ImageComparison)
    /// A reference was written (record mode); `previous` is the comparison with the old
    /// reference when one existed.
    case recorded(referencePath: String, previous: ImageComparison?)
    /// The reference exists and the actual image differs beyond tolerance. The actual, diff
    /// and expected images were written to `artifacts`.
    case different(ImageComparison, referencePath: String, artifacts: [String])
    /// The reference has another size; the actual image was written to `artifacts`.
    case sizeMismatch(ImageComparison.SizeMismatch, referencePath: String, artifacts: [String])
    /// No reference, and the record mode forbids writing one.
    case missingReference(referencePath: String, mode: SnapshotRecordMode)
    /// Verification itself failed (unreadable reference, unwritable folder …).
    case error(SnapshotError)

    /// True for every case but ``matched(_:)``.
    public var isFailure: Bool {
        if case .matched = self { return false }
        return true
    }

    /// The failure message (several lines), or `nil` for a match.
    public var message: String? {
        switch self {
        case .matched:
            return nil
        case let .recorded(path, previous):
            let what = previous == nil ? "Recorded a new reference" : "Re-recorded the reference"
            var s = "\(what): \(path)\n"
            if let previous { s += "  was: \(previous.summary)\n" }
            s += "  Review it, commit it, and run again without FLIPBOOK_RECORD (writing a reference always fails the test)."
            return s
        case let .different(c, reference, artifacts):
            var s = "Snapshot differs from its reference (tolerance: \(c.tolerance)).\n"
            s += "  \(c.summary)\n  reference: \(reference)"
            for a in artifacts { s += "\n  \(SnapshotOutcome._label(a)): \(a)" }
            return s
        case let .sizeMismatch(m, reference, artifacts):
            var s = "Snapshot has the wrong size: \(m).\n  reference: \(reference)"
            for a in artifacts { s += "\n  \(SnapshotOutcome._label(a)): \(a)" }
            return s
        case let .missingReference(path, mode):
            return "No reference image at \(path) (record mode \(mode.rawValue)"
                + (mode == .never ? ", the default when CI is set" : "")
                + "). Record it locally with FLIPBOOK_RECORD=missing, review and commit it."
        case let .error(e):
            return "Snapshot could not be verified: \(e)"
        }
    }

    /// The comparison, when one was made.
    public var comparison: ImageComparison? {
        switch self {
        case .matched(let c), .different(let c, _, _): return c
        case .recorded(_, let p): return p
        default: return nil
        }
    }

    /// `actual` / `diff` / `expected` from an artifact path.
    static func _label(_ path: String) -> String {
        for k in ["actual", "diff", "expected"] where path.hasSuffix(".\(k).png") { return k }
        return "artifact"
    }

    /// One message for a sequence: `nil` when every frame matched; otherwise a header counting
    /// the failing frames, then each failing frame's name and message, in the given order.
    public static func combinedMessage(_ frames: [(name: String, outcome: SnapshotOutcome)]) -> String? {
        let failing = frames.filter { $0.outcome.isFailure }
        guard !failing.isEmpty else { return nil }
        var s = "\(failing.count) of \(frames.count) frames differ: \(failing.map(\.name).joined(separator: ", "))"
        for f in failing {
            let body = f.outcome.message!.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "  " + $0 }.joined(separator: "\n")
            s += "\n• \(f.name):\n\(body)"
        }
        return s
    }
}
