import Flipbook
import FlipbookPixels
import FlipbookRaster

/// What a ``Recorder`` produces: the frame size, rate, time axis, frame range and background.
///
/// Time axis: frame `n` shows the layer tree at media time `start + n / fps` (computed from `n`
/// each time, never accumulated, so frame 1000 is not off by 1000 rounding errors). The frame
/// size in device pixels is `round(width × scale) × round(height × scale)`.
public struct RecordingSettings: Sendable, Equatable {
    /// Size in points.
    public var width: Double
    public var height: Double
    /// Device pixels per point.
    public var scale: Double
    /// Frames per second (finite, > 0).
    public var fps: Double
    /// The media time of frame 0, in seconds.
    public var start: Double
    /// The frames to render, inclusive (absolute indices: frame `n` is always at `start + n / fps`).
    public var frames: ClosedRange<Int>
    /// What each frame is filled with before compositing (straight sRGB); `nil` = transparent.
    public var background: CGColor?

    public init(width: Double, height: Double, scale: Double = 1, fps: Double = 30, start: Double = 0,
                frames: ClosedRange<Int>, background: CGColor? = .black) {
        self.width = width; self.height = height; self.scale = scale; self.fps = fps
        self.start = start; self.frames = frames; self.background = background
    }

    /// Frames `0 … round(duration × fps) − 1` (at least frame 0).
    public init(width: Double, height: Double, scale: Double = 1, fps: Double = 30, start: Double = 0,
                duration: Double, background: CGColor? = .black) {
        let count = max(1, Int((duration * fps).rounded()))
        self.init(width: width, height: height, scale: scale, fps: fps, start: start,
                  frames: 0...(count - 1), background: background)
    }

    /// Frame width in device pixels: `Int((width × scale).rounded())`.
    /// The most frames one recording may have (scene files and the command line alike).
    public static let maximumFrames = 10_000_000

    /// `width × scale` rounded; total: a size too large or not finite gives a value above
    /// `PixelBuffer.maximumDimension` (1,000,000,000) or 0, never a trap.
    public var pixelWidth: Int { Self._pixels(width * scale) }
    /// Frame height in device pixels: `Int((height × scale).rounded())`.
    public var pixelHeight: Int { Self._pixels(height * scale) }

    static func _pixels(_ v: Double) -> Int {
        let r = v.rounded()
        guard r.isFinite else { return r > 0 ? 1_000_000_000 : 0 }
        return r > 1e9 ? 1_000_000_000 : (r < 0 ? 0 : Int(r))
    }

    /// The media time of frame `n`: `start + n / fps`.
    @inlinable public func time(ofFrame n: Int) -> Double { start + Double(n) / fps }

    /// The background as a premultiplied pixel (`a = round(α·255)`, `c = premultiply(round(c·255), a)`,
    /// components clamped to 0…1), or transparent.
    public var backgroundPixel: RGBA8 {
        guard let c = background else { return .transparent }
        return RGBA8(packed: PixelMath.premultipliedColor(r: Double(c.red), g: Double(c.green),
                                                           b: Double(c.blue), a: Double(c.alpha)))
    }

    /// Checks the settings; the message names the bad value.
    func validate() throws(RecorderError) {
        func bad(_ m: String) -> RecorderError { .invalidSettings(m) }
        guard fps.isFinite, fps > 0 else { throw bad("fps must be finite and greater than 0, got \(fps)") }
        guard scale.isFinite, scale > 0 else { throw bad("scale must be finite and greater than 0, got \(scale)") }
        guard start.isFinite else { throw bad("start must be finite, got \(start)") }
        guard width.isFinite, height.isFinite else { throw bad("size must be finite") }
        let (w, h) = (pixelWidth, pixelHeight), m = PixelBuffer.maximumDimension
        guard (1...m).contains(w), (1...m).contains(h) else {
            throw bad("frame size \(w)×\(h) pixels is outside 1…\(m) on a side")
        }
        guard frames.lowerBound >= 0 else { throw bad("frame indices start at 0, got \(frames.lowerBound)") }
    }
}
