import Foundation
import Testing
import FlipbookPixels
import FlipbookTestSupport

@Suite struct MeanAbsoluteDeltaTests {
    /// A buffer of seeded noise (not premultiplied: the delta does not care).
    static func noise(_ width: Int, _ height: Int, seed: UInt64) -> PixelBuffer {
        var rng = SplitMix64(seed: seed)
        return try! PixelBuffer(width: width, height: height, bytes: (0..<(width * height * 4)).map { _ in rng.byte() })
    }

    @Test func identicalImagesAreZeroApart() {
        let a = Self.noise(13, 9, seed: 1)
        #expect(meanAbsoluteDelta(a, a) == 0)
    }

    /// One channel of one pixel off by 255: 255 / (W · H · 4), whichever channel it is.
    @Test(arguments: 0..<4) func oneChannelOfOnePixelBy255(channel: Int) {
        let w = 7, h = 5
        let a = PixelBuffer(width: w, height: h)
        var b = a
        b.bytes[b.offset(x: 3, y: 2) + channel] = 255
        #expect(meanAbsoluteDelta(a, b) == 255.0 / Double(w * h * 4))
        #expect(meanAbsoluteDelta(b, a) == 255.0 / Double(w * h * 4))
    }

    @Test func averagesAllFourChannelsOfAllPixels() {
        var a = PixelBuffer(width: 4, height: 3)
        a.fill(RGBA8(r: 10, g: 20, b: 30, a: 40))
        #expect(meanAbsoluteDelta(a, PixelBuffer(width: 4, height: 3)) == 25)
        var b = PixelBuffer(width: 4, height: 3)
        b.fill(RGBA8(r: 12, g: 17, b: 30, a: 45))  // |Δ| = 2 + 3 + 0 + 5 per pixel
        #expect(meanAbsoluteDelta(a, b) == 2.5)
    }

    /// Rows are read at each buffer's own stride; padding is not a pixel.
    @Test func readsEachBufferAtItsOwnStride() throws {
        let packed = Self.noise(5, 4, seed: 7)
        var bytes = [UInt8](repeating: 0, count: 32 * 4)
        for y in 0..<4 { bytes.replaceSubrange((y * 32)..<(y * 32 + 20), with: packed.bytes[(y * 20)..<(y * 20 + 20)]) }
        let padded = try PixelBuffer(width: 5, height: 4, bytesPerRow: 32, bytes: bytes)
        #expect(meanAbsoluteDelta(packed, padded) == 0)
        #expect(meanAbsoluteDelta(padded, packed) == 0)
        let other = Self.noise(5, 4, seed: 8)
        #expect(meanAbsoluteDelta(padded, other) == meanAbsoluteDelta(packed, other))
        #expect(meanAbsoluteDelta(packed, other) > 0)
    }

    @Test func differentSizesAreInfinitelyFarApart() {
        #expect(meanAbsoluteDelta(PixelBuffer(width: 4, height: 3), PixelBuffer(width: 3, height: 4)) == .infinity)
        #expect(meanAbsoluteDelta(PixelBuffer(width: 4, height: 3), PixelBuffer(width: 4, height: 2)) == .infinity)
    }
}

@Suite struct LottieReferencesTests {
    static let fixtureNames = ["LottieLogo1", "MotionCorpse_Jrcanest", "issue_2066", "issue_769"]

