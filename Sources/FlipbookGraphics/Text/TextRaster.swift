import FlipbookRaster
import Foundation

/// Glyph outlines of one font flattened at device scales and converted to the rasterizer's
/// 24.8 fixed point, relative to the glyph origin (y down): the pieces a text line's path is
/// made of (``CGContext/_drawText(_:at:defaultColor:quantized:)``). A glyph placed at a device
/// origin on the 1/256 px grid is its points moved by whole fixed-point units, so each glyph is
/// flattened and converted once per scale, however many times and wherever it is drawn.
///
/// Shared by every thread drawing with the font (a lock per font and per scale); at most
/// ``tableLimit`` scales and ``byteLimit`` bytes of points, contour ends and glyph slots in
/// all (then it starts over).
package final class _GlyphFixedOutlines: @unchecked Sendable {
    struct Scale: Hashable { let kx: UInt64, ky: UInt64 }
    private let lock = NSLock()
    private var tables: [Scale: Table] = [:]
    private var bytes = 0
    static let tableLimit = 256
    /// 16 MiB per font (~50,000 glyph outlines at 14 px).
    static let byteLimit = 16 << 20

    /// Counts `n` more bytes; false when that would pass the limit — then every table is
    /// dropped and the count starts again at 0 (the caller empties its own table).
    fileprivate func _reserve(_ n: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if bytes + n > Self.byteLimit { tables.removeAll(); bytes = 0; return false }
        bytes += n
        return true
    }

    /// The glyphs of `font` at (`kx`, `ky`) device px per font unit.
    func table(_ font: CGFont, kx: Double, ky: Double) -> Table {
        let key = Scale(kx: kx.bitPattern, ky: ky.bitPattern)
        lock.lock(); defer { lock.unlock() }
        if let t = tables[key] { return t }
        if tables.count >= Self.tableLimit { tables.removeAll() }
        let t = Table(font, owner: self, kx: kx, ky: ky)
        if bytes + t.slotBytes > Self.byteLimit { tables.removeAll(); bytes = 0 }
        tables[key] = t
        bytes += t.slotBytes
        return t
    }

    /// The glyphs of one font at one scale.
    final class Table: @unchecked Sendable {
        /// One glyph: its points `points[p0 ..< p0 + pn]` (pairs), its contour ends
        /// `ends[e0 ..< e0 + en]` (relative to `p0`, in pairs), its fixed-point bounds.
        struct Entry { var p0 = 0, pn = 0, e0 = 0, en = 0, x0: Int32 = 0, y0: Int32 = 0, x1: Int32 = 0, y1: Int32 = 0 }
        private let lock = NSLock()
        private unowned let font: CGFont
        private unowned let owner: _GlyphFixedOutlines
        private let kx: Double, ky: Double
        private var slot: [Int32]                       // glyph → entry index + 1 (0: not made yet)
        private var entries: [Entry] = []
        private var points: [Int32] = []
        private var ends: [Int32] = []

        init(_ font: CGFont, owner: _GlyphFixedOutlines, kx: Double, ky: Double) {
            self.font = font; self.owner = owner; self.kx = kx; self.ky = ky
            slot = [Int32](repeating: 0, count: font.numberOfGlyphs)
        }
        var slotBytes: Int { slot.count * 4 }

        /// Appends `glyph` moved by (`dx`, `dy`) in 1/256 px to `points` / `ends` (ends counted
        /// from `points`' start) and widens `bounds` (fixed point). Nothing for a glyph without
        /// an outline, out of range, or moved beyond the rasterizer's ±2^29.
        func append(_ glyph: UInt32, dx: Int, dy: Int, points out: inout [Int32], ends outEnds: inout [Int32],
                    bounds: inout (Int, Int, Int, Int)) {
            lock.lock(); defer { lock.unlock() }
            guard Int(glyph) < slot.count else { return }
            var s = Int(slot[Int(glyph)])
            if s == 0 { s = _make(glyph); slot[Int(glyph)] = Int32(truncatingIfNeeded: s) }
            let e = entries[s - 1]
            guard e.pn > 0 else { return }
            let lim = 1 << 29
            guard Int(e.x0) + dx > -lim, Int(e.x1) + dx < lim, Int(e.y0) + dy > -lim, Int(e.y1) + dy < lim else { return }
            bounds.0 = min(bounds.0, Int(e.x0) + dx); bounds.1 = min(bounds.1, Int(e.y0) + dy)
            bounds.2 = max(bounds.2, Int(e.x1) + dx); bounds.3 = max(bounds.3, Int(e.y1) + dy)
            let base = Int32(truncatingIfNeeded: out.count / 2)
            let dx32 = Int32(truncatingIfNeeded: dx), dy32 = Int32(truncatingIfNeeded: dy)
            let old = out.count
            out.append(contentsOf: repeatElement(0, count: 2 * e.pn))
            out.withUnsafeMutableBufferPointer { o in
                points.withUnsafeBufferPointer { src in
                    let p = src.baseAddress! + 2 * e.p0, q = o.baseAddress! + old
                    for k in 0..<e.pn { q[2 * k] = p[2 * k] &+ dx32; q[2 * k + 1] = p[2 * k + 1] &+ dy32 }
                }
            }
            for i in e.e0..<(e.e0 + e.en) { outEnds.append(ends[i] &+ base) }
        }

        /// Flattens and converts one glyph; returns its entry index + 1.
        private func _make(_ glyph: UInt32) -> Int {
            var fp = FixedPath()
            fp.set(font._outline(glyph), transform: RasterTransform(a: kx, b: 0, c: 0, d: -ky, tx: 0, ty: 0))
            let n = (fp.points.count + fp.contourEnds.count) * 4 + MemoryLayout<Entry>.stride
            if !owner._reserve(n) {
                // the font's outlines start over: this table too (it is no longer the font's)
                for i in slot.indices { slot[i] = 0 }
                entries.removeAll(); points.removeAll(); ends.removeAll()
                _ = owner._reserve(n)
            }
            var e = Entry()
            if !fp.isEmpty {
                e.p0 = points.count / 2; e.pn = fp.points.count / 2
                e.e0 = ends.count; e.en = fp.contourEnds.count
                var x0 = Int32.max, y0 = Int32.max, x1 = Int32.min, y1 = Int32.min
                for k in stride(from: 0, to: fp.points.count, by: 2) {
                    let x = fp.points[k], y = fp.points[k + 1]
                    x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                }
                (e.x0, e.y0, e.x1, e.y1) = (x0, y0, x1, y1)
                points.append(contentsOf: fp.points)
                ends.append(contentsOf: fp.contourEnds)
            }
            entries.append(e)
            return entries.count
        }
    }
}

