import Testing
@testable import FlipbookRender
@testable import Flipbook
@testable import FlipbookGraphics
import FlipbookPixels
import FlipbookPNG
import Foundation

@Suite struct TextLayerTests {
    static func render(_ root: CALayer, _ w: Int, _ h: Int, threads: Int = 1) -> PixelBuffer {
        try! Compositor(threadCount: threads).render(root.makeRenderTree(), width: w, height: h)
    }

    static func textLayer(_ s: Any, frame: CGRect, size: CGFloat = 24, configure: (CATextLayer) -> Void = { _ in }) -> CATextLayer {
        let t = CATextLayer()
        t.frame = frame
        t.string = s
        t.fontSize = size
        t.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        configure(t)
        t.displayIfNeeded()
        return t
    }

    @Test func scratch() throws {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
            root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            root.addSublayer(Self.textLayer("AVATAR office fi Wa Tö é", frame: CGRect(x: 10, y: 10, width: 380, height: 40)))
            root.addSublayer(Self.textLayer("مرحبا بالعالم", frame: CGRect(x: 10, y: 50, width: 380, height: 40)))
            root.addSublayer(Self.textLayer("क्षत्रिय नमस्ते", frame: CGRect(x: 10, y: 90, width: 380, height: 40)))
            root.addSublayer(Self.textLayer("The quick brown fox jumps over the lazy dog again and again.", frame: CGRect(x: 10, y: 130, width: 200, height: 160), size: 16) { $0.isWrapped = true; $0.alignmentMode = .justified })
            root.addSublayer(Self.textLayer("Truncated in the middle of a long line", frame: CGRect(x: 220, y: 130, width: 170, height: 30), size: 14) { $0.truncationMode = .middle })
            root.addSublayer(Self.textLayer("abc مرحبا بالعالم 123 def", frame: CGRect(x: 10, y: 250, width: 380, height: 40)))
            root.addSublayer(Self.textLayer("日本語のテキスト、改行。漢字かな交じり文です。", frame: CGRect(x: 220, y: 200, width: 170, height: 60), size: 14) { $0.isWrapped = true; $0.font = "Noto Sans CJK JP" })
            root.addSublayer(Self.textLayer("Right aligned", frame: CGRect(x: 220, y: 170, width: 170, height: 30), size: 14) { $0.alignmentMode = .right })
            let px = Self.render(root, 400, 300)
            try! PNG.write(px, to: "/tmp/text-scratch.png")
        }
    }
}
