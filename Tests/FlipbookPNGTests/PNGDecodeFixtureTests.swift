import Testing
@testable import FlipbookPNG

/// Hand-built files (Fixtures/make_fixtures.py) for every colour type, bit depth 1–16, tRNS
/// and Adam7; the expected premultiplied pixels were computed independently in Python.
@Suite struct PNGDecodeFixtureTests {
    static let names = Fixtures.expected.keys.sorted()

    @Test func everyColourTypeAndDepthIsCovered() {
        let e = Fixtures.expected.values
        for (type, depths) in [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])] {
            for d in depths { #expect(e.contains { $0.colorType == type && $0.bitDepth == d }, "type \(type) depth \(d)") }
        }
        #expect(e.contains { $0.interlaced && $0.colorType == 3 })
        #expect(e.contains { $0.interlaced && $0.colorType == 6 })
        #expect(Self.names.count >= 20)
    }

    @Test(arguments: names)
    func decodesToTheExpectedPremultipliedPixels(_ name: String) throws {
        let expected = Fixtures.expected[name]!
        let image = try PNG.decode(contentsOf: Fixtures.path(name))
        #expect(image.width == expected.width && image.height == expected.height)
        #expect(image.bytes == expected.pixels)
        #expect(image.isValidPremultiplied)
        let info = try PNG.info(contentsOf: Fixtures.path(name))
        #expect(info.width == expected.width && info.height == expected.height)
        #expect(info.bitDepth == expected.bitDepth && info.colorType.rawValue == expected.colorType)
        #expect(info.isInterlaced == expected.interlaced)
        #expect(info.hasAlpha == (expected.colorType == 4 || expected.colorType == 6 || name.contains("trns")))
    }

    @Test func sixteenBitSamplesAreRoundedNotTruncated() throws {
        // rgb16.png pixel (0, 0) red is 0x01FF: round(511·255/65535) = 2, while 511 >> 8 = 1.
        let image = try PNG.decode(contentsOf: Fixtures.path("rgb16.png"))
        #expect(image[0, 0].r == 2)
    }

    @Test func textChunksOfEveryKindAreRead() throws {
        let info = try PNG.info(contentsOf: Fixtures.path("text.png"))
        #expect(info.text == [PNGTextChunk("flipbook:time", "1.25"), PNGTextChunk("Comment", "café"),
                              PNGTextChunk("flipbook:scene", "scene.json"), PNGTextChunk("Title", "αβ")])
    }
}
