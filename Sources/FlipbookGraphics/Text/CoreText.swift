import FlipbookRaster
import Foundation

// MARK: - Core Text: lines and frames
//
// Core Text's line and frame API (a subset, Apple's Swift signatures) on Flipbook's typesetter
// (`_Paragraph`: font fallback, UAX #9 bidi, HarfBuzz shaping, UAX #14 line breaks). docs/text.md
// "Core Text" lists what is read and drawn, and the choices made where Apple's reference is
// silent.
//
// Geometry is Core Text's: a line's origin is the start of its baseline; glyphs are y up in text
// space, placed by the context's text matrix (whose translation is the text position) and then
// by the CTM — exactly as `showGlyphs(_:at:)`. A frame's lines are placed in Core Text's y-up
// frame coordinates: the first line at the top (max y) of the path's bounding rectangle.

// MARK: Attribute names
//
// `CFString` constants as Apple declares them (`NSString`s here; immutable, hence
// `nonisolated(unsafe)`). As a dictionary key: `kCTFontAttributeName as NSAttributedString.Key`,
// as on Apple (Foundation on Linux bridges an `NSString` to the key as well).

/// The font of a range: a ``CTFont`` (raw value `NSFont`, the same key as
/// `NSAttributedString.Key.font`). Absent (or not a `CTFont`): the default font at 12 points.
nonisolated(unsafe) public let kCTFontAttributeName: CFString = "NSFont"
/// The text colour of a range: a `CGColor` (raw value `CTForegroundColor`). Absent: black.
/// `NSAttributedString.Key.foregroundColor` (raw value `NSColor`) holding a `CGColor` is read
/// too; when a range has both, this one wins.
nonisolated(unsafe) public let kCTForegroundColorAttributeName: CFString = "CTForegroundColor"
/// A boolean: the range is drawn with the context's fill colour instead of its
/// foreground colour (raw value `CTForegroundColorFromContext`).
nonisolated(unsafe) public let kCTForegroundColorFromContextAttributeName: CFString = "CTForegroundColorFromContext"
/// Extra space after each character, in points (raw value `NSKern`, the same key as
/// `NSAttributedString.Key.kern`).
nonisolated(unsafe) public let kCTKernAttributeName: CFString = "NSKern"
/// The paragraph style of a range: a ``CTParagraphStyle`` (raw value `NSParagraphStyle`).
nonisolated(unsafe) public let kCTParagraphStyleAttributeName: CFString = "NSParagraphStyle"

extension NSAttributedString.Key {
    /// The paragraph style of a range (raw value `NSParagraphStyle`). Foundation on Linux has no
    /// `NSParagraphStyle` (it is UIKit's and AppKit's): the value Flipbook reads is a
    /// ``CTParagraphStyle``.
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
}

// MARK: Paragraph styles

/// How a paragraph's lines sit between the frame's edges (Apple's `CTTextAlignment`).
public enum CTTextAlignment: UInt8, Sendable {
    case left = 0, right = 1, center = 2, justified = 3, natural = 4
}

/// Which setting a ``CTParagraphStyleSetting`` holds (Apple's `CTParagraphStyleSpecifier`).
/// Flipbook reads `.alignment`; the others are accepted and ignored.
public enum CTParagraphStyleSpecifier: UInt32, Sendable {
    case alignment = 0, firstLineHeadIndent = 1, headIndent = 2, tailIndent = 3, tabStops = 4, defaultTabInterval = 5,
         lineBreakMode = 6, lineHeightMultiple = 7, maximumLineHeight = 8, minimumLineHeight = 9, lineSpacing = 10,
         paragraphSpacing = 11, paragraphSpacingBefore = 12, baseWritingDirection = 13, maximumLineSpacing = 14,
         minimumLineSpacing = 15, lineSpacingAdjustment = 16, lineBoundsOptions = 17, count = 18
}

