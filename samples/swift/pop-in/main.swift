// The actions post: the delegate answers kCAOnOrderIn with a group — fade in to the layer's
// opacity and a 1.1× scale that autoreverses — so the layer "pops" in when added at 0.3 s.
import Flipbook
import FlipbookRender
import SampleSupport
import Foundation

final class PopDelegate: CALayerDelegate {
    func action(for lay: CALayer, forKey key: String) -> CAAction? {
        guard key == kCAOnOrderIn else { return nil }
        let anim1 = CABasicAnimation(keyPath: "opacity")
        anim1.fromValue = Float(0)
        anim1.toValue = lay.opacity
        let anim2 = CABasicAnimation(keyPath: "transform")
        anim2.toValue = CATransform3DScale(lay.transform, 1.1, 1.1, 1.0)
        anim2.autoreverses = true
        anim2.duration = 0.1
        let group = CAAnimationGroup()
        group.animations = [anim1, anim2]
        group.duration = 0.2
        return group
    }
}

let sample = Sample("pop-in", width: 160, height: 160, duration: 1)
let delegate = PopDelegate()
let popper = sample.build { () -> CALayer in
    let l = CALayer(); l.frame = CGRect(x: 40, y: 40, width: 80, height: 80)
    l.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
    l.opacity = 0.8
    l.delegate = delegate
    return l
}
sample.recorder.at(0.3) { sample.root.addSublayer(popper) }
sample.run()
