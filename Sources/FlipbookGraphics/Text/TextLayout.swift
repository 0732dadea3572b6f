import CFlipbookText
import FlipbookRaster
import Foundation

/// One styled stretch of text to lay out.
package struct TextStyle: Equatable {
    package var font: CGFont
    /// Point size (user units per em).
    package var size: Double
    /// Fill colour; nil uses the layout's default colour.
    package var color: CGColor?
    /// Extra space after each character (`NSAttributedString.Key.kern`), user units.
    package var kern: Double
    /// Whether the font's own kerning (`kern` feature, GPOS pair adjustments) applies. Core Text
    /// turns it off for a kern attribute of exactly 0.
    package var fontKerning: Bool

    package init(font: CGFont, size: Double, color: CGColor? = nil, kern: Double = 0, fontKerning: Bool = true) {
        self.font = font; self.size = size; self.color = color; self.kern = kern; self.fontKerning = fontKerning
    }

    package static func == (a: TextStyle, b: TextStyle) -> Bool {
        a.font === b.font && a.size == b.size && a.kern == b.kern && a.fontKerning == b.fontKerning
            && CGColor._same(a.color, b.color)
    }

    /// A kern attribute's value as a number: an `NSNumber`, `Double` or `CGFloat` (nil for
    /// anything else). Shared by `CATextLayer` and Core Text, which read the same key.
    package static func kernValue(_ v: Any) -> Double? {
        if let n = v as? NSNumber { return n.doubleValue }
        if let d = v as? Double { return d }
        if let d = v as? CGFloat { return Double(d) }
        return nil
    }
}

/// How a line too long for the width is shortened.
package enum TextTruncation: Sendable { case none, start, middle, end }
/// How lines sit between the left and right edges.
package enum TextAlignment: Sendable { case natural, left, right, center, justified }

/// A glyph placed on a line.
package struct PlacedGlyph {
    package var font: CGFont
    package var size: Double
    package var glyph: UInt32
    /// Position of the glyph origin: x from the layout's left edge, y of the baseline from the
    /// layout's top (y down).
    package var x: Double
    package var y: Double
    package var color: CGColor?
}

