import Foundation

/// A feature of a Lottie file that is not drawn exactly (or not at all), or content that was
/// repaired: what, where (the JSON path), and what Flipbook does instead. Warnings never stop
/// a render; the CLI prints each once on stderr and `flipbook info` lists them.
public struct LottieWarning: Sendable, Hashable, CustomStringConvertible {
    /// A short, stable name of the feature (`expression`, `effect`, `merge paths`…).
    public var feature: String
    /// The JSON path of the item (`layers[3].shapes[0].it[2]`).
    public var path: String
    /// What is drawn instead.
    public var message: String

    public init(feature: String, path: String, message: String) {
        self.feature = feature; self.path = path; self.message = message
    }

    public var description: String { path.isEmpty ? "\(feature): \(message)" : "\(path): \(feature): \(message)" }
}
