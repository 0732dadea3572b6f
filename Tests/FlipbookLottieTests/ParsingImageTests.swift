import Foundation
import Testing
@testable import FlipbookLottie

/// Image assets: embedded data URIs, files beside the JSON, and the warnings when neither works.
@Suite struct ParsingImageTests {
    typealias S = ParsingSupport

    /// The first bytes of a PNG file followed by a few more (the parser checks the signature;
    /// decoding is the mapping's job).
    static let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
    static let jpegBytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46])

    func document(assets: String) -> String {
        S.document(layers: #"[{"ty": 2, "ks": {}, "refId": "image_0"}]"#, extra: #", "assets": [\#(assets)]"#)
    }

    func image(_ r: LottieParser.Result, _ i: Int = 0) -> (embedded: Bool, data: Data?)? {
        guard case let .image(_, _, _, _, embedded, data) = r.composition.assets[i].kind else { return nil }
        return (embedded, data)
    }

    @Test func embeddedBase64() throws {
        let png = Self.pngBytes.base64EncodedString(), jpeg = Self.jpegBytes.base64EncodedString()
        let r = try S.parse(document(assets: #"""
        {"id": "image_0", "w": 4, "h": 2, "u": "", "p": "data:image/png;base64,\#(png)", "e": 1},
        {"id": "image_1", "w": 4, "h": 2, "u": "", "p": "data:image/jpeg;base64,\#(jpeg)", "e": 1}
        """#))
        #expect(image(r)?.embedded == true && image(r)?.data == Self.pngBytes)
        #expect(image(r, 1)?.data == Self.jpegBytes)
        guard case let .image(w, h, _, _, _, _) = r.composition.assets[0].kind else { return }
        #expect(w == 4 && h == 2)
        #expect(r.warnings.isEmpty)
    }

    @Test func malformedOrNonImageBase64Warns() throws {
        let r = try S.parse(document(assets: #"""
        {"id": "image_0", "w": 4, "h": 2, "u": "", "p": "data:image/png;base64,@@@@", "e": 1},
        {"id": "image_1", "w": 4, "h": 2, "u": "", "p": "data:text/plain;base64,aGVsbG8gd29ybGQ=", "e": 1}
        """#))
        #expect(image(r)?.data == nil && image(r, 1)?.data == nil)
        #expect(r.warnings == [
            LottieWarning(feature: "image", path: "assets[0].p", message: "malformed base64 in the data URI; the image is left out"),
            LottieWarning(feature: "image", path: "assets[1].p", message: "the image data is not a PNG or JPEG image; the image is left out"),
        ])
    }

    @Test func filesBesideTheDocument() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lottie-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("images"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.pngBytes.write(to: dir.appendingPathComponent("images/img_0.png"))
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("images/text.png"))
        let text = document(assets: #"""
        {"id": "image_0", "w": 4, "h": 2, "u": "/images/", "p": "img_0.png", "e": 0},
        {"id": "image_1", "w": 4, "h": 2, "u": "images/", "p": "missing.png"},
        {"id": "image_2", "w": 4, "h": 2, "u": "images/", "p": "text.png"},
        {"id": "image_3", "w": 4, "h": 2, "u": "https://example.invalid/", "p": "x.png"}
        """#)
        let json = dir.appendingPathComponent("anim.json")
        try Data(text.utf8).write(to: json)
        let a = try LottieAnimation.load(filepath: json.path)
        guard case let .image(_, _, u, p, embedded, data) = a.composition.assets[0].kind else { Issue.record("not an image"); return }
        #expect(u == "/images/" && p == "img_0.png" && !embedded && data == Self.pngBytes)
        #expect(a.parseWarnings.map(\.path) == ["assets[1].p", "assets[2].p", "assets[3].p"])
        #expect(a.parseWarnings[0].message == #"image file "images/missing.png" not found; the image is left out"#)
        #expect(a.parseWarnings[2].message.hasPrefix("remote image"))
        // From memory there is no directory to look in.
        let m = try LottieAnimation(data: Data(text.utf8))
        #expect(m.parseWarnings[0].message == #"image file "/images/img_0.png" not looked up: the document was loaded from memory; the image is left out"#)
    }

    @Test func notARegularFileIsNotRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lottie-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("images/dir.png"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try S.parse(document(assets: #"{"id": "image_0", "u": "images/", "p": "dir.png"}, {"id": "z", "u": "/dev/", "p": "zero"}"#), imagesDirectory: dir)
        #expect(r.warnings.map(\.path) == ["assets[0].p", "assets[1].p"])
        #expect(r.warnings[0].message.hasSuffix("is not a regular file; the image is left out"))
    }
}