/// One setting of a paragraph style: which, and a pointer to its value (Apple's
/// `CTParagraphStyleSetting`; the pointer is read only during ``CTParagraphStyleCreate(_:_:)``).
public struct CTParagraphStyleSetting {
    public var spec: CTParagraphStyleSpecifier
    public var valueSize: Int
    public var value: UnsafeRawPointer
    public init(spec: CTParagraphStyleSpecifier, valueSize: Int, value: UnsafeRawPointer) {
        self.spec = spec; self.valueSize = valueSize; self.value = value
    }
}

/// A paragraph style (Apple's `CTParagraphStyle`): Flipbook keeps its alignment.
public final class CTParagraphStyle: @unchecked Sendable {
    public let alignment: CTTextAlignment
    init(alignment: CTTextAlignment) { self.alignment = alignment }
}

/// A paragraph style from `settingCount` settings. An `.alignment` setting must have a
/// `valueSize` of 1 (a `CTTextAlignment`); settings Flipbook does not read are ignored, and so is
/// an alignment of the wrong size or an unknown value (natural, the default, is kept).
public func CTParagraphStyleCreate(_ settings: UnsafePointer<CTParagraphStyleSetting>?, _ settingCount: Int) -> CTParagraphStyle {
    var alignment = CTTextAlignment.natural
    if let settings {
        for i in 0..<max(0, settingCount) where settings[i].spec == .alignment && settings[i].valueSize == 1 {
            if let a = CTTextAlignment(rawValue: settings[i].value.load(as: UInt8.self)) { alignment = a }
        }
    }
    return CTParagraphStyle(alignment: alignment)
}

/// Copies the value of `spec` into `valueBuffer` (Apple's `CTParagraphStyleGetValueForSpecifier`).
/// Only `.alignment` (1 byte) is answered; false for anything else or a buffer of the wrong size.
public func CTParagraphStyleGetValueForSpecifier(_ paragraphStyle: CTParagraphStyle, _ spec: CTParagraphStyleSpecifier,
                                                 _ valueBufferSize: Int, _ valueBuffer: UnsafeMutableRawPointer) -> Bool {
    guard spec == .alignment, valueBufferSize == 1 else { return false }
    valueBuffer.storeBytes(of: paragraphStyle.alignment.rawValue, as: UInt8.self)
    return true
}

// MARK: Font metrics

/// The font's ascent in points (Apple's `CTFontGetAscent`: hhea ascender × size / units per em).
public func CTFontGetAscent(_ font: CTFont) -> CGFloat { CGFloat(font.graphicsFont.ascent) * font._scale }
/// The font's descent in points, positive (Apple's `CTFontGetDescent`).
public func CTFontGetDescent(_ font: CTFont) -> CGFloat { -CGFloat(font.graphicsFont.descent) * font._scale }
/// The font's leading (line gap) in points (Apple's `CTFontGetLeading`).
public func CTFontGetLeading(_ font: CTFont) -> CGFloat { CGFloat(font.graphicsFont.leading) * font._scale }
/// The font's units per em (Apple's `CTFontGetUnitsPerEm`).
public func CTFontGetUnitsPerEm(_ font: CTFont) -> UInt32 { UInt32(max(0, font.graphicsFont.unitsPerEm)) }
/// The height of capital letters in points (Apple's `CTFontGetCapHeight`; 0 when the font does not say).
public func CTFontGetCapHeight(_ font: CTFont) -> CGFloat { CGFloat(font.graphicsFont.capHeight) * font._scale }
/// The height of lowercase letters in points (Apple's `CTFontGetXHeight`; 0 when the font does not say).
public func CTFontGetXHeight(_ font: CTFont) -> CGFloat { CGFloat(font.graphicsFont.xHeight) * font._scale }

extension CTFont {
    /// Points per font unit.
    var _scale: CGFloat { pointSize / CGFloat(graphicsFont.unitsPerEm) }
}

// MARK: Lines

