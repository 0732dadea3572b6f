import Foundation
import FlipbookRaster
import FlipbookRender

/// The record a shard leaves next to its frames: which frames it wrote, the SHA-256 of each
/// file, what it rendered (scene hash, settings) and with what (Flipbook version, SIMD backend).
/// `flipbook verify` reads every manifest of a set of folders and checks them against the files
/// and against each other.
///
/// Written by `flipbook render --shard …` (and `--manifest`) after the last frame, atomically
/// (a temporary renamed), as `flipbook-manifest-FIRST-LAST.json` in the frames' folder — so a
/// manifest exists only for a range whose every frame is complete on disk. A shard killed
/// midway leaves none; its rerun (`--resume`) writes it.
///
///     {
///       "flipbook_manifest": 1, "version": "0.1.0", "simd": "native (AVX2)", "platform": "x86_64 glibc 2.36",
///       "scene": "scene.json", "scene_hash": "9f2c…",
///       "settings": {"width": 640, "height": 360, "point_width": 640, "point_height": 360, "fps": 30, "scale": 1, "start": 0, "png": "fast"},
///       "recording": {"first": 0, "last": 299}, "shard": {"index": 2, "count": 8},
///       "pattern": "frame_%05d.png",
///       "frames": [{"frame": 75, "file": "frame_00075.png", "sha256": "…"}, …]
///     }
struct ShardManifest: Codable, Equatable, Sendable {
    /// The format of this file (1).
    var flipbook_manifest: Int = 1
    /// `FlipbookVersion.string` of the renderer.
    var version: String
    /// The compositor's kernels (``ShardManifest/simdDescription``); informational — every
    /// backend produces the same bytes.
    var simd: String
    /// The CPU architecture and C library of the renderer (`x86_64 glibc 2.36`): the libm that
    /// computed `sin`, `cos`, `exp`, `pow` (docs/scale-out.md, "Determinism across machines").
    var platform: String?
    /// The scene path as given to `render` (for `verify --sample` when it is run from the same
    /// folder; `verify --scene` overrides it).
    var scene: String
    /// ``SceneHash/hex`` of the scene and its images.
    var scene_hash: String
    var settings: Settings
    /// The whole recording's frames (all shards together).
    var recording: Range
    /// `nil` for an unsharded render with `--manifest`.
    var shard: Shard?
    /// The file-name pattern of the frames.
    var pattern: String
    /// Every frame of this shard, in order.
    var frames: [Frame]

    struct Settings: Codable, Equatable, Sendable {
        /// Frame size in device pixels.
        var width: Int, height: Int
        /// Frame size in points (`--size`): with `scale`, `fps` and `start` what a re-render needs.
        var point_width: Double, point_height: Double
        var fps: Double, scale: Double, start: Double
        /// The PNG preset (`--png-compression`): a re-render must use it to give the same bytes.
        var png: String
        /// Lottie files only: `--background` as `#rrggbbaa`, or `none` (transparent); absent for
        /// scene files (their background is in the file).
        var background: String? = nil
    }
    struct Range: Codable, Equatable, Sendable { var first: Int, last: Int }
    struct Shard: Codable, Equatable, Sendable { var index: Int, count: Int }
    struct Frame: Codable, Equatable, Sendable { var frame: Int, file: String, sha256: String }

    /// The file name for frames `first…last`.
    static func fileName(first: Int, last: Int) -> String { "flipbook-manifest-\(first)-\(last).json" }

    /// True for names ``fileName(first:last:)`` produces.
    static func isManifestName(_ name: String) -> Bool { name.hasPrefix("flipbook-manifest-") && name.hasSuffix(".json") }

    /// What the compositor runs on this machine: `portable`, `native (AVX2)` or
    /// `native (AVX2, AVX-512BW)`.
    static var simdDescription: String {
        switch RasterBackend.current {
        case .portable: return "portable"
        case .native: return RasterBackend.avx512Available ? "native (AVX2, AVX-512BW)" : "native (AVX2)"
        }
    }

