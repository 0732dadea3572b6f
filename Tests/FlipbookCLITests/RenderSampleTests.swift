import Foundation
import Testing
import FlipbookPNG
@testable import FlipbookCLI
import FlipbookPixels
import FlipbookTestSupport

/// Every sample scene renders, and the seed scenarios' frames show what the seeds describe.
@Suite struct RenderSampleTests {
    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-render-")
    var tmp: String { folder.path }

    /// Renders `frames` of sample `name` (full size) and decodes them.
    func frames(_ name: String, _ frames: [Int]) throws -> [Int: PixelBuffer] {
        let out = "\(tmp)/\(name)"
        var out2: [Int: PixelBuffer] = [:]
        let r = try RenderRun.run([RenderRun.scene(name), "-o", out, "--frames", "0..\(frames.max()!)", "--quiet"])
        #expect(r.code == 0, "\(r.err)")
        for n in frames { out2[n] = try PNG.decode(contentsOf: String(format: "\(out)/frame_%05d.png", n)) }
        return out2
    }

    static let sampleScenes = ["push-transition", "disable-actions-removal", "suppressed-position", "explicit-duration", "wag",
                               "default-action-push", "pop-in", "fade-out-remove", "nested-transactions", "overshoot", "demo-w1",
                               "minimal", "implicit-move", "actions", "features", "demo", "progress-ring", "signature",
                               "marching-ants", "morphing-icon", "shimmer", "spinner", "cube", "corners", "confetti",
                               "title-card"]

