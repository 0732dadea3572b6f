import Flipbook
import FlipbookPixels
import FlipbookPNG
import FlipbookSnapshotTesting
import FlipbookTestSupport
import Foundation
import SnapshotTesting
import Testing

/// `Snapshotting<CALayer, SnapshotImage>.image`: what iOS's `render(in:)` into an image renderer
/// of `layer.bounds` gives at scale 1.
@Suite struct LayerImageTests {
    let dir = TemporaryDirectory(prefix: "flipbook-snapshot-")

    @Test func ownSpaceIgnoresPositionAnchorPointAndTransform() {
        VirtualRunLoop().run {
            let parent = CALayer()
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
            layer.position = CGPoint(x: 100, y: 70)
            layer.anchorPoint = CGPoint(x: 0, y: 1)
            layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
            layer.backgroundColor = Fixture.red
            let corner = CALayer()
            corner.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
            corner.backgroundColor = Fixture.blue
            layer.addSublayer(corner)
            parent.addSublayer(layer)
            parent.sublayerTransform = CATransform3DMakeScale(3, 3, 1)

            let p = pixels(take(layer, .image))
            #expect(p.width == 20 && p.height == 10)
            #expect(p[0, 0] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(p[4, 4] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(p[5, 5] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(p[19, 9] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            // Every pixel is covered exactly: no rotation or scale leaked in.
            #expect((0..<10).allSatisfy { y in (0..<20).allSatisfy { x in p[x, y].a == 255 } })
        }
    }

    @Test func boundsOriginIsTheTopLeftPixelAndYGrowsDown() {
        VirtualRunLoop().run {
            let layer = CALayer()
            layer.bounds = CGRect(x: 10, y: 20, width: 20, height: 20)
            let topLeft = CALayer()
            topLeft.frame = CGRect(x: 10, y: 20, width: 5, height: 5)
            topLeft.backgroundColor = Fixture.green
            let bottomLeft = CALayer()
            bottomLeft.frame = CGRect(x: 10, y: 35, width: 5, height: 5)
            bottomLeft.backgroundColor = Fixture.blue
            let outside = CALayer()
            outside.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
            outside.backgroundColor = Fixture.red
            layer.sublayers = [topLeft, bottomLeft, outside]

            let p = pixels(take(layer, .image))
            #expect(p.width == 20 && p.height == 20)
            #expect(p[0, 0] == RGBA8(r: 0, g: 255, b: 0, a: 255))
            #expect(p[4, 4] == RGBA8(r: 0, g: 255, b: 0, a: 255))
            #expect(p[0, 15] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(p[4, 19] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(p[5, 5] == .transparent)     // the background is transparent
            #expect(p[19, 0] == .transparent)    // nothing of the layer outside its bounds
        }
    }

    @Test(arguments: [
        (CGSize(width: 10.2, height: 3.5), 11, 4),
        (CGSize(width: 10.000_000_000_1, height: 7), 10, 7),
        (CGSize(width: 0.25, height: 0.25), 1, 1),
    ])
    func sizeIsBoundsSizeRoundedUp(size: CGSize, width: Int, height: Int) {
        VirtualRunLoop().run {
            let layer = CALayer()
            layer.bounds = CGRect(origin: .zero, size: size)
            layer.backgroundColor = Fixture.red
            let image = take(layer, .image)
            #expect(image.width == width && image.height == height)
            #expect(image.size == CGSize(width: width, height: height))
        }
    }

    @Test func drawsTheModelNotTheAnimation() {
        VirtualRunLoop().run {
            let loop = VirtualRunLoop.current
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
            layer.backgroundColor = Fixture.red
            loop.attach(layer)
            loop.endTurn()
            layer.opacity = 0            // an implicit 0.25 s fade
            loop.endTurn()
            loop.advance(to: 0.125)
            #expect(layer.animationKeys()?.contains("opacity") == true)
            let p = pixels(take(layer, .image))
            #expect(p[1, 1] == .transparent)   // the model's opacity, 0; the screen shows 0.5
        }
    }

    @Test func laysTheLayerOutFirst() {
        final class Card: CALayer {
            let fill = CALayer()
            override init() {
                super.init()
                fill.backgroundColor = Fixture.green
                addSublayer(fill)
            }
            override init(layer: Any) { super.init(layer: layer) }
            required init?(coder: NSCoder) { nil }
            override func layoutSublayers() {
                super.layoutSublayers()
                fill.frame = bounds.insetBy(dx: 2, dy: 2)
            }
        }
        VirtualRunLoop().run {
            let card = Card()
            card.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            let p = pixels(take(card as CALayer, .image))
            #expect(p[2, 2] == RGBA8(r: 0, g: 255, b: 0, a: 255))
            #expect(p[7, 7] == RGBA8(r: 0, g: 255, b: 0, a: 255))
            #expect(p[1, 1] == .transparent)
        }
    }

