import Testing
import Foundation
import Flipbook
import FlipbookJPEG
import FlipbookPixels
import FlipbookPNG
@testable import FlipbookRender

/// PNG and JPEG into `CGImage`: Apple's data-provider initializers (failable, decode arrays)
/// and the sniffing loader (`ImageDecoder`, `CGImage(imageData:)`, `CGImage(contentsOfImageFile:)`).
/// The JPEG files are FlipbookJPEGTests' fixtures.
@Suite struct ImageLoadingTests {
    static let jpegFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlipbookJPEGTests/Fixtures").path

    static func jpeg(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: jpegFixtures + "/" + name)!)
    }

    /// A 3×2 PNG: opaque red, half-transparent green (straight 0, 255, 0, 128), transparent…
    static let png: [UInt8] = {
        var image = PixelBuffer(width: 3, height: 2)
        image[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
        image[1, 0] = RGBA8(r: 0, g: 128, b: 0, a: 128)
        image[2, 1] = RGBA8(r: 10, g: 20, b: 30, a: 255)
        return try! PNG.encode(image)
    }()

    static func provider(_ bytes: [UInt8]) -> CGDataProvider { CGDataProvider(data: Data(bytes)) }

    func near(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int, within t: Int = 2) -> Bool {
        abs(Int(p.r) - r) <= t && abs(Int(p.g) - g) <= t && abs(Int(p.b) - b) <= t && p.a == 255
    }

    @Test func jpegDataProviderSourceDecodesAJPEG() throws {
        let image = try #require(CGImage(jpegDataProviderSource: Self.provider(Self.jpeg("solid.jpg")), decode: nil,
                                         shouldInterpolate: true, intent: .defaultIntent))
        #expect(image.width == 16 && image.height == 16)
        #expect(near(image.pixelBuffer[8, 8], 200, 40, 90))
        // The same pixels as the throwing initializer and FlipbookJPEG.
        #expect(image == (try CGImage(jpegData: Self.jpeg("solid.jpg"))))
        #expect(image.pixelBuffer == (try JPEG.decode(Self.jpeg("solid.jpg"))))
    }

    /// As on Apple: PNG bytes are not JPEG, JPEG bytes are not PNG.
    @Test func eachProviderInitializerRefusesTheOtherFormat() {
        #expect(CGImage(jpegDataProviderSource: Self.provider(Self.png), decode: nil, shouldInterpolate: true, intent: .defaultIntent) == nil)
        #expect(CGImage(pngDataProviderSource: Self.provider(Self.jpeg("baseline.jpg")), decode: nil, shouldInterpolate: false,
                        intent: .perceptual) == nil)
        #expect(CGImage(pngDataProviderSource: Self.provider(Self.png), decode: nil, shouldInterpolate: false, intent: .perceptual)?.width == 3)
    }

    @Test func brokenBytesGiveNil() {
        let b = Self.jpeg("baseline.jpg")
        #expect(CGImage(jpegDataProviderSource: Self.provider(Array(b.prefix(b.count / 2))), decode: nil, shouldInterpolate: true,
                        intent: .defaultIntent) == nil)
        #expect(CGImage(jpegDataProviderSource: Self.provider([]), decode: nil, shouldInterpolate: true, intent: .defaultIntent) == nil)
        #expect(CGImage(pngDataProviderSource: Self.provider(Array(Self.png.dropLast(20))), decode: nil, shouldInterpolate: true,
                        intent: .defaultIntent) == nil)
    }

    /// `[1, 0, 1, 0, 1, 0]` inverts an opaque image exactly (255 − v); the identity changes nothing.
    @Test func decodeArraysRemapColour() throws {
        let plain = try JPEG.decode(Self.jpeg("baseline.jpg"))
        let invert: [CGFloat] = [1, 0, 1, 0, 1, 0]
        let inverted = try #require(CGImage(jpegDataProviderSource: Self.provider(Self.jpeg("baseline.jpg")), decode: invert,
                                            shouldInterpolate: true, intent: .defaultIntent))
        for (x, y) in [(0, 0), (5, 7), (36, 22), (20, 11)] {
            let p = plain[x, y], q = inverted.pixelBuffer[x, y]
            #expect(q == RGBA8(r: 255 - p.r, g: 255 - p.g, b: 255 - p.b, a: 255), "(\(x), \(y)): \(p) → \(q)")
        }
        let identity: [CGFloat] = [0, 1, 0, 1, 0, 1]
        let same = CGImage(jpegDataProviderSource: Self.provider(Self.jpeg("baseline.jpg")), decode: identity,
                           shouldInterpolate: true, intent: .defaultIntent)
        #expect(same?.pixelBuffer == plain)
        // A greyscale JPEG has one colour component: one pair, applied to R, G and B.
        let gray = try JPEG.decode(Self.jpeg("gray.jpg"))
        let halved = try #require(CGImage(jpegDataProviderSource: Self.provider(Self.jpeg("gray.jpg")), decode: [0, 0.5],
                                          shouldInterpolate: true, intent: .defaultIntent))
        let g = gray[10, 10].r, h = halved.pixelBuffer[10, 10]
        #expect(h.r == UInt8((Double(g) * 0.5).rounded()) && h.g == h.r && h.b == h.r)
    }

    /// With alpha, the last pair remaps alpha and colour is premultiplied again.
    @Test func decodeArraysRemapAlphaOfPNG() throws {
        let decode: [CGFloat] = [0, 1, 0, 1, 0, 1, 0, 0.5]
        let image = try #require(CGImage(pngDataProviderSource: Self.provider(Self.png), decode: decode, shouldInterpolate: true,
                                         intent: .defaultIntent))
        #expect(image.pixelBuffer[0, 0] == RGBA8(r: 128, g: 0, b: 0, a: 128))  // 255 · 0.5 = 127.5 → 128
        #expect(image.pixelBuffer[1, 0] == RGBA8(r: 0, g: 64, b: 0, a: 64))    // alpha 128 → 64, green straight 1
        #expect(image.pixelBuffer[0, 1] == RGBA8(r: 0, g: 0, b: 0, a: 0))
        #expect(image.pixelBuffer.isValidPremultiplied)
    }

    @Test func formatsAreSniffedFromTheFirstBytes() {
        #expect(ImageFormat(sniffing: Self.png) == .png)
        #expect(ImageFormat(sniffing: Self.jpeg("progressive.jpg")) == .jpeg)
        #expect(ImageFormat(sniffing: Array("GIF89a".utf8)) == nil)
        #expect(ImageFormat(sniffing: [UInt8]()) == nil)
    }

    /// A JPEG named `.png` and a PNG named `.jpg` load: the name is never consulted.
    @Test func filesLoadByContentNotName() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-sniff-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/photo.png", contents: Data(Self.jpeg("solid.jpg"))))
        #expect(FileManager.default.createFile(atPath: dir + "/icon.jpg", contents: Data(Self.png)))
        let photo = try CGImage(contentsOfImageFile: dir + "/photo.png")
        #expect(photo.width == 16 && near(photo.pixelBuffer[3, 3], 200, 40, 90))
        let icon = try CGImage(contentsOfImageFile: dir + "/icon.jpg")
        #expect(icon.pixelBuffer == (try PNG.decode(Self.png)))
        #expect(try ImageDecoder.info(contentsOf: dir + "/photo.png")
                == ImageInfo(format: .jpeg, width: 16, height: 16, colorComponentCount: 3, hasAlpha: false))
        #expect(try ImageDecoder.info(contentsOf: dir + "/icon.jpg")
                == ImageInfo(format: .png, width: 3, height: 2, colorComponentCount: 3, hasAlpha: true))
        #expect(try ImageDecoder.info(Self.jpeg("gray.jpg")).colorComponentCount == 1)
        #expect(try CGImage(imageData: Data(Self.jpeg("solid.jpg"))) == photo)
    }

    @Test func errorsSayWhatAndWhere() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-image-errors-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let b = Self.jpeg("baseline.jpg")
        #expect(FileManager.default.createFile(atPath: dir + "/cut.jpg", contents: Data(b.prefix(b.count - 100))))
        #expect(FileManager.default.createFile(atPath: dir + "/anim.gif", contents: Data("GIF89a\u{1}\u{0}".utf8)))
        #expect(FileManager.default.createFile(atPath: dir + "/empty.png", contents: Data()))
        func error(_ path: String) -> ImageError? {
            do { _ = try CGImage(contentsOfImageFile: path); return nil } catch { return error }
        }
        let cut = try #require(error(dir + "/cut.jpg"))
        #expect(cut.kind == .truncated && cut.format == .jpeg)
        #expect(cut.description == "\(dir)/cut.jpg: truncated JPEG: Premature end of JPEG file")
        #expect(error(dir + "/anim.gif")?.description == "\(dir)/anim.gif: not a PNG or JPEG image (it starts 47 49 46 38 39 61 01 00)")
        #expect(error(dir + "/empty.png")?.message == "not a PNG or JPEG image (it is empty)")
        #expect(error(dir + "/missing.jpg")?.kind == .fileNotFound)
        #expect(error(dir)?.kind == .readFailed)
        let cmyk = try #require(error(jpegPath("cmyk.jpg")))
        #expect(cmyk.kind == .unsupported)
    }

    func jpegPath(_ name: String) -> String { Self.jpegFixtures + "/" + name }
}
