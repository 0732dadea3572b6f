import Foundation
import Testing
@testable import FlipbookPNG
import FlipbookPixels
import FlipbookTestSupport

/// `PNGCompressionStrategy.flipbookFast`: Flipbook's own deflate (fast_deflate.c). Every
/// output must decode with libpng to exactly the input.
@Suite struct FastDeflateTests {
    static let own = PNGEncodeOptions(strategy: .flipbookFast, bufferSize: 1 << 20)

    /// Encodes with `flipbookFast`, decodes with libpng, checks the pixels; returns the PNG.
    @discardableResult
    func roundTrip(_ image: PixelBuffer, _ options: PNGEncodeOptions = own,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let png = try PNG.encode(image, options: options)
        let back = try PNG.decode(png)
        #expect(back == image, "\(image.width)×\(image.height)", sourceLocation: sourceLocation)
        return png
    }

    @Test func everySmallSizeRoundTripsAsRGBAndRGBA() throws {
        var rng = SplitMix64(seed: 7)
        for width in 1...67 {
            for height in 1...3 {
                // Opaque (written as RGB): noise mixed with runs, so both literals and matches occur.
                var opaque = PixelBuffer(width: width, height: height)
                var translucent = PixelBuffer(width: width, height: height)
                for y in 0..<height {
                    for x in 0..<width {
                        let run = (x / 5 + y) % 3 == 0
                        let v = run ? UInt8(truncatingIfNeeded: y * 40) : rng.byte()
                        opaque[x, y] = RGBA8(r: v, g: run ? 9 : rng.byte(), b: UInt8(truncatingIfNeeded: x), a: 255)
                        translucent[x, y] = FastDeflateImages.premultiplied(v, rng.byte(), UInt8(truncatingIfNeeded: x * 3),
                                                                            run ? 200 : rng.byte())
                    }
                }
                let rgb = try roundTrip(opaque)
                #expect(try PNG.info(rgb).colorType == .rgb)
                let rgba = try roundTrip(translucent)
                #expect(try PNG.info(rgba).colorType == .rgba)
            }
        }
    }

    @Test func noiseStaysWithinStoredSizePlusOverhead() throws {
        var rng = SplitMix64(seed: 1)
        for (w, h, opaque) in [(300, 257, true), (300, 257, false), (1, 1, true), (4096, 40, false)] {
            var image = PixelBuffer(width: w, height: h)
            for y in 0..<h { for x in 0..<w {
                image[x, y] = opaque ? RGBA8(r: rng.byte(), g: rng.byte(), b: rng.byte(), a: 255)
                                     : FastDeflateImages.premultiplied(rng.byte(), rng.byte(), rng.byte(), rng.byte())
            } }
            let png = try roundTrip(image)
            // Filtered data: one filter byte + w·bpp bytes per row. Stored blocks add 5 bytes
            // per 65,535; zlib 6; PNG signature, IHDR, IEND and 12 bytes per 1 MiB IDAT.
            let filtered = h * (1 + w * (opaque ? 3 : 4))
            let bound = filtered + 5 * (filtered / 65_535 + 2 + filtered / (1 << 17)) + 6 + 8 + 25 + 12 + 12 * (filtered / (1 << 20) + 1)
            #expect(png.count <= bound, "\(w)×\(h): \(png.count) > \(bound)")
        }
    }

    @Test func flatContentCompressesAndRoundTrips() throws {
        let zero = PixelBuffer(width: 640, height: 480)  // transparent black: RGBA
        #expect(try roundTrip(zero).count < 4_000)  // 1.2 MB raw
        for colour in [RGBA8.white, RGBA8(r: 12, g: 200, b: 99, a: 255), RGBA8(r: 40, g: 20, b: 10, a: 128)] {
            var solid = PixelBuffer(width: 333, height: 211)
            for y in 0..<211 { for x in 0..<333 { solid[x, y] = colour } }
            #expect(try roundTrip(solid).count < 1_500)
        }
        #expect(try roundTrip(FastDeflateImages.flatUI(width: 800, height: 600)).count < 4_000)
    }

    @Test func gradientsAndTilesRoundTrip() throws {
        var gradient = PixelBuffer(width: 517, height: 131)
        var tiles = PixelBuffer(width: 600, height: 100)
        for y in 0..<131 { for x in 0..<517 {
            gradient[x, y] = RGBA8(r: UInt8(truncatingIfNeeded: x), g: UInt8(y), b: UInt8(truncatingIfNeeded: x + y), a: 255)
        } }
        for y in 0..<100 { for x in 0..<600 {
            let a = UInt8(truncatingIfNeeded: (x % 64) * 4 + 3)
            tiles[x, y] = FastDeflateImages.premultiplied(UInt8(x % 64 * 4), UInt8((x / 64 + y) % 7 * 30), 77, a)
        } }
        try roundTrip(gradient)
        // Repeats 64 px apart (256 bytes): matches through the hash table, far below raw size.
        #expect(try roundTrip(tiles).count < 600 * 100 * 4 / 10)
    }

