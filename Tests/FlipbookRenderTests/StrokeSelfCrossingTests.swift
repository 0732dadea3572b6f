import Testing
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import FlipbookTestSupport
import Foundation

/// Where a stroke crosses itself, shape layers and `CGContext` strokes cover the pixels around
/// the lens as the union of the two parts (`PathStroker.overlapCorrections`), not as the sum:
/// against a 32 × 32 supersampled reference no pixel is off by more than 5 levels, where the
/// uncorrected outline was off by 65 (a 2 px line crossing itself at ~40°).
@Suite struct StrokeSelfCrossingTests {
    static let zig: [(x: Double, y: Double)] = [(5.3, 6.1), (40.7, 38.2), (41.2, 5.6), (4.9, 37.4)]
    static let (w, h) = (48, 44)
    static let reference = SupersampledStroke.coverage(zig, halfWidth: 1, width: w, height: h)

    /// The largest difference (levels) between an opaque white stroke's alpha and the reference.
    static func worst(_ alpha: (Int, Int) -> UInt8) -> Double {
        var worst = 0.0
        for y in 0..<h { for x in 0..<w { worst = max(worst, abs(Double(alpha(x, y)) - 255 * reference[y * w + x])) } }
        return worst
    }

    static func path() -> CGPath {
        let m = CGMutablePath()
        m.addLines(between: zig.map { CGPoint(x: $0.x, y: $0.y) })
        return m
    }

    @Test func shapeLayer() throws {
        try VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: Self.w, height: Self.h)
            let s = CAShapeLayer()
            s.frame = root.bounds
            s.path = Self.path()
            s.fillColor = nil
            s.strokeColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            s.lineWidth = 2
            s.lineCap = .round
            s.lineJoin = .round
            root.addSublayer(s)
            let frame = try Compositor(threadCount: 1, bandHeight: 8).render(root.makeRenderTree(), width: Self.w, height: Self.h,
                                                                              scale: 1, background: .transparent)
            let worst = Self.worst { frame[$0, $1].a }
            #expect(worst <= 5, "worst \(worst)")
            let three = try Compositor(threadCount: 3, bandHeight: 8).render(root.makeRenderTree(), width: Self.w, height: Self.h,
                                                                              scale: 1, background: .transparent)
            #expect(three.bytes == frame.bytes)
        }
    }

    /// A bitmap context (y up, as Core Graphics) draws the mirror image, so the zig-zag is given
    /// mirrored there; flipped to UIKit's y-down orientation it is given as it is. Either way the
    /// correction follows the reflection.
    @Test(arguments: [false, true])
    func contextStroke(flipped: Bool) {
        let c = CGContext(data: nil, width: Self.w, height: Self.h, bitsPerComponent: 8, bytesPerRow: 0,
                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        if flipped { c.translateBy(x: 0, y: CGFloat(Self.h)); c.scaleBy(x: 1, y: -1) }
        c.setStrokeColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        c.setLineWidth(2)
        c.setLineCap(.round)
        c.setLineJoin(.round)
        let pts = Self.zig.map { CGPoint(x: $0.x, y: flipped ? $0.y : Double(Self.h) - $0.y) }
        c.addLines(between: pts)
        c.strokePath()
        let image = c.makeImage()!
        let worst = Self.worst { image.pixelBuffer[$0, $1].a }
        #expect(worst <= 5, "worst \(worst)")
    }
}
