import Foundation
import FlipbookScene

/// A scene and every file it reads (images, font files) in one content-addressed file:
/// `flipbook bundle SCENE -o scene.fbk` writes it, and `render`, `plan` and `verify`
/// take it wherever they take a scene, so a worker of a job array needs one file, not a folder.
///
/// Layout (all integers little-endian):
///
///     "FBKBUNDL"                    8 bytes, the magic
///     version                       UInt32 (1)
///     index length                  UInt64
///     index                         JSON, ``Index``
///     blobs                         each distinct file content once, at the index's offsets
///
/// **Content-addressed**: a blob is named by its SHA-256 and stored once however many paths
/// use it; reading checks every blob's hash, so a damaged bundle is an error, not a wrong frame.
/// Paths are kept as the scene writes them (relative to its folder, `../` allowed), and reading
/// unpacks the files into a private temporary folder at those same relative places — the scene
/// bytes are not rewritten, so its content hash (``SceneHash``) is the same bundled or not.
/// Absolute paths cannot be bundled (they would not point into the bundle).
struct SceneBundle {
    static let magic = Array("FBKBUNDL".utf8)
    static let version: UInt32 = 1
    /// The largest index accepted when reading (a corrupt length must not allocate gigabytes).
    static let maximumIndexBytes = 64 << 20

    struct Index: Codable, Equatable {
        struct File: Codable, Equatable { var path: String, sha256: String }
        struct Blob: Codable, Equatable { var sha256: String, offset: Int, length: Int }
        /// The scene file's name (the last path component) and content.
        var scene: File
        /// How many folders above the scene's folder its paths climb (`../../x.png`: 2).
        var depth: Int
        /// Every other file the scene reads, by the path the scene writes.
        var files: [File]
        /// Distinct contents; offsets count from the first byte after the index.
        var blobs: [Blob]
        /// ``SceneHash`` of the scene (informational; recomputed after unpacking).
        var scene_hash: String
        var flipbook_version: String
    }

    /// Levels `path` climbs above its base folder (`../a/../../b` → 2), or `nil` for an
    /// absolute path.
    static func climb(_ path: String) -> Int? {
        if path.hasPrefix("/") { return nil }
        var level = 0, lowest = 0
        for part in path.split(separator: "/") {
            if part == ".." { level -= 1; lowest = min(lowest, level) } else if part != "." { level += 1 }
        }
        return -lowest
    }

