import FlipbookPixels
import FlipbookRender
/// The `output` object.
extension SceneParser {
    static func output(_ n: _SceneNode) throws(SceneError) -> (recording: RecordingSettings, duration: Double?, format: OutputFormat?) {
        let o = try n.object(allowed: ["size", "scale", "fps", "duration", "frames", "start", "background", "format"])
        let sizeNode = try o.required("size", "the size in points, \"WxH\" or [width, height]")
        let (w, h) = try size(points: sizeNode)
        let scale = try o["scale"]?.number() ?? 1
        if let s = o["scale"], !(scale > 0 && scale <= 16) { throw s.fail("expected a scale between 0 (exclusive) and 16, got \(_SceneNode.format(scale))") }
        let limit = PixelBuffer.maximumDimension
        // Checked in floating point before any conversion to Int ("1e19x2", [1e308, 1e308]).
        let (pwD, phD) = ((w * scale).rounded(), (h * scale).rounded())
        guard pwD.isFinite, phD.isFinite, pwD <= Double(limit), phD <= Double(limit) else {
            throw (o["scale"] ?? sizeNode).fail("the frame would be \(_SceneNode.format(pwD))×\(_SceneNode.format(phD)) pixels (size × scale), above the limit of \(limit)×\(limit)")
        }
        let (pw, ph) = (Int(pwD), Int(phD))
        guard pw >= 1, ph >= 1 else {
            throw sizeNode.fail("the frame would be \(pw)×\(ph) pixels (size × scale); it must be at least 1×1")
        }
        guard pw <= limit, ph <= limit else {
            throw (o["scale"] ?? sizeNode).fail("the frame would be \(pw)×\(ph) pixels (size × scale), above the limit of \(limit)×\(limit)")
        }
        let fps = try o["fps"]?.number() ?? 30
        if let f = o["fps"], !(fps > 0 && fps <= 1000) { throw f.fail("expected frames per second between 0 (exclusive) and 1000, got \(_SceneNode.format(fps))") }
        let start = try o["start"]?.number() ?? 0

        let frames: ClosedRange<Int>
        var duration: Double?
        switch (o["duration"], o["frames"]) {
        case (nil, nil):
            throw n.fail("missing \"duration\" (seconds) or \"frames\" (e.g. \"0..59\")")
        case (.some, .some):
            throw o["frames"]!.fail("give either \"duration\" or \"frames\", not both")
        case let (d?, nil):
            let seconds = try d.number()
            let count = (seconds * fps).rounded()
            guard seconds > 0, count >= 1 else { throw d.fail("expected a duration of at least one frame (1/fps s), got \(_SceneNode.format(seconds))") }
            guard count <= Double(RecordingSettings.maximumFrames) else { throw d.fail("the recording would have \(_SceneNode.format(count)) frames; the limit is \(RecordingSettings.maximumFrames)") }
            duration = seconds
            frames = 0...(Int(count) - 1)
        case let (nil, f?):
            frames = try frameRange(f)
        }
        let background = try o["background"].map { b throws(SceneError) in try color(b, allowsNull: false)! } ?? .black
        let format = try o["format"].map { f throws(SceneError) in
            OutputFormat(rawValue: try f.choice(OutputFormat.allCases.map(\.rawValue), "format"))!
        }
        let recording = RecordingSettings(width: w, height: h, scale: scale, fps: fps, start: start,
                                          frames: frames, background: background)
        return (recording, duration, format)
    }

    /// `"WxH"` or `[width, height]`, positive and finite.
    static func size(points n: _SceneNode) throws(SceneError) -> (Double, Double) {
        let expectation = "a size \"WxH\" or [width, height] in points"
        var wh: [Double]
        switch n.json.value {
        case let .string(s):
            let parts = s.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
                throw n.fail("expected \(expectation), got \"\(s)\"")
            }
            wh = [w, h]
        case .array:
            wh = try n.numbers(count: 2, expectation)
        default:
            throw n.expected(expectation)
        }
        guard wh.allSatisfy({ $0.isFinite && $0 > 0 }) else {
            throw n.fail("expected a positive size, got \(_SceneNode.format(wh[0]))×\(_SceneNode.format(wh[1]))")
        }
        return (wh[0], wh[1])
    }

    /// `"A..B"` or `[A, B]`, inclusive, `0 <= A <= B`.
    static func frameRange(_ n: _SceneNode) throws(SceneError) -> ClosedRange<Int> {
        var ab: [Int] = []
        switch n.json.value {
        case let .string(s):
            let parts = s.components(separatedBy: "..")
            guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
                throw n.fail("expected a frame range \"A..B\", got \"\(s)\"")
            }
            ab = [a, b]
        case let .array(items):
            guard items.count == 2 else { throw n.fail("expected a frame range [first, last], got \(items.count) elements") }
            ab = [try n.element(0, items[0]).integer(), try n.element(1, items[1]).integer()]
        default:
            throw n.expected("a frame range \"A..B\" or [first, last]")
        }
        guard ab[0] >= 0, ab[1] >= ab[0], ab[1] < RecordingSettings.maximumFrames else {
            throw n.fail("expected 0 <= first <= last < \(RecordingSettings.maximumFrames), got \(ab[0])..\(ab[1])")
        }
        return ab[0]...ab[1]
    }
}
