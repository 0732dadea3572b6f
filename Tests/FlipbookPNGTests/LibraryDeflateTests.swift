import Foundation
import Testing
@testable import FlipbookPNG
import FlipbookPixels
import FlipbookTestSupport

/// The library-backed strategies (`libdeflate`, `isal`, `fastAuto`, lib_deflate.c) and the
/// presets built on them. Every output is decoded by the project's decoder (libpng underneath,
/// which checks every CRC and the Adler-32) and must give back exactly the input pixels.
@Suite struct LibraryDeflateTests {
    /// Encodes, decodes, compares; returns the PNG.
    @discardableResult
    func roundTrip(_ image: PixelBuffer, _ options: PNGEncodeOptions, _ label: String,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let png = try PNG.encode(image, options: options)
        let back = try PNG.decode(png)
        #expect(back == image, "\(label): \(image.width)×\(image.height)", sourceLocation: sourceLocation)
        return png
    }

    /// Every option set under test: the presets, libdeflate at three levels and ISA-L at every
    /// level, each with every single filter and the per-frame choice.
    static let optionSets: [(String, PNGEncodeOptions)] = {
        var list: [(String, PNGEncodeOptions)] = [("fast", .fast), ("default", .default), ("small", .small),
                                                  ("fastAuto", PNGEncodeOptions(strategy: .fastAuto))]
        for level in [1, 6, 12] {
            for filter in PNGRowFilter.allCases {
                list.append(("libdeflate L\(level) \(filter)", PNGEncodeOptions(compressionLevel: level, strategy: .libdeflate,
                                                                              filter: filter, bufferSize: 1000)))
            }
        }
        for level in 0...3 {
            for filter in [PNGRowFilter.none, .up, .paeth, .all] {
                list.append(("isal L\(level) \(filter)", PNGEncodeOptions(compressionLevel: level, strategy: .isal, filter: filter)))
            }
        }
        return list
    }()

    /// Edge images: 1×1 (opaque, transparent, translucent), odd widths with noise and runs
    /// (opaque → RGB, translucent → RGBA), fully transparent, an alpha gradient, pure noise.
    static func edgeImages() -> [(String, PixelBuffer)] {
        var rng = SplitMix64(seed: 18)
        var list: [(String, PixelBuffer)] = []
        for pixel in [RGBA8(r: 9, g: 8, b: 7, a: 255), RGBA8(r: 0, g: 0, b: 0, a: 0), FastDeflateImages.premultiplied(200, 100, 50, 77)] {
            var one = PixelBuffer(width: 1, height: 1)
            one[0, 0] = pixel
            list.append(("1×1 \(pixel)", one))
        }
        for width in [1, 2, 3, 5, 7, 17, 33, 65, 127] {
            for height in [1, 2, 7] {
                var opaque = PixelBuffer(width: width, height: height)
                var translucent = PixelBuffer(width: width, height: height)
                for y in 0..<height { for x in 0..<width {
                    let run = (x / 4 + y) % 3 == 0
                    let v = run ? UInt8(truncatingIfNeeded: y * 30) : rng.byte()
                    opaque[x, y] = RGBA8(r: v, g: run ? 9 : rng.byte(), b: UInt8(truncatingIfNeeded: x), a: 255)
                    translucent[x, y] = FastDeflateImages.premultiplied(v, rng.byte(), UInt8(truncatingIfNeeded: x * 3),
                                                                        run ? 200 : rng.byte())
                } }
                list.append(("opaque \(width)×\(height)", opaque))
                list.append(("translucent \(width)×\(height)", translucent))
            }
        }
        list.append(("transparent", PixelBuffer(width: 37, height: 19)))
        var gradient = PixelBuffer(width: 255, height: 40)
        for y in 0..<40 { for x in 0..<255 {
            gradient[x, y] = FastDeflateImages.premultiplied(UInt8(x), UInt8(y * 6), UInt8(255 - x), UInt8(x))
        } }
        list.append(("alpha gradient", gradient))
        var noise = PixelBuffer(width: 131, height: 67)
        for y in 0..<67 { for x in 0..<131 {
            noise[x, y] = FastDeflateImages.premultiplied(rng.byte(), rng.byte(), rng.byte(), rng.byte())
        } }
        list.append(("noise", noise))
        list.append(("all premultiplied pairs", allPremultipliedPairsImage()))
        return list
    }

