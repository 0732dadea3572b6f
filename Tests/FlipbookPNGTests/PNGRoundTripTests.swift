import Testing
@testable import FlipbookPNG
import FlipbookPixels

@Suite struct PNGRoundTripTests {
    @Test(arguments: [("fast", PNGEncodeOptions.fast), ("default", .default), ("small", .small)])
    func everyPremultipliedPairRoundTrips(_ preset: String, _ options: PNGEncodeOptions) throws {
        let image = allPremultipliedPairsImage()
        #expect(image.isValidPremultiplied)
        let png = try PNG.encode(image, options: options)
        let info = try PNG.info(png)
        #expect(info.colorType == .rgba && info.bitDepth == 8 && info.hasAlpha)
        let back = try PNG.decode(png)
        #expect(back == image, "preset \(preset)")
    }

    @Test func theFileHoldsTheUnpremultipliedValues() throws {
        // (c', a) = (60, 128) is stored as c = round(60·255/128) = round(119.53) = 120; blue
        // (128, 128) as 255. Level 0 stores the row verbatim: filter byte 0, then R, G, B, A.
        var image = PixelBuffer(width: 1, height: 1)
        image[0, 0] = RGBA8(r: 60, g: 0, b: 128, a: 128)
        let png = try PNG.encode(image, options: PNGEncodeOptions(compressionLevel: 0, filter: .none))
        let row: [UInt8] = [0, 120, 0, 255, 128]
        #expect((0...(png.count - row.count)).contains { Array(png[$0 ..< $0 + row.count]) == row })
        #expect(try PNG.decode(png)[0, 0] == image[0, 0])
    }

    @Test func opaqueImagesAreWrittenAsRGBAndRoundTripExactly() throws {
        var image = PixelBuffer(width: 256, height: 3)
        for x in 0..<256 {
            image[x, 0] = RGBA8(r: UInt8(x), g: UInt8(255 - x), b: UInt8(x / 3), a: 255)
            image[x, 1] = RGBA8(r: UInt8(x ^ 0x5A), g: 7, b: UInt8(x), a: 255)
            image[x, 2] = .white
        }
        let png = try PNG.encode(image, options: .fast)
        let info = try PNG.info(png)
        #expect(info.colorType == .rgb && !info.hasAlpha)
        #expect(try PNG.decode(png) == image)

        var keepAlpha = PNGEncodeOptions.fast
        keepAlpha.writesOpaqueAsRGB = false
        let rgba = try PNG.encode(image, options: keepAlpha)
        #expect(try PNG.info(rgba).colorType == .rgba)
        #expect(try PNG.decode(rgba) == image)
    }

    @Test func paddedRowsAreEncodedWithoutThePadding() throws {
        // 3×2 pixels with 16 bytes per row (4 bytes of zero padding).
        var bytes = [UInt8](repeating: 0, count: 32)
        for i in 0..<3 { bytes[i * 4 ..< i * 4 + 4] = [10, 20, 30, 40]; bytes[16 + i * 4 ..< 16 + i * 4 + 4] = [1, 2, 3, 255] }
        let padded = try PixelBuffer(width: 3, height: 2, bytesPerRow: 16, bytes: bytes)
        let back = try PNG.decode(PNG.encode(padded))
        #expect(back.bytesPerRow == 12)
        #expect(back[2, 0] == RGBA8(r: 10, g: 20, b: 30, a: 40) && back[2, 1] == RGBA8(r: 1, g: 2, b: 3, a: 255))
    }

    @Test(arguments: PNGCompressionStrategy.allCases)
    func everyStrategyAndFilterIsLossless(_ strategy: PNGCompressionStrategy) throws {
        let image = allPremultipliedPairsImage()
        for filter in PNGRowFilter.allCases {
            let options = PNGEncodeOptions(compressionLevel: 3, strategy: strategy, filter: filter,
                                           memoryLevel: 9, windowBits: 12, bufferSize: 1000)
            #expect(try PNG.decode(PNG.encode(image, options: options)) == image, "\(strategy) \(filter)")
        }
    }

    @Test func interlacedEncodeDecodes() throws {
        let image = allPremultipliedPairsImage()
        var options = PNGEncodeOptions.default
        options.interlaced = true
        let png = try PNG.encode(image, options: options)
        #expect(try PNG.info(png).isInterlaced)
        #expect(try PNG.decode(png) == image)
    }

    @Test func testOnlyFormatsDecodeAsExpected() throws {
        var image = PixelBuffer(width: 4, height: 1)
        image[0, 0] = RGBA8(r: 0, g: 0, b: 0, a: 0)
        image[1, 0] = RGBA8(r: 100, g: 9, b: 9, a: 200)
        image[2, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
        image[3, 0] = RGBA8(r: 1, g: 1, b: 1, a: 1)
        // gray: the R byte of each (opaque → straight) pixel; alpha dropped.
        let gray = try PNG.encode(image, options: PNGEncodeOptions(_format: .gray8))
        #expect(try PNG.info(gray).colorType == .gray)
        #expect(try PNG.decode(gray)[2, 0] == RGBA8(r: 255, g: 255, b: 255, a: 255))
        // gray+alpha keeps R (straight) and A: (100, 200) straight is unpremultiply(100, 200) = 128.
        let ga = try PNG.decode(PNG.encode(image, options: PNGEncodeOptions(_format: .grayAlpha8)))
        let c = PixelRounding.premultiply(PixelRounding.unpremultiply(100, alpha: 200), alpha: 200)
        #expect(ga[1, 0] == RGBA8(r: c, g: c, b: c, a: 200))
        // 16-bit: b·257 scales back to b exactly, so the image round-trips.
        let deep = try PNG.encode(image, options: PNGEncodeOptions(_format: .rgba16))
        #expect(try PNG.info(deep).bitDepth == 16)
        #expect(try PNG.decode(deep) == image)
    }

    @Test func textChunksAreWrittenAndRead() throws {
        let text = [PNGTextChunk("flipbook:time", "1.25"), PNGTextChunk("flipbook:scene", "x.json"),
                    PNGTextChunk("Comment", "café\nline 2")]
        let png = try PNG.encode(PixelBuffer(width: 2, height: 2), options: PNGEncodeOptions.fast.withText(text))
        let info = try PNG.info(png)
        #expect(info.text == text)
        #expect(info.text(forKeyword: "flipbook:time") == "1.25")
    }

    @Test func encodingIsDeterministic() throws {
        let image = allPremultipliedPairsImage()
        #expect(try PNG.encode(image, options: .fast) == PNG.encode(image, options: .fast))
    }
}

extension PNGEncodeOptions {
    init(_format: _PNGOutputFormat) {
        self.init()
        self._format = _format
    }
}

@Suite struct PNGConcurrencyTests {
    @Test func concurrentEncodesAndDecodesAgree() async throws {
        let image = allPremultipliedPairsImage()
        let reference = try PNG.encode(image, options: .fast)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for k in 0..<4 {
                group.addTask {
                    let options: PNGEncodeOptions = k % 2 == 0 ? .fast : .default
                    let png = try PNG.encode(image, options: options)
                    return try PNG.decode(png) == image && (k % 2 != 0 || png == reference)
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == [true, true, true, true])
    }
}
