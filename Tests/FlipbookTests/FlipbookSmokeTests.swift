import Testing
@testable import Flipbook

@Test func FlipbookModuleLoads() {
    #expect(Bool(true))
}
