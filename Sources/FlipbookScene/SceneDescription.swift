import FlipbookRender
/// A parsed, validated scene file: everything a recording needs, as plain `Sendable` values.
///
/// Produced by ``SceneParser``; nothing here refers to a live `CALayer`. The builder that
/// turns it into a layer tree walks ``root`` (whose ``LayerDescription/sublayers`` are the
/// file's top-level `layers`), then schedules ``timeline`` events on the recorder.
/// `docs/scene-format.md` documents the JSON.
public struct SceneDescription: Sendable, Equatable {
    /// What to record (`output` in the file): size, scale, fps, start, frames, background.
    /// The background is never `nil` here (a file that gives none gets opaque black).
    public var recording: RecordingSettings
    /// The duration in seconds when the file gave one (`nil` when it gave `frames`); a new
    /// frame rate on the command line keeps it, so the frame count follows.
    public var duration: Double?
    /// The default output format when the command line names none (`output.format`).
    public var format: OutputFormat?
    /// The root layer. Its name is `root`, its bounds are `(0, 0, width, height)` in points,
    /// its position is the centre of the output, its background is `recording.background`
    /// unless the file's `root` object sets one; the file's top-level `layers` are its
    /// sublayers.
    public var root: LayerDescription
    /// Events in file order (stable-sorted by ``EventDescription/time``).
    public var timeline: [EventDescription]
    /// The folder of the scene file (absolute); image paths were resolved against it.
    public var baseDirectory: String

    public init(recording: RecordingSettings, duration: Double? = nil, format: OutputFormat? = nil,
                root: LayerDescription, timeline: [EventDescription], baseDirectory: String) {
        self.recording = recording; self.duration = duration; self.format = format
        self.root = root; self.timeline = timeline; self.baseDirectory = baseDirectory
    }
}

/// The file formats a recording can be written in.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case png, y4m, mp4, mov, webm, gif, apng, webp, null
}
