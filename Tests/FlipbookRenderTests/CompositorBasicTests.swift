import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

@Suite struct CompositorBasicTests {
    @Test func solidRectangleInteriorAndAntialiasedEdges() throws {
        // A red box from x = 2.5 to 9.5, y = 2 to 10 on black: pixel 2 and 9 are half covered.
        let root = TestScene.root(12, 12, [TestScene.box(CGRect(x: 2.5, y: 2, width: 7, height: 8), TestScene.red)])
        let img = try TestScene.render(root, 12, 12)
        #expect(img[5, 5] == .red)
        #expect(img[1, 5] == .black)
        #expect(img[5, 1] == .black)
        #expect(img[5, 10] == .black)
        // coverage ½ → round(0.5·255) = 128: red 128 over black (255 − 128 = 127 of black).
        #expect(img[2, 5] == RGBA8(r: 128, g: 0, b: 0, a: 255))
        #expect(img[9, 5] == RGBA8(r: 128, g: 0, b: 0, a: 255))
        #expect(img[2, 2] == RGBA8(r: 128, g: 0, b: 0, a: 255))
    }

    @Test func outputSizeLimitIsRefused() throws {
        let root = TestScene.root(10, 10, [])
        #expect(throws: CompositorError.outputTooLarge(width: 20000, height: 10, limit: 16384)) {
            try Compositor().render(root, width: 20000, height: 10)
        }
        #expect(throws: CompositorError.invalidOutputSize(width: 0, height: 10)) {
            try Compositor().render(root, width: 0, height: 10)
        }
        #expect(throws: CompositorError.invalidScale(0)) {
            try Compositor().render(root, width: 4, height: 4, scale: 0)
        }
        #expect("\(CompositorError.outputTooLarge(width: 20000, height: 10, limit: 16384))".contains("exceeds the limit"))
    }

    @Test func nonFiniteAndDegenerateGeometryIsSkipped() throws {
        var nanT = CATransform3DIdentity
        nanT.m11 = .nan
        let singular = CATransform3DMakeScale(0, 1, 1)
        let root = TestScene.root(8, 8, [
            TestScene.box(CGRect(x: 0, y: 0, width: 8, height: 8), TestScene.red, transform: nanT),
            TestScene.box(CGRect(x: 0, y: 0, width: 8, height: 8), TestScene.red, transform: singular),
            TestScene.box(CGRect(x: 0, y: 0, width: 8, height: 8), TestScene.red,
                          transform: CATransform3DMakeScale(.infinity, 1, 1)),
            TestScene.box(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 8), TestScene.red),
            TestScene.box(CGRect(x: 0, y: 0, width: 4, height: 4), TestScene.green),
        ])
        let img = try TestScene.render(root, 8, 8)
        #expect(img[1, 1] == .green)
        #expect(img[6, 6] == .black)
    }

    @Test func zPositionOrdersSiblingsStably() throws {
        let r = CGRect(x: 0, y: 0, width: 4, height: 4)
        let a = TestScene.root(4, 4, [TestScene.box(r, TestScene.red, zPosition: 1), TestScene.box(r, TestScene.green)])
        #expect(try TestScene.render(a, 4, 4)[2, 2] == .red)
        let b = TestScene.root(4, 4, [TestScene.box(r, TestScene.red), TestScene.box(r, TestScene.green)])
        #expect(try TestScene.render(b, 4, 4)[2, 2] == .green) // equal z: tree order
        let c = TestScene.root(4, 4, [TestScene.box(r, TestScene.blue, zPosition: -1), TestScene.box(r, TestScene.red, zPosition: 2),
                                      TestScene.box(r, TestScene.green, zPosition: 2)])
        #expect(try TestScene.render(c, 4, 4)[2, 2] == .green)
    }

    @Test func hiddenAndZeroOpacityDrawNothing() throws {
        let r = CGRect(x: 0, y: 0, width: 4, height: 4)
        let root = TestScene.root(4, 4, [TestScene.box(r, TestScene.red) { $0.hidden = true },
                                         TestScene.box(r, TestScene.green, opacity: 0)])
        #expect(try TestScene.render(root, 4, 4)[2, 2] == .black)
    }

    @Test func backFaceCulling() throws {
        let flip = CATransform3DMakeRotation(.pi, 0, 1, 0)
        let r = CGRect(x: 0, y: 0, width: 8, height: 8)
        let single = TestScene.root(8, 8, [TestScene.box(r, TestScene.red, transform: flip) { $0.doubleSided = false }])
        #expect(try TestScene.render(single, 8, 8)[4, 4] == .black)
        let double = TestScene.root(8, 8, [TestScene.box(r, TestScene.red, transform: flip)])
        #expect(try TestScene.render(double, 8, 8)[4, 4] == .red)
        let front = TestScene.root(8, 8, [TestScene.box(r, TestScene.red) { $0.doubleSided = false }])
        #expect(try TestScene.render(front, 8, 8)[4, 4] == .red)
    }

    @Test func groupOpacityVersusPerLayerOpacity() throws {
        // Two overlapping opaque children under a parent at opacity 0.5.
        func scene(group: Bool) -> RenderLayer {
            TestScene.root(12, 4, [TestScene.box(CGRect(x: 0, y: 0, width: 12, height: 4), nil, opacity: 0.5,
                                                 configure: { $0.groupOpacity = group }, sublayers: [
                TestScene.box(CGRect(x: 0, y: 0, width: 8, height: 4), TestScene.red),
                TestScene.box(CGRect(x: 4, y: 0, width: 8, height: 4), TestScene.green),
            ])])
        }
        let g = try TestScene.render(scene(group: true), 12, 4)
        let n = try TestScene.render(scene(group: false), 12, 4)
        // Group: the overlap shows only green at ½ (128 over black).
        #expect(g[6, 2] == RGBA8(r: 0, g: 128, b: 0, a: 255))
        #expect(g[1, 2] == RGBA8(r: 128, g: 0, b: 0, a: 255))
        // Per layer: red ½ then green ½ over it: r = div255(128·127) = 64, g = 128.
        #expect(n[6, 2] == RGBA8(r: 64, g: 128, b: 0, a: 255))
        #expect(n[1, 2] == RGBA8(r: 128, g: 0, b: 0, a: 255))
    }

    @Test func oneAndTwoThreadsAreByteIdentical() throws {
        try TestScene.renderExpectingThreadIndependence(PeerWorkloadsTestScene.mixed(), 96, 96)
    }
}

