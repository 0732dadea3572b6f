import Testing
@testable import FlipbookPNG

@Test func FlipbookPNGModuleLoads() {
    #expect(Bool(true))
}
