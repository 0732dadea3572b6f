import Foundation

/// A font at a size (the part of Core Text's `CTFont` that text attributes need), so that
/// attributed strings written for Apple — `UIFont(name:size:)` becomes
/// `CTFontCreateWithName(name, size, nil)` — port with one edit. Core Text's line and frame
/// API (`CTLine`, `CTFramesetter`, `CTFrame`: CoreText.swift) and `CATextLayer` lay text out
/// with it.
public final class CTFont: @unchecked Sendable, Hashable {
    /// The font's outlines and metrics.
    public let graphicsFont: CGFont
    /// The size in points.
    public let pointSize: CGFloat

    init(graphicsFont: CGFont, pointSize: CGFloat) {
        self.graphicsFont = graphicsFont; self.pointSize = pointSize
    }

    public static func == (a: CTFont, b: CTFont) -> Bool { a.graphicsFont === b.graphicsFont && a.pointSize == b.pointSize }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(graphicsFont)); h.combine(pointSize) }
}

/// The font named `name` at `size` (0: 12 points, Apple's default). As on Apple a name that no
/// font has still gives a font — the bundled default, DejaVu Sans — and Flipbook says so once
/// on standard error. `matrix` is accepted and ignored.
/// Apple's signature: the name is a `CFString` (`"Didot" as CFString`; a literal works as it is).
public func CTFontCreateWithName(_ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont {
    CTFont(graphicsFont: CGFont._named(name as String) ?? .bundledDefault, pointSize: size == 0 ? 12 : size)
}

/// `graphicsFont` at `size` (0: 12 points). `matrix` and `attributes` are accepted and ignored.
public func CTFontCreateWithGraphicsFont(_ graphicsFont: CGFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
                                         _ attributes: Any?) -> CTFont {
    CTFont(graphicsFont: graphicsFont, pointSize: size == 0 ? 12 : size)
}

/// The size of a `CTFont` (Apple's function form).
public func CTFontGetSize(_ font: CTFont) -> CGFloat { font.pointSize }

extension NSAttributedString.Key {
    /// The font of a range: a ``CTFont`` (font and size), a `CGFont` or a font name (Apple's
    /// `NSFontAttributeName`, raw value `NSFont`).
    public static let font = NSAttributedString.Key("NSFont")
    /// The text colour of a range: a `CGColor` (Apple's raw value `NSColor`; on Apple a
    /// `UIColor`/`NSColor`).
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// Extra space after each character, in points (raw value `NSKern`).
    public static let kern = NSAttributedString.Key("NSKern")
}

extension CGFont {
    private static let _cache = _FontNameCache()

    /// A font by name, looked up once per name per process; an unknown name is reported once on
    /// standard error and gives nil (callers use the default).
    package static func _named(_ name: String) -> CGFont? { _cache.font(named: name) }
}

/// Fonts by name, looked up once per name per process; unknown names are reported once.
final class _FontNameCache: @unchecked Sendable {
    private let lock = NSLock()
    private var fonts: [String: CGFont?] = [:]

    func font(named name: String) -> CGFont? {
        lock.lock(); defer { lock.unlock() }
        if let f = fonts[name] { return f }
        let f = CGFont(name)
        if f == nil {
            FileHandle.standardError.write(Data("flipbook: font \"\(name)\" not found (bundled or installed); using DejaVu Sans\n".utf8))
        }
        fonts[name] = f
        return f
    }
}