    /// The hash table is used per strip (~128 KiB of filtered rows, 69 rows here) only where
    /// long repeats paid in the strip before, and retried every 8th strip. Tiles → noise →
    /// tiles: the output round-trips across both switches, and the table comes back within 8
    /// strips of the last tile band — whose repeats 64 px apart (random rows, so `up` leaves
    /// nothing to runs) cost ~12 % of raw with the table and ~100 % without: 700 rows (10
    /// strips) measured 37 % of raw (≥ 2 strips found with the table).
    @Test func hashTableSwitchesOffOnNoiseAndBackOnTiles() throws {
        let width = 640
        func tile(_ x: Int, _ y: Int) -> RGBA8 {  // random per (x mod 64, y): repeats across, not down
            var r = SplitMix64(seed: UInt64(y * 64 + x % 64) &+ 1)
            return RGBA8(r: r.byte(), g: r.byte(), b: r.byte(), a: 255)
        }
        func image(tilesThenNoise rows: Int, tailTiles: Int) -> PixelBuffer {
            var rng = SplitMix64(seed: 11)
            var im = PixelBuffer(width: width, height: 300 + rows + tailTiles)
            for y in 0..<im.height {
                for x in 0..<width {
                    im[x, y] = y < 300 || y >= 300 + rows ? tile(x, y) : RGBA8(r: rng.byte(), g: UInt8(truncatingIfNeeded: x), b: rng.byte(), a: 255)
                }
            }
            return im
        }
        let head = try roundTrip(image(tilesThenNoise: 600, tailTiles: 0))
        let whole = try roundTrip(image(tilesThenNoise: 600, tailTiles: 700))
        let tailRaw = 700 * (1 + width * 3)
        #expect(Double(whole.count - head.count) < 0.6 * Double(tailRaw), "tail band: \(whole.count - head.count) of \(tailRaw) raw bytes")
    }

    @Test func skewedByteCountsNeedLengthLimitedCodes() throws {
        // Filtered bytes (the `up` differences) drawn with Fibonacci weights over 24 values: an
        // unlimited Huffman code for a block would be ~20 bits deep, so the 15-bit limit is hit.
        var fib: [Int] = [1, 1]
        while fib.count < 24 { fib.append(fib[fib.count - 1] + fib[fib.count - 2]) }
        let total = fib.reduce(0, +)
        var rng = SplitMix64(seed: 11)
        var image = PixelBuffer(width: 400, height: 130)
        func draw() -> UInt8 {
            var r = (Int(rng.byte()) << 16 | Int(rng.byte()) << 8 | Int(rng.byte())) % total
            for (k, w) in fib.enumerated() { if r < w { return UInt8(k * 11) }; r -= w }
            return 0
        }
        for y in 0..<130 { for x in 0..<400 {
            let above = y > 0 ? image[x, y - 1] : RGBA8(r: 0, g: 0, b: 0, a: 255)
            image[x, y] = RGBA8(r: above.r &+ draw(), g: above.g &+ draw(), b: above.b &+ draw(), a: 255)
        } }
        try roundTrip(image)
    }

    @Test func everyPremultipliedPairRoundTrips() throws {
        let image = allPremultipliedPairsImage()
        try roundTrip(image)
    }

    @Test func textChunksAndChunkFramingAreLibpngs() throws {
        let text = [PNGTextChunk("flipbook:time", "1.25"), PNGTextChunk("Comment", "café")]
        var options = Self.own.withText(text)
        options.bufferSize = 1000  // several IDAT chunks
        let png = try roundTrip(FastDeflateImages.w1Like(width: 200, height: 150), options)
        #expect(try PNG.info(png).text == text)
        let idats = (0..<(png.count - 4)).filter { Array(png[$0 ..< $0 + 4]) == Array("IDAT".utf8) }.count
        #expect(idats > 2)
        #expect(Array(png.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    @Test func fullHDFrameRoundTripsDeterministically() throws {
        let image = FastDeflateImages.w1Like(width: 1920, height: 1080)
        let png = try roundTrip(image)
        #expect(try PNG.encode(image, options: Self.own) == png)
        #expect(png.count < 1920 * 1080 * 3 / 2)
    }

    @Test func interlacedFallsBackToZlib() throws {
        var options = Self.own
        options.interlaced = true
        let png = try roundTrip(FastDeflateImages.w1Like(width: 61, height: 37), options)
        #expect(try PNG.info(png).isInterlaced)
    }

    @Test func pngcheckAcceptsTheOutput() throws {
        let tool = ["/usr/bin/pngcheck", "/usr/local/bin/pngcheck"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else { return }  // not installed: nothing to check
        try withTemporaryDirectory(prefix: "flipbook-png-") { folder in
            for (name, image) in [("w1.png", FastDeflateImages.w1Like(width: 320, height: 200)),
                                  ("flat.png", FastDeflateImages.flatUI(width: 320, height: 200)),
                                  ("alpha.png", allPremultipliedPairsImage())] {
                try PNG.write(image, to: folder.file(name), options: Self.own.withText([PNGTextChunk("flipbook:time", "0")]))
                let process = Process()
                process.executableURL = URL(fileURLWithPath: tool)
                process.arguments = ["-v", folder.file(name)]
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "pngcheck rejected \(name)")
            }
        }
    }
}
