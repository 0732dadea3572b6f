import Testing
@testable import FlipbookCLI

@Test func FlipbookCLIModuleLoads() {
    #expect(Bool(true))
}