    @Test func zeroSizeIsAnEmptySnapshotThatNeverVerifies() throws {
        try VirtualRunLoop().run {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 0, height: 30)
            layer.backgroundColor = Fixture.red
            let image = take(layer, .image)
            #expect(image.isEmpty && image.pixelBuffer == nil && image.width == 0 && image.height == 30)

            // Against a reference of another size: "empty" is checked before the sizes.
            let other = CALayer()
            other.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            other.backgroundColor = Fixture.red
            _ = verify(other, as: .image, named: "zero", record: .all, in: dir)
            let message = try #require(verify(layer, as: .image, named: "zero", record: .never, in: dir))
            #expect(message.contains("Newly-taken snapshot is empty"))
            #expect(!message.contains("does not match reference@"))

            // Recorded, it is written as the red placeholder, and it still fails against it.
            _ = verify(layer, as: .image, named: "placeholder", record: .all, in: dir)
            let recorded = try PNG.decode(contentsOf: dir.file("check.placeholder.png"))
            #expect(recorded.width == 400 && recorded.height == 80 && recorded[0, 0] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            let again = try #require(verify(layer, as: .image, named: "placeholder", record: .never, in: dir))
            #expect(again.contains("empty"))
        }
    }

    @Test func aSideOverTheLimitFailsWithTheReasonInsteadOfCrashing() throws {
        try VirtualRunLoop().run {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 1)
            let image = take(layer, .image)
            #expect(image.pixelBuffer == nil)
            #expect(image.failureReason?.contains("more than 16384 pixels") == true)
            let small = CALayer()
            small.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
            _ = verify(small, as: .image, named: "huge", record: .all, in: dir)
            let message = try #require(verify(layer, as: .image, named: "huge", record: .never, in: dir))
            #expect(message.contains("Newly-taken snapshot could not be loaded"))
        }
    }

    @Test func referenceIsAnOrdinaryStraightAlphaPNG() throws {
        try VirtualRunLoop().run {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 3, height: 2)
            layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
            let rendered = pixels(take(layer, .image))
            #expect(rendered[0, 0] == RGBA8(r: 128, g: 0, b: 0, a: 128))   // premultiplied in memory

            let message = verify(layer, as: .image, named: "half", record: .all, in: dir)
            #expect(message?.contains("Record mode is on") == true)
            let path = dir.file("check.half.png")
            let info = try PNG.info(contentsOf: path)
            #expect(info.width == 3 && info.height == 2 && info.bitDepth == 8 && info.colorType == .rgba)
            // libpng reads the samples as straight alpha: they decode (and premultiply) back to
            // what was rendered only if the file holds (255, 0, 0, 128).
            #expect(try PNG.decode(contentsOf: path) == rendered)
            if ffmpegAvailable {
                let frames = try FFmpegTools.decode(path, width: 3, height: 2)
                #expect(Array(frames[0][0..<4]) == [255, 0, 0, 128])
            }
            #expect(verify(layer, as: .image, named: "half", record: .never, in: dir) == nil)
        }
    }

    @Test func filesAreNamedAsSwiftSnapshotTestingNamesThem() {
        VirtualRunLoop().run {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
            layer.backgroundColor = Fixture.blue
            // snapshotDirectory + named:
            _ = verifySnapshot(of: layer, as: .image, named: "blue card", record: .all,
                               snapshotDirectory: dir.path, testName: "testCard()")
            #expect(FileManager.default.fileExists(atPath: dir.file("testCard.blue-card.png")))
            // snapshotDirectory + the counter, 1, 2, … per test name.
            _ = verifySnapshot(of: layer, as: .image, record: .all, snapshotDirectory: dir.path, testName: "counted()")
            _ = verifySnapshot(of: layer, as: .image, record: .all, snapshotDirectory: dir.path, testName: "counted()")
            #expect(dir.entries.contains("counted.1.png") && dir.entries.contains("counted.2.png"))
            // The default directory, __Snapshots__/<TestFile>/ beside the test file: the
            // references of SwiftTestingCallSiteTests and SnapshotTestingTests.
            let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
            #expect(FileManager.default.fileExists(atPath: here + "/__Snapshots__/SwiftTestingCallSiteTests/redCard.1.png"))
            #expect(FileManager.default.fileExists(atPath: here + "/__Snapshots__/SnapshotTestingTests/testCALayer.1.png"))
        }
    }
}

extension LayerImageTests {
    @Test func theEmptySnapshotPlaceholderIsRedWithText() {
        let p = SnapshotImage.placeholder
        #expect(p.width == 400 && p.height == 80)
        #expect(p[0, 0] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        var light = 0
        for y in 0..<p.height { for x in 0..<p.width where p[x, y].g > 200 { light += 1 } }
        #expect(light > 500, "the message is drawn in white: \(light) light pixels")
    }
}
