import Foundation
import Flipbook

/// Finds the font a text document names, for text drawn from a font's outlines.
///
/// A document names a font by `f`, the `fName` of an entry of the file's `fonts.list`, which
/// gives its family (`fFamily`) and style (`fStyle`). The font is looked up among Flipbook's
/// bundled fonts and the installed ones (fontconfig, exact names only: see `CGFont(_:)`), by,
/// in order: `fName` (usually the PostScript name, `Roboto-Bold`), the full name
/// (`Roboto Bold`), the PostScript-style `Family-Style` (`Roboto-Bold`), then the family
/// alone (its regular face: exact for a Regular style, else the mapper warns that the style is
/// missing). A font that none of these finds is drawn with the bundled DejaVu Sans, and the
/// mapper warns naming the font: Flipbook never takes fontconfig's nearest substitute, so
/// output does not change with what a machine has installed. Web fonts (`fPath` URLs) are not
/// downloaded.
///
/// Lookups are cached per process (fontconfig is slow to ask).
package enum LottieFontResolver {
    /// What the lookup found.
    package enum Match: Equatable {
        /// The font asked for.
        case exact
        /// The family's regular face: the style asked for is not there.
        case familyOnly
        /// Nothing: the bundled default is used.
        case missing
    }

    /// The font for a document's `f` (`name`) and how well it matches; the bundled default
    /// when nothing matches.
    package static func resolve(name: String, in fonts: [LottieFont]) -> (font: CGFont, match: Match) {
        let entry = fonts.first { $0.name == name }
        for candidate in candidates(name: name, entry: entry) {
            if let f = cache.font(named: candidate) { return (f, .exact) }
        }
        if let e = entry, let f = cache.font(named: e.family) { return (f, .familyOnly) }
        return (CGFont.bundledDefault, .missing)
    }

    /// A readable name of the font a document asks for (for warnings).
    package static func describe(name: String, in fonts: [LottieFont]) -> String {
        guard let e = fonts.first(where: { $0.name == name }) else { return "\"\(name)\"" }
        let full = e.style.isEmpty ? e.family : "\(e.family) \(e.style)"
        return full == name ? "\"\(name)\"" : "\"\(full)\" (\(name))"
    }

    /// The names tried, in order (see the type's documentation).
    package static func candidates(name: String, entry: LottieFont?) -> [String] {
        var out: [String] = []
        func add(_ s: String) {
            let t = s.trimmingCharacters(in: .whitespaces)
            if !t.isEmpty, !out.contains(t) { out.append(t) }
        }
        add(name)
        if let e = entry {
            let style = e.style.trimmingCharacters(in: .whitespaces)
            if !style.isEmpty {
                add("\(e.family) \(style)")
                add("\(e.family.replacingOccurrences(of: " ", with: ""))-\(style.replacingOccurrences(of: " ", with: ""))")
            }
            if ["", "regular", "normal", "book", "roman"].contains(style.lowercased()) { add(e.family) }
        }
        return out
    }

    private static let cache = Cache()

    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var fonts: [String: CGFont?] = [:]
        func font(named name: String) -> CGFont? {
            lock.lock(); defer { lock.unlock() }
            if let f = fonts[name] { return f }
            let f = CGFont(name)
            fonts[name] = f
            return f
        }
    }
}