/// The coverage of one line (one run of glyphs of one baseline and colour) as the rasterizer
/// swept it, clipped to the bitmap: for each row with ink, its first column and its bytes
/// from the first to the last non-zero one.
struct _LineCoverage {
    /// (first column, row, byte count, offset into `bytes`) of each row with ink, top to bottom.
    var rows: [SIMD4<Int32>] = []
    var bytes: [UInt8] = []
    /// The rows' bounding rectangle (empty when no row has ink).
    var rect = _IRect(x0: 0, y0: 0, x1: 0, y1: 0)
}

/// Collects a line's coverage rows (``_LineCoverage``): the dense rows of the native sweep as
/// they are, the spans of the portable one joined into the same rows (a row's spans run left to
/// right; the gaps between them have coverage 0; its first and last bytes are non-zero either
/// way), so both backends keep the same bytes.
struct _LineCoverageSink: CoverageSink {
    var out = _LineCoverage()
    private var rowY = Int.min, rowX = 0, rowStart = 0

    static var prefersDenseRows: Bool { true }

    mutating func denseRow(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        _finishRow()
        out.rows.append(SIMD4(Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y), Int32(truncatingIfNeeded: coverage.count),
                              Int32(truncatingIfNeeded: out.bytes.count)))
        out.bytes.append(contentsOf: coverage)
    }

    mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        _begin(y: y, x: x)
        out.bytes.append(contentsOf: coverage)
    }

    mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        _begin(y: y, x: x)
        out.bytes.append(contentsOf: repeatElement(coverage, count: count))
    }

    /// A span at (x, y) of the span sweep: a new row, or the gap since the last span as zeros.
    private mutating func _begin(y: Int, x: Int) {
        if y != rowY {
            _finishRow()
            rowY = y; rowX = x; rowStart = out.bytes.count
        } else {
            let end = rowX + (out.bytes.count - rowStart)
            if x > end { out.bytes.append(contentsOf: repeatElement(0, count: x - end)) }
        }
    }

    private mutating func _finishRow() {
        guard rowY != Int.min else { return }
        out.rows.append(SIMD4(Int32(truncatingIfNeeded: rowX), Int32(truncatingIfNeeded: rowY),
                              Int32(truncatingIfNeeded: out.bytes.count - rowStart), Int32(truncatingIfNeeded: rowStart)))
        rowY = Int.min
    }

    /// The rows, with their bounding rectangle.
    mutating func finish() -> _LineCoverage {
        _finishRow()
        var r = _IRect(x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        for row in out.rows where row.z > 0 {
            r.x0 = min(r.x0, Int(row.x)); r.x1 = max(r.x1, Int(row.x + row.z))
            r.y0 = min(r.y0, Int(row.y)); r.y1 = max(r.y1, Int(row.y) + 1)
        }
        out.rect = r.x0 == Int.max ? _IRect(x0: 0, y0: 0, x1: 0, y1: 0) : r
        return out
    }
}