/// A line of shaped glyphs (Apple's `CTLine`): made by ``CTLineCreateWithAttributedString(_:)``
/// or by a frame. Immutable.
public final class CTLine: @unchecked Sendable {
    struct Glyph {
        var font: CGFont
        var size: Double
        var glyph: UInt32
        /// Position in text space (y up) from the line's origin.
        var x: Double, y: Double
        /// Pen position before the glyph (x without the mark offset) and advance.
        var pen: Double, advance: Double
        /// nil: the context's fill colour (kCTForegroundColorFromContextAttributeName).
        var color: CGColor?
        /// UTF-16 index of the glyph's cluster in the attributed string.
        var cluster: Int
        var rtl: Bool
    }
    let glyphs: [Glyph]
    /// Typographic width (trailing whitespace included), and the trailing whitespace's width.
    let width: Double, trailingWhitespace: Double
    let ascent: Double, descent: Double, leading: Double
    /// The height a frame gives the line: the largest `ascent + descent + leading` of its fonts
    /// (as `CATextLayer`'s lines).
    let lineHeight: Double
    let stringRange: CFRange

    init(glyphs: [Glyph], width: Double, trailingWhitespace: Double, ascent: Double, descent: Double, leading: Double,
         lineHeight: Double, stringRange: CFRange) {
        self.glyphs = glyphs; self.width = width; self.trailingWhitespace = trailingWhitespace
        self.ascent = ascent; self.descent = descent; self.leading = leading; self.lineHeight = lineHeight
        self.stringRange = stringRange
    }
}

/// A line of the whole attributed string, without line breaking (Apple's
/// `CTLineCreateWithAttributedString`). Line and paragraph separators (U+000A, U+000D, U+2028,
/// U+2029, …) stay in the line's string range but draw nothing and take no width.
public func CTLineCreateWithAttributedString(_ attrString: CFAttributedString) -> CTLine {
    let text = _CTText(attrString, range: CFRange(location: 0, length: 0))
    let para = _Paragraph(scalars: text.scalars, styleOf: text.styleOf, styles: text.styles, measure: false)
    return text.makeLine(para, offset: 0, range: 0..<text.count, fullRange: 0..<text.count)
}

/// Draws the line with its origin at the context's text position: glyphs y up in text space,
/// mapped by the text matrix and the CTM (as `showGlyphs(_:at:)`), filled with each range's
/// foreground colour (black when none) through the text drawing mode; then the text position
/// advances by the line's width along the text matrix's x axis (Apple's `CTLineDraw`).
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    context._drawLine(line)
}

/// The line's typographic width (advances, trailing whitespace included), and through the
/// pointers its ascent, descent (positive) and leading: the largest of the fonts its characters
/// are drawn with (Apple's `CTLineGetTypographicBounds`).
public func CTLineGetTypographicBounds(_ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?,
                                       _ descent: UnsafeMutablePointer<CGFloat>?, _ leading: UnsafeMutablePointer<CGFloat>?) -> Double {
    ascent?.pointee = CGFloat(line.ascent)
    descent?.pointee = CGFloat(line.descent)
    leading?.pointee = CGFloat(line.leading)
    return line.width
}

/// The tight bounds of the line's glyph outlines, y up from the line's origin, moved by the
/// context's text position (none with a nil context) (Apple's `CTLineGetImageBounds`). The text
/// matrix's other terms and the CTM are not applied. A line without ink (empty, spaces only)
/// gives an empty rectangle at the text position.
public func CTLineGetImageBounds(_ line: CTLine, _ context: CGContext?) -> CGRect {
    let p = context?.textPosition ?? .zero
    var r = CGRect.null
    for g in line.glyphs {
        let b = g.font._outlineBounds(g.glyph)
        guard !b.isNull else { continue }
        let k = g.size / Double(g.font.unitsPerEm)
        r = r.union(CGRect(x: g.x + Double(b.minX) * k, y: g.y + Double(b.minY) * k,
                           width: Double(b.width) * k, height: Double(b.height) * k))
    }
    if r.isNull { return CGRect(origin: p, size: .zero) }
    return r.offsetBy(dx: p.x, dy: p.y)
}

