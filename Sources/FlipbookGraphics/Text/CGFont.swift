import CFlipbookText
import FlipbookRaster
import Foundation

/// A glyph index in a font (Apple's `CGGlyph`).
public typealias CGGlyph = UInt16

/// A font: glyph outlines and metrics (Apple's `CGFont`), read by FreeType and shaped by
/// HarfBuzz, drawn by Flipbook's own rasterizer.
///
/// **Which font.** `CGFont("Name")` looks the name up among the fonts Flipbook ships first
/// (`"DejaVu Sans"` / `"DejaVuSans"`, the default, and `"Noto Sans Devanagari"` /
/// `"NotoSansDevanagari-Regular"`, the fallback for Devanagari), then among the installed fonts
/// through fontconfig, by exact family, full or PostScript name (case-insensitive). A name that
/// matches nothing gives nil — never fontconfig's nearest substitute, so output cannot change
/// silently with what a machine has installed. ``CGFont/init(_:)-(CGDataProvider)`` reads a
/// font file's bytes (TrueType, OpenType/CFF, a collection's first face); ``bundledDefault``
/// is DejaVu Sans.
///
/// **Units.** Metrics and advances are in font units (``unitsPerEm`` to the em), y up, as on
/// Apple. Outlines are unhinted: a glyph is the same shape at every size and on every machine.
///
/// A font is immutable and safe to share between threads; its outlines are cached.
public final class CGFont: @unchecked Sendable, Hashable, CustomStringConvertible {
    package let _handle: OpaquePointer
    let _metrics: fbk_font_metrics
    /// Keeps in-memory font bytes alive as long as FreeType and HarfBuzz read them.
    private let _bytes: Data?
    private let _outlines = _GlyphOutlineCache()
    /// Glyph outlines flattened at device scales in 24.8 fixed point (text drawing).
    package let _fixedOutlines = _GlyphFixedOutlines()

    /// The PostScript name (e.g. `DejaVuSans`).
    public let postScriptName: String?
    /// The family name (e.g. `DejaVu Sans`). Apple's `fullName` is the full name of the face;
    /// here it is the family name followed by the style when the style is not Regular/Book.
    public let fullName: String?
    let _family: String