    @Test func everyLevelAndFilterRoundTripsOnEdgeImages() throws {
        let images = Self.edgeImages()
        for (name, options) in Self.optionSets {
            for (imageName, image) in images {
                try roundTrip(image, options, "\(name), \(imageName)")
            }
        }
    }

    /// The peers' W3b frame, when the shared harness is next to the checkout (it is not part of
    /// this repository); `nil` otherwise.
    static func uiFrame() -> PixelBuffer? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.deletingLastPathComponent().appendingPathComponent("shared/peers/fixtures/ui-frame.png").path
        return try? PNG.decode(contentsOf: path)
    }

    /// Full-HD frames of both kinds through every preset: W1-like gradients and a flat UI
    /// frame (plus the peers' W3b frame when available). `small` is never larger than `default`.
    @Test func fullHDFramesRoundTripThroughEveryPreset() throws {
        var frames: [(String, PixelBuffer)] = [("W1-like", FastDeflateImages.w1Like(width: 1920, height: 1080)),
                                               ("flat UI", FastDeflateImages.flatUI(width: 1920, height: 1080))]
        if let ui = Self.uiFrame() { frames.append(("W3b ui-frame", ui)) }
        for (name, frame) in frames {
            var sizes: [String: Int] = [:]
            for (preset, options) in [("fast", PNGEncodeOptions.fast), ("default", .default), ("small", .small)] {
                sizes[preset] = try roundTrip(frame, options, "\(preset), \(name)").count
            }
            #expect(sizes["small"]! <= sizes["default"]!, "\(name): \(sizes)")
        }
    }

    /// `fastAuto` writes exactly what one of its two encoders writes: the own deflate on
    /// gradients; ISA-L unfiltered on the peers' UI frame (when available), where unfiltered
    /// rows compress best.
    @Test func fastAutoPicksPerFrame() throws {
        let own = PNGEncodeOptions(strategy: .flipbookFast, bufferSize: 1 << 20)
        let isalNone = PNGEncodeOptions(compressionLevel: 1, strategy: .isal, filter: .none, bufferSize: 1 << 20)
        let w1 = FastDeflateImages.w1Like(width: 640, height: 360)
        #expect(try PNG.encode(w1, options: .fast) == PNG.encode(w1, options: own))
        let flat = FastDeflateImages.flatUI(width: 640, height: 360)
        let auto = try PNG.encode(flat, options: .fast)
        #expect(try auto == PNG.encode(flat, options: own) || auto == PNG.encode(flat, options: isalNone))
        if let ui = Self.uiFrame() {
            #expect(try PNG.encode(ui, options: .fast) == PNG.encode(ui, options: isalNone))
        }
    }

    @Test func levelsOutsideTheLibraryRangeAreRefused() {
        for (strategy, level) in [(PNGCompressionStrategy.libdeflate, 0), (.libdeflate, 13), (.isal, -1), (.isal, 4), (.default, 10)] {
            let options = PNGEncodeOptions(compressionLevel: level, strategy: strategy)
            #expect(throws: PNGError.self, "\(strategy) \(level)") { try PNG.encode(PixelBuffer(width: 2, height: 2), options: options) }
            do {
                _ = try PNG.encode(PixelBuffer(width: 2, height: 2), options: options)
            } catch {
                #expect(error.kind == .invalidArgument && error.message.contains("compressionLevel"), "\(error)")
            }
        }
    }

    /// Interlaced output falls back to zlib (level capped at 9) and still round-trips.
    @Test func interlacedFallsBackToZlib() throws {
        let image = allPremultipliedPairsImage()
        for options in [PNGEncodeOptions.small, .default, .fast, PNGEncodeOptions(compressionLevel: 3, strategy: .isal)] {
            var o = options
            o.interlaced = true
            let png = try roundTrip(image, o, "interlaced \(o.strategy)")
            #expect(try PNG.info(png).isInterlaced)
        }
    }
}
