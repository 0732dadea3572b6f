/// A parsed, validated scene file: everything a recording needs, as plain `Sendable` values.
///
/// Produced by ``SceneParser``; nothing here refers to a live `CALayer`. The builder that
/// turns it into a layer tree walks ``root`` (whose ``LayerDescription/sublayers`` are the
/// file's top-level `layers`), then schedules ``timeline`` events on the recorder.
/// `docs/scene-format.md` documents the JSON.
public struct SceneDescription: Sendable, Equatable {
    /// Output settings (`output` in the file).
    public var output: OutputSettings
    /// The root layer. Its name is `root`, its bounds are `(0, 0, width, height)` in points,
    /// its position is the centre of the output, its background is `output.background`
    /// unless the file's `root` object sets one; the file's top-level `layers` are its
    /// sublayers.
    public var root: LayerDescription
    /// Events in file order (stable-sorted by ``EventDescription/time``).
    public var timeline: [EventDescription]
    /// The folder of the scene file (absolute); image paths were resolved against it.
    public var baseDirectory: String

    public init(output: OutputSettings, root: LayerDescription, timeline: [EventDescription], baseDirectory: String) {
        self.output = output; self.root = root; self.timeline = timeline; self.baseDirectory = baseDirectory
    }
}

/// The recording's output settings.
public struct OutputSettings: Sendable, Equatable {
    /// Size in points.
    public var width: Double
    public var height: Double
    /// Device pixels per point (frames are `round(width × scale)` × `round(height × scale)`).
    public var scale: Double
    /// Frames per second (> 0).
    public var fps: Double
    /// The time of frame 0, in seconds (default 0). Frame n is at `start + n / fps`.
    public var start: Double
    /// The frames to render, inclusive (from `frames`, or `0 ... round(duration × fps) − 1`).
    public var frames: ClosedRange<Int>
    /// The duration in seconds when the file gave one (`nil` when it gave `frames`).
    public var duration: Double?
    /// Background colour (straight sRGB components 0…1), default opaque black.
    public var background: CGColor
    /// The default output format when the command line names none.
    public var format: OutputFormat?

    public init(width: Double, height: Double, scale: Double = 1, fps: Double = 30, start: Double = 0,
                frames: ClosedRange<Int>, duration: Double? = nil, background: CGColor = .black,
                format: OutputFormat? = nil) {
        self.width = width; self.height = height; self.scale = scale; self.fps = fps; self.start = start
        self.frames = frames; self.duration = duration; self.background = background; self.format = format
    }

    /// Frame width in device pixels: `Int((width × scale).rounded())`.
    public var pixelWidth: Int { Int((width * scale).rounded()) }
    /// Frame height in device pixels: `Int((height × scale).rounded())`.
    public var pixelHeight: Int { Int((height * scale).rounded()) }
    /// Number of frames rendered.
    public var frameCount: Int { frames.count }
}

/// The file formats a recording can be written in.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case png, y4m, mp4, webm, null
}
