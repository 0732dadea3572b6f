// The actions post: an animation in the layer's `actions` with duration 5 runs 5 s even inside
// a transaction whose duration is 1 s (the transaction only fills durations left at 0). The blue
// layer, with the implicit action, takes the transaction's 1 s.
import Flipbook
import FlipbookRender
import SampleSupport
import Foundation

let sample = Sample("explicit-duration", width: 300, height: 120, duration: 6, fps: 10)
let (five, one) = sample.build { () -> (CALayer, CALayer) in
    let a = CALayer(); a.frame = CGRect(x: 0, y: 10, width: 40, height: 40)
    a.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
    let slow = CABasicAnimation()
    slow.duration = 5
    slow.timingFunction = CAMediaTimingFunction(name: .linear)
    a.actions = ["position": slow]
    let b = CALayer(); b.frame = CGRect(x: 0, y: 70, width: 40, height: 40)
    b.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
    sample.root.addSublayer(a); sample.root.addSublayer(b)
    return (a, b)
}
sample.recorder.at(0) {
    CATransaction.begin()
    CATransaction.setAnimationDuration(1)
    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
    five.position.x = 280
    one.position.x = 280
    CATransaction.commit()
}
sample.run()
