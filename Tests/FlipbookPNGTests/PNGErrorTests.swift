import CFlipbookPNG
import Foundation
import Testing
@testable import FlipbookPNG
import FlipbookPixels
import FlipbookTestSupport

/// Bad input gives a clear, typed error and nothing else: no crash, no output, no temp file.
@Suite struct PNGErrorTests {
    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-png-")

    static func sample() throws -> [UInt8] {
        try PNG.encode(allPremultipliedPairsImage(), options: .fast)
    }

    static func expectError(_ kind: PNGError.Kind, containing text: String, _ body: () throws(PNGError) -> Void,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("expected a \(kind) error", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
        }
    }

    @Test func truncatedDataIsReported() throws {
        let png = try Self.sample()
        // Cut inside the header, inside the image data, and just before IEND.
        for cut in [20, 40, png.count / 2, png.count - 12, png.count - 1] {
            let bytes = Array(png.prefix(cut))
            Self.expectError(.truncated, containing: "truncated") { () throws(PNGError) in _ = try PNG.decode(bytes) }
        }
        Self.expectError(.truncated, containing: "truncated") { () throws(PNGError) in _ = try PNG.info(Array(png.prefix(30))) }
    }

    @Test func badCRCsAreReported() throws {
        let png = try Self.sample()
        var badIHDR = png
        badIHDR[29] ^= 0xFF  // IHDR CRC (bytes 29–32)
        Self.expectError(.corrupt, containing: "CRC") { () throws(PNGError) in _ = try PNG.decode(badIHDR) }
        Self.expectError(.corrupt, containing: "CRC") { () throws(PNGError) in _ = try PNG.info(badIHDR) }
        var badIDAT = png
        badIDAT[png.count / 2] ^= 0x01  // a byte inside the IDAT data: zlib's check or the CRC fails
        Self.expectError(.corrupt, containing: "IDAT") { () throws(PNGError) in _ = try PNG.decode(badIDAT) }
        // An ancillary chunk with a bad CRC is an error too (libpng would only warn).
        var text = try PNG.encode(PixelBuffer(width: 1, height: 1), options: PNGEncodeOptions().withText([PNGTextChunk("k", "v")]))
        text[33 + 8 + 3] ^= 0x20  // inside the tEXt data (the chunk right after IHDR)
        Self.expectError(.corrupt, containing: "CRC") { () throws(PNGError) in _ = try PNG.decode(text) }
    }

    @Test func nonPNGDataIsReported() {
        for bytes: [UInt8] in [[], [0x89, 0x50], Array("GIF89a, not a PNG at all".utf8), [UInt8](repeating: 0, count: 100)] {
            Self.expectError(.notPNG, containing: "not a PNG") { () throws(PNGError) in _ = try PNG.decode(bytes) }
            Self.expectError(.notPNG, containing: "not a PNG") { () throws(PNGError) in _ = try PNG.info(bytes) }
        }
    }

    @Test func hugeHeaderIsRefusedBeforeAllocating() {
        let path = Fixtures.path("huge_header.png")
        Self.expectError(.tooLarge, containing: "100000x100000") { () throws(PNGError) in _ = try PNG.decode(contentsOf: path) }
        Self.expectError(.tooLarge, containing: "limit of 16384") { () throws(PNGError) in _ = try PNG.info(contentsOf: path) }
    }

    @Test func missingAndUnreadableFilesAreReported() {
        Self.expectError(.fileNotFound, containing: "no such file") { () throws(PNGError) in
            _ = try PNG.decode(contentsOf: folder.file("absent.png"))
        }
        Self.expectError(.readFailed, containing: "not a regular file") { () throws(PNGError) in
            _ = try PNG.info(contentsOf: folder.path)
        }
        do { _ = try PNG.decode(contentsOf: folder.file("absent.png")) } catch {
            #expect(error.path == folder.file("absent.png"))
            #expect(error.description == folder.file("absent.png") + ": no such file")
        }
    }

    /// A FIFO is refused at once (opening one for reading would block until a writer came),
    /// a device too (reading /dev/zero would never end); the message says what the path is.
    @Test func fifosAndDevicesAreRefusedWithoutBlocking() {
        let fifo = folder.file("pipe.png")
        #expect(mkfifo(fifo, 0o644) == 0)
        Self.expectError(.readFailed, containing: "not a regular file (a FIFO)") { () throws(PNGError) in
            _ = try PNG.info(contentsOf: fifo)
        }
        Self.expectError(.readFailed, containing: "not a regular file (a FIFO)") { () throws(PNGError) in
            _ = try PNG.decode(contentsOf: fifo)
        }
        Self.expectError(.readFailed, containing: "not a regular file (a character device)") { () throws(PNGError) in
            _ = try PNG.decode(contentsOf: "/dev/zero")
        }
        Self.expectError(.readFailed, containing: "not a regular file (a directory)") { () throws(PNGError) in
            _ = try PNG.decode(contentsOf: folder.path)
        }
    }

