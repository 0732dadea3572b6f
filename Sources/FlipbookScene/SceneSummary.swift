/// What `flipbook info SCENE.json` prints: the facts of a scene without rendering it.
public struct SceneSummary: Sendable, Equatable, CustomStringConvertible {
    /// Size in points and scale; ``pixelWidth`` × ``pixelHeight`` is the frame size.
    public var width: Double, height: Double, scale: Double
    public var pixelWidth: Int, pixelHeight: Int
    public var fps: Double
    /// Seconds covered by the rendered frames: `frameCount / fps`.
    public var duration: Double
    public var frames: ClosedRange<Int>
    public var frameCount: Int
    /// Layers in the scene: the root, every layer of the initial tree (masks included) and
    /// every layer added by timeline events.
    public var layerCount: Int
    public var animationCount: Int
    public var eventCount: Int
    /// Every image used, each once (absolute paths), in first-use order.
    public var images: [String]
    public var format: OutputFormat?

    public init(_ scene: SceneDescription) {
        let o = scene.recording
        width = o.width; height = o.height; scale = o.scale
        pixelWidth = o.pixelWidth; pixelHeight = o.pixelHeight
        fps = o.fps; frames = o.frames; frameCount = o.frames.count
        duration = Double(o.frames.count) / o.fps
        format = scene.format
        eventCount = scene.timeline.count
        images = SceneParser.images(in: scene).map(\.resolvedPath)
        var layers = 0, animations = 0
        scene.forEachDescription(layer: { l in
            layers += 1
            animations += l.animations.count
        }, step: { s in
            if case .addAnimation = s { animations += 1 }
        })
        layerCount = layers; animationCount = animations
    }

    /// Several lines, `key: value`, for the terminal:
    ///
    ///     size: 640×360 points × 2 = 1280×720 pixels
    ///     fps: 30
    ///     duration: 2 s (frames 0..59, 60 frames)
    ///     layers: 5
    ///     animations: 2
    ///     events: 3
    ///     images: 1
    ///       /abs/path/logo.png
    public var description: String {
        func f(_ v: Double) -> String { _SceneNode.format(v) }
        var lines = [
            "size: \(f(width))×\(f(height)) points × \(f(scale)) = \(pixelWidth)×\(pixelHeight) pixels",
            "fps: \(f(fps))",
            "duration: \(f(duration)) s (frames \(frames.lowerBound)..\(frames.upperBound), \(frameCount) frames)",
            "layers: \(layerCount)",
            "animations: \(animationCount)",
            "events: \(eventCount)",
            "images: \(images.count)",
        ]
        lines += images.map { "  \($0)" }
        if let format { lines.append("format: \(format.rawValue)") }
        return lines.joined(separator: "\n")
    }
}