    private init?(handle: OpaquePointer?, bytes: Data?) {
        guard let handle else { return nil }
        _handle = handle
        _bytes = bytes
        var m = fbk_font_metrics()
        fbk_font_get_metrics(handle, &m)
        _metrics = m
        func name(_ f: (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String {
            var buf = [CChar](repeating: 0, count: 256)
            _ = f(handle, &buf, buf.count)
            return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        _family = name(fbk_font_family_name)
        let ps = name(fbk_font_postscript_name)
        postScriptName = ps.isEmpty ? nil : ps
        fullName = _family.isEmpty ? postScriptName : _family
        guard m.units_per_em > 0 else { return nil }      // deinit closes the handle
    }

    deinit { fbk_font_close(_handle) }

    /// The font in a data provider's bytes (face 0); nil when they are not a font FreeType can
    /// read with outlines.
    public convenience init?(_ provider: CGDataProvider) {
        let data = provider.data
        guard !data.isEmpty else { return nil }
        var err: Int32 = 0
        let handle = data.withUnsafeBytes { raw in
            fbk_font_open_memory(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, 0, &err)
        }
        self.init(handle: handle, bytes: data)
    }

    /// The font named `name` (a bundled font, or an installed font's exact family, full or
    /// PostScript name); nil when no font has that name. See the type's documentation.
    public convenience init?(_ name: String) {
        if let b = CGFont._bundledIndex(named: name) {
            var size = 0
            guard let p = fbk_bundled_font(Int32(b), &size) else { return nil }
            var err: Int32 = 0
            // The bundled bytes are static: no copy needed.
            self.init(handle: fbk_font_open_memory(p, size, 0, &err), bytes: nil)
            return
        }
        var path = [CChar](repeating: 0, count: 4096)
        var index: Int32 = 0
        guard fbk_font_find(name, &path, path.count, &index) == 1 else { return nil }
        var err: Int32 = 0
        self.init(handle: fbk_font_open_file(path, index, &err), bytes: nil)
    }

    /// The font named `name` (Apple's `init?(_ name: CFString)`: `"Didot" as CFString`).
    public convenience init?(_ name: CFString) { self.init(name as String) }

    /// The font in the file at `path` (face `index` of a collection); nil when it cannot be read
    /// as a font. A Flipbook addition (Apple: `CGFont(CGDataProvider(url:)!)`).
    public convenience init?(contentsOfFile path: String, index: Int = 0) {
        var err: Int32 = 0
        self.init(handle: fbk_font_open_file(path, Int32(clamping: index), &err), bytes: nil)
    }

    /// The bytes of bundled font `which` (0 DejaVu Sans, 1 Noto Sans Devanagari), e.g. to write
    /// it out as a file. Package API (tests).
    package static func bundledFontData(_ which: Int) -> Data {
        var size = 0
        guard let p = fbk_bundled_font(Int32(which), &size) else { return Data() }
        return Data(bytes: p, count: size)
    }

    static func _bundledIndex(named name: String) -> Int? {
        switch name.lowercased() {
        case "dejavu sans", "dejavusans", "dejavu sans book": return 0
        case "noto sans devanagari", "notosansdevanagari-regular", "notosansdevanagari", "noto sans devanagari regular": return 1
        default: return nil
        }
    }

    /// DejaVu Sans, compiled into Flipbook: the default font of text layers.
    public static let bundledDefault: CGFont = CGFont("DejaVu Sans")!

    /// Noto Sans Devanagari, compiled into Flipbook: the fallback for Devanagari text.
    public static let bundledDevanagari: CGFont = CGFont("Noto Sans Devanagari")!

    // MARK: Metrics (font units)

    /// Font units per em.
    public var unitsPerEm: Int32 { _metrics.units_per_em }
    /// Distance from the baseline to the top of the tallest glyphs (hhea ascender).
    public var ascent: Int32 { _metrics.ascender }
    /// Distance from the baseline to the bottom of the lowest glyphs, negative (hhea descender).
    public var descent: Int32 { _metrics.descender }
    /// The extra space between lines (hhea line gap).
    public var leading: Int32 { _metrics.line_gap }
    /// The height of capital letters (OS/2; 0 when the font does not say).
    public var capHeight: Int32 { _metrics.cap_height }
    /// The height of lowercase letters (OS/2; 0 when the font does not say).
    public var xHeight: Int32 { _metrics.x_height }
    /// The italic angle in degrees, counter-clockwise from vertical.
    public var italicAngle: CGFloat { CGFloat(_metrics.italic_angle_x1000) / 1000 }
    /// The union of all glyphs' bounding boxes.
    public var fontBBox: CGRect {
        let b = _metrics.bbox
        return CGRect(x: CGFloat(b.0), y: CGFloat(b.1), width: CGFloat(b.2 - b.0), height: CGFloat(b.3 - b.1))
    }
    /// The number of glyphs.
    public var numberOfGlyphs: Int { Int(_metrics.num_glyphs) }

    /// The horizontal advances (font units) of `count` glyphs; false when a glyph is invalid.
    public func getGlyphAdvances(glyphs: UnsafePointer<CGGlyph>, count: Int, advances: UnsafeMutablePointer<Int32>) -> Bool {
        var ok = true
        for i in 0..<max(0, count) {
            if Int(glyphs[i]) >= numberOfGlyphs { ok = false; advances[i] = 0; continue }
            advances[i] = fbk_font_glyph_advance(_handle, UInt32(glyphs[i]))
        }
        return ok
    }

    /// The glyph a character maps to (0, `.notdef`, when the font has none). A Flipbook
    /// addition (Apple: `CTFontGetGlyphsForCharacters`).
    public func glyph(for scalar: Unicode.Scalar) -> CGGlyph {
        CGGlyph(truncatingIfNeeded: fbk_font_glyph_for_char(_handle, scalar.value))
    }

    /// Whether the font has a glyph for the character.
    package func _hasGlyph(_ cp: UInt32) -> Bool { fbk_font_glyph_for_char(_handle, cp) != 0 }

    /// The outline of a glyph in font units, y up (empty for glyphs without one, like a
    /// space). Cached.
    package func _outline(_ glyph: UInt32) -> RasterPath {
        if let p = _outlines.get(glyph) { return p }
        var np: Int32 = 0
        let nv = fbk_font_glyph_outline(_handle, glyph, nil, 0, nil, 0, &np)
        var path = RasterPath()
        if nv > 0, np > 0 {
            var verbs = [UInt8](repeating: 0, count: Int(nv))
            var xy = [Double](repeating: 0, count: Int(np) * 2)
            var np2: Int32 = 0
            let nv2 = fbk_font_glyph_outline(_handle, glyph, &verbs, nv, &xy, np, &np2)
            if nv2 == nv, np2 == np {
                path.reserveCapacity(verbs: Int(nv), points: Int(np))
                var k = 0
                func pt() -> RasterPoint { defer { k += 2 }; return RasterPoint(xy[k], xy[k + 1]) }
                for v in verbs {
                    switch v {
                    case 0: path.move(to: pt())
                    case 1: path.line(to: pt())
                    case 2: let c = pt(); path.quad(to: pt(), control: c)
                    case 3: let c1 = pt(), c2 = pt(); path.cubic(to: pt(), control1: c1, control2: c2)
                    default: path.close()
                    }
                }
            }
        }
        _outlines.set(glyph, path)
        return path
    }

    /// The outline of a glyph as a `CGPath` in font units, y up (Apple: `CTFontCreatePathForGlyph`
    /// at a size of `unitsPerEm`); nil for an invalid glyph.
    public func path(for glyph: CGGlyph) -> CGPath? {
        guard Int(glyph) < numberOfGlyphs else { return nil }
        return CGPath(_outline(UInt32(glyph)))
    }

    public static func == (a: CGFont, b: CGFont) -> Bool { a === b }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
    public var description: String { "<CGFont \(postScriptName ?? _family)>" }
}

/// Glyph outlines of one font, shared by every thread that draws with it.
final class _GlyphOutlineCache: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [UInt32: RasterPath] = [:]
    func get(_ g: UInt32) -> RasterPath? { lock.lock(); defer { lock.unlock() }; return paths[g] }
    func set(_ g: UInt32, _ p: RasterPath) { lock.lock(); paths[g] = p; lock.unlock() }
}
