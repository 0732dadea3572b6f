// The actions post: a layer subclass's class method defaultAction(forKey:) answers `contents`
// with a push from the left — the last step of the action search, used by every instance.
import Flipbook
import FlipbookRender
import SampleSupport
import FlipbookPixels
import Foundation

final class PushContentsLayer: CALayer {
    override class func defaultAction(forKey event: String) -> CAAction? {
        if event == "contents" {
            let t = CATransition()
            t.type = .push
            t.subtype = .fromLeft
            return t
        }
        return super.defaultAction(forKey: event)
    }
}

let sample = Sample("default-action-push", width: 160, height: 100, duration: 1, background: CGColor(gray: 0.125, alpha: 1))
let card = sample.build { () -> CALayer in
    let l = PushContentsLayer()
    l.frame = CGRect(x: 16, y: 18, width: 128, height: 64)
    l.contents = Sample.card(RGBA8(r: 220, g: 60, b: 60, a: 255))
    l.masksToBounds = true
    sample.root.addSublayer(l)
    return l
}
sample.recorder.at(0.2) { card.contents = Sample.card(RGBA8(r: 60, g: 90, b: 220, a: 255), stripe: RGBA8(r: 255, g: 255, b: 0, a: 255)) }
sample.run()
