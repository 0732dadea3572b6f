import Foundation
import FlipbookScene
import ZIPFoundation

/// A dotLottie file (`.lottie`): a zip archive holding one or more Lottie animations, their
/// images and a `manifest.json`, read into memory (lottie-ios's `DotLottieFile`).
///
/// Both layouts are read:
/// - version 1: `manifest.json` with `animations: [{id, speed, direction, loop, playMode}]` and
///   `activeAnimationId`; animations in `animations/<id>.json`, images in `images/`;
/// - version 2: `manifest.json` with `version: "2"`, `animations: [{id}]` and
///   `initial: {animation: id}`; animations in `a/<id>.json`, images in `i/`.
///
/// An image asset's `u` + `p` is looked up in the archive (`"/images/"` and `"images/"` alike),
/// then `i/` + `p`, then `images/` + `p`.
///
/// Loading is synchronous and throws a ``LottieError`` (lottie-ios's loaders are asynchronous,
/// or return a `Result` from `DotLottieFile.SynchronouslyBlockingCurrentThread`, which is
/// mirrored here). Zip bombs are refused: an entry over 256 MiB uncompressed (declared, or
/// found while inflating: extraction stops at the bound), or over 512 MiB read from one
/// archive in total, or a manifest or animation entry over 64 MiB, is an error of kind
/// `.tooLarge` naming the entry; so is an archive of more than 10 000 entries.
///
///     let file = try DotLottieFile(filepath: "confetti.lottie")
///     let animation = file.animation()?.animation   // the manifest's initial animation
public final class DotLottieFile: Sendable {
    /// One animation of the file, with the playback settings its manifest entry gives.
    public struct Animation: Sendable {
        public let animation: LottieAnimation
        public let configuration: DotLottieConfiguration
    }

    /// The animations, in the manifest's order.
    public let animations: [Animation]

    /// The id of the animation the manifest says to show first (`initial.animation` in
    /// version 2, `activeAnimationId` in version 1), or nil when it names none.
    public let activeAnimationId: String?

    /// Reads a dotLottie archive held in memory. `filename` names it in errors.
    public convenience init(data: Data, filename: String = "animation.lottie") throws(LottieError) {
        try self.init(data: data, filename: filename, limits: .standard)
    }

    /// Reads the dotLottie archive at `filepath` (entries are read from the file as needed).
    public convenience init(filepath: String) throws(LottieError) {
        try self.init(filepath: filepath, limits: .standard)
    }

