import Flipbook
import FlipbookPixels
import Foundation

extension VectorItem {
    /// A W7 item as Core Graphics values: its cubic chain (`raw`: P0, then C1 C2 P per cubic) as
    /// a `CGPath`, closed for a fill, and its straight colour. The shape-layer and the
    /// `draw(in:)` workloads build their layers from these, so both draw the same paths.
    var cgPath: CGPath {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: raw[0], y: raw[1]))
        var i = 2
        while i + 5 < raw.count {
            path.addCurve(to: CGPoint(x: raw[i + 4], y: raw[i + 5]), control1: CGPoint(x: raw[i], y: raw[i + 1]),
                          control2: CGPoint(x: raw[i + 2], y: raw[i + 3]))
            i += 6
        }
        if kind == .fill { path.closeSubpath() }
        return path
    }

    var cgColor: CGColor {
        CGColor(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: CGFloat(a) / 255)
    }
}

extension PixelBuffer {
    /// How many pixels differ from `other` (same size) and the largest channel difference:
    /// the check that a layer-model workload drew the same frame as the direct one.
    func difference(from other: PixelBuffer) -> (pixels: Int, maxDelta: Int) {
        var differing = 0, maxDelta = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = self[x, y], b = other[x, y]
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                if d > 0 { differing += 1; maxDelta = max(maxDelta, d) }
            }
        }
        return (differing, maxDelta)
    }
}
