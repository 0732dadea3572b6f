import Flipbook
import Foundation
import FlipbookRender

/// Turns a parsed ``SceneDescription`` into a live `CALayer` tree and a ``Recorder`` whose
/// timeline runs the scene's events.
///
///     let scene = try SceneParser.parse(contentsOf: "demo.json")
///     let builder = try SceneBuilder(scene)            // decodes every image first
///     let recorder = builder.makeRecorder()
///     try recorder.record(to: PNGSequenceSink(directory: "out"))
///
/// - **Images** (PNG or JPEG) are decoded (``loadImages(_:)``) before anything is built, so a corrupt or
///   unreadable image fails with a ``SceneError`` (kind `missingImage`, naming the resolved
///   path) before any frame renders.
/// - **The tree** is built at media time `min(0, start)` on a run loop of its own, inside one
///   transaction with actions disabled (building is not an animation): properties, then
///   `actions` (`null` → `NSNull()`), `style`, then the explicit `animations` (added in file
///   order; they begin when that transaction commits).
/// - **Timeline events** become ``Recorder/at(_:_:)`` closures, each one explicit
///   `CATransaction` (see `Builder/SceneBuilder+Timeline.swift`). Layers an event adds are built
///   when the event runs, so their animations begin then.
public final class SceneBuilder {
    public let scene: SceneDescription
    /// The run loop the tree belongs to.
    public let runLoop: VirtualRunLoop
    /// The root layer (named `root`).
    public private(set) var root: CALayer
    /// Decoded images by resolved path.
    let images: [String: CGImage]
    /// The scene file's name, for messages.
    let file: String
    /// Layers built so far, by name.
    var layersByName: [String: CALayer] = [:]
    /// Every named layer description in the scene (initial tree, masks, event additions).
    var descriptionsByName: [String: LayerDescription] = [:]

    /// Decodes the scene's images and builds its initial tree. `file` names the scene in
    /// error messages.
    public init(_ scene: SceneDescription, file: String = "scene") throws(SceneError) {
        self.scene = scene
        self.file = file
        self.setUp = nil
        images = try Self.loadImages(scene, file: file)
        runLoop = VirtualRunLoop(startTime: min(0, scene.recording.start))
        root = CALayer()
        collectDescriptions()
        let loop = runLoop
        root = loop.run {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            let r = self.makeLayer(scene.root)
            CATransaction.commit()
            return r
        }
    }

    /// A builder for a tree made elsewhere (a Lottie animation's host layer): `scene` gives the
    /// recording settings and timeline (its `root` description is not built), `root` is the
    /// tree, on `runLoop` (the root's). `setUp` runs at media time 0 when the recorder starts
    /// (e.g. to start playing); images are the tree's own business.
    public init(scene: SceneDescription, root: CALayer, runLoop: VirtualRunLoop, file: String = "scene",
                setUp: (() -> Void)? = nil) {
        self.scene = scene
        self.file = file
        self.images = [:]
        self.runLoop = runLoop
        self.root = root
        self.setUp = setUp
    }

    /// Run at time 0 by ``makeRecorder(settings:)`` (a tree made elsewhere).
    let setUp: (() -> Void)?

    /// The layer named `name`, if built.
    public func layer(named name: String) -> CALayer? { layersByName[name] }

    /// A recorder for this tree with the scene's output settings (or `settings`), every
    /// timeline event scheduled on it.
    public func makeRecorder(settings: RecordingSettings? = nil) -> Recorder {
        let recorder = Recorder(root: root, settings: settings ?? scene.recording)
        if let setUp { recorder.at(0, setUp) }
        for event in scene.timeline {
            let t = event.transaction
            recorder.at(event.time) { [self] in self.run(t) }
        }
        return recorder
    }

    /// The most decoded image pixels one scene may use (all its `contents` images together):
    /// 268,435,456 (1 GiB of RGBA) — checked from the PNG and JPEG headers before anything is decoded,
    /// so a scene of small files that decompress to huge images (a "decompression bomb") is
    /// refused with a message, not an allocation.
    public static let imagePixelBudget = 1 << 28

    /// Decodes every image the scene uses (``SceneParser/images(in:)``), keyed by resolved path:
    /// PNG or JPEG, told apart by the files' first bytes (`ImageDecoder`), whatever their names.
    public static func loadImages(_ scene: SceneDescription, file: String = "scene") throws(SceneError) -> [String: CGImage] {
        var out: [String: CGImage] = [:]
        var pixels = 0
        for image in SceneParser.images(in: scene) {
            do {
                let info = try ImageDecoder.info(contentsOf: image.resolvedPath)
                pixels += info.width * info.height
            } catch {
                throw SceneError(kind: .missingImage, file: file, line: image.line, path: image.jsonPath,
                                 message: "image \"\(image.path)\" (\(image.resolvedPath)) cannot be used: \(error.message)")
            }
            guard pixels <= imagePixelBudget else {
                throw SceneError(kind: .missingImage, file: file, line: image.line, path: image.jsonPath,
                                 message: "image \"\(image.path)\" brings the scene's images to \(pixels) pixels, above the budget of \(imagePixelBudget) (SceneBuilder.imagePixelBudget)")
            }
        }
        for image in SceneParser.images(in: scene) {
            do { out[image.resolvedPath] = try CGImage(contentsOfImageFile: image.resolvedPath) } catch {
                throw SceneError(kind: .missingImage, file: file, line: image.line, path: image.jsonPath,
                                 message: "image \"\(image.path)\" (\(image.resolvedPath)) cannot be used: \(error.message)")
            }
        }
        return out
    }

    private func collectDescriptions() {
        scene.forEachDescription(layer: { l in
            if let n = l.name, self.descriptionsByName[n] == nil { self.descriptionsByName[n] = l }
        })
    }
}