    /// FNV-1a, 64 bits, of the pixel bytes (row padding skipped), as the script hashes ThorVG's buffer.
    static func fnv1a64(_ image: PixelBuffer) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for y in 0..<image.height {
            for i in 0..<(image.width * 4) {
                h = (h ^ UInt64(image.bytes[y * image.bytesPerRow + i])) &* 0x100_0000_01B3
            }
        }
        return h
    }

    @Test func listsFourFixturesOfFiveFramesEach() throws {
        let refs = try LottieReferences()
        #expect(refs.width == 512 && refs.height == 512)
        #expect(refs.fixtures.map(\.name) == Self.fixtureNames)
        #expect(refs.frames.count == 20)
        for f in refs.fixtures {
            let n = f.frameCount
            #expect(n == Int(f.outPoint - f.inPoint))
            #expect(f.frames.map(\.k) == [0, n / 4, n / 2, 3 * n / 4, n - 1])
            for r in f.frames {
                #expect(r.fixture == f.name && r.fixturePath == f.path)
                #expect(r.frame == f.inPoint + Double(r.k))
                #expect(r.seconds == Double(r.k) / f.framesPerSecond)
            }
        }
        let logo = try #require(refs.fixtures.first)
        #expect(logo.width == 375 && logo.height == 667 && logo.framesPerSecond == 30 && logo.frameCount == 179)
        #expect(logo.frames.map(\.k) == [0, 44, 89, 134, 178])
        #expect(refs.engines["thorvg"]?.contains("ThorVG 1.0.4") == true)
        #expect(refs.engines["rlottie"] == "rlottie-python 1.3.8")
    }

    /// The Lottie files are in the repository, and their sizes are the ones the manifest records.
    @Test func fixtureFilesAreTheManifestsCompositions() throws {
        for f in try LottieReferences().fixtures {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f.path))) as? [String: Any]
            #expect(json?["w"] as? Int == f.width && json?["h"] as? Int == f.height, "\(f.name)")
            #expect((json?["op"] as? NSNumber)?.doubleValue == f.outPoint, "\(f.name)")
        }
    }

    /// Every PNG decodes to 512×512 and, premultiplied on load, to ThorVG's bytes exactly. (The
    /// argument list is the one the acceptance test uses.)
    @Test(arguments: try LottieReferences().frames)
    func referenceLoadsAsThorVGsPremultipliedFrame(_ r: LottieReferenceFrame) throws {
        let image = try r.image
        #expect(image.width == 512 && image.height == 512)
        #expect(image.isValidPremultiplied)
        #expect(Self.fnv1a64(image) == r.thorvgChecksum, "not ThorVG's bytes")
        #expect(stride(from: 3, to: image.bytes.count, by: 4).contains { image.bytes[$0] != 0 }, "empty")
    }

    @Test func eachToleranceIsTheRuleAppliedToItsDisagreement() throws {
        let frames = try LottieReferences().frames
        for r in frames {
            #expect(r.tolerance == max(1.5, 1.5 * r.disagreement), "\(r)")
            #expect(r.tolerance == LottieReferences.tolerance(forDisagreement: r.disagreement), "\(r)")
            #expect(r.disagreement >= 0 && r.disagreementWithRlottieClipped >= 0, "\(r)")
        }
        // Both sides of the rule occur: the 1.5 floor (the players agree) and 1.5 × d.
        #expect(frames.contains { $0.tolerance == 1.5 } && frames.contains { $0.tolerance > 1.5 })
        #expect(LottieReferences.tolerance(forDisagreement: 0.2) == 1.5)
        #expect(LottieReferences.tolerance(forDisagreement: 4) == 6)
    }

    @Test func compareAcceptsTheReferenceAndWritesNothing() throws {
        let dir = TemporaryDirectory(prefix: "flipbook-lottie-")
        let r = try #require(try LottieReferences().frames.first { $0.fixture == "issue_2066" })
        let result = try r.compare(try r.image, failureDirectory: dir.path)
        #expect(result.passes && result.delta == 0 && result.writtenFiles.isEmpty)
        #expect(dir.entries == [])
        #expect("\(result)".contains("issue_2066 k=0: mean |Δ| to ThorVG 0.000 <= tolerance 1.500"))
    }

    /// A frame too far from ThorVG fails, and the actual frame, the reference and a diff are
    /// written where the message says.
    @Test func compareFailsBeyondTheToleranceAndWritesTheImages() throws {
        let dir = TemporaryDirectory(prefix: "flipbook-lottie-")
        let r = try #require(try LottieReferences().frames.first { $0.fixture == "LottieLogo1" && $0.k == 89 })
        let reference = try r.image
        let empty = PixelBuffer(width: 512, height: 512)
        let result = try r.compare(empty, failureDirectory: dir.path)
        #expect(!result.passes && result.delta == meanAbsoluteDelta(empty, reference) && result.delta > r.tolerance)
        #expect(dir.entries == ["LottieLogo1_89_actual.png", "LottieLogo1_89_diff.png", "LottieLogo1_89_reference.png"])
        #expect(result.writtenFiles == ["actual", "reference", "diff"].map { dir.file("LottieLogo1_89_\($0).png") })
        for file in result.writtenFiles { #expect("\(result)".contains(file)) }

        // Within the tolerance passes: the colour bytes of the top quarter lowered by one level (Δ ≤ 0.25).
        var near = reference
        for i in 0..<(near.bytes.count / 4) where near.bytes[i] > 0 && near.bytes[i] < 255 && i % 4 != 3 { near.bytes[i] -= 1 }
        let close = try r.compare(near, failureDirectory: dir.path)
        #expect(close.passes && close.delta > 0 && close.delta <= 0.25)

        // A frame of the wrong size is infinitely far: it fails, and no diff can be drawn.
        let small = try r.compare(PixelBuffer(width: 256, height: 256), failureDirectory: dir.path + "/small")
        #expect(!small.passes && small.delta == .infinity && small.writtenFiles.count == 2)
    }
}