    /// Packs the scene at `scenePath` (parsed as `scene`) into `output`, atomically. Failures:
    /// exit 1 for the scene (an absolute path, an unreadable file), 3 for the output.
    /// A Lottie file is bundled the same way: the file itself as the "scene", and the image files
    /// a JSON document reads beside it (``SceneInput/bundleFiles``).
    static func write(scenePath: String, input: SceneInput, hash: SceneHash, to output: String) throws(CLIFailure) -> Index {
        let files = input.bundleFiles
        var depth = 0
        for f in files {
            guard let c = climb(f.path) else {
                throw CLIFailure(message: "\(scenePath): \"\(f.path)\" is an absolute path; a bundle holds files relative to the scene — use a relative path", exitCode: 1)
            }
            depth = max(depth, c)
        }
        var blobs: [Index.Blob] = [], data: [[UInt8]] = [], offset = 0
        func add(_ path: String) throws(CLIFailure) -> String {
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw CLIFailure(message: "\(path): cannot read the file to bundle it", exitCode: 1)
            }
            let d = SHA256.hash(bytes).hex
            if !blobs.contains(where: { $0.sha256 == d }) {
                blobs.append(.init(sha256: d, offset: offset, length: bytes.count))
                data.append(Array(bytes)); offset += bytes.count
            }
            return d
        }
        let sceneName = URL(fileURLWithPath: scenePath).lastPathComponent
        let sceneEntry = Index.File(path: sceneName, sha256: try add(scenePath))
        var entries: [Index.File] = []
        for f in files { entries.append(.init(path: f.path, sha256: try add(f.resolved))) }
        let index = Index(scene: sceneEntry, depth: depth, files: entries, blobs: blobs,
                          scene_hash: hash.hex, flipbook_version: FlipbookVersion.string)
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = Array((try? e.encode(index)) ?? Data())
        var out = magic
        withUnsafeBytes(of: version.littleEndian) { out += $0 }
        withUnsafeBytes(of: UInt64(json.count).littleEndian) { out += $0 }
        out += json
        for d in data { out += d }
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        let temp = folder + "/.\(URL(fileURLWithPath: output).lastPathComponent).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do { try Data(out).write(to: URL(fileURLWithPath: temp)) } catch {
            unlink(temp)
            throw CLIFailure(message: "\(output): cannot write the bundle (\((error as NSError).localizedDescription))", exitCode: 3)
        }
        guard rename(temp, output) == 0 else {
            let m = String(cString: strerror(errno))
            unlink(temp)
            throw CLIFailure(message: "\(output): cannot write the bundle (\(m))", exitCode: 3)
        }
        return index
    }

    /// True when the file at `path` starts with the bundle magic.
    static func isBundle(_ path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return (try? h.read(upToCount: 8)).map { Array($0) == magic } ?? false
    }

    /// Unpacks the bundle at `path` into a new private folder; returns the unpacked scene's path
    /// and the folder (the caller removes it). Every blob's SHA-256 is checked. Failures: exit 1
    /// (not a bundle, damaged), 3 (cannot write the temporary folder).
    static func unpack(_ path: String) throws(CLIFailure) -> (scene: String, folder: String) {
        func bad(_ m: String) -> CLIFailure { CLIFailure(message: "\(path): \(m)", exitCode: 1) }
        guard let data = FileManager.default.contents(atPath: path) else { throw bad("cannot read the bundle") }
        let bytes = [UInt8](data)
        guard bytes.count >= 20, Array(bytes[0..<8]) == magic else { throw bad("not a Flipbook bundle (no FBKBUNDL header)") }
        func le<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
            var v: T = 0
            for i in 0..<MemoryLayout<T>.size { v |= T(bytes[at + i]) << (8 * i) }
            return v
        }
        let v = le(8, UInt32.self)
        guard v == version else { throw bad("bundle version \(v); this Flipbook (\(FlipbookVersion.string)) reads version \(version)") }
        let n = le(12, UInt64.self)
        guard n <= UInt64(maximumIndexBytes), 20 + Int(n) <= bytes.count else { throw bad("damaged bundle (index length \(n))") }
        let start = 20 + Int(n)
        let index: Index
        do { index = try JSONDecoder().decode(Index.self, from: Data(bytes[20..<start])) } catch { throw bad("damaged bundle (index: \(error))") }
        var blobs: [String: ArraySlice<UInt8>] = [:]
        for b in index.blobs {
            guard b.offset >= 0, b.length >= 0, b.offset <= bytes.count - start, b.length <= bytes.count - start - b.offset else {
                throw bad("damaged bundle (blob \(b.sha256.prefix(12))… lies outside the file)")
            }
            let slice = bytes[(start + b.offset)..<(start + b.offset + b.length)]
            guard SHA256.hash(slice).hex == b.sha256 else { throw bad("damaged bundle (blob \(b.sha256.prefix(12))… does not match its SHA-256)") }
            blobs[b.sha256] = slice
        }
        guard (0...64).contains(index.depth) else { throw bad("damaged bundle (depth \(index.depth))") }
        // A private folder; the scene sits `depth` folders down so `../` paths stay inside it.
        let tmp = FileManager.default.temporaryDirectory.path
        var template = Array((tmp + "/flipbook-bundle-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CLIFailure(message: "cannot create a temporary folder in \(tmp) to unpack \(path)", exitCode: 3)
        }
        let root = String(cString: made)
        let base = root + "/scene" + String(repeating: "/d", count: index.depth)
        func place(_ file: Index.File) throws(CLIFailure) {
            guard let c = climb(file.path), c <= index.depth, !file.path.isEmpty else {
                throw bad("damaged bundle (path \"\(file.path)\" leaves the bundle)")
            }
            guard let blob = blobs[file.sha256] else { throw bad("damaged bundle (no blob for \"\(file.path)\")") }
            let target = URL(fileURLWithPath: base + "/" + file.path).standardizedFileURL
            guard target.path.hasPrefix(root + "/") else { throw bad("damaged bundle (path \"\(file.path)\" leaves the bundle)") }
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(blob).write(to: target)
            } catch {
                throw CLIFailure(message: "cannot unpack \(path) into \(root): \((error as NSError).localizedDescription)", exitCode: 3)
            }
        }
        do throws(CLIFailure) {
            guard !index.scene.path.contains("/"), index.scene.path != "..", index.scene.path != "." else {
                throw bad("damaged bundle (scene name \"\(index.scene.path)\")")
            }
            try place(index.scene)
            for f in index.files { try place(f) }
        } catch {
            try? FileManager.default.removeItem(atPath: root)
            throw error
        }
        return (base + "/" + index.scene.path, root)
    }
}

/// A scene given on the command line: a scene file, a Lottie file (Bodymovin JSON or
/// dotLottie, told apart by content: ``InputKind``), or a bundle of either unpacked for the run.
/// Keep it alive while the scene's files are used; the unpacked folder is removed with it.
final class SceneSource {
    /// The path as given (for messages, output names and manifests).
    let given: String
    /// The scene file to parse (inside the unpacked folder for a bundle).
    let path: String
    /// What messages call the scene: `given`, or `scene.fbk:demo.json` for a bundle.
    let displayName: String
    /// What the file to parse is (a scene or a Lottie file; never `.bundle`).
    let kind: InputKind
    private let folder: String?

    private init(given: String, path: String, displayName: String, folder: String?) {
        self.given = given; self.path = path; self.displayName = displayName; self.folder = folder
        let k = InputKind.of(path: path)
        kind = k == .bundle ? .scene : k
    }

    /// Opens `given`: a bundle (by its header) is unpacked, anything else is used as is.
    static func open(_ given: String) throws(CLIFailure) -> SceneSource {
        guard SceneBundle.isBundle(given) else { return SceneSource(given: given, path: given, displayName: given, folder: nil) }
        let (scene, folder) = try SceneBundle.unpack(given)
        return SceneSource(given: given, path: scene, displayName: given + ":" + URL(fileURLWithPath: scene).lastPathComponent, folder: folder)
    }

    /// Parses the scene or Lottie file (every scene image located, every Lottie image read).
    /// Failures: exit 1, the parser's message.
    func parse() throws(CLIFailure) -> SceneInput {
        try SceneInput.parse(path: path, displayName: displayName, kind: kind)
    }

    deinit { if let folder { try? FileManager.default.removeItem(atPath: folder) } }
}
