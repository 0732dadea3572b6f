// A layer that draws itself (issue 13): a progress ring whose custom `progress` property
// animates. The Apple pattern, ported with platform edits only:
//
// - `@NSManaged var progress: CGFloat` becomes a computed property over key-value coding (Swift
//   on Linux has no dynamic properties): the value lives in the layer's KVC storage, so
//   animations, presentation copies and `init(layer:)` carry it;
// - `class func needsDisplay(forKey:)` answers true for "progress": while it animates, the
//   presentation copy (holding the animated value) draws every frame through `draw(in:)`;
// - `action(forKey:)` makes `ring.progress = x` animate from what is on screen, as an
//   implicit animation would.
//
// At 0.2 s the ring goes from 0 to 0.75 over 1 s (ease in, ease out).
import Flipbook
import FlipbookRender
import SampleSupport
import Foundation

final class ProgressRingLayer: CALayer {
    /// The animatable custom property (`@NSManaged var progress: CGFloat` on Apple).
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }
    /// A plain stored property: copied into presentation copies by `init(layer:)`.
    var ringColor = CGColor(red: 0.16, green: 0.47, blue: 0.96, alpha: 1)
    var lineWidth: CGFloat = 12

    override init() {
        super.init()
        contentsScale = 2                  // UIScreen.main.scale on iOS
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? ProgressRingLayer {
            ringColor = other.ringColor
            lineWidth = other.lineWidth
        }
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }

    override class func defaultValue(forKey key: String) -> Any? {
        key == "progress" ? CGFloat(0) : super.defaultValue(forKey: key)
    }

    override func action(forKey event: String) -> CAAction? {
        guard event == "progress" else { return super.action(forKey: event) }
        let anim = CABasicAnimation(keyPath: "progress")
        anim.fromValue = presentation()?.progress ?? progress
        anim.duration = 1
        anim.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        return anim   // toValue nil: animates to the new model value
    }

    override func draw(in ctx: CGContext) {
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        let radius = min(bounds.width, bounds.height) / 2 - lineWidth / 2
        // TODO(CGContext): with arcs and strokes in the context, this is Apple's code:
        //     ctx.setLineWidth(lineWidth); ctx.setLineCap(.round)
        //     ctx.setStrokeColor(track); ctx.addArc(center:radius:startAngle: 0, endAngle: 2π, clockwise: false); ctx.strokePath()
        //     ctx.setStrokeColor(ringColor)
        //     ctx.addArc(center: center, radius: radius, startAngle: -.pi / 2,
        //                endAngle: -.pi / 2 + 2 * .pi * progress, clockwise: false)
        //     ctx.strokePath()
        // Until then the ring is drawn with `fill(_:)` only: a square of the line width every
        // 2° along the circle (the reference frames will change when this switches to arcs).
        ring(ctx, center: center, radius: radius, upTo: 1, color: CGColor(gray: 0.88, alpha: 1))
        ring(ctx, center: center, radius: radius, upTo: progress, color: ringColor)
    }

    private func ring(_ ctx: CGContext, center: CGPoint, radius: CGFloat, upTo fraction: CGFloat, color: CGColor) {
        guard fraction > 0 else { return }
        ctx.setFillColor(color)
        let steps = Int((min(fraction, 1) * 180).rounded())    // one square per 2°
        let half = lineWidth / 2
        for i in 0...steps {
            let angle = -CGFloat.pi / 2 + 2 * .pi * min(fraction, 1) * CGFloat(i) / CGFloat(max(steps, 1))
            let p = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            ctx.fill(CGRect(x: p.x - half, y: p.y - half, width: lineWidth, height: lineWidth))
        }
    }
}

let sample = Sample("progress-draw", width: 160, height: 160, duration: 1.5)
let ring = sample.build { () -> ProgressRingLayer in
    let r = ProgressRingLayer()
    r.frame = CGRect(x: 20, y: 20, width: 120, height: 120)
    r.setNeedsDisplay()                    // draw the empty ring once
    sample.root.addSublayer(r)
    return r
}
sample.recorder.at(0.2) { ring.progress = 0.75 }
sample.run()
