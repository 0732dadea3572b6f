import Foundation
import Flipbook
import FlipbookLottie
import FlipbookPixels
import FlipbookRender
import FlipbookScene

/// A parsed input of `render`, `plan`, `verify` and `bundle`: a scene file, or a Lottie file
/// (Bodymovin JSON or dotLottie) standing in for one.
///
/// For a Lottie file, ``description`` holds only what a scene's `output` would — the recording
/// the file implies: its size in points (`w` × `h`), its frame rate, frames `0 … N − 1` with
/// `N = ⌈op − ip⌉` (frame K shows the file's frame `ip + K`), start 0 and no background
/// (transparent) — so the command line's options apply to it exactly as to a scene's. The layer
/// tree is built only once those options are resolved (``makeBuilder(settings:)``), because its
/// size depends on them: the composition is fitted into the recording's size in points
/// (aspect preserved, centred), which `--size` sets and `--scale` multiplies in pixels.
struct SceneInput {
    /// The file as parsed (inside the unpacked folder for a bundle) and as messages name it.
    let path: String
    let displayName: String
    let kind: InputKind
    /// A scene's description; a Lottie file's recording defaults (see the type).
    let description: SceneDescription
    /// The animation, for a Lottie file.
    let lottie: LottieAnimation?

    var isLottie: Bool { lottie != nil }

    /// Parses `path` as `kind`. Failures: exit 1 with the parser's one-line message (file, line,
    /// JSON path).
    static func parse(path: String, displayName: String, kind: InputKind) throws(CLIFailure) -> SceneInput {
        guard kind.isLottie else {
            do throws(SceneError) {
                let d = try SceneParser.parse(contentsOf: path, displayName: displayName)
                return SceneInput(path: path, displayName: displayName, kind: kind, description: d, lottie: nil)
            } catch { throw CLIFailure(message: error.description, exitCode: 1) }
        }
        let animation: LottieAnimation
        do throws(LottieError) { animation = try LottieAnimation.load(filepath: path) } catch {
            var e = error
            // Messages name the file as the user gave it (`scene.fbk:anim.json` for a bundle).
            if e.file.hasPrefix(path) { e.file = displayName + e.file.dropFirst(path.count) }
            throw CLIFailure(message: e.description, exitCode: 1)
        }
        let w = Double(animation.size.width), h = Double(animation.size.height)
        let frames = Self.frameCount(duration: animation.duration, fps: animation.framerate)
        let recording = RecordingSettings(width: w, height: h, scale: 1, fps: animation.framerate, start: 0,
                                          frames: 0...(frames - 1), background: nil)
        let folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        let d = SceneDescription(recording: recording, duration: animation.duration, format: nil,
                                 root: LayerDescription(name: "root"), timeline: [], baseDirectory: folder)
        return SceneInput(path: path, displayName: displayName, kind: kind, description: d, lottie: animation)
    }

    /// Frames covering `duration` seconds at `fps`: `⌈duration · fps⌉`, at least 1 — for a
    /// Lottie file at its own rate, `⌈op − ip⌉`. (A product a rounding error above an integer,
    /// `5.9666… s × 30`, counts as that integer.)
    static func frameCount(duration: Double, fps: Double) -> Int {
        let x = duration * fps
        guard x.isFinite else { return RecordingSettings.maximumFrames }
        let n = (x - 1e-9 * max(1, x)).rounded(.up)
        return Int(min(max(n, 1), Double(RecordingSettings.maximumFrames)))
    }

    /// Decodes a scene's images, so that a problem is found before anything is written (a
    /// Lottie file's images were read while parsing; one that cannot be drawn is a warning).
    func checkImages() throws(CLIFailure) {
        guard !isLottie else { return }
        do throws(SceneError) { _ = try SceneBuilder.loadImages(description, file: displayName) } catch {
            throw CLIFailure(message: error.description, exitCode: 1)
        }
    }

    /// The layer tree and its recorder factory for `settings` (the resolved recording). A
    /// Lottie file's tree is built at media time 0 on a run loop of its own, playing once from
    /// there (``LottieRendering``), fitted into `settings.width × settings.height` points; its
    /// ``LottieWarning``s are returned (the parser's and the mapping's, once each).
    func makeBuilder(settings: RecordingSettings) throws(CLIFailure) -> (builder: SceneBuilder, warnings: [LottieWarning]) {
        guard let lottie else {
            do throws(SceneError) { return (try SceneBuilder(description, file: displayName), []) } catch {
                throw CLIFailure(message: error.description, exitCode: 1)
            }
        }
        let loop = VirtualRunLoop(startTime: 0)
        let scene = loop.run {
            LottieRendering.scene(for: lottie, size: .fit(width: settings.width, height: settings.height), background: nil, logger: .silent)
        }
        var d = description
        d.recording = settings
        return (SceneBuilder(scene: d, root: scene.root, runLoop: loop, file: displayName), scene.animationLayer.warnings)
    }

    /// The image files a Lottie JSON document reads beside it (`u` + `p`, as written), each once,
    /// with where they were found and their bytes; nil bytes when not found. Embedded images are
    /// part of the file's own bytes, and a dotLottie's are inside the archive.
    var lottieImageFiles: [(path: String, resolved: String, data: Data?)] {
        guard let lottie, kind == .lottieJSON else { return [] }
        var out: [(String, String, Data?)] = []
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        for asset in lottie.composition.assets {
            guard case let .image(_, _, u, p, embedded, data) = asset.kind, !embedded else { continue }
            let file = u + p
            guard !out.contains(where: { $0.0 == file }) else { continue }
            // Remote images are never fetched (a warning says so): nothing on disk to hash or pack.
            if ["http:", "https:", "ftp:"].contains(where: { u.lowercased().hasPrefix($0) || p.lowercased().hasPrefix($0) }) { continue }
            let relative = String(file.drop(while: { $0 == "/" }))
            out.append((file, folder.appendingPathComponent(relative).path, data))
        }
        return out
    }

    /// The content hash (``SceneHash``) of the input with `background` (a Lottie file's
    /// `--background`; nil: transparent).
    func hash(background: BackgroundColor?) throws(CLIFailure) -> SceneHash {
        guard isLottie else { return try SceneHash.compute(scenePath: path, scene: description) }
        return try SceneHash.computeLottie(path: path, images: lottieImageFiles.map { ($0.path, $0.data) }, background: background)
    }

    /// The files `flipbook bundle` packs besides the input itself, by the path the input writes
    /// (relative to its folder) and where they are.
    var bundleFiles: [(path: String, resolved: String)] {
        if isLottie { return lottieImageFiles.filter { $0.data != nil }.map { (String($0.path.drop(while: { $0 == "/" })), $0.resolved) } }
        var files: [(path: String, resolved: String)] = []
        for i in SceneParser.images(in: description) where !files.contains(where: { $0.path == i.path }) { files.append((i.path, i.resolvedPath)) }
        for f in SceneParser.fontFiles(in: description) where !files.contains(where: { $0.path == f.path }) { files.append((f.path, f.resolvedPath)) }
        return files
    }
}
