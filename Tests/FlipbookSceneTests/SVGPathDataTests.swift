import Testing
import Foundation
import Flipbook
@testable import FlipbookScene
import FlipbookGraphics

/// SVG path data → CGPath: every command, implicit repetition, compact numbers, arcs, errors.
@Suite struct SVGPathDataTests {
    func elements(_ d: String) throws -> [_PathElement] { try SVGPathData.path(from: d).elements }
    func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    @Test func linesAbsoluteRelativeAndImplicit() throws {
        #expect(try elements("M10 10 L20 10 l0 5 H0 h3 V1 v-1 Z") == [
            .moveToPoint(p(10, 10)), .addLineToPoint(p(20, 10)), .addLineToPoint(p(20, 15)),
            .addLineToPoint(p(0, 15)), .addLineToPoint(p(3, 15)), .addLineToPoint(p(3, 1)),
            .addLineToPoint(p(3, 0)), .closeSubpath,
        ])
        // Pairs after a moveto are linetos (relative after m); after Z a relative command starts at the subpath start.
        #expect(try elements("m1 2 3 4 5 6 z l1 1") == [
            .moveToPoint(p(1, 2)), .addLineToPoint(p(4, 6)), .addLineToPoint(p(9, 12)), .closeSubpath,
            .addLineToPoint(p(2, 3)),
        ])
    }

    @Test func compactNumbers() throws {
        #expect(try elements("M1.5.5-2e1,3E-1L-.5-1e+1") == [
            .moveToPoint(p(1.5, 0.5)), .addLineToPoint(p(-20, 0.3)), .addLineToPoint(p(-0.5, -10)),
        ])
    }

    @Test func curvesAndSmoothReflections() throws {
        #expect(try elements("M0 0 C1 2 3 4 5 6 S9 10 11 12 Q1 1 2 2 T4 4 c1 1 2 2 3 3") == [
            .moveToPoint(p(0, 0)),
            .addCurveToPoint(control1: p(1, 2), control2: p(3, 4), to: p(5, 6)),
            .addCurveToPoint(control1: p(7, 8), control2: p(9, 10), to: p(11, 12)),  // reflected (3,4) about (5,6)
            .addQuadCurveToPoint(control: p(1, 1), to: p(2, 2)),
            .addQuadCurveToPoint(control: p(3, 3), to: p(4, 4)),                      // reflected (1,1) about (2,2)
            .addCurveToPoint(control1: p(5, 5), control2: p(6, 6), to: p(7, 7)),
        ])
        // S after a non-cubic uses the current point as its first control.
        #expect(try elements("M1 1 L2 2 S3 3 4 4")[2] == .addCurveToPoint(control1: p(2, 2), control2: p(3, 3), to: p(4, 4)))
    }

    @Test func arcsBecomeQuarterCubicsOnTheEllipse() throws {
        // A half circle of radius 10 from (0,0) to (20,0), sweep 1 (positive angle, y down: through (10,10)).
        let path = try SVGPathData.path(from: "M0 0 A10 10 0 0 1 20 0")
        let e = path.elements
        #expect(e.count == 3)
        guard case let .addCurveToPoint(_, _, mid) = e[1], case let .addCurveToPoint(_, _, end) = e[2] else {
            Issue.record("expected two cubics, got \(e)"); return
        }
        #expect(abs(mid.x - 10) < 1e-9 && abs(mid.y + 10) < 1e-9)   // sweep 1 in y-down space: through (10, −10)
        #expect(end == p(20, 0))
        // Every flattened point lies on the circle within the cubic approximation's error (0.027 %).
        for q in path._flattened(tolerance: 0.001).flatMap({ $0 }) {
            #expect(abs(hypot(q.x - 10, q.y) - 10) < 10 * 0.0003)
        }
        // Flags written without separators; radii too small are scaled up (a half circle again).
        #expect(try elements("M0 0a1 1 0 0020 0").count == 3)
        // Zero radius: a line; same end point: nothing.
        #expect(try elements("M0 0 A0 5 0 0 1 3 4") == [.moveToPoint(p(0, 0)), .addLineToPoint(p(3, 4))])
        #expect(try elements("M3 3 A5 5 0 0 1 3 3") == [.moveToPoint(p(3, 3))])
    }

    @Test func sweepFlagPicksTheSide() throws {
        // From (0,0) to (20,0) with r = 10: sweep 1 passes through y = -10 or +10; sweep 0 the other.
        func midY(_ d: String) throws -> CGFloat {
            guard case let .addCurveToPoint(_, _, m) = try elements(d)[1] else { return .nan }
            return m.y
        }
        let a = try midY("M0 0 A10 10 0 0 1 20 0"), b = try midY("M0 0 A10 10 0 0 0 20 0")
        #expect(abs(a) > 9.99 && abs(b) > 9.99 && a == -b)
        // SVG: sweep-flag 1 is the positive-angle direction; in y-down coordinates, from (0,0) to
        // (20,0) about (10,0) that goes through (10,-10).
        #expect(a < 0)
    }

    @Test func errorsNameTheOffset() {
        func error(_ d: String) -> SVGPathDataError? {
            do { _ = try SVGPathData.path(from: d); return nil } catch { return error }
        }
        #expect(error("") == SVGPathDataError(offset: 0, message: "empty path data"))
        #expect(error("L1 1")?.offset == 0)
        #expect(error("M1 1 L2")?.message == "expected lineto y (a number), found the end")
        #expect(error("M1 1 X3 3")?.offset == 5)
        #expect(error("M0 0 A1 1 0 2 0 3 3")?.message == "expected an arc flag (0 or 1)")
        #expect(error("M1 1 L2 2 Z 3 3")?.offset == 12)
        #expect(error("M1e999 0")?.message == "number 1e999 is out of range")
    }

    @Test func sceneKeyframePathAcceptsSVGData() throws {
        func scene(_ path: String) -> String {
            """
            {"output": {"size": "64x64", "duration": 1},
             "layers": [{"name": "a", "frame": [0, 0, 4, 4],
                         "animations": [{"class": "keyframe", "keyPath": "position", "duration": 1, "path": \(path)}]}]}
            """
        }
        let s = try SceneParser.parse(scene("\"M0 0 C 10 0 20 10 30 30\""))
        guard case let .keyframe(k)? = s.root.sublayers.first?.animations.first?.kind else {
            Issue.record("no keyframe animation parsed"); return
        }
        #expect(k.path?.elements == [.moveToPoint(.zero), .addCurveToPoint(control1: CGPoint(x: 10, y: 0), control2: CGPoint(x: 20, y: 10), to: CGPoint(x: 30, y: 30))])
        // A bad string is a scene error naming the JSON path and the character.
        #expect { try SceneParser.parse(scene("\"M0 0 Q1\"")) } throws: { error in
            guard let e = error as? SceneError else { return false }
            return e.kind == .invalid && e.path.hasSuffix("animations[0].path")
                && e.message == "SVG path data, character 8: expected quadratic control y (a number), found the end"
        }
    }
}
