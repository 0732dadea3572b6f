// The CATransaction post's styled button: one transaction with duration 1 s and the custom timing
// function (0.65, −0.55, 0.27, 1.55) — control points outside 0…1, so the 125 pt circle first
// grows a little, then shrinks past 60 pt and settles. The size changes implicitly; the corner
// radius through an explicit CABasicAnimation from 62.5 to 30, both on the transaction's curve.
import Flipbook
import FlipbookRender
import SampleSupport
import Foundation

let sample = Sample("overshoot", width: 300, height: 200, duration: 1.5)
let button = sample.build { () -> CALayer in
    let l = CALayer()
    l.bounds = CGRect(x: 0, y: 0, width: 125, height: 125)
    l.position = CGPoint(x: 150, y: 100)
    l.cornerRadius = 62.5
    l.backgroundColor = CGColor(red: 57 / 255, green: 73 / 255, blue: 171 / 255, alpha: 1)
    sample.root.addSublayer(l)
    return l
}
sample.recorder.at(0.1) {
    let oldValue = button.bounds.width / 2
    let newButtonWidth: CGFloat = 60
    CATransaction.begin()
    CATransaction.setAnimationDuration(1)
    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(controlPoints: 0.65, -0.55, 0.27, 1.55))
    button.bounds = CGRect(x: 0, y: 0, width: newButtonWidth, height: newButtonWidth)
    let cornerAnimation = CABasicAnimation(keyPath: "cornerRadius")
    cornerAnimation.fromValue = oldValue
    cornerAnimation.toValue = newButtonWidth / 2
    button.cornerRadius = newButtonWidth / 2
    button.add(cornerAnimation, forKey: "cornerRadius")
    CATransaction.commit()
}
sample.run()