    @Test func writesToMissingOrBadFoldersFailAndLeaveNothing() throws {
        let image = allPremultipliedPairsImage()
        Self.expectError(.writeFailed, containing: "does not exist") { () throws(PNGError) in
            try PNG.write(image, to: folder.file("missing/frame.png"))
        }
        // A regular file where a folder should be.
        #expect(FileManager.default.createFile(atPath: folder.file("plain"), contents: Data([1])))
        Self.expectError(.writeFailed, containing: "cannot create") { () throws(PNGError) in
            try PNG.write(image, to: folder.file("plain/frame.png"))
        }
        // The target is a folder: the rename fails, the temporary is removed.
        try FileManager.default.createDirectory(atPath: folder.file("dir.png"), withIntermediateDirectories: false)
        Self.expectError(.writeFailed, containing: "rename") { () throws(PNGError) in
            try PNG.write(image, to: folder.file("dir.png"))
        }
        #expect(folder.entries == ["dir.png", "plain"])
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.file("dir.png"))) ?? ["?"]).isEmpty)
        // A read-only folder (only meaningful when not running as root).
        if geteuid() != 0 {
            try FileManager.default.createDirectory(atPath: folder.file("ro"), withIntermediateDirectories: false)
            chmod(folder.file("ro"), 0o555)
            Self.expectError(.writeFailed, containing: "cannot create") { () throws(PNGError) in
                try PNG.write(image, to: folder.file("ro/frame.png"))
            }
            chmod(folder.file("ro"), 0o755)
            #expect(FileManager.default.fileExists(atPath: folder.file("ro")))
        }
    }

    @Test func degenerateEncodeRequestsFailAndLeaveNothing() throws {
        // A buffer whose bytes no longer match its size (PixelBuffer.bytes is mutable).
        var broken = PixelBuffer(width: 4, height: 4)
        broken.bytes = []
        Self.expectError(.invalidArgument, containing: "do not match") { () throws(PNGError) in _ = try PNG.encode(broken) }
        // Knobs out of range and bad text keywords.
        var bad = PNGEncodeOptions.fast
        bad.compressionLevel = 12
        Self.expectError(.invalidArgument, containing: "compressionLevel") { () throws(PNGError) in
            _ = try PNG.encode(PixelBuffer(width: 1, height: 1), options: bad)
        }
        for key in ["", String(repeating: "k", count: 80), " lead", "two  spaces", "snow☃"] {
            Self.expectError(.invalidArgument, containing: "keyword") { () throws(PNGError) in
                _ = try PNG.encode(PixelBuffer(width: 1, height: 1), options: PNGEncodeOptions().withText([PNGTextChunk(key, "v")]))
            }
        }
        // write() with a bad request: no file, no temporary.
        let target = folder.file("frame.png")
        Self.expectError(.invalidArgument, containing: "do not match") { () throws(PNGError) in try PNG.write(broken, to: target) }
        #expect(folder.entries.isEmpty)
        // An existing file survives a failed overwrite unchanged.
        try PNG.write(PixelBuffer(width: 1, height: 1), to: target)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        Self.expectError(.invalidArgument, containing: "compressionLevel") { () throws(PNGError) in
            try PNG.write(PixelBuffer(width: 2, height: 2), to: target, options: bad)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        #expect(folder.entries == ["frame.png"])
    }

    @Test func theShimRefusesZeroSizes() {
        var err = fbpng_error()
        var params = fbpng_encode_params()
        params.level = 1; params.filters = 0x20
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let pixel: [UInt8] = [0, 0, 0, 0]
        let status = fbpng_encode(pixel, 0, 1, 4, &params, &out, &size, &err)
        let e = PNG._error(status, err)
        #expect(e.kind == .invalidArgument && e.message.contains("0x1") && out == nil)
    }

    @Test func successfulWritesAreCompleteAndLeaveNoTemporary() throws {
        let image = allPremultipliedPairsImage()
        try PNG.write(image, to: folder.file("a.png"), options: .fast)
        try PNG.write(image, to: folder.file("a.png"), options: .small)  // replace in place
        #expect(folder.entries == ["a.png"])
        #expect(try PNG.decode(contentsOf: folder.file("a.png")) == image)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.file("a.png")))) == PNG.encode(image, options: .small))
    }
}

/// Hostile files that once made the decoder allocate what the file does not hold.
@Suite struct PNGHostileFileTests {
    static func be32(_ v: UInt32) -> [UInt8] { PNGBytes.be32(v) }
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { PNGBytes.chunk(type, data) }
    static let signature = PNGBytes.signature
    static func ihdr(_ w: UInt32, _ h: UInt32) -> [UInt8] { PNGBytes.ihdr(w, h) }

    /// The 44-byte file of the report: a tEXt chunk that claims 0x7ffffff0 bytes. It is
    /// "truncated" at once — by the chunk walk, before libpng allocates the chunk.
    @Test func hugeChunkLengthInATinyFileIsTruncatedBeforeAllocating() {
        let file = Self.signature + Self.ihdr(1, 1) + Self.be32(0x7fff_fff0) + Array("tEXt".utf8) + [0, 0, 0]
        #expect(file.count == 44)
        let expected = "truncated PNG: chunk \"tEXt\" at byte 33 claims 2147483632 bytes, but only 3 remain"
        do { _ = try PNG.info(file); Issue.record("no error") } catch {
            #expect(error.kind == .truncated && error.message == expected, "\(error.message)")
        }
        do { _ = try PNG.decode(file); Issue.record("no error") } catch {
            #expect(error.kind == .truncated && error.message == expected, "\(error.message)")
        }
    }

