// The actions post: the delegate builds a "wag" keyframe animation for `position` from a
// transaction value `newP` (the destination): out 10° to one side at 1/3, 10° to the other at
// 2/3, then the destination.
import Flipbook
import FlipbookRender
import Foundation
import SampleSupport

final class WagDelegate: CALayerDelegate {
    func action(for layer: CALayer, forKey key: String) -> CAAction? {
        guard key == "position", let newP = CATransaction.value(forKey: "newP") as? CGPoint else { return nil }
        let oldP = layer.position
        let d = ((oldP.x - newP.x) * (oldP.x - newP.x) + (oldP.y - newP.y) * (oldP.y - newP.y)).squareRoot()
        let r = d / 3.0
        let theta = atan2(newP.y - oldP.y, newP.x - oldP.x)
        let wag = 10 * CGFloat.pi / 180.0
        let p1 = CGPoint(x: oldP.x + r * cos(theta + wag), y: oldP.y + r * sin(theta + wag))
        let p2 = CGPoint(x: oldP.x + r * 2 * cos(theta - wag), y: oldP.y + r * 2 * sin(theta - wag))
        let anim = CAKeyframeAnimation()
        anim.values = [oldP, p1, p2, newP]
        return anim
    }
}

let sample = Sample("wag", width: 320, height: 320, duration: 1)
let delegate = WagDelegate()
let wagger = sample.build { () -> CALayer in
    let l = CALayer(); l.bounds = CGRect(x: 0, y: 0, width: 20, height: 20); l.position = .zero
    l.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
    l.delegate = delegate
    sample.root.addSublayer(l)
    return l
}
sample.recorder.at(0.1) {
    let newP = CGPoint(x: 300, y: 300)
    CATransaction.setAnimationDuration(0.6)
    CATransaction.setValue(newP, forKey: "newP")
    wagger.position = newP
}
sample.run()