/// What a layout's lines were rasterized for: the device placement and the bitmap's size (the
/// coverage is clipped to it). Any change makes every line again.
struct _TextRasterKey: Equatable {
    var a: UInt64, d: UInt64, tx: UInt64, ty: UInt64, ox: UInt64, oy: UInt64
    var width: Int, height: Int
    var quantized: Bool
}

/// A layout's line coverages (``_LineCoverage``), kept while the layout is drawn with the same
/// placement (``_TextRasterKey``): a redraw paints them without touching a glyph. The coverage
/// is what the first drawing computed and painted, so a redraw is byte-identical to it. Held by
/// the layout (`TextLayout`), shared by its copies; one lock.
package final class _TextRasterCache: @unchecked Sendable {
    private let lock = NSLock()
    private var key: _TextRasterKey? = nil
    private var lines: [Int: _LineCoverage] = [:]
    private var bytes = 0
    /// Coverage bytes kept per layout (beyond, lines are rasterized at every drawing: the same bytes).
    static let byteLimit = 32 << 20

    /// The layout's lines for drawing: runs of glyphs with one baseline and colour (made once).
    private var _runs: [(range: Range<Int>, color: CGColor?)]? = nil

    package init() {}

    /// The runs of `glyphs` (consecutive glyphs of one baseline and colour), made on first use.
    func runs(_ glyphs: [PlacedGlyph]) -> [(range: Range<Int>, color: CGColor?)] {
        lock.lock(); defer { lock.unlock() }
        if let r = _runs { return r }
        var out: [(range: Range<Int>, color: CGColor?)] = []
        glyphs.withUnsafeBufferPointer { g in
            var start = 0
            for i in g.indices where i > 0 {
                if g[i].y != g[start].y || !CGColor._same(g[i].color, g[start].color) {
                    out.append((start..<i, g[start].color)); start = i
                }
            }
            if !g.isEmpty { out.append((start..<g.count, g[start].color)) }
        }
        _runs = out
        return out
    }

    /// Line `i`'s coverage for `key`, if kept.
    func line(_ i: Int, key k: _TextRasterKey) -> _LineCoverage? {
        lock.lock(); defer { lock.unlock() }
        guard key == k else { return nil }
        return lines[i]
    }

    /// Keeps line `i`'s coverage for `key` (dropping the others' when the key changed).
    func keep(_ i: Int, _ c: _LineCoverage, key k: _TextRasterKey) {
        lock.lock(); defer { lock.unlock() }
        if key != k { key = k; lines.removeAll(); bytes = 0 }
        let n = c.bytes.count + c.rows.count * 16 + 64
        guard bytes + n <= Self.byteLimit else { return }
        lines[i] = c
        bytes += n
    }
}
