import Testing
import FlipbookTesting
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import Foundation

/// `CAGradientLayer` drawn by the compositor: reference images for each type with two and five
/// stops, non-uniform locations and points outside the unit square, rounded corners, an
/// animation mid-flight; exact pixel values where the geometry fixes them.
/// References: `__Snapshots__/GradientLayerRenderTests/…` (recorded with `FLIPBOOK_RECORD=missing`).
@Suite struct GradientLayerRenderTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let five: [CGColor] = [CGColor(red: 0.95, green: 0.3, blue: 0.2, alpha: 1), CGColor(red: 1, green: 0.8, blue: 0.1, alpha: 1),
                              CGColor(red: 0.2, green: 0.8, blue: 0.4, alpha: 1), CGColor(red: 0.2, green: 0.5, blue: 1, alpha: 1),
                              CGColor(red: 0.5, green: 0.2, blue: 0.7, alpha: 1)]

    static func layer(_ type: CAGradientLayerType, colors: [Any], locations: [NSNumber]? = nil,
                      start: CGPoint, end: CGPoint, size: CGSize = CGSize(width: 96, height: 64)) -> CAGradientLayer {
        let g = CAGradientLayer()
        g.frame = CGRect(origin: .zero, size: size)
        g.type = type
        g.colors = colors
        g.locations = locations
        g.startPoint = start
        g.endPoint = end
        return g
    }

    /// An axial red → blue gradient from the left edge to the right edge: each column's colour
    /// is the ramp at its centre, every row the same.
    @Test func axialColumnsFollowTheRamp() {
        VirtualRunLoop().run {
            let g = Self.layer(.axial, colors: [Self.red, Self.blue], start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5),
                               size: CGSize(width: 100, height: 10))
            let px = try! Compositor(threadCount: 1).render(g.makeRenderTree(), width: 100, height: 10)
            for x in [0, 37, 99] {
                let t = (Double(x) + 0.5) / 100
                let i = Int(t * 1023 + 0.5)
                let r = UInt8((255 * (1 - Double(i) / 1023)).rounded())
                #expect(px[x, 0].r == r && px[x, 9] == px[x, 0], "column \(x)")
            }
        }
    }

    @Test(arguments: [("axial", CAGradientLayerType.axial), ("radial", .radial), ("conic", .conic)])
    func twoAndFiveStops(_ name: String, _ type: CAGradientLayerType) {
        VirtualRunLoop().run {
            let start = type == .axial ? CGPoint(x: 0, y: 0) : CGPoint(x: 0.5, y: 0.5)
            let end = type == .axial ? CGPoint(x: 1, y: 1) : CGPoint(x: 1, y: 1)
            let two = Self.layer(type, colors: [Self.red, Self.blue], start: start, end: end)
            assertRendering(of: two, at: 0, size: CGSize(width: 96, height: 64), background: .black, named: "\(name)-2")
            let five = Self.layer(type, colors: Self.five, locations: [0, 0.1, 0.45, 0.5, 1], start: start, end: end)
            assertRendering(of: five, at: 0, size: CGSize(width: 96, height: 64), background: .black, named: "\(name)-5-nonuniform")
        }
    }

    /// Points outside the unit square: the ramp runs beyond the layer (only its middle shows);
    /// a radial ellipse wider than the layer; a conic centre outside.
    @Test func pointsOutsideTheUnitSquare() {
        VirtualRunLoop().run {
            let a = Self.layer(.axial, colors: Self.five, start: CGPoint(x: -0.5, y: 0.2), end: CGPoint(x: 1.5, y: 0.8))
            assertRendering(of: a, at: 0, size: CGSize(width: 96, height: 64), background: .black, named: "axial-outside")
            let r = Self.layer(.radial, colors: Self.five, start: CGPoint(x: 0.2, y: 1.1), end: CGPoint(x: 1.4, y: 0.3))
            assertRendering(of: r, at: 0, size: CGSize(width: 96, height: 64), background: .black, named: "radial-outside")
            let c = Self.layer(.conic, colors: Self.five, start: CGPoint(x: -0.2, y: -0.2), end: CGPoint(x: 0.5, y: 0.5))
            assertRendering(of: c, at: 0, size: CGSize(width: 96, height: 64), background: .black, named: "conic-outside")
        }
    }

    /// Rounded corners, a border, rotated: the gradient fills the layer's shape, over the
    /// background, under the border.
    @Test func roundedRotatedWithBorder() {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
            let g = Self.layer(.axial, colors: [CGColor(red: 1, green: 1, blue: 1, alpha: 0), Self.blue],
                               start: CGPoint(x: 0, y: 0), end: CGPoint(x: 0, y: 1), size: CGSize(width: 80, height: 50))
            g.position = CGPoint(x: 60, y: 45)
            g.cornerRadius = 14
            g.backgroundColor = Self.red
            g.borderWidth = 3
            g.borderColor = CGColor(gray: 0.1, alpha: 1)
            g.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            root.addSublayer(g)
            assertRendering(of: root, at: 0, size: CGSize(width: 120, height: 90), background: .white, named: "rounded-rotated")
        }
    }

    /// An animation of `locations` and `colors` mid-flight, at three times.
    @Test func animationMidFlight() {
        let loop = VirtualRunLoop()
        loop.run {
            let g = Self.layer(.axial, colors: [CGColor(gray: 0.8, alpha: 1), CGColor(gray: 1, alpha: 1), CGColor(gray: 0.8, alpha: 1)],
                               locations: [-0.3, -0.15, 0], start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5),
                               size: CGSize(width: 120, height: 24))
            loop.attach(g)
            loop.endTurn()
            let a = CABasicAnimation(keyPath: "locations")
            a.fromValue = [-0.3, -0.15, 0]
            a.toValue = [1, 1.15, 1.3]
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            g.add(a, forKey: "shimmer")
            loop.endTurn()
            let t0 = loop.currentTime
            assertRenderings(of: g, at: [t0 + 0.25, t0 + 0.5, t0 + 0.75], size: CGSize(width: 120, height: 24),
                             background: .black, named: "shimmer")
            // The band's brightest column moves right with time.
            func brightest(_ t: Double) -> Int {
                let px = try! Compositor(threadCount: 1).render(g.makeRenderTree(at: t), width: 120, height: 24)
                return (0..<120).max { px[$0, 12].r < px[$1, 12].r }!
            }
            let b1 = brightest(t0 + 0.25), b2 = brightest(t0 + 0.5)
            #expect(b1 < b2 && abs(b2 - 60) <= 3, "\(b1) \(b2)")
        }
    }

    /// `CGContext.drawLinearGradient` and a `CAGradientLayer` share the paint: the same bytes.
    @Test func sameBytesAsCoreGraphics() throws {
        try VirtualRunLoop().run {
            let g = Self.layer(.axial, colors: Self.five, locations: [0, 0.1, 0.45, 0.5, 1],
                               start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5), size: CGSize(width: 100, height: 8))
            let layer = try Compositor(threadCount: 1).render(g.makeRenderTree(), width: 100, height: 8)
            let ctx = CGContext(data: nil, width: 100, height: 8, bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            let cg = CGGradient(colorsSpace: nil, colors: Self.five, locations: [0, 0.1, 0.45, 0.5, 1])!
            ctx.drawLinearGradient(cg, start: CGPoint(x: 0, y: 4), end: CGPoint(x: 100, y: 4),
                                   options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
            #expect(ctx.makeImage()!.pixelBuffer == layer)
        }
    }

    /// Same bytes with 1 and 3 threads.
    @Test func threadIndependent() throws {
        try VirtualRunLoop().run {
            let g = Self.layer(.conic, colors: Self.five, start: CGPoint(x: 0.4, y: 0.6), end: CGPoint(x: 1, y: 0),
                               size: CGSize(width: 200, height: 150))
            let tree = g.makeRenderTree()
            let a = try Compositor(threadCount: 1).render(tree, width: 200, height: 150)
            let b = try Compositor(threadCount: 3, bandHeight: 7).render(tree, width: 200, height: 150)
            #expect(a == b)
        }
    }
}
