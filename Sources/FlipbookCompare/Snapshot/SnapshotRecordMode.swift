/// When reference images are written instead of compared.
///
/// Chosen per assertion, or for a whole run by the `FLIPBOOK_RECORD` environment variable.
/// **Any assertion that writes a reference fails**, with a message naming the file, so a test
/// run that passes has never changed a reference: review the new PNGs, commit them, run again.
public enum SnapshotRecordMode: String, Sendable, Hashable, CaseIterable {
    /// Write references that do not exist yet; compare the others. The default on a developer
    /// machine.
    case missing
    /// Rewrite every reference whose pixels differ from the actual image at all (exactly, not
    /// within tolerance) or that is missing; identical ones are left untouched, so the run
    /// fails only where something changed.
    case all
    /// Never write: a missing reference is a failure. The default when `CI` is set.
    case never

    /// The run's mode from the environment:
    /// 1. `FLIPBOOK_RECORD` (`missing`, `all`, `never`; case-insensitive) when set and not empty;
    /// 2. otherwise `never` when `CI` is set to anything but empty, `0` or `false` (GitHub
    ///    Actions, GitLab, Buildkite, CircleCI … all set `CI=true`);
    /// 3. otherwise `missing`.
    ///
    /// - Throws: ``SnapshotError/badRecordMode(_:)`` for an unknown `FLIPBOOK_RECORD`, so a typo
    ///   never silently records or silently skips recording.
    public static func fromEnvironment(
        _ lookup: (String) -> String? = SnapshotFileSystem.environment
    ) throws(SnapshotError) -> SnapshotRecordMode {
        if let raw = lookup("FLIPBOOK_RECORD"), !raw.isEmpty {
            guard let mode = SnapshotRecordMode(rawValue: raw.lowercased()) else { throw .badRecordMode(raw) }
            return mode
        }
        if let ci = lookup("CI"), !ci.isEmpty, ci != "0", ci.lowercased() != "false" { return .never }
        return .missing
    }
}
