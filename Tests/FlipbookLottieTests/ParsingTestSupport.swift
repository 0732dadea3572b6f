import Foundation
@testable import FlipbookLottie

/// Helpers shared by the parsing tests.
enum ParsingSupport {
    /// Parses `text` as `anim.json`.
    static func parse(_ text: String, limits: LottieLimits = .standard, imagesDirectory: URL? = nil) throws -> LottieParser.Result {
        try LottieParser.parse(Data(text.utf8), file: "anim.json", imagesDirectory: imagesDirectory, limits: limits)
    }

    /// The error's description, or "no error".
    static func message(_ text: String, limits: LottieLimits = .standard) -> String {
        do { _ = try parse(text, limits: limits); return "no error" } catch { return "\(error)" }
    }

    /// The error, or nil.
    static func error(_ text: String, limits: LottieLimits = .standard) -> LottieError? {
        do { _ = try parse(text, limits: limits); return nil } catch let e as LottieError { return e } catch { return nil }
    }

    /// A minimal document with `layers` (JSON text) and optional extra root members.
    static func document(layers: String, extra: String = "") -> String {
        #"{"v": "5.7.0", "fr": 30, "ip": 0, "op": 60, "w": 100, "h": 80, "layers": \#(layers)\#(extra)}"#
    }

    /// One shape layer holding `items` (JSON text) in a group.
    static func shapeLayer(_ items: String) -> String {
        #"{"ty": 4, "ks": {}, "shapes": [{"ty": "gr", "it": [\#(items)]}]}"#
    }

    /// The first item of the first group of the first layer.
    static func firstItem(_ c: LottieComposition) -> LottieShapeItem? {
        guard case let .shape(s) = c.layers.first?.kind, case let .group(it, _) = s.first?.kind else { return nil }
        return it.first
    }
}
