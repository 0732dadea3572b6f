import Foundation
import Testing
import ZIPFoundation
@testable import FlipbookLottie

/// dotLottie archives built here with ZIPFoundation: manifests of both versions, images, and
/// the zip-bomb bounds.
@Suite struct ParsingDotLottieTests {
    typealias S = ParsingSupport

    /// A zip archive in memory with `entries` (path, bytes), deflated.
    static func zip(_ entries: [(String, Data)]) throws -> Data {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, data) in entries {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return archive.data!
    }

    static let animation = S.document(
        layers: #"[{"ty": 2, "ks": {}, "refId": "image_0"}]"#,
        extra: #", "assets": [{"id": "image_0", "w": 4, "h": 2, "u": "/images/", "p": "img_0.png", "e": 0}], "markers": [{"cm": "m", "tm": 30, "dr": 5}]"#)

    @Test func version1() throws {
        let other = S.document(layers: "[]").replacingOccurrences(of: #""w": 100"#, with: #""w": 300"#)
        let data = try Self.zip([
            ("manifest.json", Data(#"{"version": "1.0", "activeAnimationId": "second", "animations": [{"id": "first", "speed": 2, "direction": -1, "loop": true}, {"id": "second", "playMode": "bounce"}]}"#.utf8)),
            ("animations/first.json", Data(Self.animation.utf8)),
            ("animations/second.json", Data(other.utf8)),
            ("images/img_0.png", ParsingImageTests.pngBytes),
        ])
        let file = try DotLottieFile(data: data, filename: "test.lottie")
        #expect(file.animations.map(\.configuration.id) == ["first", "second"])
        #expect(file.activeAnimationId == "second")
        #expect(file.animation()?.configuration.id == "second")
        #expect(file.animation(for: "first")?.configuration == DotLottieConfiguration(id: "first", speed: -2, loop: true))
        #expect(file.animation(at: 1)?.configuration.autoReverse == true)
        #expect(file.animation(at: 2) == nil)
        let first = try #require(file.animation(for: "first")?.animation)
        guard case let .image(_, _, _, _, _, bytes) = first.composition.assets[0].kind else { Issue.record("not an image"); return }
        #expect(bytes == ParsingImageTests.pngBytes)
        #expect(first.parseWarnings.isEmpty)
        #expect(first.frameTime(forMarker: "m") == 30)
        // LottieAnimation recognises the archive by content and shows the active animation.
        #expect(try LottieAnimation(data: data).size == CGSize(width: 300, height: 80))
        #expect(try LottieAnimation.from(data: data).size.width == 300)
    }

    @Test func version2() throws {
        let data = try Self.zip([
            ("manifest.json", Data(#"{"version": "2", "generator": "test", "animations": [{"id": "a1"}], "initial": {"animation": "a1"}}"#.utf8)),
            ("a/a1.json", Data(Self.animation.replacingOccurrences(of: "/images/", with: "").utf8)),
            ("i/img_0.png", ParsingImageTests.pngBytes),
        ])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dotlottie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Named .json on purpose: recognised by content.
        let path = dir.appendingPathComponent("anim.json").path
        try data.write(to: URL(fileURLWithPath: path))
        let a = try LottieAnimation.load(filepath: path)
        guard case let .image(_, _, _, _, _, bytes) = a.composition.assets[0].kind else { Issue.record("not an image"); return }
        #expect(bytes == ParsingImageTests.pngBytes)
        #expect(a.sourceURL?.path == path)
        let result = DotLottieFile.SynchronouslyBlockingCurrentThread.loadedFrom(filepath: path)
        #expect((try? result.get())?.animations.count == 1)
    }

    @Test func brokenArchives() throws {
        let noManifest = try Self.zip([("a/x.json", Data(Self.animation.utf8))])
        #expect(throws: LottieError(kind: .invalid, file: "t.lottie", line: nil, path: "", message: "no manifest.json in the archive (a dotLottie file has one)")) {
            try DotLottieFile(data: noManifest, filename: "t.lottie")
        }
        let missing = try Self.zip([("manifest.json", Data("{\"animations\": [\n{\"id\": \"gone\"}]}".utf8))])
        #expect(throws: LottieError(kind: .invalid, file: "t.lottie/manifest.json", line: 2, path: "animations[0].id",
                                    message: "the archive has no animations/gone.json (nor a/gone.json)")) {
            try DotLottieFile(data: missing, filename: "t.lottie")
        }
        // Errors inside an animation name the entry as the file.
        let bad = try Self.zip([("manifest.json", Data(#"{"animations": [{"id": "x"}]}"#.utf8)),
                                ("animations/x.json", Data(#"{"fr": 30, "ip": 0, "op": 60, "w": "wide", "h": 80, "layers": []}"#.utf8))])
        do { _ = try DotLottieFile(data: bad, filename: "t.lottie"); Issue.record("no error") } catch {
            #expect(error.description == "t.lottie/animations/x.json:1: w: expected a number, got a string")
        }
        do { _ = try LottieAnimation(data: Data("PK\u{3}\u{4}garbage".utf8)); Issue.record("no error") } catch {
            #expect(error.kind == .unreadable)
        }
    }

    /// Rewrites the declared uncompressed size of every entry (local header and central
    /// directory) to `size`.
    static func declaring(_ size: UInt32, in zip: Data) -> Data {
        var bytes = [UInt8](zip)
        func put(_ at: Int) { for i in 0..<4 { bytes[at + i] = UInt8((size >> (8 * UInt32(i))) & 0xFF) } }
        var i = 0
        while i + 46 <= bytes.count {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 3, bytes[i + 3] == 4 { put(i + 22) }
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 1, bytes[i + 3] == 2 { put(i + 24) }
            i += 1
        }
        return Data(bytes)
    }

    @Test func declaredSizeOverTheBoundIsRefused() throws {
        // A 300 MiB declared size, with the real limits: refused before inflating anything (a
        // JSON entry: LottieLimits.maximumJSONBytes; HostileInputTests has an image entry).
        let small = try Self.zip([("manifest.json", Data(#"{"animations": [{"id": "x"}]}"#.utf8))])
        let huge = Self.declaring(300 << 20, in: small)
        #expect(throws: LottieError(kind: .tooLarge, file: "bomb.lottie", line: nil, path: "manifest.json",
                                    message: "the entry is 300 MiB uncompressed; the limit is 64 MiB")) {
            try DotLottieFile(data: huge, filename: "bomb.lottie")
        }
    }

    @Test func inflatingPastTheBoundStops() throws {
        // 64 KiB of zeros that declares 100 bytes; the entry bound lowered to 4 KiB.
        var limits = LottieLimits()
        limits.maximumEntryBytes = 4096
        let bomb = Self.declaring(100, in: try Self.zip([("manifest.json", Data(count: 65_536))]))
        #expect(throws: LottieError(kind: .tooLarge, file: "bomb.lottie", line: nil, path: "manifest.json",
                                    message: "the entry inflates past 4096 bytes (it declares 100 bytes); extraction stopped there")) {
            try DotLottieFile(data: bomb, filename: "bomb.lottie", limits: limits)
        }
    }

    @Test func totalBytesReadAreBounded() throws {
        var limits = LottieLimits()
        limits.maximumArchiveBytes = 600
        let manifest = Data(#"{"animations": [{"id": "x"}]}"#.utf8)
        let padded = Self.animation + String(repeating: " ", count: 600)
        let data = try Self.zip([("manifest.json", manifest), ("animations/x.json", Data(padded.utf8))])
        do { _ = try DotLottieFile(data: data, filename: "t.lottie", limits: limits); Issue.record("no error") } catch {
            #expect(error.kind == .tooLarge && error.path == "animations/x.json")
            #expect(error.message.contains("past 600 bytes"))
        }
    }
}
