import Testing
@testable import Flipbook
import Foundation

/// Runs `body` with a fresh run loop bound to the current task, so parallel tests never share
/// a clock or a transaction stack.
func withRunLoop<R>(_ body: (VirtualRunLoop) throws -> R) rethrows -> R {
    let loop = VirtualRunLoop()
    return try loop.run { try body(loop) }
}

/// A root attached to `loop` and committed, so it (and what joins it later) is live.
func liveRoot(_ loop: VirtualRunLoop) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
    loop.attach(root)
    loop.endTurn()
    return root
}

/// A live sublayer of a fresh live root.
func liveLayer(_ loop: VirtualRunLoop) -> CALayer {
    let root = liveRoot(loop)
    let layer = CALayer()
    root.addSublayer(layer)
    loop.endTurn()
    return layer
}

/// Records every callback with the media time it was delivered at.
final class Recorder: CAAnimationDelegate {
    var log: [String] = []
    func animationDidStart(_ anim: CAAnimation) {
        log.append("start \(anim.value(forKey: "tag") as? String ?? "?") @\(CACurrentMediaTime())")
    }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        log.append("stop \(anim.value(forKey: "tag") as? String ?? "?") \(flag) @\(CACurrentMediaTime())")
    }
}

/// An action that records its runs.
final class RecordingAction: CAAction {
    var runs: [String] = []
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        runs.append(event)
    }
}

/// A delegate that answers from a closure and records the keys it was asked.
final class ClosureDelegate: CALayerDelegate {
    var asked: [String] = []
    let answer: (CALayer, String) -> CAAction?
    init(_ answer: @escaping (CALayer, String) -> CAAction? = { _, _ in nil }) { self.answer = answer }
    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        asked.append(event)
        return answer(layer, event)
    }
}

/// What is on screen for `layer` now — its presentation copy — whatever its class: for a layer
/// of a test's own subclass `presentation()` is nil unless the class conforms to
/// `FlipbookPresentationCopying` (the copy is an instance of the nearest Flipbook class;
/// `CALayer.init(layer:)`, "Presentation copies"), but the copy holds the presented values.
func onScreen(_ layer: CALayer) -> CALayer? {
    guard layer._runLoop._commitCount > layer._createdAtCommit else { return nil }
    return layer._presentationCopy(layerTime: layer._currentLocalTime)
}

/// A live layer at position (100, 100) with bounds (0, 0, 20, 20) and `anims` added at media
/// time 0 (each 1 s long and linear unless it says otherwise), presented at `t` — through its
/// copy, as `onScreen(_:)`.
func presented(_ anims: [CAAnimation], at t: CFTimeInterval) -> CALayer? {
    withRunLoop { loop in
        let l = liveLayer(loop)
        CATransaction.setDisableActions(true)
        l.position = CGPoint(x: 100, y: 100)
        l.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        loop.endTurn()
        for (i, a) in anims.enumerated() {
            if a.timingFunction == nil { a.timingFunction = CAMediaTimingFunction(name: .linear) }
            if !(a.duration > 0) { a.duration = 1 }
            l.add(a, forKey: "k\(i)")
        }
        loop.advance(to: t)
        return onScreen(l)
    }
}
