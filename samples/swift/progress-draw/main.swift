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

    required init?(coder: NSCoder) { super.init(coder: coder) }   // as on iOS (archives: nil)

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

    override func draw(in ctx: CGContext) {            // y down, in points (the CTM has contentsScale)
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        let radius = min(bounds.width, bounds.height) / 2 - lineWidth / 2
        ctx.setLineWidth(lineWidth)
        ctx.setLineCap(.round)
        ctx.setStrokeColor(CGColor(gray: 0.88, alpha: 1))  // the track
        ctx.addArc(center: center, radius: radius, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        ctx.strokePath()
        guard progress > 0 else { return }
        ctx.setStrokeColor(ringColor)                      // from 12 o'clock, clockwise on screen
        ctx.addArc(center: center, radius: radius, startAngle: -.pi / 2,
                   endAngle: -.pi / 2 + 2 * .pi * min(progress, 1), clockwise: false)
        ctx.strokePath()
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
