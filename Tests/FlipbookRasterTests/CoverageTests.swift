#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import FlipbookRaster
import Foundation

@Suite struct CoverageTests {
    func rows(_ p: PolygonCoverage, order: [Int]) -> [Int: (CoverageSpan, [UInt8])] {
        var coverage: [UInt8] = [], scratch: [Double] = []
        var out: [Int: (CoverageSpan, [UInt8])] = [:]
        for y in order {
            if let span = p.rasterizeRow(y, coverage: &coverage, scratch: &scratch) {
                out[y] = (span, Array(coverage[0..<span.count]))
            }
        }
        return out
    }

    /// Rectangle [2.5, 7.25] × [1, 3]: half a pixel on the left, a quarter on the right.
    @Test func axisAlignedRectangleHasExactFractionalEdges() throws {
        let p = try #require(PolygonCoverage(points: [(2.5, 1), (7.25, 1), (7.25, 3), (2.5, 3)],
                                             clipX0: 0, clipY0: 0, clipX1: 100, clipY1: 100))
        let r = rows(p, order: Array(0..<5))
        #expect(r[0] == nil && r[3] == nil)
        let (span, bytes) = try #require(r[1])
        #expect(span.x0 == 2 && span.x1 == 8 && span.opaque == 3..<7)
        #expect(bytes == [128, 255, 255, 255, 255, 64])
        #expect(r[2]?.1 == bytes)
    }

    /// A 7°-rotated 40×20 rectangle: total coverage equals its area, edges are anti-aliased
    /// (many intermediate values), and rows computed in any order (any band split) are identical.
    @Test func rotatedRectangleIsSmoothAndBandIndependent() throws {
        let t = 7.0 * Double.pi / 180, (c, s) = (cos(t), sin(t))
        let corners = [(0.0, 0.0), (40, 0), (40, 20), (0, 20)].map { (u, v) in
            (x: 30 + c * u - s * v, y: 10.3 + s * u + c * v)
        }
        let p = try #require(PolygonCoverage(points: corners, clipX0: 0, clipY0: 0, clipX1: 200, clipY1: 200))
        let forward = rows(p, order: Array(p.minY..<p.maxY))
        let backward = rows(p, order: Array((p.minY..<p.maxY).reversed()))
        var area = 0.0, partial = 0
        for (y, (span, bytes)) in forward {
            #expect(backward[y]?.0 == span && backward[y]?.1 == bytes)
            area += bytes.reduce(0.0) { $0 + Double($1) / 255 }
            partial += bytes.filter { $0 != 0 && $0 != 255 }.count
        }
        #expect(abs(area - 800) < 1.0, "area \(area)")
        #expect(partial > 80, "only \(partial) anti-aliased pixels")
    }

    /// Clipping at the canvas edge keeps the exact area inside the clip.
    @Test func clipRectangleKeepsInsideArea() throws {
        let p = try #require(PolygonCoverage(points: [(-5, 0), (5, 10), (-5, 10)], clipX0: 0, clipY0: 0, clipX1: 50, clipY1: 50))
        var area = 0.0
        for (_, (_, bytes)) in rows(p, order: Array(0..<10)) { area += bytes.reduce(0.0) { $0 + Double($1) / 255 } }
        #expect(abs(area - 12.5) < 0.1, "area \(area)")   // the triangle x >= 0 part: 5·5/2
        #expect(PolygonCoverage(points: [(0, 0), (1, 1)], clipX0: 0, clipY0: 0, clipX1: 9, clipY1: 9) == nil)
        #expect(PolygonCoverage(points: [(60, 0), (70, 0), (70, 5)], clipX0: 0, clipY0: 0, clipX1: 50, clipY1: 50) == nil)
    }

    @Test func roundedRectangleCoverage() {
        let identity = AffineInverse(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)
        let shape = RoundedRectCoverage(width: 10, height: 10, radii: CornerRadii(topLeft: 4, topRight: 0, bottomRight: 0, bottomLeft: 0),
                                        inverse: identity)
        var row = [UInt8](repeating: 0, count: 12)
        row.withUnsafeMutableBufferPointer { shape.rasterizeRow(5, x0: 0, x1: 12, into: $0.baseAddress!) }
        #expect(row == [255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0])   // pixel-aligned edges: no fade
        row.withUnsafeMutableBufferPointer { shape.rasterizeRow(1, x0: 0, x1: 12, into: $0.baseAddress!) }
        // pixel (1, 1): centre (1.5, 1.5), distance √(2·2.5²) − 4 = −0.4645 → 0.9645 → 246;
        // pixel (0, 1): √(3.5² + 2.5²) − 4 = +0.3012 → 0.1988 → 51
        #expect(row[0] == 51 && row[1] == 246 && row[9] == 255)
        // Multiply into an existing mask; a 2× scale halves the layer-space distance per pixel.
        var mask = [UInt8](repeating: 128, count: 3)
        let scaled = RoundedRectCoverage(width: 10, height: 10, radii: CornerRadii(all: 0),
                                         inverse: AffineInverse(a: 0.5, b: 0, c: 0, d: 0, e: 0.5, f: 0))
        mask.withUnsafeMutableBufferPointer { scaled.rasterizeRow(0, x0: 18, x1: 21, into: $0.baseAddress!, mode: .multiply) }
        // The edge is at canvas x = 20: x = 19.5 → u = 9.75, 0.25 unit = 0.5 px inside → 255;
        // x = 20.5 → 0.5 px outside → 0. Multiplied into 128: [128, 128, 0].
        #expect(mask == [128, 128, 0])
    }
}
