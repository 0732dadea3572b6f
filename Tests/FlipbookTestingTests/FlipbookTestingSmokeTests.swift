import Testing
@testable import FlipbookTesting

@Test func FlipbookTestingModuleLoads() {
    #expect(Bool(true))
}
