import Testing
import Foundation
import Flipbook
@testable import FlipbookScene
import FlipbookGraphics

/// Shape layers in scene files: the class key, every shape property, path syntaxes, errors, and
/// what the builder makes of them.
@Suite struct SceneShapeTests {
    func scene(_ layer: String, timeline: String = "[]") -> String {
        """
        {"output": {"size": "64x64", "duration": 1}, "layers": [\(layer)], "timeline": \(timeline)}
        """
    }

    func error(_ text: String) -> SceneError? {
        do { _ = try SceneParser.parse(text); return nil } catch { return error }
    }

    @Test func everyShapePropertyParsesAndBuilds() throws {
        let s = try SceneParser.parse(scene("""
        {"name": "s", "class": "shape", "frame": [0, 0, 40, 40], "path": {"roundedRect": [2, 2, 36, 36], "cornerRadius": 6},
         "fillColor": "#ff000080", "fillRule": "evenOdd", "strokeColor": "white", "lineWidth": 3, "miterLimit": 4,
         "lineCap": "round", "lineJoin": "bevel", "lineDashPattern": [4, 2], "lineDashPhase": 1.5,
         "strokeStart": 0.25, "strokeEnd": 0.75}
        """))
        let d = try #require(s.root.sublayers.first)
        #expect(d.layerClass == .shape)
        #expect(d.path??.elements == CGPath(roundedRect: CGRect(x: 2, y: 2, width: 36, height: 36), cornerWidth: 6, cornerHeight: 6, transform: nil).elements)
        #expect(d.fillRule == .evenOdd && d.lineCap == .round && d.lineJoin == .bevel)
        #expect(d.lineDashPattern == .some([4, 2]) && d.lineDashPhase == 1.5 && d.strokeStart == 0.25 && d.strokeEnd == 0.75)

        let built = try SceneBuilder(s)
        let layer = try #require(built.layer(named: "s") as? CAShapeLayer)
        #expect(layer.path == d.path!)
        #expect(layer.fillColor == CGColor(srgbRed: 1, green: 0, blue: 0, alpha: 128.0 / 255))
        #expect(layer.strokeColor == CGColor(srgbRed: 1, green: 1, blue: 1, alpha: 1) && layer.lineWidth == 3 && layer.miterLimit == 4)
        #expect(layer.fillRule == .evenOdd && layer.lineCap == .round && layer.lineJoin == .bevel)
        #expect(layer.lineDashPattern?.map(\.doubleValue) == [4, 2] && layer.lineDashPhase == 1.5)
        #expect(layer.strokeStart == 0.25 && layer.strokeEnd == 0.75)
    }

    @Test func pathSyntaxes() throws {
        func path(_ json: String) throws -> CGPath? {
            let s = try SceneParser.parse(scene("{\"class\": \"shape\", \"frame\": [0, 0, 8, 8], \"path\": \(json)}"))
            return s.root.sublayers.first?.path ?? nil
        }
        #expect(try path("\"M0 0 L4 0 L4 4 Z\"")?.elements == [.moveToPoint(.zero), .addLineToPoint(CGPoint(x: 4, y: 0)), .addLineToPoint(CGPoint(x: 4, y: 4)), .closeSubpath])
        #expect(try path("[{\"move\": [0, 0]}, {\"line\": [4, 0]}, \"close\"]")?.elements.count == 3)
        #expect(try path("{\"rect\": [1, 2, 3, 4]}") == CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4), transform: nil))
        #expect(try path("{\"ellipse\": [0, 0, 8, 4]}") == CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 8, height: 4), transform: nil))
        #expect(try path("null") == nil)
        // A quarter arc from the top, clockwise on screen (increasing angle in y-down space).
        let arc = try #require(try path("{\"arc\": {\"center\": [4, 4], \"radius\": 4, \"startAngle\": {\"degrees\": -90}, \"endAngle\": 0}}"))
        let end = arc.currentPoint
        #expect(abs(end.x - 8) < 1e-9 && abs(end.y - 4) < 1e-9)
    }

    @Test func shapeKeysNeedTheShapeClass() {
        #expect(error(scene("{\"frame\": [0, 0, 8, 8], \"strokeEnd\": 0.5}"))?.message
                == "\"strokeEnd\" is a shape-layer property; add \"class\": \"shape\" to this layer")
        #expect(error(scene("{\"class\": \"shap\", \"frame\": [0, 0, 8, 8]}"))?.message == "unknown layer class \"shap\" (did you mean \"shape\"?)")
        #expect(error(scene("{\"class\": \"shape\", \"strokeEnd\": 1.5}"))?.path == "layers[0].strokeEnd")
        #expect(error(scene("{\"class\": \"shape\", \"lineCap\": \"rounded\"}"))?.message == "unknown line cap \"rounded\" (did you mean \"round\"?)")
        #expect(error(scene("{\"class\": \"shape\", \"path\": {\"roundedRect\": [0, 0, 10, 10], \"cornerRadius\": 6}}"))?.message
                == "corner size 6×6 does not fit in a 10×10 rectangle (CGPath requires 2 × corner ≤ side)")
        #expect(error(scene("{\"class\": \"shape\", \"path\": \"M0 0 L\"}"))?.message == "SVG path data, character 7: expected lineto x (a number), found the end")
        #expect(error(scene("{\"class\": \"shape\", \"lineDashPattern\": [4, -1]}"))?.message == "expected a dash length >= 0, got -1")
    }

    @Test func shapeAnimationsAndTimelineSets() throws {
        let s = try SceneParser.parse(scene("""
        {"name": "s", "class": "shape", "frame": [0, 0, 8, 8], "path": "M0 0 L8 8",
         "animations": [{"class": "basic", "keyPath": "path", "fromValue": "M0 0 L8 8", "toValue": "M8 0 L0 8", "duration": 1},
                        {"class": "basic", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 1}]}
        """, timeline: "[{\"at\": 0.5, \"do\": [{\"layer\": \"s\", \"set\": {\"lineDashPattern\": [1, 1], \"strokeColor\": \"#ff0000\"}}]}]"))
        guard case let .basic(b)? = s.root.sublayers.first?.animations.first?.kind else { Issue.record("no basic animation"); return }
        #expect(b.toValue == .path(CGPath(elements: [.moveToPoint(CGPoint(x: 8, y: 0)), .addLineToPoint(CGPoint(x: 0, y: 8))])))
        guard case let .set(_, props)? = s.timeline.first?.transaction.steps.first else { Issue.record("no set step"); return }
        #expect(props == [PropertyValue("lineDashPattern", .numbers([1, 1])), PropertyValue("strokeColor", .color(CGColor(srgbRed: 1, green: 0, blue: 0, alpha: 1)))])
        // Built and run: the path animation is a CABasicAnimation between the two CGPaths.
        let built = try SceneBuilder(s)
        let layer = try #require(built.layer(named: "s") as? CAShapeLayer)
        let anim = try #require(layer.animation(forKey: layer.animationKeys()?.first ?? "") as? CABasicAnimation)
        #expect(anim.keyPath == "path" && (anim.toValue as? CGPath)?.elements.first == .moveToPoint(CGPoint(x: 8, y: 0)))
    }
}