/// The number of glyphs in the line (Apple's `CTLineGetGlyphCount`): after shaping, so a
/// ligature counts once and a mark the font composes with its base does not count.
public func CTLineGetGlyphCount(_ line: CTLine) -> CFIndex { line.glyphs.count }

/// The range of the attributed string the line shows, in UTF-16 units (Apple's `CTLineGetStringRange`).
public func CTLineGetStringRange(_ line: CTLine) -> CFRange { line.stringRange }

/// The width of the whitespace at the line's end (Apple's `CTLineGetTrailingWhitespaceWidth`).
public func CTLineGetTrailingWhitespaceWidth(_ line: CTLine) -> Double { line.trailingWhitespace }

/// How far to move the pen to draw the line flush in `flushWidth` (Apple's
/// `CTLineGetPenOffsetForFlush`): `flushFactor` 0 left, 1 right, 0.5 centred (clamped to 0…1),
/// trailing whitespace not counted.
public func CTLineGetPenOffsetForFlush(_ line: CTLine, _ flushFactor: CGFloat, _ flushWidth: Double) -> Double {
    let f = Double(min(max(flushFactor.isNaN ? 0 : flushFactor, 0), 1))
    return max(0, (flushWidth - (line.width - line.trailingWhitespace)) * f)
}

/// The caret offset (x from the line's origin) before the character at `charIndex`, a UTF-16
/// index in the attributed string (Apple's `CTLineGetOffsetForStringIndex`). Inside a ligature
/// the cluster's width is shared evenly among its characters; right-to-left runs measure from
/// their right edge. An index past the line's end gives the line's width, before its start 0.
/// `secondaryOffset` receives the same value (Flipbook has no split carets).
public func CTLineGetOffsetForStringIndex(_ line: CTLine, _ charIndex: CFIndex,
                                          _ secondaryOffset: UnsafeMutablePointer<CGFloat>?) -> CGFloat {
    let r = line.stringRange
    var result = 0.0
    if charIndex >= r.location + r.length {
        result = line.width
    } else {
        // The cluster holding charIndex: the largest glyph cluster start ≤ charIndex.
        let starts = Set(line.glyphs.map(\.cluster)).sorted()
        if let c = starts.last(where: { $0 <= charIndex }) {
            let next = starts.first(where: { $0 > c }) ?? (r.location + r.length)
            let gs = line.glyphs.filter { $0.cluster == c }
            let left = gs.map(\.pen).min()!, right = gs.map { $0.pen + $0.advance }.max()!
            let f = Double(charIndex - c) / Double(next - c)
            result = gs[0].rtl ? right - (right - left) * f : left + (right - left) * f
        }
    }
    secondaryOffset?.pointee = CGFloat(result)
    return CGFloat(result)
}

extension CGContext {
    /// ``CTLineDraw(_:_:)``: one path per colour, built as `showGlyphs(_:at:)` builds its path.
    func _drawLine(_ line: CTLine) {
        let tm = textMatrix
        let ttm = RasterTransform(a: Double(tm.a), b: Double(tm.b), c: Double(tm.c), d: Double(tm.d),
                                  tx: Double(tm.tx), ty: Double(tm.ty))
        let ctm = _rasterCTM
        var path = RasterPath()
        var current: CGColor? = nil
        func flush() {
            _paintGlyphs(path, fillColor: current)
            path.removeAll()
        }
        for g in line.glyphs {
            if !CGColor._same(g.color, current) { flush(); current = g.color }
            let k = g.size / Double(g.font.unitsPerEm)
            let t = RasterTransform(a: k, b: 0, c: 0, d: k, tx: g.x, ty: g.y).concatenating(ttm).concatenating(ctm)
            path.append(g.font._outline(g.glyph), transform: t)
        }
        flush()
        let w = CGFloat(line.width)
        textMatrix.tx += tm.a * w
        textMatrix.ty += tm.b * w
    }
}

