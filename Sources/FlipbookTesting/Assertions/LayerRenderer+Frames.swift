import Flipbook
import FlipbookCompare
import FlipbookPixels
import Foundation
/// Rendering a live `CALayer` at a media time: the core under the layer-level assertions,
/// usable on its own (it reports nothing, it returns pixels or throws).
extension LayerRenderer {
    /// Drives `layer`'s run loop to `time`, snapshots the layer and renders it.
    ///
    /// Steps:
    /// 1. `loop.advance(to: time)` then `loop.endTurn()`, where `loop` is the run loop the layer
    ///    belongs to (the one current when it was created, `CALayer._runLoop`). Pending changes
    ///    are committed and every callback due up to `time` is delivered, exactly as a
    ///    recorder does before drawing a frame (see docs/time.md).
    /// 2. `layer.makeRenderTree()`: the layer and its subtree at `time` (an active
    ///    `CATransition` is drawn at its progress for that time).
    /// 3. Render that tree at `size · scale` device pixels (``pixelSize(of:scale:)``) over
    ///    `background`. The layer is the root: its frame is placed in the image as a root layer's
    ///    frame is placed on the device, so give it `bounds = (0, 0, w, h)` and
    ///    `position = (w/2, h/2)` to fill a `w × h`-point image.
    ///
    /// **This moves the run loop's clock**, for every layer of that run loop, and the clock
    /// never goes back. Use one run loop per test (`VirtualRunLoop().run { … }`), and render its
    /// frames in ascending time order.
    ///
    /// - Throws: ``SnapshotError/render(_:)`` when `time` is not finite or earlier than the run
    ///   loop's current time, the size or scale is invalid, or the renderer fails.
    public func frame(of layer: CALayer, at time: CFTimeInterval, size: CGSize, scale: CGFloat = 1,
                      background: RGBA8 = .transparent) throws(SnapshotError) -> PixelBuffer {
        let (width, height) = try Self.pixelSize(of: size, scale: scale)
        try Self._checkTime(time, for: layer._runLoop)
        let loop = layer._runLoop
        loop.advance(to: time)
        loop.endTurn()
        let tree = layer.makeRenderTree()
        do {
            return try renderRequest(tree, Request(width: width, height: height, scale: scale, background: background))
        } catch let error as SnapshotError {
            throw error
        } catch {
            throw .render("rendering at t = \(Self.timeLabel(time)) failed: \(error)")
        }
    }

    /// The frame name used for time `time` of the sequence `name`: `<name>.t<time>`, the time
    /// written as Swift's shortest round-tripping decimal without a trailing `.0`
    /// (`0` → `t0`, `0.125` → `t0.125`, `1.5` → `t1.5`, `2.0` → `t2`).
    public static func frameName(_ name: String, at time: CFTimeInterval) -> String {
        "\(name).t\(timeLabel(time))"
    }

    /// `time` as in ``frameName(_:at:)``, without the `t`.
    public static func timeLabel(_ time: CFTimeInterval) -> String {
        var s = "\(time)"
        if s.hasSuffix(".0") { s.removeLast(2) }
        return s
    }

    /// Checks that a sequence of times can be rendered in order on `loop`: not empty, every
    /// time finite, strictly increasing, the first not before the loop's current time.
    public static func checkTimes(_ times: [CFTimeInterval], for loop: VirtualRunLoop) throws(SnapshotError) {
        guard let first = times.first else { throw .render("no times given: pass at least one time to render") }
        for t in times where !t.isFinite { throw .render("time \(t) is not finite") }
        for (a, b) in zip(times, times.dropFirst()) where !(b > a) {
            throw .render("times must be strictly increasing (the run loop's clock never goes back): \(timeLabel(b)) follows \(timeLabel(a))")
        }
        try _checkTime(first, for: loop)
    }

    static func _checkTime(_ time: CFTimeInterval, for loop: VirtualRunLoop) throws(SnapshotError) {
        guard time.isFinite else { throw .render("time \(time) is not finite") }
        guard time >= loop.currentTime else {
            throw .render("cannot render at t = \(timeLabel(time)): the layer's run loop is already at t = "
                + "\(timeLabel(loop.currentTime)) and its clock never goes back (use one run loop per test)")
        }
    }
}
