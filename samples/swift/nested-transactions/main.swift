// The CATransaction post: an outer 2 s transaction moves the box; a nested transaction rounds
// its corners (inheriting the outer 2 s, as on Apple); each has a completion block — the inner
// one adds a border, the outer one turns the box red when everything has finished.
import Flipbook
import FlipbookRender
import SampleSupport
import Foundation

let sample = Sample("nested-transactions", width: 240, height: 120, duration: 3)
let box = sample.build { () -> CALayer in
    let l = CALayer(); l.frame = CGRect(x: 10, y: 30, width: 60, height: 60)
    l.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
    sample.root.addSublayer(l)
    return l
}
sample.recorder.at(0.2) {
    CATransaction.begin()
    CATransaction.setAnimationDuration(2)
    CATransaction.setCompletionBlock { box.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1) }
    box.position.x = 200
    CATransaction.begin()
    CATransaction.setCompletionBlock { box.borderWidth = 6 }
    box.cornerRadius = 30
    CATransaction.commit()
    CATransaction.commit()
}
sample.run()
