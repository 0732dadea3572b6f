import Testing
import Foundation
import FlipbookPixels
import FlipbookRender
import FlipbookTestSupport
@testable import FlipbookLottie

/// The four real fixtures through the whole mapping (parser, layers, shapes) and
/// `LottieRendering` at 512 × 512, against ThorVG's frames (Tests/Fixtures/lottie): frames 0,
/// N/4, N/2, 3N/4 and N − 1, each within `max(1.5, 1.5 × the ThorVG–rlottie disagreement)` of
/// mean |Δ| (premultiplied RGBA8). A failure writes actual, reference and diff PNGs to
/// /tmp/flipbook-lottie-failures.
@Suite struct LayerFixtureReferenceTests {
    static let references = try? LottieReferences()

    @Test func referencesArePresent() {
        #expect(Self.references?.fixtures.count == 4)
    }

    @Test(arguments: (references?.fixtures ?? []).map(\.name))
    func framesMatchThorVG(_ name: String) throws {
        let fixture = try #require(Self.references?.fixtures.first { $0.name == name })
        let animation = try LottieAnimation.load(filepath: fixture.path)
        let loop = VirtualRunLoop()
        let scene = loop.run { LottieRendering.scene(for: animation, size: .fit(width: 512, height: 512), logger: .silent) }
        #expect(scene.frameCount == fixture.frameCount)
        for frame in fixture.frames {
            let pixels = try loop.run {
                try Compositor(threadCount: 1).render(scene.root.makeRenderTree(at: scene.time(ofFrame: frame.k)), width: 512, height: 512)
            }
            let result = try frame.compare(pixels)
            #expect(result.passes, "\(result)")
        }
    }
}