    /// `x86_64 glibc 2.36` (architecture and C library of this process).
    static var platformDescription: String {
        #if arch(x86_64)
        let arch = "x86_64"
        #elseif arch(arm64)
        let arch = "aarch64"
        #else
        let arch = "other"
        #endif
        #if canImport(Glibc)
        // "glibc 2.36" (confstr's _CS_GNU_LIBC_VERSION).
        var buffer = [CChar](repeating: 0, count: 64)
        let n = confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count)
        if n > 0 && n <= buffer.count {
            let text = String(decoding: buffer.prefix(n - 1).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return arch + " " + text
        }
        return arch
        #else
        return arch
        #endif
    }

    /// Hashes the frames `range` of `sink`'s folder; the failure names the unreadable file.
    static func hashFrames(_ range: ClosedRange<Int>, sink: PNGSequenceSink) -> Result<[Frame], CLIFailure> {
        var out: [Frame] = []
        out.reserveCapacity(range.count)
        for n in range {
            let name = sink.pattern.fileName(n)
            guard let d = SHA256.hash(fileAtPath: sink.directory + "/" + name) else {
                return .failure(CLIFailure(message: "\(sink.directory)/\(name): cannot read the frame to hash it", exitCode: 3))
            }
            out.append(Frame(frame: n, file: name, sha256: d.hex))
        }
        return .success(out)
    }

    /// The JSON text (keys sorted, one frame per line).
    func encoded() -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? e.encode(self)) ?? Data()
    }

    /// Writes the manifest into `directory` atomically (temporary + rename); returns its path.
    func write(into directory: String) throws(CLIFailure) -> String {
        let path = directory + "/" + Self.fileName(first: frames.first?.frame ?? 0, last: frames.last?.frame ?? 0)
        let temp = directory + "/.flipbook-manifest.partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try encoded().write(to: URL(fileURLWithPath: temp))
            guard rename(temp, path) == 0 else {
                let e = String(cString: strerror(errno))
                unlink(temp)
                throw CLIFailure(message: "\(path): cannot write the manifest: \(e)", exitCode: 3)
            }
        } catch let f as CLIFailure {
            throw f
        } catch {
            unlink(temp)
            throw CLIFailure(message: "\(path): cannot write the manifest: \((error as NSError).localizedDescription)", exitCode: 3)
        }
        return path
    }

    /// Before a `--resume`: a manifest in `directory` whose frames overlap `frames` but that was
    /// made from another scene or other settings — its frames would otherwise pass the resume
    /// check (they decode at the right size) and be certified under this run's scene hash.
    /// Returns the message for such a manifest, or nil.
    static func conflict(in directory: String, frames: ClosedRange<Int>, sceneHash: String,
                         width: Int, height: Int, fps: Double, scale: Double, start: Double) -> String? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter(isManifestName).sorted()
        for name in names {
            guard case let .success(m) = read(directory + "/" + name) else { continue }
            let overlaps = m.frames.contains { frames.contains($0.frame) }
            guard overlaps else { continue }
            let s = m.settings
            if m.scene_hash != sceneHash {
                return "\(directory) holds frames from another scene (\(name): scene \(m.scene_hash.prefix(12))…, this run's \(sceneHash.prefix(12))…); "
                    + "--resume would keep them — render into a new folder, remove them, or run without --resume"
            }
            if s.width != width || s.height != height || s.fps != fps || s.scale != scale || s.start != start {
                return "\(directory) holds frames rendered with other settings (\(name): \(s.width)×\(s.height) at \(s.fps) fps); "
                    + "--resume would keep them — render into a new folder, remove them, or run without --resume"
            }
        }
        return nil
    }

    /// Reads a manifest; the failure says which file and why (exit 2: not a manifest).
    static func read(_ path: String) -> Result<ShardManifest, CLIFailure> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(CLIFailure(message: "\(path): cannot read the manifest", exitCode: 2))
        }
        do { return .success(try JSONDecoder().decode(ShardManifest.self, from: data)) } catch {
            return .failure(CLIFailure(message: "\(path): not a Flipbook shard manifest (\(error))", exitCode: 2))
        }
    }
}
