import Foundation
import FlipbookScene

/// The content hash of a scene: what `flipbook plan` prints and every shard manifest records,
/// so a driver (and `flipbook verify`) can check that all workers rendered the same thing.
///
/// SHA-256 over a small text that names the scene file's bytes and every file it reads:
///
///     flipbook-scene-hash 1
///     scene <sha256 of the scene file>
///     image <path as written in the scene> <sha256 of the file>     (one line per image, sorted by path)
///     font <path as written in the scene> <sha256 of the file>      (font files named by path, sorted)
///
/// Paths are taken as written (relative to the scene file), not resolved, so the same scene
/// checked out in different folders on different machines — or unpacked from a bundle
/// (`flipbook bundle`) — has the same hash.
///
/// A Lottie file's hash (``computeLottie(path:images:background:)``) covers its bytes (a
/// dotLottie's images are inside them), the image files a JSON document reads beside it, and
/// the one option that changes its pixels without being a recorded setting, `--background`
/// (size, scale, fps and start are the manifests' `settings`, checked on their own):
///
///     flipbook-lottie-hash 1
///     lottie <sha256 of the file>
///     image <u + p as written> <sha256 of the bytes drawn, or "missing">   (sorted by path)
///     background <#rrggbbaa, or "none" for transparent>
struct SceneHash: Sendable, Equatable {
    /// The hash, 64 lower-case hex digits.
    var hex: String
    /// The scene file's own SHA-256.
    var sceneFile: String
    /// Each image used (path as written, SHA-256 of the file), sorted by path.
    var images: [(path: String, sha256: String)]
    /// Each font file used (path as written, SHA-256), sorted by path.
    var fonts: [(path: String, sha256: String)] = []

    static func == (a: SceneHash, b: SceneHash) -> Bool { a.hex == b.hex }

    /// Hashes the scene at `path` (already parsed into `scene`, so every image exists). Throws
    /// the message when a file cannot be read.
    static func compute(scenePath path: String, scene: SceneDescription) throws(CLIFailure) -> SceneHash {
        guard let own = SHA256.hash(fileAtPath: path) else {
            throw CLIFailure(message: "\(path): cannot read the scene file to hash it", exitCode: 1)
        }
        var seen = Set<String>()
        var images: [(String, String)] = []
        for image in SceneParser.images(in: scene) where seen.insert(image.path).inserted {
            guard let d = SHA256.hash(fileAtPath: image.resolvedPath) else {
                throw CLIFailure(message: "image \"\(image.path)\" (\(image.resolvedPath)) cannot be read to hash it", exitCode: 1)
            }
            images.append((image.path, d.hex))
        }
        images.sort { $0.0 < $1.0 }
        var fonts: [(String, String)] = []
        for font in SceneParser.fontFiles(in: scene) where !fonts.contains(where: { $0.0 == font.path }) {
            guard let d = SHA256.hash(fileAtPath: font.resolvedPath) else {
                throw CLIFailure(message: "font file \"\(font.path)\" (\(font.resolvedPath)) cannot be read to hash it", exitCode: 1)
            }
            fonts.append((font.path, d.hex))
        }
        fonts.sort { $0.0 < $1.0 }
        var h = SHA256()
        h.update("flipbook-scene-hash 1\nscene \(own.hex)\n")
        for (p, d) in images { h.update("image \(p) \(d)\n") }
        for (p, d) in fonts { h.update("font \(p) \(d)\n") }
        return SceneHash(hex: h.finalize().hex, sceneFile: own.hex, images: images, fonts: fonts)
    }

    /// Hashes the Lottie file at `path`, the image files it reads (`images`: path as written,
    /// the bytes used or nil when not found) and `background` (see the type).
    static func computeLottie(path: String, images: [(path: String, data: Data?)], background: BackgroundColor?) throws(CLIFailure) -> SceneHash {
        guard let own = SHA256.hash(fileAtPath: path) else {
            throw CLIFailure(message: "\(path): cannot read the Lottie file to hash it", exitCode: 1)
        }
        let listed = images.map { ($0.path, $0.data.map { SHA256.hash(Array($0)).hex } ?? "missing") }.sorted { $0.0 < $1.0 }
        var h = SHA256()
        h.update("flipbook-lottie-hash 1\nlottie \(own.hex)\n")
        for (p, d) in listed { h.update("image \(p) \(d)\n") }
        h.update("background \(background?.hex ?? "none")\n")
        return SceneHash(hex: h.finalize().hex, sceneFile: own.hex, images: listed)
    }
}
