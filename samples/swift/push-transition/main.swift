// Apple Listing 6-1: the layer's delegate answers `contents` with a 1 s push from the right
// (ease-in); setting new contents at 0.25 s pushes them in.
import Flipbook
import FlipbookRender
import SampleSupport
import FlipbookPixels
import Foundation

final class PushDelegate: CALayerDelegate {
    func action(for layer: CALayer, forKey key: String) -> CAAction? {
        guard key == "contents" else { return nil }
        let t = CATransition()
        t.duration = 1.0
        t.timingFunction = CAMediaTimingFunction(name: .easeIn)
        t.type = .push
        t.subtype = .fromRight
        return t
    }
}

let sample = Sample("push-transition", width: 160, height: 100, duration: 1.5, background: CGColor(gray: 0.125, alpha: 1))
let delegate = PushDelegate()
let card = sample.build { () -> CALayer in
    let card = CALayer()
    card.frame = CGRect(x: 16, y: 18, width: 128, height: 64)
    card.contents = Sample.card(RGBA8(r: 220, g: 60, b: 60, a: 255))
    card.masksToBounds = true
    card.delegate = delegate
    sample.root.addSublayer(card)
    return card
}
sample.recorder.at(0.25) { card.contents = Sample.card(RGBA8(r: 60, g: 90, b: 220, a: 255), stripe: RGBA8(r: 255, g: 255, b: 0, a: 255)) }
sample.run()
