import Testing
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import FlipbookScene
import Foundation

/// `allowsEdgeAntialiasing` / `edgeAntialiasingMask` in pixels: antialiased by default
/// (Flipbook's documented default), aliased — coverage 0 or 255 only — when false.
@Suite struct EdgeAntialiasingTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    static func render(_ root: CALayer, _ w: Int, _ h: Int) -> PixelBuffer {
        try! Compositor(threadCount: 1).render(root.makeRenderTree(), width: w, height: h)
    }

    /// The alpha values in the frame.
    static func alphas(_ p: PixelBuffer) -> Set<UInt8> {
        var s = Set<UInt8>()
        for y in 0..<p.height { for x in 0..<p.width { s.insert(p[x, y].a) } }
        return s
    }

    static func rotated(_ configure: (CALayer) -> Void) -> PixelBuffer {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 80, height: 60)
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
            l.position = CGPoint(x: 40.3, y: 30.2)
            l.transform = CATransform3DMakeRotation(10 * .pi / 180, 0, 0, 1)
            l.backgroundColor = red
            configure(l)
            root.addSublayer(l)
            return render(root, 80, 60)
        }
    }

    @Test func defaultIsAntialiased() {
        VirtualRunLoop().run { #expect(CALayer().allowsEdgeAntialiasing) }
        let p = Self.rotated { _ in }
        #expect(Self.alphas(p).count > 10)   // many partial coverages along the rotated edges
    }

    /// False: only 0 and 255, and the covered count is the area (800 px) within the rounding
    /// of the pixels the edges cross.
    @Test func falseDrawsAliasedEdges() {
        let p = Self.rotated { $0.allowsEdgeAntialiasing = false }
        #expect(Self.alphas(p) == [0, 255])
        var covered = 0
        for y in 0..<p.height { for x in 0..<p.width where p[x, y].a == 255 { covered += 1 } }
        #expect(abs(covered - 800) <= 12, "\(covered)")
        // An empty mask aliases too; a partial one antialiases all four edges.
        #expect(Self.alphas(Self.rotated { $0.edgeAntialiasingMask = [] }) == [0, 255])
        #expect(Self.alphas(Self.rotated { $0.edgeAntialiasingMask = [.layerLeftEdge] }).count > 10)
    }

    /// A pixel is in when its centre is: an axis-aligned layer from x = 10.3 to 30.3 covers
    /// columns 10…29 fully when aliased (centres 10.5 … 29.5), and 70 % of column 10 otherwise (10.3 in binary is a hair above: 178, not 179).
    @Test func fractionalEdgesSnapByPixelCentre() {
        func draw(_ aa: Bool) -> PixelBuffer {
            VirtualRunLoop().run {
                let root = CALayer()
                root.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
                let l = CALayer()
                l.frame = CGRect(x: 10.3, y: 2, width: 20, height: 6)
                l.backgroundColor = Self.red
                l.allowsEdgeAntialiasing = aa
                root.addSublayer(l)
                return Self.render(root, 40, 10)
            }
        }
        let hard = draw(false), soft = draw(true)
        #expect(hard[10, 4].a == 255 && hard[29, 4].a == 255 && hard[30, 4].a == 0 && hard[9, 4].a == 0)
        #expect(soft[10, 4].a == 178 && soft[30, 4].a == 77, "\(soft[10, 4].a) \(soft[30, 4].a)")
    }

    /// The border and the `masksToBounds` clip are aliased with the layer.
    @Test func borderAndClipAreAliased() {
        let p = Self.rotated { l in
            l.allowsEdgeAntialiasing = false
            l.backgroundColor = nil
            l.borderWidth = 3
            l.borderColor = Self.red
            l.masksToBounds = true
            let child = CALayer()
            child.frame = CGRect(x: -10, y: -10, width: 60, height: 40)   // all its edges clipped away
            child.backgroundColor = Self.red
            l.addSublayer(child)
        }
        #expect(Self.alphas(p) == [0, 255])
        let q = Self.rotated { l in
            l.allowsEdgeAntialiasing = false
            l.backgroundColor = nil
            l.borderWidth = 3
            l.borderColor = Self.red
        }
        #expect(Self.alphas(q) == [0, 255])
    }

    @Test func sceneKey() throws {
        let text = ##"{"output": {"size": "40x10", "duration": 1}, "layers": [{"frame": [10.3, 2, 20, 6], "backgroundColor": "#ff0000", "allowsEdgeAntialiasing": false, "isGeometryFlipped": true}]}"##
        let d = try SceneParser.parse(text, file: "s.json", baseDirectory: "/tmp")
        #expect(d.root.sublayers.first?.allowsEdgeAntialiasing == false)
        #expect(d.root.sublayers.first?.isGeometryFlipped == true)
    }
}