/// Text laid out in a box: Flipbook's typesetter behind `CATextLayer` (docs/text.md).
///
/// **Pipeline.** Paragraphs (split at the mandatory breaks: U+000A, U+000B, U+000C, U+000D,
/// CR LF, U+0085, U+2028, U+2029) → per character:
/// the style's font, or the first bundled font that has the character (DejaVu Sans, then Noto
/// Sans Devanagari) when it has none; combining marks and joiners stay with their base →
/// embedding levels from the Unicode Bidirectional Algorithm (UAX #9, ICU; the paragraph's
/// direction from its first strong character) → runs of one style, font, level and script,
/// shaped by HarfBuzz (kerning, ligatures, marks, joining) → line breaks → runs reordered for
/// display (rule L2) → alignment, truncation.
///
/// **Line breaks** (when wrapping): the opportunities of UAX #14 and the grapheme clusters of
/// UAX #29, both from ICU's break iterators. Greedy; a word longer than the width breaks between
/// grapheme clusters (never inside a ligature). Trailing spaces hang past the edge and are not
/// aligned.
///
/// **Lines.** Each line is as tall as the tallest `ascent − descent + leading` of its fonts at
/// their sizes; its baseline sits the largest ascent below its top. The first line's top is the
/// box's top.
package struct TextLayout {
    package private(set) var glyphs: [PlacedGlyph] = []
    /// Each line's left edge, width (without hanging spaces) and baseline.
    package private(set) var lines: [(x: Double, width: Double, baseline: Double)] = []
    /// The bounding size of the lines (widest line, bottom of the last).
    package private(set) var size = CGSize.zero
    /// Each line's range of scalars in the whole text (before truncation; tests and callers that
    /// need to know where lines broke).
    package private(set) var lineRanges: [Range<Int>] = []
    /// The lines' coverage as last drawn (``_TextRasterCache``; shared by copies, which have
    /// the same glyphs).
    package let _raster = _TextRasterCache()

    /// Fallback fonts, in order, for characters the style's font lacks.
    static var fallbacks: [CGFont] { [CGFont.bundledDefault, CGFont.bundledDevanagari] }

    /// Lays out `scalars` whose styles are given per scalar (`styles[styleOf[i]]`).
    package init(scalars: [UInt32], styleOf: [Int], styles: [TextStyle], width: Double, height: Double,
                 wrapped: Bool, truncation: TextTruncation, alignment: TextAlignment) {
        precondition(scalars.count == styleOf.count)
        let width = width.isFinite ? max(0, width) : 0
        let height = height.isFinite ? max(0, height) : 0
        var top = 0.0
        var lineBoxes: [_Line] = []
        // 1. Paragraphs → lines (logical), with their paragraph direction.
        var i = 0
        var paragraphs: [(Range<Int>, Bool)] = []
        var start = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029 || c == 0x0B || c == 0x0C || c == 0x85 {
                paragraphs.append((start..<i, false))
                if c == 0x0D, i + 1 < scalars.count, scalars[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        paragraphs.append((start..<scalars.count, true))
        var truncatedHeight = false
        var rangesOut: [Range<Int>] = []
        paragraphLoop: for (range, _) in paragraphs {
            let para = _Paragraph(scalars: Array(scalars[range]), styleOf: Array(styleOf[range]), styles: styles,
                                  measure: (wrapped && width > 0) || truncation != .none)
            let breaks = wrapped && width > 0 ? para.lineBreaks(width: width) : [0..<para.count]
            for (k, lr) in breaks.enumerated() {
                var line = para.line(lr, lastInParagraph: k == breaks.count - 1)
                if line.lineHeight == 0 { line.setEmptyMetrics(para.emptyMetrics) }
                // Wrapped text that runs out of height: the last line that fits takes the ellipsis.
                if wrapped, truncation != .none, height > 0, !lineBoxes.isEmpty, top + line.lineHeight > height + 1e-9 {
                    var last = lineBoxes.removeLast()
                    top -= last.lineHeight
                    last = last.source.truncated(last.range, toWidth: width, mode: .end, forceEllipsis: true)
                    lineBoxes.append(last)
                    top += last.lineHeight
                    truncatedHeight = true
                    break paragraphLoop
                }
                if truncation != .none, width > 0, line.width > width + 1e-9 {
                    line = para.truncated(lr, toWidth: width, mode: wrapped ? .end : truncation, forceEllipsis: false)
                }
                lineBoxes.append(line)
                rangesOut.append((range.lowerBound + lr.lowerBound)..<(range.lowerBound + lr.upperBound))
                top += line.lineHeight
            }
        }
        lineRanges = rangesOut
        _ = truncatedHeight
        // 2. Place lines.
        var y = 0.0
        var maxWidth = 0.0
        for line in lineBoxes {
            let baseline = y + line.ascent
            let extra = width - line.width
            var x0 = 0.0
            let align: TextAlignment = alignment == .natural ? (line.rtl ? .right : .left) : alignment
            switch align {
            case .left, .natural: x0 = 0
            case .right: x0 = extra
            case .center: x0 = extra / 2
            case .justified: x0 = line.rtl && line.lastInParagraph ? extra : 0
            }
            let spaceExtra = align == .justified && !line.lastInParagraph && line.spaceCount > 0 && extra > 0
                ? extra / Double(line.spaceCount) : 0
            var shift = 0.0
            for g in line.glyphs {
                glyphs.append(PlacedGlyph(font: g.style.font, size: g.style.size, glyph: g.glyph,
                                          x: x0 + g.x + shift, y: baseline + g.dy, color: g.style.color))
                if g.isSpace { shift += spaceExtra }
            }
            let w = line.width + (spaceExtra > 0 ? extra : 0)
            lines.append((x0, w, baseline))
            maxWidth = max(maxWidth, w)
            y += line.lineHeight
        }
        size = CGSize(width: maxWidth, height: y)
    }
}

// MARK: - Paragraph analysis

/// A glyph on a line before alignment: x from the line's left edge, dy from the baseline (down).
struct _LineGlyph {
    var glyph: UInt32
    var x: Double
    var dy: Double
    var style: TextStyle
    var isSpace: Bool
    /// The paragraph index of the glyph's cluster (its first scalar), its advance and whether
    /// its run is right to left (Core Text's line API reads them).
    var cluster: Int = 0
    var advance: Double = 0
    var rtl = false
}

/// One laid-out line (before alignment).
struct _Line {
    var glyphs: [_LineGlyph] = []
    var width = 0.0
    var ascent = 0.0
    var lineHeight = 0.0
    var rtl = false
    var lastInParagraph = true
    var spaceCount = 0
    var range: Range<Int> = 0..<0
    var source: _Paragraph

    mutating func setEmptyMetrics(_ m: (Double, Double)) { ascent = m.0; lineHeight = m.1 }
}

/// A paragraph's characters with their resolved font, direction and script.
struct _Paragraph {
    let scalars: [UInt32]
    let styleOf: [Int]
    let styles: [TextStyle]
    var fonts: [CGFont] = []
    var rtlChar: [Bool] = []
    /// UAX #9 embedding level of each scalar (odd: right to left).
    var levels: [UInt8] = []
    var scripts: [UInt32] = []
    let rtl: Bool
    /// Per-scalar advance (user units) from shaping the whole paragraph, for line breaking.
    var advances: [Double] = []
    /// ICU: a line may break before scalar i (UAX #14); a grapheme cluster starts at i (UAX #29).
    var breakBefore: [UInt8] = []
    var clusterBegins: [UInt8] = []

    var count: Int { scalars.count }

    /// Ascent and line height of an empty line in this paragraph (its first style, or the first
    /// style of the text).
    var emptyMetrics: (Double, Double) {
        guard let s = styleOf.first.map({ styles[$0] }) ?? styles.first else { return (0, 0) }
        return _Paragraph.metrics(s)
    }

    static func metrics(_ s: TextStyle) -> (ascent: Double, lineHeight: Double) {
        let f = s.font, k = s.size / Double(f.unitsPerEm)
        return (Double(f.ascent) * k, Double(Int(f.ascent) - Int(f.descent) + Int(f.leading)) * k)
    }

    static let zwj: UInt32 = 0x200D, zwnj: UInt32 = 0x200C
    /// HarfBuzz general categories (hb_unicode_general_category_t).
    static func isMark(_ gc: Int32) -> Bool { gc == 10 || gc == 11 || gc == 12 }          // Mc, Me, Mn
    static func isLetter(_ gc: Int32) -> Bool { (5...9).contains(gc) }                    // Ll, Lm, Lo, Lt, Lu
    static func isDigit(_ gc: Int32) -> Bool { gc == 13 }                                 // Nd
    static func isSpace(_ c: UInt32) -> Bool { c == 0x20 || c == 0x09 || c == 0x3000 || c == 0xA0 }

    /// `measure`: also shape the whole paragraph for per-character advances and segment it (ICU)
    /// — needed to break lines and truncate, skipped for a plain line.
    init(scalars: [UInt32], styleOf: [Int], styles: [TextStyle], measure: Bool = true) {
        self.scalars = scalars; self.styleOf = styleOf; self.styles = styles
        let n = scalars.count
        var fonts: [CGFont] = []; fonts.reserveCapacity(n)
        var scripts: [UInt32] = []; scripts.reserveCapacity(n)
        let common = _Paragraph.tag("Zyyy"), inherited = _Paragraph.tag("Zinh")
        for i in 0..<n {
            let c = scalars[i], st = styles[styleOf[i]]
            let gc = fbk_general_category(c)
            let joiner = c == _Paragraph.zwj || c == _Paragraph.zwnj || (0xFE00...0xFE0F).contains(c)
            var script = fbk_script_of(c)
            if (_Paragraph.isMark(gc) || joiner || script == inherited), i > 0 {
                fonts.append(fonts[i - 1]); scripts.append(scripts[i - 1])
                continue
            }
            // font
            var font = st.font
            if !_Paragraph.isSpace(c), c >= 0x20, !st.font._hasGlyph(c) {
                if let f = TextLayout.fallbacks.first(where: { $0._hasGlyph(c) }) { font = f }
            }
            fonts.append(font)
            if script == inherited { script = common }
            scripts.append(script)
        }
        // Common-script characters take the script of the run they are in (previous, else next).
        var last: UInt32 = 0
        for i in 0..<n where scripts[i] != common { last = scripts[i]; break }
        for i in 0..<n {
            if scripts[i] == common { scripts[i] = last } else { last = scripts[i] }
        }
        // Directions: the Unicode Bidirectional Algorithm (ICU) — embedding levels per character.
        var levels = [UInt8](repeating: 0, count: n)
        var para: Int32 = 0
        // Below U+0590 nothing is right to left and there are no bidi controls: all level 0.
        if n > 0, scalars.contains(where: { $0 >= 0x0590 }) {
            para = scalars.withUnsafeBufferPointer { fbk_bidi_levels($0.baseAddress, Int32(n), &levels) }
        }
        if para < 0 { levels = [UInt8](repeating: 0, count: n); para = 0 }
        self.levels = levels
        let dir = levels.map { $0 & 1 == 1 }
        let paraRTL = para == 1
        self.fonts = fonts; self.rtlChar = dir; self.scripts = scripts; self.rtl = paraRTL
        guard measure else { return }
        // Whole-paragraph shaping for per-character advances.
        var adv = [Double](repeating: 0, count: n)
        for item in items(0..<n) {
            for g in shape(item) { adv[g.cluster] += g.advance }
        }
        advances = adv
        var lb = [UInt8](repeating: 0, count: n), cb = [UInt8](repeating: 1, count: n)
        if n > 0 {
            _ = scalars.withUnsafeBufferPointer { fbk_segment($0.baseAddress, Int32(n), &lb, &cb) }
        }
        breakBefore = lb; clusterBegins = cb
    }

    static func tag(_ s: String) -> UInt32 {
        s.unicodeScalars.reduce(0) { $0 << 8 | $1.value }
    }

    /// Maximal runs of one style, font, direction and script within `r`.
    func items(_ r: Range<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var s = r.lowerBound
        for i in r where i > s {
            if styleOf[i] != styleOf[s] || fonts[i] !== fonts[s] || levels[i] != levels[s] || scripts[i] != scripts[s] {
                out.append(s..<i); s = i
            }
        }
        if s < r.upperBound { out.append(s..<r.upperBound) }
        return out
    }

    struct Shaped { var glyph: UInt32; var cluster: Int; var advance: Double; var dx: Double; var dy: Double }

    /// Shapes one item (uniform style, font, direction, script), in visual order; clusters are
    /// indices into the paragraph. The paragraph is the shaping context.
    func shape(_ r: Range<Int>, scalarsOverride: [UInt32]? = nil) -> [Shaped] {
        guard !r.isEmpty else { return [] }
        let st = styles[styleOf[r.lowerBound]], font = fonts[r.lowerBound]
        let text = scalarsOverride ?? scalars
        var cap = r.count * 2 + 8
        var out = [fbk_glyph](repeating: fbk_glyph(), count: cap)
        var n: Int32 = 0
        while true {
            n = text.withUnsafeBufferPointer { t in
                fbk_shape(font._handle, t.baseAddress, Int32(t.count), Int32(r.lowerBound), Int32(r.count),
                          rtlChar[r.lowerBound] ? 1 : 0, scripts[r.lowerBound], st.fontKerning ? 1 : 0, 1, &out, Int32(cap))
            }
            if n <= Int32(cap) { break }
            cap = Int(n); out = [fbk_glyph](repeating: fbk_glyph(), count: cap)
        }
        guard n > 0 else { return [] }
        let k = st.size / Double(font.unitsPerEm)
        var res: [Shaped] = []
        res.reserveCapacity(Int(n))
        var lastCluster = -1
        for g in out.prefix(Int(n)) {
            let cl = Int(g.cluster)
            var advance = Double(g.x_advance) * k
            if st.kern != 0, cl != lastCluster { advance += st.kern }
            lastCluster = cl
            res.append(Shaped(glyph: g.glyph, cluster: cl, advance: advance, dx: Double(g.x_offset) * k, dy: -Double(g.y_offset) * k))
        }
        return res
    }

    // MARK: Line breaking

    /// Whether a line may break before scalar `i` (0 < i < count): ICU's UAX #14 opportunities.
    func canBreak(before i: Int) -> Bool { breakBefore[i] != 0 }

    /// Whether scalar `i` starts a grapheme cluster (ICU, UAX #29) that is not inside a
    /// ligature (the shaper gave it no advance of its own) — where a long word may break and
    /// truncation may cut.
    func isClusterStart(_ i: Int) -> Bool {
        if i == 0 || i == count { return true }
        guard clusterBegins[i] != 0 else { return false }
        return advances[i] != 0 || !_Paragraph.isLetter(fbk_general_category(scalars[i]))
    }

    /// Width of [a, b) without trailing spaces, from the paragraph's advances.
    func measuredWidth(_ a: Int, _ b: Int, prefix: [Double]) -> Double {
        var e = b
        while e > a && _Paragraph.isSpace(scalars[e - 1]) { e -= 1 }
        return prefix[e] - prefix[a]
    }

    /// Greedy line ranges for `width`.
    func lineBreaks(width: Double) -> [Range<Int>] {
        let n = count
        guard n > 0 else { return [0..<0] }
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + advances[i] }
        var out: [Range<Int>] = []
        var s = 0
        var lastGood = -1
        var i = 1
        let eps = 1e-9
        while i <= n {
            let opportunity = i == n || canBreak(before: i)
            if !opportunity { i += 1; continue }
            if measuredWidth(s, i, prefix: prefix) <= width + eps {
                lastGood = i
                if i == n { break }
                i += 1
                continue
            }
            if lastGood > s {
                out.append(s..<lastGood); s = lastGood; lastGood = -1
                continue                                  // re-test i against the new line
            }
            // A word longer than the line: break between clusters.
            var c = s + 1
            while c < i && !isClusterStart(c) { c += 1 }
            var best = c
            var k = c
            while k < i {
                k += 1
                while k < i && !isClusterStart(k) { k += 1 }
                if measuredWidth(s, k, prefix: prefix) <= width + eps { best = k } else { break }
            }
            out.append(s..<best); s = best; lastGood = -1
            if s >= n { break }
        }
        if s < n { out.append(s..<n) }
        return out.isEmpty ? [0..<0] : out
    }

    // MARK: Lines

    /// Shapes and orders the line `r` for display. Trailing spaces hang (are dropped) unless
    /// `keepTrailingSpaces` (Core Text's lines keep them: then `width` includes them and
    /// `spaceCount` still counts only the others).
    func line(_ r: Range<Int>, lastInParagraph: Bool, keepTrailingSpaces: Bool = false) -> _Line {
        var l = _Line(source: self)
        l.rtl = rtl; l.lastInParagraph = lastInParagraph; l.range = r
        // drop hanging spaces
        var e = r.upperBound
        while e > r.lowerBound && _Paragraph.isSpace(scalars[e - 1]) { e -= 1 }
        let visible = keepTrailingSpaces ? r : r.lowerBound..<e
        var ascent = 0.0, height = 0.0
        for i in r { let m = _Paragraph.metrics(TextStyle(font: fonts[i], size: styles[styleOf[i]].size)); ascent = max(ascent, m.ascent); height = max(height, m.lineHeight) }
        l.ascent = ascent; l.lineHeight = height
        // items → visual order: UAX #9 rule L2 on the items' embedding levels
        let its = items(visible)
        let itemLevels: [Int] = its.map { Int(levels[$0.lowerBound]) }
        var order = Array(its.indices)
        for level in stride(from: itemLevels.max() ?? 0, through: 1, by: -1) {
            var i = 0
            while i < order.count {
                guard itemLevels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count && itemLevels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
        }
        var x = 0.0
        for idx in order {
            let it = its[idx]
            let st = styles[styleOf[it.lowerBound]]
            var style = st
            style.font = fonts[it.lowerBound]
            let itemRTL = levels[it.lowerBound] & 1 == 1
            for g in shape(it) {
                let isSpace = _Paragraph.isSpace(scalars[g.cluster])
                if isSpace && g.cluster < e { l.spaceCount += 1 }
                l.glyphs.append(_LineGlyph(glyph: g.glyph, x: x + g.dx, dy: g.dy, style: style, isSpace: isSpace,
                                           cluster: g.cluster, advance: g.advance, rtl: itemRTL))
                x += g.advance
            }
        }
        l.width = x
        return l
    }

    /// The line `r` shortened to `width` with an ellipsis (U+2026) where `mode` says.
    /// `forceEllipsis`: the line is followed by text that does not fit (wrapped text out of
    /// height), so it ends in an ellipsis even if it fits.
    func truncated(_ r: Range<Int>, toWidth width: Double, mode: TextTruncation, forceEllipsis: Bool) -> _Line {
        var e = r.upperBound
        while e > r.lowerBound && _Paragraph.isSpace(scalars[e - 1]) { e -= 1 }
        let lo = r.lowerBound
        let anchor = mode == .start ? lo : max(lo, e - 1)
        let ellStyle = styleOf.isEmpty ? 0 : styleOf[min(max(anchor, 0), count - 1)]
        // The ellipsis in the anchor's style (a fallback font if that one lacks it).
        func build(_ head: Range<Int>, _ tail: Range<Int>) -> _Line {
            var sc: [UInt32] = [], so: [Int] = []
            sc += scalars[head]; so += styleOf[head]
            sc.append(0x2026); so.append(ellStyle)
            sc += scalars[tail]; so += styleOf[tail]
            let p = _Paragraph(scalars: sc, styleOf: so, styles: styles, measure: false)
            var l = p.line(0..<p.count, lastInParagraph: true)
            l.rtl = rtl
            return l
        }
        var full = line(r, lastInParagraph: true)
        if !forceEllipsis && full.width <= width + 1e-9 { full.lastInParagraph = true; return full }
        var prefix = [Double](repeating: 0, count: count + 1)
        for i in 0..<count { prefix[i + 1] = prefix[i] + advances[i] }
        let ellipsisWidth = build(lo..<lo, e..<e).width
        let budget = max(0, width - ellipsisWidth)
        var head = lo..<lo, tail = e..<e
        func fitHead(_ w: Double) -> Int {
            var k = lo
            var j = lo
            while j < e {
                j += 1
                while j < e && !isClusterStart(j) { j += 1 }
                if prefix[j] - prefix[lo] <= w + 1e-9 { k = j } else { break }
            }
            return k
        }
        func fitTail(_ w: Double, floor: Int) -> Int {
            var k = e
            var j = e
            while j > floor {
                j -= 1
                while j > floor && !isClusterStart(j) { j -= 1 }
                if prefix[e] - prefix[j] <= w + 1e-9 { k = j } else { break }
            }
            return k
        }
        switch mode {
        case .end, .none:
            if forceEllipsis && full.width + ellipsisWidth <= width + 1e-9 { head = lo..<e }
            else { head = lo..<fitHead(budget) }
        case .start:
            tail = fitTail(budget, floor: lo)..<e
        case .middle:
            let h = fitHead(budget / 2)
            head = lo..<h
            tail = fitTail(budget - (prefix[h] - prefix[lo]), floor: h)..<e
        }
        // trailing spaces of the head and leading spaces of the tail go
        var he = head.upperBound
        while he > head.lowerBound && _Paragraph.isSpace(scalars[he - 1]) { he -= 1 }
        var tl = tail.lowerBound
        while tl < tail.upperBound && _Paragraph.isSpace(scalars[tl]) { tl += 1 }
        var l = build(head.lowerBound..<he, tl..<tail.upperBound)
        // Shaping can differ from the summed advances: shorten until it fits.
        var guardCount = 0
        while l.width > width + 1e-9, guardCount < 64, he > head.lowerBound || tl < tail.upperBound {
            if mode == .start || (mode == .middle && tail.upperBound - tl > he - head.lowerBound) { tl += 1 } else { he -= 1 }
            l = build(head.lowerBound..<he, tl..<tail.upperBound)
            guardCount += 1
        }
        l.range = r
        l.source = self            // `range` indexes this paragraph (a later truncation re-reads it)
        return l
    }
}

extension CGColor {
    /// Whether two optional colours paint the same (identity first; no allocation).
    @inline(__always)
    static func _same(_ a: CGColor?, _ b: CGColor?) -> Bool {
        if a === b { return true }
        guard let a, let b else { return false }
        return a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha
    }
}
