import Testing
@testable import FlipbookRaster

@Test func FlipbookRasterModuleLoads() {
    #expect(Bool(true))
}