/// A scene exercising most features at once (rotation, rounded clip, group, contents, border, shadow).
enum PeerWorkloadsTestScene {
    static func mixed() -> RenderLayer {
        let img = CGImage(pixelBuffer: PixelBuffer.testPattern(width: 32, height: 32, index: 3))
        return TestScene.root(96, 96, [
            TestScene.box(CGRect(x: 10, y: 10, width: 60, height: 50), TestScene.blue, opacity: 0.7,
                          transform: CATransform3DMakeRotation(0.3, 0, 0, 1), configure: {
                              $0.masksToBounds = true; $0.cornerRadius = 12; $0.borderWidth = 3
                              $0.shadowOpacity = 0.8; $0.shadowRadius = 2
                          }, sublayers: [
                TestScene.box(CGRect(x: -5, y: -5, width: 40, height: 40), TestScene.red, contents: img),
                TestScene.box(CGRect(x: 20, y: 20, width: 40, height: 40), nil, contents: img) { $0.filter = .nearest },
            ]),
            TestScene.box(CGRect(x: 40, y: 40, width: 50, height: 50), nil, opacity: 0.9,
                          transform: CATransform3DRotate(CATransform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                                                       m31: 0, m32: 0, m33: 1, m34: -1 / 100, m41: 0, m42: 0, m43: 0, m44: 1),
                                                         0.8, 1, 0, 0), contents: img),
        ])
    }
}

/// A 10,000-deep chain renders without overflowing the stack; levels past
/// `_Planner.maximumDepth` (256) are skipped.
@Suite struct CompositorDepthTests {
    @Test func absurdlyDeepTreeIsCutAtTheDepthLimit() throws {
        func chain(_ depth: Int, colorAtBottom: CGColor) -> RenderLayer {
            var node = RenderLayer(bounds: CGRect(x: 0, y: 0, width: 4, height: 4), position: CGPoint(x: 2, y: 2),
                                     backgroundColor: colorAtBottom)
            for _ in 1..<depth {
                node = RenderLayer(bounds: CGRect(x: 0, y: 0, width: 4, height: 4), position: CGPoint(x: 2, y: 2),
                                     sublayers: [node])
            }
            return node
        }
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let shallow = try Compositor(threadCount: 1).render(chain(256, colorAtBottom: red), width: 4, height: 4)
        #expect(shallow[1, 1] == RGBA8(r: 255, g: 0, b: 0, a: 255))     // level 256 is drawn
        let deep = try Compositor(threadCount: 1).render(chain(10_000, colorAtBottom: red), width: 4, height: 4)
        #expect(deep[1, 1] == .transparent)                              // level 10,000 is not
    }
}
