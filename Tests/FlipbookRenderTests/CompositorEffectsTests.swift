import Testing
import FlipbookRaster
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

@Suite struct CompositorEffectsTests {
    /// A 40×40 layer turned 45° at (32, 32), clipping a green child that fills it.
    static func rotatedClip(radius: CGFloat) -> RenderLayer {
        TestScene.root(64, 64, [TestScene.box(CGRect(x: 12, y: 12, width: 40, height: 40), nil,
                                              transform: CATransform3DMakeRotation(.pi / 4, 0, 0, 1),
                                              configure: { $0.masksToBounds = true; $0.cornerRadius = radius },
                                              sublayers: [TestScene.box(CGRect(x: -10, y: -10, width: 60, height: 60), TestScene.green)])])
    }

    @Test func roundedClippingUnderRotation() throws {
        let sharp = try TestScene.render(Self.rotatedClip(radius: 0), 64, 64)
        let round = try TestScene.render(Self.rotatedClip(radius: 10), 64, 64)
        #expect(sharp[32, 32] == .green && round[32, 32] == .green)
        // Near the top vertex (local corner (2, 2) ≈ device (32, 6.5)): inside the square,
        // outside the 10-pt arc.
        #expect(sharp[32, 6] == .green)
        #expect(round[32, 6] == .black)
        // The child overflows the parent; outside the clip nothing is drawn.
        #expect(sharp[2, 2] == .black && sharp[61, 61] == .black)
        // The arc edge is anti-aliased: some pixels strictly between black and green.
        let partial = (0..<64).flatMap { y in (0..<64).map { round[$0, y] } }.filter { $0.g > 0 && $0.g < 255 }
        #expect(partial.count > 20)
    }

    @Test func perspectiveWithPartBehindTheEye() throws {
        // Rotated 75° about x with an eye 60 pt away: the far half of a 200-pt layer crosses
        // behind the eye (w ≤ 0) and must be clipped, not drawn through infinity.
        var p = CATransform3DIdentity
        p.m34 = -1 / 60
        let root = TestScene.root(64, 64, [TestScene.box(CGRect(x: -68, y: -68, width: 200, height: 200), TestScene.green,
                                                         transform: CATransform3DRotate(CATransform3DIdentity, 75 * .pi / 180, 1, 0, 0) * p)])
        let a = try TestScene.renderExpectingThreadIndependence(root, 64, 64)
        let green = (0..<64).flatMap { y in (0..<64).map { a[$0, y] } }.filter { $0 == .green }.count
        #expect(green > 0 && green < 64 * 64)
    }

    @Test func perspectiveForeshortens() throws {
        var p = CATransform3DIdentity
        p.m34 = -1 / 100
        let t = CATransform3DRotate(CATransform3DIdentity, 0.6, 0, 1, 0) * p
        let root = TestScene.root(64, 64, [TestScene.box(CGRect(x: 12, y: 12, width: 40, height: 40), TestScene.green, transform: t)])
        let img = try TestScene.render(root, 64, 64)
        func height(_ x: Int) -> Int { (0..<64).filter { img[x, $0] == .green }.count }
        let cols = (0..<64).filter { height($0) > 0 }
        let left = height(cols.first! + 1), right = height(cols.last! - 1)
        #expect(abs(left - right) > 4, "left \(left) right \(right)")
    }

    @Test func maskLayerAlphaMasksTheSubtree() throws {
        let mask = TestScene.box(CGRect(x: 0, y: 0, width: 4, height: 8), TestScene.red)
        let root = TestScene.root(8, 8, [TestScene.box(CGRect(x: 0, y: 0, width: 8, height: 8), TestScene.green,
                                                       configure: { $0.mask = mask })])
        let img = try TestScene.render(root, 8, 8)
        #expect(img[1, 4] == .green)
        #expect(img[6, 4] == .black)
    }

    @Test func borderInsideBounds() throws {
        let root = TestScene.root(12, 12, [TestScene.box(CGRect(x: 0, y: 0, width: 12, height: 12), TestScene.green) {
            $0.borderWidth = 2; $0.borderColor = TestScene.red
        }])
        let img = try TestScene.render(root, 12, 12)
        #expect(img[0, 5] == .red && img[1, 5] == .red && img[2, 5] == .green && img[11, 5] == .red)
    }

    @Test func shadowIsOffsetAndBlurred() throws {
        func scene(_ radius: CGFloat) -> RenderLayer {
            TestScene.root(32, 32, [TestScene.box(CGRect(x: 8, y: 4, width: 16, height: 12), TestScene.green) {
                $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 10); $0.shadowRadius = radius
            }])
        }
        let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
        let sharp = try TestScene.render(scene(0), 32, 32, background: white)
        #expect(sharp[16, 10] == .green)           // the layer
        #expect(sharp[16, 22] == .black)           // its shadow, 10 pt lower
        #expect(sharp[16, 27] == white)            // below the shadow
        let soft = try TestScene.render(scene(3), 32, 32, background: white)
        #expect(soft[16, 27].r > 0 && soft[16, 27].r < 255) // blurred edge
    }

    /// Native (AVX2) kernels and portable ones render the same bytes. Skipped where the CPU
    /// lacks AVX2: `.auto` would resolve to `.portable`, comparing the portable path with itself.
    @Test(.enabled(if: RasterBackend.nativeAvailable, "no AVX2: the native kernels do not run on this CPU"))
    func portableKernelsGiveTheSameBytes() throws {
        let root = PeerWorkloadsTestScene.mixed()
        let saved = RasterConfiguration.simd
        defer { RasterConfiguration.simd = saved }
        RasterConfiguration.simd = .auto
        let a = try TestScene.render(root, 96, 96)
        RasterConfiguration.simd = .portable
        let b = try TestScene.render(root, 96, 96)
        #expect(a == b)
    }
}
