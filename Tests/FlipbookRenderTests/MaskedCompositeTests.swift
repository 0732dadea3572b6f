import Testing
@testable import FlipbookRender
@testable import Flipbook
import FlipbookRaster
import Foundation

/// The masked source-over of a group (`_BandExecutor.composite` with a `factors` row: the mask's
/// factors gathered per row, then the span kernel) against its scalar twin (the per-pixel loop,
/// no `factors`): byte for byte, every mask mode, with and without a clip coverage, at several
/// group opacities, on random premultiplied pixels.
@Suite struct MaskedCompositeTests {
    /// A random valid premultiplied pixel (some transparent, some opaque).
    static func pixel(_ g: inout SplitMix) -> UInt32 {
        let a = UInt32(g.next() % 5 == 0 ? 0 : g.next() % 4 == 0 ? 255 : g.next() % 256)
        func c() -> UInt32 { a == 0 ? 0 : UInt32(g.next() % UInt64(a + 1)) }
        return c() | (c() << 8) | (c() << 16) | (a << 24)
    }

    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: _LayerMaskMode.allCases)
    func kernelMatchesTheScalarLoop(_ mode: _LayerMaskMode) {
        let w = 67, h = 5, x0 = 3, n = w * h
        var g = SplitMix(state: UInt64(mode.rawValue) + 1)
        let src = UnsafeMutablePointer<UInt32>.allocate(capacity: n), mask = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        let a = UnsafeMutablePointer<UInt32>.allocate(capacity: n), b = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        let clip = UnsafeMutablePointer<UInt8>.allocate(capacity: n), factors = UnsafeMutablePointer<UInt8>.allocate(capacity: w)
        defer { for p in [src, mask, a, b] { p.deallocate() }; clip.deallocate(); factors.deallocate() }
        let rect = _IRect(x0: 0, y0: 0, x1: w, y1: h)
        let r = _IRect(x0: x0, y0: 1, x1: w, y1: h)   // the composite covers part of the frame
        func target(_ p: UnsafeMutablePointer<UInt32>) -> _Target { _Target(base: p, stride: w, rect: rect) }
        for alpha: UInt32 in [255, 254, 128, 1, 0] {
            for clipped in [false, true] {
                for i in 0..<n { src[i] = Self.pixel(&g); mask[i] = Self.pixel(&g); a[i] = Self.pixel(&g); b[i] = a[i] }
                let cw = r.x1 - r.x0
                for i in 0..<(cw * (r.y1 - r.y0)) { clip[i] = UInt8(g.next() % 3 == 0 ? 255 : g.next() % 256) }
                _BandExecutor.composite(target(src), mask: target(mask), maskMode: mode, onto: target(a), rect: r,
                                        alpha: alpha, mode: .over, coverage: clipped ? clip : nil)
                _BandExecutor.composite(target(src), mask: target(mask), maskMode: mode, onto: target(b), rect: r,
                                        alpha: alpha, mode: .over, coverage: clipped ? clip : nil, factors: factors)
                let same = (0..<n).allSatisfy { a[$0] == b[$0] }
                #expect(same, "mode \(mode), alpha \(alpha), clip \(clipped)")
            }
        }
    }
}
