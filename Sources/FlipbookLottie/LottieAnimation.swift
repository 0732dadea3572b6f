import Foundation

/// A frame number on the animation's timeline (After Effects frames: seconds × `framerate`).
public typealias AnimationFrameTime = CGFloat

/// A position in the animation from 0 (its ``LottieAnimation/startFrame``) to 1 (its
/// ``LottieAnimation/endFrame``).
public typealias AnimationProgressTime = CGFloat

/// A Lottie animation: a parsed Bodymovin JSON document (or one animation of a dotLottie
/// file), immutable and safe to share across threads — lottie-ios's `LottieAnimation`, with
/// the same names for its timing and marker queries.
///
/// Load one with ``filepath(_:)`` or ``named(_:bundle:subdirectory:)`` (nil on failure, as in
/// lottie-ios), or with the throwing ``load(filepath:)``, ``from(data:)`` and
/// ``init(data:)``, which say what is wrong as a ``LottieError``:
///
///     let animation = try LottieAnimation.load(filepath: "logo.json")
///     animation.size        // (375.0, 667.0)
///     animation.duration    // 5.97 s: (endFrame − startFrame) / framerate
///
/// Each loader recognises the content, not the name: a zip archive (`PK\u{3}\u{4}`) is read
/// as a dotLottie file (its active animation, see ``DotLottieFile/animation(for:)``), anything
/// else as Bodymovin JSON. Image assets are resolved while loading: embedded `data:` URIs,
/// files beside a JSON file (`u` + `p`), a dotLottie's image entries; an image that cannot
/// be found is left out with a warning rather than failing the load.
///
/// Everything is checked while loading (types, required keys, references, precomposition
/// cycles, and the bounds on hostile input listed in docs/lottie.md), so rendering never
/// meets a malformed document.
public final class LottieAnimation: Sendable {
    /// The parsed document (read by the layer mapping).
    package let composition: LottieComposition
    /// What the parser noticed but did not refuse (expressions, missing images …).
    package let parseWarnings: [LottieWarning]
    /// The file the animation was loaded from, when it was loaded from a file.
    package let sourceURL: URL?

    /// The first frame (`ip`).
    public let startFrame: AnimationFrameTime
    /// The frame after the last (`op`, exclusive: the animation shows frames
    /// `startFrame ..< endFrame`).
    public let endFrame: AnimationFrameTime
    /// Frames per second (`fr`).
    public let framerate: Double

    /// Markers by name (a later marker of the same name wins, as in lottie-ios).
    private let markerMap: [String: LottieMarker]

    package init(composition: LottieComposition, parseWarnings: [LottieWarning] = [], sourceURL: URL? = nil) {
        self.composition = composition
        self.parseWarnings = parseWarnings
        self.sourceURL = sourceURL
        startFrame = AnimationFrameTime(composition.inPoint)
        endFrame = AnimationFrameTime(composition.outPoint)
        framerate = composition.frameRate
        var map: [String: LottieMarker] = [:]
        for m in composition.markers { map[m.name] = m }
        markerMap = map
    }

    // MARK: Loading

    /// Parses an animation held in memory: Bodymovin JSON or a dotLottie archive. Image files
    /// a JSON document names (not embedded) are not looked up (there is no directory to look
    /// in): they are left out with a warning.
    public convenience init(data: Data) throws(LottieError) {
        let loaded = try LottieAnimation.load(data: data, file: "animation", directory: nil, sourceURL: nil)
        self.init(composition: loaded.composition, parseWarnings: loaded.parseWarnings, sourceURL: nil)
    }

    /// Parses an animation held in memory (lottie-ios's name; the same as ``init(data:)``).
    public static func from(data: Data) throws(LottieError) -> LottieAnimation {
        try load(data: data, file: "animation", directory: nil, sourceURL: nil)
    }

    /// Loads the animation at `filepath` (`.json` or `.lottie`, recognised by content), or
    /// returns nil when it cannot be read or is not a valid animation (lottie-ios's
    /// behaviour; ``load(filepath:)`` says why).
    public static func filepath(_ filepath: String) -> LottieAnimation? {
        try? load(filepath: filepath)
    }