    /// `validate` finds damage that the header alone does not show (a CRC error in a later
    /// chunk, a missing IEND) without decoding, and accepts data after IEND.
    @Test func validateWalksEveryChunk() throws {
        let idat = Self.chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x60, 0x60, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01])
        let whole = Self.signature + Self.ihdr(1, 1) + idat + Self.chunk("IEND", [])
        #expect(try PNG.validate(whole).width == 1)
        #expect(try PNG.validate(whole + [1, 2, 3]).width == 1)   // trailing bytes after IEND: accepted
        var damaged = whole
        damaged[33 + 8] ^= 0x01                                    // a byte inside IDAT's data
        do { _ = try PNG.validate(damaged); Issue.record("no error") } catch {
            #expect(error.kind == .corrupt && error.message == "corrupt PNG: CRC error in chunk \"IDAT\" at byte 33")
        }
        do { _ = try PNG.validate(Array(whole.dropLast(12))); Issue.record("no error") } catch {
            #expect(error.kind == .truncated && error.message == "truncated PNG: the data ends before the IEND chunk")
        }
    }
}

/// What the decoder does with the PNG oddities issue 17 asked about — decided and documented
/// in docs/limits.md ("PNG oddities"): all are accepted the way libpng and browsers accept them.
@Suite struct PNGOdditiesTests {
    static func be32(_ v: UInt32) -> [UInt8] { PNGBytes.be32(v) }
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { PNGBytes.chunk(type, data) }
    static func zlib(_ raw: [UInt8]) -> [UInt8] { PNGBytes.zlib(raw) }
    static func png(_ w: UInt32, _ h: UInt32, type: UInt8, raw: [UInt8], before: [UInt8] = [], after: [UInt8] = [],
                    idatTail: [UInt8] = [], trailing: [UInt8] = []) -> [UInt8] {
        PNGBytes.signature + chunk("IHDR", be32(w) + be32(h) + [8, type, 0, 0, 0]) + before
            + chunk("IDAT", zlib(raw) + idatTail) + after + chunk("IEND", []) + trailing
    }
    static let green: [UInt8] = [0, 0, 255, 0, 255]   // filter 0, one RGBA pixel

    @Test func dataAfterIENDIsIgnored() throws {
        let p = try PNG.decode(Self.png(1, 1, type: 6, raw: Self.green, trailing: Array("trailing".utf8)))
        #expect(p[0, 0] == RGBA8(r: 0, g: 255, b: 0, a: 255))
    }

    @Test func apngShowsItsDefaultImage() throws {
        let actl = Self.chunk("acTL", Self.be32(2) + Self.be32(0))
        let fctl = Self.chunk("fcTL", Self.be32(0) + Self.be32(1) + Self.be32(1) + Self.be32(0) + Self.be32(0) + [0, 1, 0, 10, 0, 0])
        let fdat = Self.chunk("fdAT", Self.be32(1) + Self.zlib([0, 255, 0, 0, 255]))
        let p = try PNG.decode(Self.png(1, 1, type: 6, raw: Self.green, before: actl + fctl, after: fdat))
        #expect(p[0, 0] == RGBA8(r: 0, g: 255, b: 0, a: 255))   // the IDAT image, not the red second frame
    }

    @Test func bytesAfterTheZlibStreamInIDATAreIgnored() throws {
        let p = try PNG.decode(Self.png(1, 1, type: 6, raw: Self.green, idatTail: Array("extra".utf8)))
        #expect(p[0, 0] == RGBA8(r: 0, g: 255, b: 0, a: 255))
    }

    @Test func tRNSOnRGBAIsIgnored() throws {
        let trns = Self.chunk("tRNS", [0, 0, 0, 255, 0, 0])
        let p = try PNG.decode(Self.png(1, 1, type: 6, raw: Self.green, before: trns))
        #expect(p[0, 0] == RGBA8(r: 0, g: 255, b: 0, a: 255))
    }

    /// A palette index past the palette's end reads as opaque black (libpng's zero-filled
    /// 256-entry palette); indices inside it read as usual.
    @Test func paletteIndexPastTheEndIsBlack() throws {
        let plte = Self.chunk("PLTE", [255, 0, 0, 0, 255, 0])
        let file = PNGBytes.signature + Self.chunk("IHDR", Self.be32(2) + Self.be32(1) + [8, 3, 0, 0, 0])
            + plte + Self.chunk("IDAT", Self.zlib([0, 1, 5])) + Self.chunk("IEND", [])
        let p = try PNG.decode(file)
        #expect(p[0, 0] == RGBA8(r: 0, g: 255, b: 0, a: 255))
        #expect(p[1, 0] == RGBA8(r: 0, g: 0, b: 0, a: 255), "\(p[1, 0])")
    }
}
