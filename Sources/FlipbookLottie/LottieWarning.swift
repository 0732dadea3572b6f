/// Something in a Lottie file that Flipbook reads but does not render exactly as After Effects
/// would: an expression that is not evaluated, an image that cannot be found or decoded, a
/// feature the layer mapping leaves out. The animation still loads and renders; warnings say
/// where it may differ.
///
/// The parser emits the ones it can see in the document (see ``LottieAnimation``); the layer
/// mapping adds its own for features it cannot draw.
///
///     layers[2].ks.r: expression: expression not evaluated; its static value is used
public struct LottieWarning: Sendable, Hashable, CustomStringConvertible {
    /// A short name of the feature (`expression`, `image`, `asset`, `effect` …), for grouping.
    public var feature: String
    /// The JSON path of the value the warning is about (`layers[2].ks.r`).
    public var path: String
    /// What happens instead.
    public var message: String

    public init(feature: String, path: String, message: String) {
        self.feature = feature; self.path = path; self.message = message
    }

    public var description: String {
        path.isEmpty ? "\(feature): \(message)" : "\(path): \(feature): \(message)"
    }
}
