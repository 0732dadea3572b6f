// Apple Listing 6-2: removing a layer inside a transaction with actions disabled. The blue
// layer's opacity change animates (implicit action); the red layer disappears at once.
import Flipbook
import FlipbookRender
import SampleSupport
import Foundation

let sample = Sample("disable-actions-removal", width: 200, height: 100, duration: 1)
let (animated, removed) = sample.build { () -> (CALayer, CALayer) in
    let a = CALayer(); a.frame = CGRect(x: 20, y: 30, width: 40, height: 40)
    a.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
    let r = CALayer(); r.frame = CGRect(x: 140, y: 30, width: 40, height: 40)
    r.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
    sample.root.addSublayer(a); sample.root.addSublayer(r)
    return (a, r)
}
sample.recorder.at(0.2) {
    animated.opacity = 0.2
    CATransaction.begin()
    CATransaction.setValue(true, forKey: kCATransactionDisableActions)
    removed.removeFromSuperlayer()
    CATransaction.commit()
}
sample.run()