extension CGFont {
    /// The tight bounds of a glyph's outline in font units (null for no outline).
    func _outlineBounds(_ glyph: UInt32) -> CGRect {
        let o = _outline(glyph)
        return o.isEmpty ? .null : CGPath(o).boundingBoxOfPath
    }
}

// MARK: Framesetters and frames

/// Lays an attributed string out in frames (Apple's `CTFramesetter`). Holds a copy of the string.
public final class CTFramesetter: @unchecked Sendable {
    let string: NSAttributedString
    init(_ s: NSAttributedString) { string = s.copy() as! NSAttributedString }
}

/// Lines laid out in a path's bounding rectangle (Apple's `CTFrame`). Immutable.
public final class CTFrame: @unchecked Sendable {
    let path: CGPath
    let rect: CGRect
    let lines: [CTLine]
    /// Line origins relative to `rect.origin`, y up.
    let origins: [CGPoint]
    let stringRange: CFRange
    let visibleRange: CFRange
    init(path: CGPath, rect: CGRect, lines: [CTLine], origins: [CGPoint], stringRange: CFRange, visibleRange: CFRange) {
        self.path = path; self.rect = rect; self.lines = lines; self.origins = origins
        self.stringRange = stringRange; self.visibleRange = visibleRange
    }
}

/// A framesetter for `attrString` (Apple's `CTFramesetterCreateWithAttributedString`).
public func CTFramesetterCreateWithAttributedString(_ attrString: CFAttributedString) -> CTFramesetter {
    CTFramesetter(attrString)
}

/// The size the text of `stringRange` needs (length 0: to the end) when lines are at most
/// `constraints.width` wide (`CGFloat.greatestFiniteMagnitude` or infinity: unconstrained) and
/// only the lines that fit in `constraints.height` count: the widest line's width (trailing
/// whitespace not counted) and the lines' total height. `fitRange` receives the range that fits.
/// `frameAttributes` is ignored (Apple's `CTFramesetterSuggestFrameSizeWithConstraints`).
public func CTFramesetterSuggestFrameSizeWithConstraints(_ framesetter: CTFramesetter, _ stringRange: CFRange,
                                                         _ frameAttributes: CFDictionary?, _ constraints: CGSize,
                                                         _ fitRange: UnsafeMutablePointer<CFRange>?) -> CGSize {
    let text = _CTText(framesetter.string, range: stringRange)
    let set = text.typeset(width: Double(constraints.width), height: Double(constraints.height))
    fitRange?.pointee = set.visible
    var w = 0.0, h = 0.0
    for l in set.lines { w = max(w, l.line.width - l.line.trailingWhitespace); h = l.top + l.line.lineHeight }
    return CGSize(width: w, height: h)
}

/// A frame of the text of `stringRange` (length 0: to the end) laid into `path`'s bounding
/// rectangle: lines broken to its width, aligned per paragraph, the first at its top (max y), the
/// next a line height below, as many as fit entirely. A path that is not a rectangle is laid out
/// in its bounding rectangle all the same. `frameAttributes` is ignored (Apple's
/// `CTFramesetterCreateFrame`).
public func CTFramesetterCreateFrame(_ framesetter: CTFramesetter, _ stringRange: CFRange, _ path: CGPath,
                                     _ frameAttributes: CFDictionary?) -> CTFrame {
    let text = _CTText(framesetter.string, range: stringRange)
    let rect = path.isEmpty ? CGRect.zero : path.boundingBoxOfPath.standardized
    let set = text.typeset(width: Double(rect.width), height: Double(rect.height))
    let origins = set.lines.map { CGPoint(x: $0.x, y: Double(rect.height) - $0.top - $0.line.ascent) }
    return CTFrame(path: path._copy(), rect: rect, lines: set.lines.map(\.line), origins: origins,
                   stringRange: text.range, visibleRange: set.visible)
}

