import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookGraphics

/// Bitmap contexts in Core Graphics' other 8-bit layouts (issue 37, item 10). Apple's list:
/// Quartz 2D Programming Guide, "Supported Pixel Formats" (RGB 32 bpp premultipliedFirst /
/// premultipliedLast / noneSkipFirst / noneSkipLast, gray 8 bpp none, alpha-only 8 bpp), and
/// `CGBitmapInfo`'s byte orders (`byteOrder32Little` stores the 32-bit pixel reversed: with
/// `premultipliedFirst` that is B, G, R, A in memory — `UIGraphicsBeginImageContext`'s layout).
@Suite struct BitmapFormatTests {
    static let rgb = CGColorSpaceCreateDeviceRGB()

    /// A 2×1 context of `info` over `bytes`, its left pixel filled with `color` (y up: row 0).
    func fill(_ info: UInt32, _ color: CGColor, space: CGColorSpace = BitmapFormatTests.rgb, bpp: Int = 4,
              into bytes: inout [UInt8]) -> CGContext? {
        bytes.withUnsafeMutableBytes { raw -> CGContext? in
            guard let c = CGContext(data: raw.baseAddress, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 2 * bpp,
                                    space: space, bitmapInfo: info) else { return nil }
            c.setFillColor(color)
            c.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            return c
        }
    }

    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let halfBlue = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)

    @Test func everyRGBOrderWritesTheCallersBytes() throws {
        let first = CGImageAlphaInfo.premultipliedFirst.rawValue, last = CGImageAlphaInfo.premultipliedLast.rawValue
        let little = CGBitmapInfo.byteOrder32Little.rawValue, big = CGBitmapInfo.byteOrder32Big.rawValue
        let cases: [(String, UInt32, [UInt8])] = [
            ("RGBA", last, [0, 0, 128, 128]),
            ("RGBA (32Big)", last | big, [0, 0, 128, 128]),
            ("ABGR (Last, 32Little)", last | little, [128, 128, 0, 0]),
            ("ARGB", first, [128, 0, 0, 128]),
            ("BGRA (First, 32Little)", first | little, [128, 0, 0, 128]),
            ("RGBX", CGImageAlphaInfo.noneSkipLast.rawValue, [0, 0, 128, 255]),
            ("XRGB", CGImageAlphaInfo.noneSkipFirst.rawValue, [255, 0, 0, 128]),
            ("BGRX (SkipFirst, 32Little)", CGImageAlphaInfo.noneSkipFirst.rawValue | little, [128, 0, 0, 255]),
            ("XBGR (SkipLast, 32Little)", CGImageAlphaInfo.noneSkipLast.rawValue | little, [255, 128, 0, 0]),
        ]
        for (name, info, expected) in cases {
            var bytes = [UInt8](repeating: 0, count: 8)
            let c = try #require(fill(info, Self.halfBlue, into: &bytes), "\(name)")
            #expect(Array(bytes[0..<4]) == expected, "\(name)")
            #expect(c.bitmapInfo.rawValue == info && c.bitsPerPixel == 32, "\(name)")
            // The untouched pixel: transparent, or black (its skipped byte may be written as 255).
            let skip = name.contains("X") ? expected.firstIndex(of: 255) : nil
            #expect(bytes[4..<8].enumerated().allSatisfy { $0.element == 0 || $0.offset == skip }, "\(name)")
        }
    }

    /// The caller's pixels are read in: half blue over an opaque green BGRA pixel blends with it.
    @Test func existingPixelsAreTheDestination() throws {
        let info = CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue
        var bytes: [UInt8] = [0, 255, 0, 255, 0, 0, 0, 0]          // B G R A: opaque green, transparent
        let c = try #require(fill(info, Self.halfBlue, into: &bytes))
        // over: blue 128 + green 255 · (1 − 128/255) = 127, alpha 255 (the rounding rule, div255).
        #expect(Array(bytes[0..<4]) == [128, 127, 0, 255])
        // makeImage() reads the context as RGBA, whatever the memory's order.
        let img = c.makeImage()!.pixelBuffer
        #expect(img[0, 0] == RGBA8(r: 0, g: 127, b: 128, a: 255) && img[1, 0].a == 0)
        #expect(c.data == bytes.withUnsafeMutableBytes { $0.baseAddress })
    }

    /// The same drawing in BGRA and in RGBA: the bytes are a permutation of each other, every
    /// kernel and rounding the same.
    @Test func bgraDrawsExactlyAsRGBA() throws {
        func draw(_ c: CGContext) {
            c.setFillColor(CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8))
            c.fillEllipse(in: CGRect(x: 2.3, y: 1.7, width: 20, height: 13))
            c.setStrokeColor(CGColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.6))
            c.setLineWidth(2.5)
            c.strokeLineSegments(between: [CGPoint(x: 0, y: 0), CGPoint(x: 24, y: 16)])
            c.setShadow(offset: CGSize(width: 2, height: -1), blur: 2, color: .black)
            c.fill(CGRect(x: 14, y: 3, width: 5, height: 5))
        }
        let w = 24, h = 16
        let rgba = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0, space: Self.rgb,
                             bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        let bgra = try #require(CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0, space: Self.rgb,
                                          bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue))
        draw(rgba); draw(bgra)
        let a = rgba.data!.assumingMemoryBound(to: UInt8.self), b = bgra.data!.assumingMemoryBound(to: UInt8.self)
        var same = true
        for i in 0..<(w * h) {
            let p = 4 * i
            same = same && a[p] == b[p + 2] && a[p + 1] == b[p + 1] && a[p + 2] == b[p] && a[p + 3] == b[p + 3]
        }
        #expect(same)
        #expect(rgba.makeImage()!.pixelBuffer.bytes == bgra.makeImage()!.pixelBuffer.bytes)
    }

    @Test func grayAndAlphaOnly() throws {
        let gray = CGColorSpaceCreateDeviceGray()
        var g = [UInt8](repeating: 0, count: 2)
        let gc = try #require(fill(CGImageAlphaInfo.none.rawValue, CGColor(gray: 0.5, alpha: 1), space: gray, bpp: 1, into: &g))
        #expect(g == [128, 0] && gc.bitsPerPixel == 8)
        #expect(gc.makeImage()!.pixelBuffer[0, 0] == RGBA8(r: 128, g: 128, b: 128, a: 255))
        // A colour in a gray context is its luminance; half-transparent white over black is 128.
        var g2 = [UInt8](repeating: 0, count: 2)
        _ = try #require(fill(CGImageAlphaInfo.none.rawValue, CGColor(red: 1, green: 1, blue: 1, alpha: 0.5), space: gray, bpp: 1, into: &g2))
        #expect(g2[0] == 128)
        var a = [UInt8](repeating: 0, count: 2)
        let ac = try #require(fill(CGImageAlphaInfo.alphaOnly.rawValue, CGColor(red: 1, green: 0, blue: 0, alpha: 0.5), space: gray, bpp: 1, into: &a))
        #expect(a == [128, 0])
        #expect(ac.makeImage()!.pixelBuffer[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: 128))
    }

    @Test func layoutsCoreGraphicsDoesNotDrawAreRefused() {
        let s = Self.rgb
        func make(_ bpc: Int, _ info: UInt32, _ space: CGColorSpace = BitmapFormatTests.rgb) -> CGContext? {
            CGContext(data: nil, width: 4, height: 4, bitsPerComponent: bpc, bytesPerRow: 0, space: space, bitmapInfo: info)
        }
        #expect(make(16, CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
        #expect(make(8, CGImageAlphaInfo.last.rawValue) == nil)          // straight alpha: Apple refuses it too
        #expect(make(8, CGImageAlphaInfo.first.rawValue) == nil)
        #expect(make(8, CGImageAlphaInfo.none.rawValue) == nil)          // RGB 24 bpp
        #expect(make(8, CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.floatComponents.rawValue) == nil)
        #expect(make(8, CGImageAlphaInfo.premultipliedLast.rawValue, CGColorSpaceCreateDeviceGray()) == nil)
        _ = s
    }

    /// `CGPath(__byStroking:…)` is `copy(strokingWithWidth:…)` (Apple: the Swift spelling of
    /// `CGPathCreateCopyByStrokingPath`, nullable).
    @Test func pathByStroking() throws {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 10, y: 5)); p.addQuadCurve(to: CGPoint(x: 20, y: 0), control: CGPoint(x: 15, y: 10))
        var t = CGAffineTransform(translationX: 3, y: 4)
        let a = try #require(CGPath(__byStroking: p, transform: &t, lineWidth: 2, lineCap: .round, lineJoin: .bevel, miterLimit: 10))
        let b = p.copy(strokingWithWidth: 2, lineCap: .round, lineJoin: .bevel, miterLimit: 10, transform: t)
        #expect(a.elements == b.elements && !a.isEmpty)
        let none = try #require(CGPath(__byStroking: p, transform: nil, lineWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10))
        #expect(none.elements == p.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10).elements)
        #expect(CGPath(__byStroking: p, transform: nil, lineWidth: 0, lineCap: .butt, lineJoin: .miter, miterLimit: 10) == nil)
    }
}
