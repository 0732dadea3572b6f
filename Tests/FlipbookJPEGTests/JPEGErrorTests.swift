import Testing
@testable import FlipbookJPEG
import FlipbookPixels

/// Bad input gives a ``JPEGError`` of the right kind — never a trap, a hang or an allocation
/// the header did not justify.
@Suite struct JPEGErrorTests {
    static let baseline = Fixtures.bytes("baseline.jpg")

    func kind(_ body: () throws -> Void) -> JPEGError.Kind? {
        do { try body(); return nil } catch { return (error as? JPEGError)?.kind }
    }

    func decodeError(_ bytes: [UInt8]) -> JPEGError? {
        do { _ = try JPEG.decode(bytes); return nil } catch { return error }
    }

    /// The offset of the first segment with `marker` (the fixtures have no fill bytes).
    func segment(_ marker: UInt8, in bytes: [UInt8]) -> Int {
        var i = 2
        while bytes[i + 1] != marker { i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])) }
        return i
    }

    @Test func notAJPEG() {
        #expect(decodeError([])?.kind == .notJPEG)
        #expect(decodeError([0xFF, 0xD8])?.kind == .notJPEG)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        #expect(decodeError(png)?.kind == .notJPEG)
        #expect(decodeError(png)?.message == "not a JPEG: the data does not start with the SOI marker (FF D8 FF)")
        #expect(kind { _ = try JPEG.info(png) } == .notJPEG)
    }

    /// Every prefix of a whole file is refused as truncated: those ending in the header by the
    /// marker walk, those ending in the scan (or just before EOI) by libjpeg.
    @Test func everyPrefixIsTruncated() {
        let b = Self.baseline
        for n in 3..<b.count {
            let error = decodeError(Array(b[0..<n]))
            #expect(error?.kind == .truncated, "prefix \(n): \(String(describing: error))")
        }
    }

    @Test func truncationMessagesSayWhere() throws {
        let b = Self.baseline
        let inHeader = decodeError(Array(b[0..<100]))
        #expect(inHeader?.message == "truncated JPEG: the data ends at byte 100, inside the header (the segment at byte 89)")
        let inScan = Array(b[0..<(b.count - 200)])
        #expect(decodeError(inScan)?.message == "truncated JPEG: Premature end of JPEG file")
        // The header is whole: info reads it, validate finds the scan cut short.
        #expect(try JPEG.info(inScan).width == 37)
        #expect(kind { _ = try JPEG.validate(inScan) } == .truncated)
    }

    @Test func aBogusHuffmanTableIsCorrupt() {
        var b = Self.baseline
        let dht = segment(0xC4, in: b)
        for k in 0..<16 { b[dht + 5 + k] = 0xFF }  // code counts far above 256 symbols
        let error = decodeError(b)
        #expect(error?.kind == .corrupt)
        #expect(error?.message == "corrupt JPEG: Bogus Huffman table definition")
    }

    /// Damaged entropy-coded data that libjpeg only warns about is refused, not shown.
    @Test func aDamagedScanIsCorrupt() {
        var b = Self.baseline
        var seed: UInt32 = 1
        for k in 700..<720 {
            seed = seed &* 1_103_515_245 &+ 12345
            b[k] = UInt8(truncatingIfNeeded: seed >> 16)
        }
        let error = decodeError(b)
        #expect(error?.kind == .corrupt, "\(String(describing: error))")
        #expect(kind { _ = try JPEG.validate(b) } == .corrupt)
    }

    @Test func garbageWhereAMarkerBelongsIsCorrupt() {
        var b = Self.baseline
        let dqt = segment(0xDB, in: b)  // the segment after APP0
        b[dqt] = 0x00
        #expect(decodeError(b)?.message == "corrupt JPEG: byte \(dqt) is 0x00, not the start of a marker")
        let noImage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        #expect(decodeError(noImage)?.kind == .corrupt)
    }

    /// A side above the limit is refused from the frame header: the 20000×20000 claim in a
    /// 1 KB file allocates nothing.
    @Test func hugeDimensionsAreRefusedBeforeDecoding() {
        var b = Self.baseline
        let sof = segment(0xC0, in: b)
        for (offset, value) in [(5, 20_000), (7, 20_000)] {
            b[sof + offset] = UInt8(value >> 8)
            b[sof + offset + 1] = UInt8(value & 255)
        }
        let error = decodeError(b)
        #expect(error?.kind == .tooLarge)
        #expect(error?.message == "JPEG header claims 20000x20000 pixels, above the limit of 16384 pixels per side")
        #expect(kind { _ = try JPEG.info(b) } == .tooLarge)
        // One side over is enough.
        b[sof + 5] = 0; b[sof + 6] = 23
        b[sof + 7] = UInt8((PixelBuffer.maximumDimension + 1) >> 8); b[sof + 8] = UInt8((PixelBuffer.maximumDimension + 1) & 255)
        #expect(decodeError(b)?.kind == .tooLarge)
    }

    @Test func whatLibjpegTurboCannotDecodeIsUnsupported() {
        let sof = segment(0xC0, in: Self.baseline)
        var twelveBit = Self.baseline
        twelveBit[sof + 4] = 12
        #expect(decodeError(twelveBit)?.message == "unsupported JPEG: 12-bit samples (only 8-bit JPEGs are decoded)")
        var lossless = Self.baseline
        lossless[sof + 1] = 0xC3
        #expect(decodeError(lossless)?.message == "unsupported JPEG: lossless coding (SOF3) is not decoded")
        var noHeight = Self.baseline
        noHeight[sof + 5] = 0; noHeight[sof + 6] = 0
        #expect(decodeError(noHeight)?.kind == .unsupported)
    }

    /// CMYK is refused with a reason, from the header alone.
    @Test func cmykIsRefused() {
        let cmyk = Fixtures.bytes("cmyk.jpg")
        let error = decodeError(cmyk)
        #expect(error?.kind == .unsupported)
        #expect(error?.message == "unsupported JPEG: CMYK colour is not decoded (it needs the file's ICC profile); save the image as RGB")
        #expect(kind { _ = try JPEG.info(cmyk) } == .unsupported)
    }

    /// A progressive file whose last scan repeats 600 times ends in an error at once (libjpeg
    /// warns of the inconsistent progression; past 500 scans TurboJPEG would stop anyway).
    @Test func aScanFloodEndsQuickly() {
        let p = Fixtures.bytes("progressive.jpg")
        // The last scan: from the last SOS to the EOI at the end.
        var last = p.count - 2
        while !(p[last] == 0xFF && p[last + 1] == 0xDA) { last -= 1 }
        let scan = Array(p[last..<(p.count - 2)])
        var flood = Array(p[0..<(p.count - 2)])
        for _ in 0..<600 { flood += scan }
        flood += [0xFF, 0xD9]
        #expect(decodeError(flood)?.kind == .corrupt)
    }
}
