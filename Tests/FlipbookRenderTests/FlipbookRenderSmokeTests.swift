import Testing
@testable import FlipbookRender

@Test func FlipbookRenderModuleLoads() {
    #expect(Bool(true))
}
