import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// Layer code written the way published iOS libraries write it — spinners, HUD dots, a pulse,
/// a particle image drawn into a bitmap context — with only the platform edits of
/// docs/porting.md (`UIBezierPath(…)` → `CGMutablePath`, `UIColor.….cgColor` → `CGColor(…)`,
/// `UIGraphicsImageRenderer` → a bitmap context), rendered to pixels (issue 37). Each case
/// names the library pattern it follows; the code is written for these tests, not copied.
@Suite struct PortedLayerCodeTests {
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// A live root of `w × h` points with `build` run in it, rendered at `times` (seconds after
    /// the commit).
    func frames(_ w: Int, _ h: Int, at times: [CFTimeInterval], _ build: (CALayer) -> Void) throws -> [PixelBuffer] {
        let loop = VirtualRunLoop()
        return try loop.run {
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            root.anchorPoint = .zero
            loop.attach(root)
            build(root)
            loop.endTurn()
            let start = loop.currentTime
            return try times.map { t in
                try Compositor(threadCount: 1).render(root.makeRenderTree(at: start + t), width: w, height: h,
                                                      scale: 1, background: .transparent)
            }
        }
    }

    /// NVActivityIndicatorView's circle shape and "ball clip rotate": a circle path built with
    /// `UIBezierPath(arcCenter:radius:startAngle: 0, endAngle: 2 * .pi, clockwise: false)` —
    /// Core Graphics' `clockwise: true` — in a shape layer, pulsed by a group of `transform.scale`
    /// and `transform.rotation.z` keyframes whose values are boxed numbers in an `NSMutableArray`,
    /// the group eased by its own timing function. The disc is drawn (it was a single point), and
    /// it is scaled down mid-cycle.
    @Test func nvActivityIndicatorCirclePulse() throws {
        let imgs = try frames(40, 40, at: [0, 0.375]) { root in
            let circle = CAShapeLayer()
            let path = CGMutablePath()                       // UIBezierPath(arcCenter:…clockwise: false)
            path.addArc(center: CGPoint(x: 10, y: 10), radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
            circle.path = path
            circle.fillColor = Self.white
            circle.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
            let scale = CAKeyframeAnimation(keyPath: "transform.scale")
            scale.keyTimes = [0, 0.5, 1]
            let values = NSMutableArray()
            for v in [1, 0.6, 1] { values.add(NSNumber(value: v)) }
            scale.values = values as [AnyObject]
            let rotate = CAKeyframeAnimation(keyPath: "transform.rotation.z")
            rotate.keyTimes = scale.keyTimes
            rotate.values = [0, Double.pi, 2 * Double.pi]
            let group = CAAnimationGroup()
            group.animations = [scale, rotate]
            group.timingFunction = CAMediaTimingFunction(name: .linear)
            group.duration = 0.75
            group.repeatCount = .infinity
            group.isRemovedOnCompletion = false
            circle.add(group, forKey: "animation")
            root.addSublayer(circle)
        }
        // t = 0: the whole disc (radius 10 about (20, 20)).
        #expect(imgs[0][20, 20].a == 255 && imgs[0][20, 12].a == 255 && imgs[0][20, 8].a == 0)
        // Mid-cycle (group time 0.375 s = keyTime 0.5): scaled to 0.6 — radius 6.
        #expect(imgs[1][20, 20].a == 255 && imgs[1][20, 15].a == 255 && imgs[1][20, 12].a == 0)
    }

    /// ProgressHUD's "circle rotate chase": the same rotation in groups that differ only in their
    /// timing function; the dots separate while they turn (they moved in lockstep when a group's
    /// timing function was ignored).
    @Test func progressHUDChaseSeparatesTheDots() throws {
        let imgs = try frames(60, 60, at: [0.3]) { root in
            for i in 0..<2 {
                let holder = CALayer()
                holder.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
                let dot = CAShapeLayer()
                let p = CGMutablePath()
                p.addArc(center: CGPoint(x: 3, y: 3), radius: 3, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
                dot.path = p
                dot.fillColor = i == 0 ? CGColor(red: 1, green: 0, blue: 0, alpha: 1) : CGColor(red: 0, green: 0, blue: 1, alpha: 1)
                dot.frame = CGRect(x: 27, y: 0, width: 6, height: 6)
                holder.addSublayer(dot)
                let rotate = CABasicAnimation(keyPath: "transform.rotation")
                rotate.fromValue = 0
                rotate.toValue = 2 * Double.pi
                let group = CAAnimationGroup()
                group.animations = [rotate]
                group.duration = 1.5
                group.timingFunction = CAMediaTimingFunction(controlPoints: 0.5, 0.15 + 0.25 * Float(i), 0.25, 1)
                group.repeatCount = .infinity
                holder.add(group, forKey: "rotate")
                root.addSublayer(holder)
            }
        }
        func centroid(_ img: PixelBuffer, red: Bool) -> CGPoint? {
            var sx = 0.0, sy = 0.0, n = 0.0
            for y in 0..<60 { for x in 0..<60 {
                let p = img[x, y]
                if (red ? p.r : p.b) > 128 { sx += Double(x); sy += Double(y); n += 1 }
            } }
            return n > 0 ? CGPoint(x: sx / n, y: sy / n) : nil
        }
        let a = try #require(centroid(imgs[0], red: true)), b = try #require(centroid(imgs[0], red: false))
        #expect(hypot(a.x - b.x, a.y - b.y) > 4, "\(a) \(b)")
    }

    /// A confetti view's particle image: a coloured rectangle and a disc drawn into a bitmap
    /// context made with `CGContext(data: nil, …)` (y up, as on Apple), then `makeImage()` — the
    /// image is upright: the disc drawn near y = h (the top in a y-up context) is in the image's
    /// top rows, and it shows on screen at the top of the layer that displays it.
    @Test func particleImageDrawnInABitmapContextIsUpright() throws {
        let ctx = try #require(CGContext(data: nil, width: 12, height: 12, bitsPerComponent: 8, bytesPerRow: 0,
                                         space: CGColorSpaceCreateDeviceRGB(),
                                         bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue))
        ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 12, height: 4))                // bottom band
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fillEllipse(in: CGRect(x: 3, y: 7, width: 5, height: 5))       // near the top
        let image = try #require(ctx.makeImage())
        let imgs = try frames(12, 12, at: [0]) { root in
            let l = CALayer()
            l.frame = CGRect(x: 0, y: 0, width: 12, height: 12)
            l.contents = image
            root.addSublayer(l)
        }
        #expect(imgs[0][5, 2].r == 255 && imgs[0][5, 2].b == 0)       // the disc at the top
        #expect(imgs[0][5, 10].b == 255)                               // the band at the bottom
    }

    /// Pulsator's pulse: a layer subclass with its own designated initializer, `override
    /// init(layer:)` and Xcode's `required init?(coder:)` — but no `override init()` — whose
    /// `transform.scale.xy` and `opacity` animate in a group. It compiles unchanged and pulses.
    final class PulseLayer: CALayer {
        let radius: CGFloat
        init(radius: CGFloat, color: CGColor) {
            self.radius = radius
            super.init()
            bounds = CGRect(x: 0, y: 0, width: radius * 2, height: radius * 2)
            cornerRadius = radius
            backgroundColor = color
        }
        override init(layer: Any) {
            radius = (layer as? PulseLayer)?.radius ?? 0
            super.init(layer: layer)
        }
        required init?(coder aDecoder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    }

    @Test func pulsatorShapedSubclassPulses() throws {
        let imgs = try frames(40, 40, at: [0, 0.5]) { root in
            let pulse = PulseLayer(radius: 15, color: CGColor(red: 0, green: 1, blue: 0, alpha: 1))
            pulse.position = CGPoint(x: 20, y: 20)
            let scale = CABasicAnimation(keyPath: "transform.scale.xy")
            scale.fromValue = 0.0
            scale.toValue = 1.0
            let fade = CAKeyframeAnimation(keyPath: "opacity")
            fade.values = [0.45, 0.45, 0]
            fade.keyTimes = [0, 0.2, 1]
            let group = CAAnimationGroup()
            group.animations = [scale, fade]
            group.duration = 1
            group.repeatCount = .infinity
            group.timingFunction = CAMediaTimingFunction(name: .default)
            pulse.add(group, forKey: "pulse")
            root.addSublayer(pulse)
        }
        // t = 0: scale 0, nothing drawn. t = 0.5: a disc smaller than the model's 15 pt, faded.
        #expect(imgs[0][20, 20].a == 0)
        let mid = imgs[1]
        #expect(mid[20, 20].g > 0 && mid[20, 20].a < 128)
        #expect(mid[20, 6].a == 0)                                        // inside the model radius, outside the pulse
    }
}
