// The actions post: a layer subclass consults a custom KVC flag in action(forKey:) and returns
// nil for `position` while it is set, so its move is immediate; the blue layer animates.
import Flipbook
import FlipbookRender
import SampleSupport
import Foundation

final class SwitchableLayer: CALayer {
    override func action(forKey event: String) -> CAAction? {
        if event == "position", value(forKey: "suppressPositionAnimation") != nil { return nil }
        return super.action(forKey: event)
    }
}

let sample = Sample("suppressed-position", width: 240, height: 120, duration: 1)
let (implicit, suppressed) = sample.build { () -> (CALayer, CALayer) in
    let a = SwitchableLayer(); a.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
    a.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
    let b = SwitchableLayer(); b.frame = CGRect(x: 10, y: 70, width: 40, height: 40)
    b.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
    b.setValue(true, forKey: "suppressPositionAnimation")
    sample.root.addSublayer(a); sample.root.addSublayer(b)
    return (a, b)
}
sample.recorder.at(0.2) {
    CATransaction.setAnimationDuration(0.5)
    implicit.position.x = 230
    suppressed.position.x = 230
    suppressed.opacity = 0.5          // other keys still animate
}
sample.run()
