// The actions post ("byebye"): with a transaction flag set, the delegate answers `opacity` with
// a fade-and-shrink group; the transaction's completion block removes the layer when it ends.
import Flipbook
import FlipbookRender
import SampleSupport
import Foundation

final class ByeDelegate: CALayerDelegate {
    func action(for layer: CALayer, forKey key: String) -> CAAction? {
        guard key == "opacity", CATransaction.value(forKey: "byebye") != nil else { return nil }
        let anim1 = CABasicAnimation(keyPath: "opacity")
        anim1.fromValue = layer.opacity
        anim1.toValue = Float(0)
        let anim2 = CABasicAnimation(keyPath: "transform")
        anim2.toValue = CATransform3DScale(layer.transform, 0.1, 0.1, 1.0)
        let group = CAAnimationGroup()
        group.animations = [anim1, anim2]
        group.duration = 0.2
        return group
    }
}

let sample = Sample("fade-out-remove", width: 160, height: 160, duration: 1)
let delegate = ByeDelegate()
let layer = sample.build { () -> CALayer in
    let l = CALayer(); l.frame = CGRect(x: 40, y: 40, width: 80, height: 80)
    l.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
    l.delegate = delegate
    sample.root.addSublayer(l)
    return l
}
sample.recorder.at(0.3) {
    CATransaction.setCompletionBlock { layer.removeFromSuperlayer() }
    CATransaction.setValue(true, forKey: "byebye")
    layer.opacity = 0
}
sample.run()
