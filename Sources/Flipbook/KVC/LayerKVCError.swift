import Foundation
import FlipbookPixels
/// Why a KVC write (or key-path read) was refused.
///
/// The non-throwing API (`setValue(_:forKey:)`, `setValue(_:forKeyPath:)`) never crashes on bad
/// input: it leaves the layer unchanged and prints the error's description on standard error.
/// The throwing `_trySetValue` / `_tryValue` variants report it to the caller (tests use them).
public enum LayerKVCError: Error, Equatable, CustomStringConvertible {
    /// `key` takes `expected`; a value of type `got` was given.
    case wrongType(key: String, expected: String, got: String)
    /// `key` is not optional; nil was given.
    case nilValue(key: String)
    /// `component` of `keyPath` names nothing on the value it was applied to.
    case unknownKeyPathComponent(keyPath: String, component: String)
    /// `key` cannot be set (e.g. `superlayer`).
    case readOnly(key: String)

    public var description: String {
        switch self {
        case let .wrongType(key, expected, got):
            return "CALayer: value of type \(got) for key '\(key)', which takes \(expected); ignored"
        case let .nilValue(key):
            return "CALayer: nil for non-optional key '\(key)'; ignored"
        case let .unknownKeyPathComponent(keyPath, component):
            return "CALayer: unknown component '\(component)' in key path '\(keyPath)'; ignored"
        case let .readOnly(key):
            return "CALayer: key '\(key)' is read-only; ignored"
        }
    }

    static func wrongType(key: String, expected: String, got value: Any?) -> LayerKVCError {
        .wrongType(key: key, expected: expected, got: value.map { String(describing: type(of: $0)) } ?? "nil")
    }
}

/// Where ignored KVC writes are reported (standard error, one line each).
enum _KVCDiagnostics {
    static func report(_ error: LayerKVCError) {
        StandardStreams.error("Flipbook: \(error.description)\n")
    }

    static func report(_ error: Error) {
        if let e = error as? LayerKVCError { report(e) }
        else { StandardStreams.error("Flipbook: \(error)\n") }
    }
}