    /// The list above is every scene file in samples/scenes (a new sample cannot be forgotten).
    @Test func theListCoversEverySampleScene() throws {
        let dir = URL(fileURLWithPath: RenderRun.scene("minimal")).deletingLastPathComponent().path
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(Self.sampleScenes))
    }

    @Test(arguments: sampleScenes)
    func everySampleSceneRenders(_ name: String) throws {
        let out = "\(tmp)/\(name)"
        let r = try RenderRun.run([RenderRun.scene(name), "-o", out, "--size", "64x36", "--frames", "0..1", "--quiet"])
        #expect(r.code == 0, "\(r.err)")
        #expect(RenderRun.files(out) == ["frame_00000.png", "frame_00001.png"])
    }

    /// Listing 6-1: 1 s push from the right starting at 0.25 s (ease-in). At frame 22
    /// (t = 0.733, linear fraction 0.483 → eased ≈ 0.29) the new contents entered from the right.
    @Test func pushFromTheRightMovesTheNewContentsInFromTheRight() throws {
        let f = try frames("push-transition", [5, 22, 44])
        let red = RGBA8(r: 220, g: 60, b: 60, a: 255), blue = RGBA8(r: 60, g: 90, b: 220, a: 255)
        #expect(f[5]?[40, 50] == red && f[5]?[140, 50] == red)
        #expect(f[22]?[40, 50] == red && f[22]?[140, 50] == blue)
        #expect(f[44]?[40, 50] == blue && f[44]?[140, 50] == blue)
    }

    /// defaultAction push from the LEFT, 0.25 s from 0.2 s: at the midpoint (0.325 s) the new
    /// contents cover the left half, the old ones the right half.
    @Test func pushFromTheLeftAtItsMidpointSplitsTheLayer() throws {
        // 0.325 s is not a frame at 30 fps; render at 40 fps, where frame 13 is 0.325 s.
        let out = "\(tmp)/mid"
        #expect(try RenderRun.run([RenderRun.scene("default-action-push"), "-o", out, "--fps", "40", "--frames", "13..13", "--quiet"]).code == 0)
        let f = try PNG.decode(contentsOf: "\(out)/frame_00013.png")
        let red = RGBA8(r: 220, g: 60, b: 60, a: 255), blue = RGBA8(r: 60, g: 90, b: 220, a: 255)
        // Layer spans x 16…144; the seam is at 80. New contents (blue) on the left.
        #expect(f[40, 50] == blue && f[76, 50] == blue)
        // The old contents start at the seam: their white stripe (8 of 64 texels = 16 points) at 80…96, then red.
        #expect(f[82, 50] == .white && f[94, 50] == .white && f[98, 50] == red && f[140, 50] == red)
        // The new contents' left part (with its yellow stripe) is still outside, clipped.
        #expect(f[17, 50] == blue)
    }

    /// NSNull for position: the red layer jumps, the blue one is still on its way.
    @Test func suppressedPositionJumps() throws {
        let f = try frames("suppressed-position", [6, 12])[12]!        // t = 0.4: 0.2 s into a 0.5 s move
        #expect(f[225, 90].r > 200 && f[225, 90].b < 200)              // red (half opaque) at the destination
        #expect(f[225, 30] == .white && f[30, 30] == .white)           // blue neither home nor arrived…
        // …but on its way: 0.4 of the move (the transaction sets no timing function: linear), so
        // its centre is at 30 + 180 · 0.4 = 102 (x 82…122).
        let blue = RGBA8(r: 0x33, g: 0x66, b: 0xcc, a: 255)
        #expect(f[84, 30] == blue && f[120, 30] == blue && f[79, 30] == .white && f[125, 30] == .white)
    }

    /// 5 s action vs 1 s transaction (linear): at t = 2 the blue one arrived, the red one is 2/5 along.
    @Test func explicitDurationRunsFiveSeconds() throws {
        let f = try frames("explicit-duration", [20])[20]!
        #expect(f[280, 90] == RGBA8(r: 0x33, g: 0x66, b: 0xcc, a: 255))   // blue arrived (x 260…300)
        // Red (#cc3333) spans 104…144 at 2 s: its centre goes 20 → 280 over 5 s, linear (124).
        // Checked as red inside both edges and white just outside them: a layer already at the
        // end (the bug this caught) or still at the start fails both.
        let red = RGBA8(r: 0xcc, g: 0x33, b: 0x33, a: 255)
        #expect(f[106, 30] == red && f[142, 30] == red)
        #expect(f[102, 30] == .white && f[146, 30] == .white && f[262, 30] == .white)
    }

    /// The seed's curve (0.65, −0.55, 0.27, 1.55) on the 125 → 60 pt button (from t = 0.1, 1 s):
    /// y(0.2) ≈ −0.092 → 131 pt wide (left edge 84.5); y(0.667) ≈ 1.092 → 54 pt (left edge 123);
    /// settled at 60 pt (left edge 120). Checked along the centre row y = 100.
    @Test func overshootGrowsThenShrinksPastTheEnd() throws {
        let f = try frames("overshoot", [9, 26, 44])
        #expect(f[9]![85, 100] != .white)                                  // wider than 125 (edge 87.5)
        #expect(f[26]![121, 100] == .white && f[26]![124, 100] != .white)   // narrower than 60 (edge 120)
        #expect(f[44]![121, 100] != .white && f[44]![118, 100] == .white)   // settled at 60
    }

    /// byebye: fades and shrinks over 0.2 s from 0.3 s, then the completion block removes it.
    @Test func fadeOutThenRemoved() throws {
        let f = try frames("fade-out-remove", [6, 12, 20])
        #expect(f[6]![50, 50].g < 100)
        #expect(f[12]![50, 50] == .white && f[12]![80, 80] != RGBA8(r: 204, g: 51, b: 51, a: 255))
        #expect(f[20]![80, 80] == .white)
    }

    /// pop-in: added at 0.3 s, scaled 1.1× at 0.4 s (the square reaches beyond its frame).
    @Test func popInScalesPastItsFrame() throws {
        let f = try frames("pop-in", [8, 12, 25])
        #expect(f[8]![80, 80] == .white)
        #expect(f[12]![37, 80] != .white)                                      // frame starts at 40
        #expect(f[25]![37, 80] == .white && f[25]![80, 80] != .white)
    }

    /// The spinner: 12 instances of one dot, 30° apart, each fading 1 → 0.15 over 1 s a twelfth
    /// of a second after the previous one: at frame 30 (t = 1) the dot at 12 o'clock is the
    /// brightest and the brightness falls clockwise; at frame 45 (t = 1.5) the head is at
    /// 6 o'clock. Sampled at the dots' centres (radius 64 around (120, 120)), blue channel.
    @Test func spinnerHeadTurnsClockwise() throws {
        let f = try frames("spinner", [30, 45])
        func dots(_ img: PixelBuffer) -> [UInt8] {
            (0..<12).map { j in
                let a = Double(j) * .pi / 6
                return img[Int(120 + 64 * sin(a)), Int(120 - 64 * cos(a))].b
            }
        }
        let a = dots(try #require(f[30])), b = dots(try #require(f[45]))
        #expect(a.firstIndex(of: a.max()!) == 0 && b.firstIndex(of: b.max()!) == 6, "\(a) \(b)")
        #expect(a[1] < a[11] && a[11] < a[0])          // just behind the head: dim; the trail fades
        #expect(a[0] == 255 && a[1] < 100)
    }

    /// The cube (a CATransformLayer of six faces, seen from above through a perspective)
    /// turns about y: at frames 0, 30, 60 (0°, 90°, 180°) the face at the centre is the red
    /// front, the yellow left, the green back; the purple top is seen above it throughout.
    @Test func cubeTurnsItsFacesToTheViewer() throws {
        let f = try frames("cube", [0, 30, 60])
        let center = [0: RGBA8(r: 229, g: 72, b: 63, a: 255), 30: RGBA8(r: 242, g: 200, b: 58, a: 255),
                      60: RGBA8(r: 63, g: 191, b: 90, a: 255)]
        for (n, c) in center {
            let img = try #require(f[n])
            #expect(img[160, 130] == c, "frame \(n): \(img[160, 130])")
            #expect(img[160, 88] == RGBA8(r: 178, g: 79, b: 209, a: 255), "frame \(n) top")
        }
    }

    /// Circular against continuous corners at frame 30 (radius 56): along the top border row
    /// the circular corner's border has reached 46 px from the corner while the continuous one
    /// (leaving the edge 1.53·56 = 86 px before the corner) is still curving away from it.
    @Test func continuousCornersEaseIn() throws {
        let f = try #require(try frames("corners", [30])[30])
        #expect(f[40 + 46, 51].r < 60 && f[260 + 46, 51].r > 150, "\(f[40 + 46, 51]) \(f[260 + 46, 51])")
        #expect(f[40 + 90, 51] == f[260 + 90, 51])     // the straight middle of the top edge: alike
    }

    /// Confetti: at frame 15 (t = 0.5 s) the pieces are still near the top (fastest: 130
    /// points/s down from y = −10, plus ½·60·0.25), by frame 60 they reach the bottom; and frame
    /// 60 rendered on its own is byte for byte the one of the full render (particles are a
    /// function of time).
    @Test func confettiFallsAndFrameSixtyAloneMatches() throws {
        let f = try frames("confetti", [15, 60])
        func coloured(_ img: PixelBuffer, rows: Range<Int>) -> Int {
            var n = 0
            for y in rows { for x in 0..<img.width where img[x, y] != RGBA8(r: 0x14, g: 0x16, b: 0x1d, a: 255) { n += 1 } }
            return n
        }
        let a = try #require(f[15]), b = try #require(f[60])
        #expect(coloured(a, rows: 0..<60) > 100 && coloured(a, rows: 80..<320) == 0)
        #expect(coloured(b, rows: 240..<320) > 100)
        let out = "\(tmp)/alone"
        let r = try RenderRun.run([RenderRun.scene("confetti"), "-o", out, "--frames", "60..60", "--quiet"])
        #expect(r.code == 0)
        #expect(try PNG.decode(contentsOf: "\(out)/frame_00060.png") == b)
    }

    /// The title card: the title grows from 36 to 64 pt over 0.8 s (ease-out) while fading in,
    /// the subtitle's colour goes from the background to blue from 0.4 s; the paragraph is
    /// wrapped, justified and truncated with an ellipsis; the last line mixes Arabic,
    /// Devanagari and Latin.
    @Test func titleCardGrowsAndFadesIn() throws {
        let f = try frames("title-card", [0, 8, 45])
        // Title ink (white-ish) inside its frame (y 70…150): its height grows with the font size.
        /// Rows with ink and the ink's horizontal extent.
        func inkRows(_ img: PixelBuffer, _ y0: Int, _ y1: Int, _ bright: (RGBA8) -> Bool) -> (rows: Int, cols: Int) {
            var rows = Set<Int>(), lo = Int.max, hi = Int.min
            for y in y0..<y1 { for x in 0..<640 where bright(img[x, y]) { rows.insert(y); lo = min(lo, x); hi = max(hi, x) } }
            return (rows.count, rows.isEmpty ? 0 : hi - lo + 1)
        }
        let white: (RGBA8) -> Bool = { $0.r > 110 && $0.g > 110 && $0.b > 110 }
        let t0 = inkRows(try #require(f[0]), 70, 150, white), t8 = inkRows(try #require(f[8]), 70, 150, white)
        let t45 = inkRows(try #require(f[45]), 70, 150, white)
        #expect(t0.rows == 0)                                   // opacity 0 at the start
        #expect(t45.rows > 55 && t45.cols > 250)                // "Flipbook" at 64 pt: ascender to descender ≈ 60, ~270 px wide
        #expect(t8.cols > 100 && t8.cols < t45.cols - 30)       // smaller while it grows
        #expect(t8.rows < t45.rows - 8)
        // Subtitle: blue (#8fb3ff) at the end of its animation, not at the start.
        let blue: (RGBA8) -> Bool = { $0.b > 200 && $0.r < 170 && $0.r > 100 }
        #expect(inkRows(try #require(f[0]), 150, 180, blue).cols == 0)
        #expect(inkRows(try #require(f[45]), 150, 180, blue).cols > 200)
        // The paragraph (card at y 200…296) ends in an ellipsis: its last line has ink but the
        // area below the fourth line has none.
        let light: (RGBA8) -> Bool = { $0.r > 150 }
        #expect(inkRows(try #require(f[45]), 212, 284, light).rows > 30)
        #expect(inkRows(try #require(f[45]), 286, 296, light).rows == 0)
    }

    /// The shimmer's highlight (the middle gradient stop, `locations` −0.15 → 1.15 over 1.2 s,
    /// linear) crosses the long placeholder bar at row 155 where the axial gradient (from (0, 72)
    /// to (400, 108) in the card) puts it: x = 107, 238, 369 at frames 9, 18, 27; the card
    /// between the bars shows no highlight (the mask).
    @Test func shimmerHighlightSweepsAcrossTheBars() throws {
        let f = try frames("shimmer", [9, 18, 27])
        for (n, expected) in [(9, 107), (18, 238), (27, 369)] {
            let img = try #require(f[n])
            let brightest = (64..<416).max { img[$0, 155].r < img[$1, 155].r }!
            #expect(abs(brightest - expected) <= 3, "frame \(n): \(brightest)")
            #expect(img[brightest, 155].r > 0x40)                        // the highlight colour #48505d
            #expect(img[brightest, 143] == img[60, 143])                  // between two bars: the plain card
        }
    }
}

@Suite struct SceneInfoTests {
    @Test func infoDescribesASceneFile() throws {
        let lines = try InfoCommand.execute(path: RenderRun.scene("demo-w1")).get()
        #expect(lines.contains("size: 1920×1080 points × 1 = 1920×1080 pixels"))
        #expect(lines.contains("duration: 2 s (frames 0..59, 60 frames)"))
        #expect(lines.contains("layers: 65") && lines.contains("images: 4"))
        guard case .failure(let f) = InfoCommand.execute(path: "/nonexistent/x.json") else { Issue.record("no failure"); return }
        #expect(f.message.contains("no such file"))
    }
}
