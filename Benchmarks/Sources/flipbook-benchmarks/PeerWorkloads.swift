import Flipbook
import FlipbookPixels
import FlipbookRender
import Foundation
import FlipbookPixels

/// The peers benchmark scenes (`/work/shared/peers/README.md`, `workloads.py`) expressed as
/// Flipbook render trees, their layer images `P(w, h, i)` being `PixelBuffer.testPattern`, so benchmarks measure the real pipeline (planning + execution), not
/// a bare kernel. Render each with `background` on a `canvasWidth × canvasHeight` frame at
/// scale 1.
enum PeerWorkloads {
    static let canvasWidth = 1920
    static let canvasHeight = 1080
    /// Opaque dark gray (32, 32, 32, 255).
    static let background = RGBA8(r: 32, g: 32, b: 32, a: 255)

    static func root(_ sublayers: [RenderLayer]) -> RenderLayer {
        RenderLayer(name: "root", bounds: CGRect(x: 0, y: 0, width: canvasWidth, height: canvasHeight),
                      position: CGPoint(x: canvasWidth / 2, y: canvasHeight / 2), sublayers: sublayers)
    }

    /// W1: 64 layers `P(256, 256, i)`, opacity 0.8, on an 8×8 grid (centre
    /// `((col + ½)·240, (row + ½)·135)`), scaled by `0.75 + 0.5·((i mod 5)/4)` and turned
    /// clockwise by `7i` degrees about their centres, drawn in order.
    static func w1() -> RenderLayer {
        let layers = (0..<64).map { i -> RenderLayer in
            let col = i % 8, row = i / 8
            let s = 0.75 + 0.5 * (Double(i % 5) / 4)
            let t = Double(i * 7) * Double.pi / 180
            let m = CATransform3DRotate(CATransform3DMakeScale(CGFloat(s), CGFloat(s), 1), CGFloat(t), 0, 0, 1)
            return RenderLayer(
                name: "w1-\(i)", bounds: CGRect(x: 0, y: 0, width: 256, height: 256),
                position: CGPoint(x: (Double(col) + 0.5) * 240, y: (Double(row) + 0.5) * 135),
                transform: m, opacity: 0.8,
                contents: CGImage(pixelBuffer: PixelBuffer.testPattern(width: 256, height: 256, index: i)))
        }
        return root(layers)
    }

    /// W2: one full-frame layer `P(1920, 1080, 0)` at identity, opacity 0.5 (the harness does
    /// not clear between frames: render with `background: nil` after one filled frame).
    static func w2() -> RenderLayer {
        root([RenderLayer(name: "w2", bounds: CGRect(x: 0, y: 0, width: 1920, height: 1080),
                            position: CGPoint(x: 960, y: 540), opacity: 0.5,
                            contents: CGImage(pixelBuffer: PixelBuffer.testPattern(width: 1920, height: 1080, index: 0)))])
    }

    /// W4: one layer `P(1024, 768, 16)`, opacity 0.8, turned 40° about the vertical axis then
    /// 20° about the horizontal one, perspective distance 1200 (`m34 = −1/1200`), centred.
    static func w4() -> RenderLayer {
        let ry = 40 * Double.pi / 180, rx = 20 * Double.pi / 180, d = 1200.0
        let rot = CATransform3D(
            m11: CGFloat(cos(ry)), m12: CGFloat(sin(rx) * sin(ry)), m13: CGFloat(-cos(rx) * sin(ry)), m14: 0,
            m21: 0, m22: CGFloat(cos(rx)), m23: CGFloat(sin(rx)), m24: 0,
            m31: CGFloat(sin(ry)), m32: CGFloat(-sin(rx) * cos(ry)), m33: CGFloat(cos(rx) * cos(ry)), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        var persp = CATransform3DIdentity
        persp.m34 = CGFloat(-1 / d)
        return root([RenderLayer(name: "w4", bounds: CGRect(x: 0, y: 0, width: 1024, height: 768),
                                   position: CGPoint(x: 960, y: 540), transform: rot * persp, opacity: 0.8,
                                   contents: CGImage(pixelBuffer: PixelBuffer.testPattern(width: 1024, height: 768, index: 16)))])
    }
}