/// Draws the frame's lines: each with its origin at the frame rectangle's origin plus its line
/// origin, as ``CTLineDraw(_:_:)`` (Apple's `CTFrameDraw`). The text position is left after the
/// last line.
public func CTFrameDraw(_ frame: CTFrame, _ context: CGContext) {
    for (line, o) in zip(frame.lines, frame.origins) {
        context.textPosition = CGPoint(x: frame.rect.minX + o.x, y: frame.rect.minY + o.y)
        context._drawLine(line)
    }
}

/// The frame's lines, an array of ``CTLine`` (Apple's `CTFrameGetLines`).
public func CTFrameGetLines(_ frame: CTFrame) -> CFArray { NSArray(array: frame.lines) }

/// Copies the origins of the lines in `range` (length 0: to the end) into `origins`: each
/// line's baseline start relative to the frame's bounding rectangle origin, y up (Apple's
/// `CTFrameGetLineOrigins`).
public func CTFrameGetLineOrigins(_ frame: CTFrame, _ range: CFRange, _ origins: UnsafeMutablePointer<CGPoint>) {
    let n = frame.origins.count
    let start = min(max(0, range.location), n)
    let end = range.length == 0 ? n : min(n, start + max(0, range.length))
    for i in start..<max(start, end) { origins[i - start] = frame.origins[i] }
}

/// The range of the string the frame was asked to lay out (Apple's `CTFrameGetStringRange`).
public func CTFrameGetStringRange(_ frame: CTFrame) -> CFRange { frame.stringRange }
/// The range of the string whose lines fit in the frame (Apple's `CTFrameGetVisibleStringRange`).
public func CTFrameGetVisibleStringRange(_ frame: CTFrame) -> CFRange { frame.visibleRange }
/// The path the frame was made with (Apple's `CTFrameGetPath`).
public func CTFrameGetPath(_ frame: CTFrame) -> CGPath { frame.path }

// MARK: - Reading attributed strings

/// An attributed string's range as Core Text reads it: scalars, a style per scalar, the UTF-16
/// index of each scalar and each scalar's paragraph alignment.
struct _CTText {
    var scalars: [UInt32] = []
    var styleOf: [Int] = []
    var styles: [TextStyle] = []
    /// UTF-16 index (in the whole string) of each scalar; one more entry: the range's end.
    var utf16: [Int] = []
    var alignment: [CTTextAlignment] = []
    /// The range read, in UTF-16 units.
    var range: CFRange

    var count: Int { scalars.count }

    static let defaultStyle = TextStyle(font: .bundledDefault, size: 12, color: .black)

    init(_ s: NSAttributedString, range requested: CFRange) {
        let total = s.length
        let loc = min(max(0, requested.location), total)
        let len = requested.length <= 0 ? total - loc : min(requested.length, total - loc)
        range = CFRange(location: loc, length: len)
        let ns = s.string as NSString
        var pos = loc
        s.enumerateAttributes(in: NSRange(location: loc, length: len)) { attrs, r, _ in
            var st = _CTText.defaultStyle
            var ctColor: CGColor? = nil, nsColor: CGColor? = nil, fromContext = false
            var align = CTTextAlignment.natural
            for (k, v) in attrs {
                switch k.rawValue {
                case "NSFont": if let f = v as? CTFont { st.font = f.graphicsFont; st.size = Double(f.pointSize) }
                case "CTForegroundColor": ctColor = v as? CGColor
                case "NSColor": nsColor = v as? CGColor
                case "CTForegroundColorFromContext": fromContext = (v as? NSNumber)?.boolValue ?? (v as? Bool) ?? false
                case "NSKern":
                    let kern = TextStyle.kernValue(v)
                    // "If this attribute is set to 0.0, no kerning will be done at all" (CTStringAttributes.h).
                    if let kern, kern.isFinite { st.kern = kern; st.fontKerning = kern != 0 }
                case "NSParagraphStyle": if let p = v as? CTParagraphStyle { align = p.alignment }
                default: break
                }
            }
            st.color = fromContext ? nil : (ctColor ?? nsColor ?? .black)
            let idx: Int
            if let j = styles.firstIndex(of: st) { idx = j } else { styles.append(st); idx = styles.count - 1 }
            for u in ns.substring(with: r).unicodeScalars {
                scalars.append(u.value); styleOf.append(idx); alignment.append(align); utf16.append(pos)
                pos += u.utf16.count
            }
        }
        utf16.append(loc + len)
        if styles.isEmpty { styles = [_CTText.defaultStyle] }
    }