    package convenience init(data: Data, filename: String, limits: LottieLimits) throws(LottieError) {
        // ZIPFoundation's in-memory reader traps on offsets past the end: check them first.
        if let problem = _ZipPreflight.problem(in: data, maximumEntries: limits.maximumArchiveEntries) {
            throw LottieError(kind: .unreadable, file: filename, line: nil, path: "", message: "not a readable zip archive: \(problem)")
        }
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw LottieError(kind: .unreadable, file: filename, line: nil, path: "", message: "not a readable zip archive (\(error))")
        }
        try self.init(archive: try _DotLottieArchive(archive: archive, file: filename, limits: limits), sourceURL: nil)
    }

    package convenience init(filepath: String, limits: LottieLimits) throws(LottieError) {
        let url = URL(fileURLWithPath: filepath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: filepath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw LottieError(kind: .unreadable, file: filepath, line: nil, path: "", message: "cannot read the file: no such file")
        }
        let archive: Archive
        do { archive = try Archive(url: url, accessMode: .read) } catch {
            throw LottieError(kind: .unreadable, file: filepath, line: nil, path: "", message: "not a readable zip archive (\(error))")
        }
        try self.init(archive: try _DotLottieArchive(archive: archive, file: filepath, limits: limits), sourceURL: url)
    }

    init(archive: _DotLottieArchive, sourceURL: URL?) throws(LottieError) {
        let file = archive.file
        guard let manifestData = try archive.data("manifest.json", json: true) else {
            throw LottieError(kind: .invalid, file: file, line: nil, path: "",
                              message: "no manifest.json in the archive (a dotLottie file has one)")
        }
        let manifestFile = "\(file)/manifest.json"
        let json: SceneJSON
        do { json = try SceneJSONParser.parse([UInt8](manifestData)) } catch {
            throw LottieError(kind: .syntax, file: manifestFile, line: error.line, column: error.column, path: "", message: error.message)
        }
        let manifest = try _LottieNode(json: json, path: "", file: manifestFile).object()
        let version = try manifest["version"].map { (v) throws(LottieError) in v.isNumber ? _LottieNode.format(try v.number()) : try v.string() }
        let isVersion2 = (version.flatMap { Double($0) } ?? 1) >= 2
        let list = try manifest.required("animations", "the list of animations [{id}]")
        var animations: [Animation] = []
        var ids: Set<String> = []
        for entry in try list.array() {
            let o = try entry.object()
            let idNode = try o.required("id", "the animation's id (its file is a/<id>.json or animations/<id>.json)")
            let id = try idNode.identifier()
            guard ids.insert(id).inserted else { throw idNode.fail("duplicate animation id \"\(id)\"") }
            let candidates = isVersion2 ? ["a/\(id).json", "animations/\(id).json"] : ["animations/\(id).json", "a/\(id).json"]
            guard let path = candidates.first(where: archive.contains), let data = try archive.data(path, json: true) else {
                throw idNode.fail("the archive has no \(candidates[0]) (nor \(candidates[1]))")
            }
            let result = try LottieParser.parse(data, file: "\(file)/\(path)", images: .archive(archive), limits: archive.limits)
            let animation = LottieAnimation(composition: result.composition, parseWarnings: result.warnings, sourceURL: sourceURL)
            let speed = try o["speed"]?.number() ?? 1
            let direction = try o["direction"]?.number() ?? 1
            let mode = try (o["mode"] ?? o["playMode"])?.string()
            let configuration = DotLottieConfiguration(id: id, speed: speed * (direction < 0 ? -1 : 1),
                                                       loop: try o["loop"]?.flag() ?? false,
                                                       autoReverse: mode == "bounce" || mode == "reverse-bounce")
            animations.append(Animation(animation: animation, configuration: configuration))
        }
        guard !animations.isEmpty else { throw list.fail("the manifest lists no animations") }
        var active: String?
        if let initial = manifest["initial"], let a = try initial.object()["animation"] { active = try a.identifier() }
        if active == nil, let a = manifest["activeAnimationId"] { active = try a.identifier() }
        self.animations = animations
        self.activeAnimationId = active
    }

    /// The animation with id `id`; with no id, the manifest's active (initial) animation, or
    /// the first one. (lottie-ios returns the first one for a nil id.)
    public func animation(for id: String? = nil) -> Animation? {
        if let id { return animations.first { $0.configuration.id == id } }
        if let activeAnimationId, let a = animations.first(where: { $0.configuration.id == activeAnimationId }) { return a }
        return animations.first
    }

    /// The animation at `index` in the manifest's order, or nil.
    public func animation(at index: Int) -> Animation? {
        animations.indices.contains(index) ? animations[index] : nil
    }
}

/// The playback settings a dotLottie manifest gives one animation (lottie-ios's
/// `DotLottieConfiguration`; its `loopMode` is `loop` and `autoReverse` here).
public struct DotLottieConfiguration: Sendable, Hashable {
    /// The animation's id.
    public var id: String
    /// `speed` × the sign of `direction` (−1 plays backwards).
    public var speed: Double
    /// `loop`: play again from the start at the end.
    public var loop: Bool
    /// `playMode` / `mode` `"bounce"`: play forwards then backwards.
    public var autoReverse: Bool

    public init(id: String, speed: Double = 1, loop: Bool = false, autoReverse: Bool = false) {
        self.id = id; self.speed = speed; self.loop = loop; self.autoReverse = autoReverse
    }
}

extension DotLottieFile {
    /// lottie-ios's synchronous loaders, returning a `Result` (Flipbook's loaders are all
    /// synchronous; these exist so code written for lottie-ios compiles).
    public enum SynchronouslyBlockingCurrentThread {
        /// Loads the dotLottie file at `filepath`.
        public static func loadedFrom(filepath: String) -> Result<DotLottieFile, Error> {
            Result { try DotLottieFile(filepath: filepath) }
        }

        /// Loads a dotLottie file held in memory.
        public static func loadedFrom(data: Data, filename: String) -> Result<DotLottieFile, Error> {
            Result { try DotLottieFile(data: data, filename: filename) }
        }

        /// Loads `name.lottie` from `bundle` (optionally in `subdirectory`).
        public static func named(_ name: String, bundle: Bundle = Bundle.main, subdirectory: String? = nil) -> Result<DotLottieFile, Error> {
            let base = name.hasSuffix(".lottie") ? String(name.dropLast(7)) : name
            guard let path = bundle.path(forResource: base, ofType: "lottie", inDirectory: subdirectory) else {
                return .failure(LottieError(kind: .unreadable, file: "\(base).lottie", line: nil, path: "",
                                            message: "not found in the bundle \(bundle.bundlePath)"))
            }
            return loadedFrom(filepath: path)
        }
    }
}
