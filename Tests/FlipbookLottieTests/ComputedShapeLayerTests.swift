import Testing
import Foundation
@testable import FlipbookLottie

@Suite struct ComputedShapeLayerTests {
    /// The path a presentation copy draws is the one `update` computes for the animated frame;
    /// the model keeps the path of the frame it was given.
    @Test func presentationComputesThePathOfTheAnimatedFrame() throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let layer = LottieComputedShapeLayer()
            layer.update = { l, f in l.path = CGPath(rect: CGRect(x: 0, y: 0, width: f, height: 10), transform: nil) }
            layer.lottieFrame = 0
            layer.display()
            loop.attach(layer)
            loop.endTurn()
            let clock = LottieClock(fps: 10, start: 0, end: 100)   // 10 s
            let track = LottieAnimationBuilder.frameTrack(keyPath: LottieComputedShapeLayer.frameKey, clock: clock)
            let a = try #require(track.animation)
            a.fillMode = .both; a.isRemovedOnCompletion = false
            let t0 = loop.currentTime
            layer.add(a, forKey: "frame")
            loop.endTurn()
            #expect(layer.makeRenderTree(at: t0 + 2.5).shape?.path?.boundingBox.width == 25)
            #expect(layer.makeRenderTree(at: t0 + 7.5).shape?.path?.boundingBox.width == 75)
            #expect(layer.path?.boundingBox.width == 0)
        }
    }
}