    /// Core Text's default tab stops: every 28 points (CTParagraphStyle.h, kCTParagraphStyleSpecifierTabStops).
    static let tabInterval = 28.0

    static func isBreak(_ c: UInt32) -> Bool {
        c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029 || c == 0x0B || c == 0x0C || c == 0x85
    }

    /// A ``CTLine`` of `para`'s scalars `range` (paragraph indices; the paragraph starts at scalar
    /// `offset` of the text), whose string range is `fullRange` (text indices: the line and the
    /// break that ends it). Glyphs of break characters are dropped with their advance.
    func makeLine(_ para: _Paragraph, offset: Int, range: Range<Int>, fullRange: Range<Int>,
                  lastInParagraph: Bool = true, spaceExtra: Double = 0) -> CTLine {
        makeLineCountingSpaces(para, offset: offset, range: range, fullRange: fullRange, lastInParagraph: lastInParagraph,
                               spaceExtra: spaceExtra).line
    }

    /// ``makeLine(_:offset:range:fullRange:lastInParagraph:spaceExtra:)`` and the number of spaces
    /// that justification widens (all but trailing ones).
    func makeLineCountingSpaces(_ para: _Paragraph, offset: Int, range: Range<Int>, fullRange: Range<Int>,
                                lastInParagraph: Bool, spaceExtra: Double) -> (line: CTLine, spaces: Int) {
        let l = para.line(range, lastInParagraph: lastInParagraph, keepTrailingSpaces: true)
        // Trailing whitespace (spaces and breaks) at the line's end.
        var e = range.upperBound
        while e > range.lowerBound && (_Paragraph.isSpace(para.scalars[e - 1]) || _CTText.isBreak(para.scalars[e - 1])) { e -= 1 }
        var glyphs: [CTLine.Glyph] = []
        glyphs.reserveCapacity(l.glyphs.count)
        // `orig`: the pen as `line` placed the glyphs (every advance); `pen`: without the breaks'
        // advances, with the justification's extra space after each space but trailing ones.
        var orig = 0.0, pen = 0.0, trailing = 0.0, spaces = 0
        for g in l.glyphs {
            defer { orig += g.advance }
            let c = para.scalars[g.cluster]
            if _CTText.isBreak(c) { continue }
            var glyph = g.glyph, advance = g.advance
            if c == 0x09 {
                // A tab: blank, to the next of Core Text's default tab stops (every 28 points).
                glyph = UInt32(g.style.font.glyph(for: " "))
                advance = ((pen / _CTText.tabInterval + 1e-9).rounded(.down) + 1) * _CTText.tabInterval - pen
            }
            if g.cluster >= e { trailing += advance }
            glyphs.append(CTLine.Glyph(font: g.style.font, size: g.style.size, glyph: glyph, x: pen + (g.x - orig), y: -g.dy,
                                       pen: pen, advance: advance, color: g.style.color,
                                       cluster: utf16[offset + g.cluster], rtl: g.rtl))
            pen += advance
            if g.isSpace && g.cluster < e { pen += spaceExtra; spaces += 1 }
        }
        var ascent = 0.0, descent = 0.0, leading = 0.0, height = 0.0
        for i in fullRange {
            let font = (0..<para.fonts.count).contains(i - offset) ? para.fonts[i - offset] : styles[styleOf[i]].font
            let k = styles[styleOf[i]].size / Double(font.unitsPerEm)
            ascent = max(ascent, Double(font.ascent) * k)
            descent = max(descent, -Double(font.descent) * k)
            leading = max(leading, Double(font.leading) * k)
            height = max(height, Double(Int(font.ascent) - Int(font.descent) + Int(font.leading)) * k)
        }
        let width = pen
        let lo = utf16[fullRange.lowerBound], hi = utf16[fullRange.upperBound]
        let line = CTLine(glyphs: glyphs, width: width, trailingWhitespace: trailing, ascent: ascent, descent: descent,
                          leading: leading, lineHeight: height, stringRange: CFRange(location: lo, length: hi - lo))
        return (line, spaces)
    }

