import Testing
import Foundation
import Flipbook
import FlipbookPixels
import FlipbookRender
import FlipbookScene

/// The progress-ring sample (samples/scenes/progress-ring.json), checked frame by frame from its
/// pixels: in every one of its 60 frames the blue arc starts at 12 o'clock and ends where
/// `strokeEnd` puts it at that frame's time (0.85 × easeInEaseOut(t / 1.6), held at 0.85 after
/// 1.6 s by `fillMode: forwards`), plus the round cap's reach, within 1°.
@Suite struct ProgressRingSampleTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/scenes/progress-ring.json").path

    /// Whether the pixel at angle `degrees` (0 = 12 o'clock, clockwise on screen) on the ring's
    /// centre line (radius 90 about (160, 160)) is the arc's blue (the track is gray: b ≈ 58).
    static func isBlue(_ image: PixelBuffer, _ degrees: Double) -> Bool {
        let a = (degrees - 90) * .pi / 180
        let x = Int((160 + 90 * cos(a)).rounded(.down)), y = Int((160 + 90 * sin(a)).rounded(.down))
        let p = image[x, y]
        return p.b > 150 && p.r < 150
    }

    @Test func everyFrameEndsWhereStrokeEndSays() throws {
        let scene = try SceneParser.parse(contentsOf: Self.file, displayName: "progress-ring.json")
        let sink = MemoryFrameSink()
        _ = try SceneBuilder(scene).makeRecorder().record(to: sink, options: RecordingOptions(threads: 2))
        #expect(sink.frames.count == 60)
        let ease = CAMediaTimingFunction(name: .easeInEaseOut)
        // The round cap reaches lineWidth / 2 = 9 px past the end along the tangent: on the centre
        // line that is asin(9 / 90)... to first order 9 / 90 rad.
        let capDegrees = atan(9.0 / 90) * 180 / .pi
        for frame in sink.frames {
            let t = frame.time
            let end = 0.85 * Double(ease._solve(min(t / 1.6, 1)))
            // The blue run that starts at 12 o'clock, walked clockwise (the start cap also reaches
            // a few degrees back, before 0°).
            var measured = -1.0
            var d = 0.0
            while d < 350, Self.isBlue(frame.image, d) { measured = d; d += 0.25 }
            if end == 0 {
                #expect(measured < 0 && !Self.isBlue(frame.image, 180), "frame \(frame.index): nothing is stroked at strokeEnd 0")
                continue
            }
            #expect(Self.isBlue(frame.image, 0.5), "frame \(frame.index): the arc starts at 12 o'clock")
            #expect(abs(measured - (end * 360 + capDegrees)) <= 1,
                    "frame \(frame.index) t=\(t): arc ends at \(measured)°, expected \(end * 360 + capDegrees)°")
        }
    }
}
