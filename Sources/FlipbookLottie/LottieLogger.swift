import Foundation

/// Where ``LottieAnimationLayer`` reports what it cannot draw exactly (lottie-ios's
/// `LottieLogger`, reduced to warnings).
///
/// Every warning of an animation — the parser's (expressions, missing images…) and the layer
/// mapping's (effects, unsupported modes…) — is also kept in
/// ``LottieAnimationLayer/warnings``; the logger is told each one once, when the layer tree is
/// built. The default logger writes them to standard error, one line each
/// (`LottieWarning.description`); pass ``silent`` (or your own) to the layer's initializer,
/// or replace ``shared``.
///
///     let logger = LottieLogger(warn: { message in myLog.append(message) })
///     let layer = LottieAnimationLayer(animation: animation, logger: logger)
public final class LottieLogger: @unchecked Sendable {
    /// Receives one warning's text.
    public typealias Warn = @Sendable (_ message: String) -> Void

    private let _warn: Warn

    /// A logger that hands each warning to `warn` (default: standard error).
    public init(warn: @escaping Warn = { message in
        FileHandle.standardError.write(Data("lottie: \(message)\n".utf8))
    }) {
        _warn = warn
    }

    /// Logs a warning message.
    public func warn(_ message: String) { _warn(message) }

    /// The logger layers use when none is given: standard error. Replace it to route every
    /// layer's warnings elsewhere (set it before building layers; not synchronised).
    nonisolated(unsafe) public static var shared = LottieLogger()

    /// A logger that drops everything (the warnings stay in ``LottieAnimationLayer/warnings``).
    public static let silent = LottieLogger(warn: { _ in })
}