    /// A line placed in a frame: its left edge (alignment) and its top, y down from the frame's top.
    struct Placed { var line: CTLine; var x: Double; var top: Double }

    /// Lines broken to `width` (unconstrained when not finite or `greatestFiniteMagnitude`),
    /// aligned per paragraph (the alignment of its first character), stacked from the top while
    /// they fit entirely in `height`; and the range of the string they show.
    func typeset(width: Double, height: Double) -> (lines: [Placed], visible: CFRange) {
        let wrap = width.isFinite && width < .greatestFiniteMagnitude
        let W = wrap ? max(0, width) : 0
        let H = height.isFinite && height < .greatestFiniteMagnitude ? max(0, height) : .infinity
        // Paragraphs: content [start, end) and the break after it [end, next).
        var paragraphs: [(start: Int, end: Int, next: Int)] = []
        var start = 0, i = 0
        while i < count {
            if _CTText.isBreak(scalars[i]) {
                var next = i + 1
                if scalars[i] == 0x0D, next < count, scalars[next] == 0x0A { next += 1 }
                paragraphs.append((start, i, next))
                start = next; i = next
            } else { i += 1 }
        }
        if start < count { paragraphs.append((start, count, count)) }   // no empty paragraph after a final break
        var out: [Placed] = []
        var top = 0.0, visibleEnd = 0
        paragraphLoop: for (start, end, next) in paragraphs {
            let para = _Paragraph(scalars: Array(scalars[start..<end]), styleOf: Array(styleOf[start..<end]), styles: styles,
                                  measure: wrap)
            let breaks = wrap && para.count > 0 ? para.lineBreaks(width: W) : [0..<para.count]
            var align = start < count ? alignment[start] : .natural
            if align == .natural { align = para.rtl ? .right : .left }
            for (k, lr) in breaks.enumerated() {
                let last = k == breaks.count - 1
                let full = (start + lr.lowerBound)..<(last ? next : start + lr.upperBound)
                let (measured, spaces) = makeLineCountingSpaces(para, offset: start, range: lr, fullRange: full,
                                                                lastInParagraph: last, spaceExtra: 0)
                var line = measured
                if top + line.lineHeight > H + 1e-9 { break paragraphLoop }
                let extra = wrap ? W - (line.width - line.trailingWhitespace) : 0
                var x = 0.0
                switch align {
                case .left, .natural: x = 0
                case .right: x = extra
                case .center: x = extra / 2
                case .justified:
                    x = para.rtl && last ? extra : 0
                    if !last && extra > 0 && spaces > 0 {
                        line = makeLine(para, offset: start, range: lr, fullRange: full, lastInParagraph: last,
                                        spaceExtra: extra / Double(spaces))
                    }
                }
                out.append(Placed(line: line, x: x, top: top))
                top += line.lineHeight
                visibleEnd = full.upperBound
            }
        }
        return (out, CFRange(location: range.location, length: utf16[visibleEnd] - range.location))
    }
}
