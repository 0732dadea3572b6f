import Flipbook
import FlipbookPixels
import FlipbookSnapshotTesting
import FlipbookTestSupport
import Foundation
import SnapshotTesting
import Testing

/// `Snapshotting<CALayer, SnapshotImage>.image(at:)`: the presentation tree `time` seconds
/// after the commit the strategy makes on the layer's own run loop.
@Suite struct PresentationImageTests {
    let dir = TemporaryDirectory(prefix: "flipbook-snapshot-")

    static func redSquare() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        layer.position = CGPoint(x: 40, y: 40)
        layer.backgroundColor = Fixture.red
        return layer
    }

    @Test func midImplicitAnimation() {
        VirtualRunLoop().run {
            let layer = Self.redSquare()
            // The first snapshot attaches the layer as a root and commits it.
            #expect(pixels(take(layer, .image(at: 0)))[3, 3] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(layer._runLoop.rootLayers.contains { $0 === layer })
            layer.opacity = 0                                   // an implicit 0.25 s fade
            let half = pixels(take(layer, .image(at: 0.125)))   // half way: opacity 0.5
            #expect(half[3, 3] == RGBA8(r: 128, g: 0, b: 0, a: 128))
            // The model is left as it was: its value and its animation.
            #expect(layer.opacity == 0)
            #expect(layer.animation(forKey: "opacity") != nil)
            // `.image` draws the model.
            #expect(pixels(take(layer, .image))[3, 3] == .transparent)
        }
    }

    @Test func midExplicitAnimationOfBoundsAndColour() {
        VirtualRunLoop().run {
            let loop = VirtualRunLoop.current
            let layer = Self.redSquare()
            loop.attach(layer)
            loop.endTurn()
            let grow = CABasicAnimation(keyPath: "bounds.size.width")
            grow.fromValue = 8
            grow.toValue = 16
            grow.duration = 1
            layer.add(grow, forKey: "grow")
            let fade = CABasicAnimation(keyPath: "backgroundColor")
            fade.fromValue = Fixture.red
            fade.toValue = Fixture.blue
            fade.duration = 1
            layer.add(fade, forKey: "fade")
            let image = take(layer, .image(at: 0.5))
            #expect(image.width == 12 && image.height == 8)            // the presentation bounds
            let p = pixels(image)
            #expect(p[11, 7].a == 255 && p[11, 7].r > 100 && p[11, 7].b > 100)  // between red and blue
            #expect(take(layer, .image).width == 8)                    // the model is unchanged
        }
    }

    @Test func timeCountsFromTheCommitWhateverTheClockRead() {
        VirtualRunLoop().run {
            let loop = VirtualRunLoop.current
            let layer = Self.redSquare()
            loop.attach(layer)
            loop.endTurn()
            loop.advance(to: 5)
            layer.opacity = 0
            let half = pixels(take(layer, .image(at: 0.125)))
            #expect(half[3, 3] == RGBA8(r: 128, g: 0, b: 0, a: 128))
            #expect(loop.currentTime == 5.125)
            // After the fade: the model.
            #expect(pixels(take(layer, .image(at: 1)))[3, 3] == .transparent)
        }
    }

    @Test func aSublayerIsDrawnInItsOwnSpaceAndItsRootIsAttached() {
        VirtualRunLoop().run {
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            let child = Self.redSquare()
            child.transform = CATransform3DMakeScale(4, 4, 1)
            root.addSublayer(child)
            let p = pixels(take(child, .image(at: 0)))
            #expect(p.width == 8 && p[7, 7] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(root._runLoop.rootLayers.contains { $0 === root })
        }
    }

    @Test(arguments: [-0.5, .nan, .infinity])
    func aTimeThatIsNegativeOrNotFiniteFails(time: Double) throws {
        try VirtualRunLoop().run {
            let layer = Self.redSquare()
            _ = verify(layer, as: .image, named: "t", record: .all, in: dir)
            let message = try #require(verify(layer, as: .image(at: time), named: "t", record: .never, in: dir))
            #expect(message.contains("the time must be finite and not negative"))
        }
    }

    @Test func aComparisonMidAnimation() throws {
        try VirtualRunLoop().run {
            let layer = Self.redSquare()
            _ = take(layer, .image(at: 0))
            layer.opacity = 0
            #expect(verify(layer, as: .image(at: 0.125), named: "half", record: .all, in: dir) != nil)
            // A second layer, the same fade: the same picture.
            let twin = Self.redSquare()
            _ = take(twin, .image(at: 0))
            twin.opacity = 0
            #expect(verify(twin, as: .image(at: 0.125), named: "half", record: .never, in: dir) == nil)
            // A quarter of the way instead: opacity 0.75 — every pixel differs.
            let early = Self.redSquare()
            _ = take(early, .image(at: 0))
            early.opacity = 0
            let message = try #require(verify(early, as: .image(at: 0.0625), named: "half", record: .never, in: dir))
            #expect(message.contains("64 of 64 pixels differ"))
        }
    }
}