    /// Loads the animation at `filepath`, throwing a ``LottieError`` that names the file, line
    /// and JSON path of the problem. Images are looked up beside the file.
    public static func load(filepath: String) throws(LottieError) -> LottieAnimation {
        let url = URL(fileURLWithPath: filepath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: filepath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw LottieError(kind: .unreadable, file: filepath, line: nil, path: "",
                              message: isDirectory.boolValue ? "cannot read the file: it is a directory" : "cannot read the file: no such file")
        }
        // A regular file (not /dev/zero or a FIFO, which would be read forever or block).
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw LottieError(kind: .unreadable, file: filepath, line: nil, path: "", message: "cannot read the file: not a regular file")
        }
        if isZip(atPath: filepath) {
            let file = try DotLottieFile(filepath: filepath)
            guard let a = file.animation() else {
                throw LottieError(kind: .invalid, file: filepath, line: nil, path: "", message: "the dotLottie file has no animation")
            }
            return a.animation
        }
        // JSON within its bound, checked before reading the file whole.
        let limit = LottieLimits.standard.maximumJSONBytes
        if let size = attributes?[.size] as? NSNumber, size.int64Value > Int64(limit) {
            throw LottieError(kind: .tooLarge, file: filepath, line: nil, path: "",
                              message: "the document is \(_DotLottieArchive.size(size.uint64Value)); the limit is \(_DotLottieArchive.size(UInt64(limit)))")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LottieError(kind: .unreadable, file: filepath, line: nil, path: "", message: "cannot read the file: \(error.localizedDescription)")
        }
        return try load(data: data, file: filepath, directory: url.deletingLastPathComponent(), sourceURL: url)
    }

    /// Loads `name.json` (or else `name.lottie`) from `bundle`, optionally in `subdirectory`;
    /// nil when not found or not valid. `name` may carry its extension.
    public static func named(_ name: String, bundle: Bundle = Bundle.main, subdirectory: String? = nil) -> LottieAnimation? {
        for ext in ["json", "lottie"] {
            let base = name.hasSuffix(".\(ext)") ? String(name.dropLast(ext.count + 1)) : name
            if let path = bundle.path(forResource: base, ofType: ext, inDirectory: subdirectory) { return filepath(path) }
        }
        return nil
    }

    /// JSON or dotLottie `data`, `file` naming it in errors; images beside `directory`.
    package static func load(data: Data, file: String, directory: URL?, sourceURL: URL?,
                             limits: LottieLimits = .standard) throws(LottieError) -> LottieAnimation {
        if data.starts(with: zipMagic) {
            let dotLottie = try DotLottieFile(data: data, filename: file, limits: limits)
            guard let a = dotLottie.animation() else {
                throw LottieError(kind: .invalid, file: file, line: nil, path: "", message: "the dotLottie file has no animation")
            }
            return a.animation
        }
        let result = try LottieParser.parse(data, file: file, imagesDirectory: directory, limits: limits)
        return LottieAnimation(composition: result.composition, parseWarnings: result.warnings, sourceURL: sourceURL)
    }

    /// A zip archive's local file header signature.
    static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    static func isZip(atPath path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return (try? h.read(upToCount: 4))?.elementsEqual(zipMagic) ?? false
    }

    // MARK: Size and time

    /// The duration in seconds: (``endFrame`` − ``startFrame``) / ``framerate``.
    public var duration: TimeInterval { Double(endFrame - startFrame) / framerate }

    /// The composition's bounds in points, at the origin.
    public var bounds: CGRect { CGRect(x: 0, y: 0, width: composition.width, height: composition.height) }

    /// The composition's size in points (`w` × `h`).
    public var size: CGSize { CGSize(width: composition.width, height: composition.height) }

    /// Converts a frame time to progress (0 at ``startFrame``, 1 at ``endFrame``), clamped to
    /// 0…1 unless `clamped` is false.
    public func progressTime(forFrame frameTime: AnimationFrameTime, clamped: Bool = true) -> AnimationProgressTime {
        let length = endFrame - startFrame
        let p = length == 0 ? 0 : (frameTime - startFrame) / length
        return clamped ? min(max(p, 0), 1) : p
    }

    /// Converts progress (0…1) to a frame time.
    public func frameTime(forProgress progressTime: AnimationProgressTime) -> AnimationFrameTime {
        (endFrame - startFrame) * progressTime + startFrame
    }

    /// Converts a frame time to seconds from ``startFrame``.
    public func time(forFrame frameTime: AnimationFrameTime) -> TimeInterval {
        Double(frameTime - startFrame) / framerate
    }

    /// Converts seconds from ``startFrame`` to a frame time.
    public func frameTime(forTime time: TimeInterval) -> AnimationFrameTime {
        CGFloat(time * framerate) + startFrame
    }

    // MARK: Markers

    /// The names of the markers (`markers[].cm`), in the file's order.
    public var markerNames: [String] { composition.markers.map(\.name) }

    /// The progress time of the marker `named`, or nil when there is none.
    public func progressTime(forMarker named: String) -> AnimationProgressTime? {
        markerMap[named].map { progressTime(forFrame: AnimationFrameTime($0.frame)) }
    }

    /// The frame time of the marker `named` (`tm`), or nil when there is none.
    public func frameTime(forMarker named: String) -> AnimationFrameTime? {
        markerMap[named].map { AnimationFrameTime($0.frame) }
    }

    /// The duration in frames of the marker `named` (`dr`), or nil when there is none.
    public func durationFrameTime(forMarker named: String) -> AnimationFrameTime? {
        markerMap[named].map { AnimationFrameTime($0.duration) }
    }
}
