import Testing
@testable import FlipbookLottie

@Suite struct ModelTests {
    @Test func staticPropertyIsOneKeyframe() {
        let a = LottieAnimated<LottieVector>([1, 2])
        #expect(!a.isAnimated)
        #expect(a.initialValue == [1, 2])
    }
}
