// The CATransaction post: a custom timing function with control points outside 0…1,
// (0.5, −0.5) (0.5, 1.5), makes the move back up first and overshoot the end before settling.
import Flipbook
import FlipbookRender
import SampleSupport

let sample = Sample("overshoot", width: 400, height: 100, duration: 1.5)
let dot = sample.build { () -> CALayer in
    let l = CALayer(); l.bounds = CGRect(x: 0, y: 0, width: 40, height: 40); l.position = CGPoint(x: 40, y: 50)
    l.cornerRadius = 20
    l.backgroundColor = CGColor(red: 0, green: 0.47, blue: 1, alpha: 1)
    sample.root.addSublayer(l)
    return l
}
sample.recorder.at(0.1) {
    CATransaction.begin()
    CATransaction.setAnimationDuration(1)
    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(controlPoints: 0.5, -0.5, 0.5, 1.5))
    dot.position.x = 300
    CATransaction.commit()
}
sample.run()
