import Foundation
import FlipbookPixels
import FlipbookRender
@testable import FlipbookLottie

/// Loading and rendering hostile Lottie documents the way the fuzz target and the command line
/// do (`LottieRendering.scene`, fitted into a small frame), collecting what the logger is told.
enum Hostile {
    /// The lines a ``LottieLogger`` was handed.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var _lines: [String] = []
        var lines: [String] { lock.lock(); defer { lock.unlock() }; return _lines }
        lazy var logger = LottieLogger { [unowned self] message in
            self.lock.lock(); self._lines.append(message); self.lock.unlock()
        }
    }

    /// What rendering a document gave.
    struct Rendered {
        /// The logger's lines (every warning of the parser and the mapping, once).
        var logged: [String]
        /// Frames 0, N/2 and N − 1 (N: the scene's frame count).
        var frames: [PixelBuffer]
        var frameCount: Int
        /// The layers of the mapped tree (the scene's root and the animation layer included).
        var layerCount: Int
        /// The mapped tree (the animation layer's sublayers).
        var root: CALayer
    }

    /// Loads `text` (JSON) or `data` (any bytes) and renders frames 0, N/2 and N − 1 at
    /// `size × size`, the composition fitted.
    static func render(_ text: String, size: Int = 64) throws -> Rendered { try render(data: Data(text.utf8), size: size) }

    static func render(data: Data, size: Int = 64) throws -> Rendered {
        let animation = try LottieAnimation(data: data)
        let log = Log()
        let loop = VirtualRunLoop()
        return try loop.run {
            let scene = LottieRendering.scene(for: animation, size: .fit(width: Double(size), height: Double(size)), logger: log.logger)
            let compositor = Compositor(threadCount: 1)
            let n = scene.frameCount
            let frames = try [0, n / 2, n - 1].map { k in
                try compositor.render(scene.root.makeRenderTree(at: scene.time(ofFrame: k)), width: size, height: size)
            }
            return Rendered(logged: log.lines, frames: frames, frameCount: n,
                            layerCount: LottieMappingContext.subtreeSize(scene.root), root: scene.animationLayer)
        }
    }

    /// The error loading `text` throws (nil when it loads).
    static func error(_ text: String) -> LottieError? { error(data: Data(text.utf8)) }

    static func error(data: Data) -> LottieError? {
        do { _ = try LottieAnimation(data: data); return nil } catch { return error }
    }

    /// A document (`animation` in errors) with `layers` and extra root members.
    static func document(_ layers: String, extra: String = "", w: String = "100", h: String = "80",
                         ip: String = "0", op: String = "60") -> String {
        #"{"v": "5.7.0", "fr": 30, "ip": \#(ip), "op": \#(op), "w": \#(w), "h": \#(h), "layers": \#(layers)\#(extra)}"#
    }

    /// One shape layer holding `items` in a group.
    static func shapes(_ items: String) -> String { #"{"ty": 4, "ks": {}, "shapes": [{"ty": "gr", "it": [\#(items)]}]}"# }

    /// A 20 × 20 red square at the composition's centre (100 × 80), filled.
    static let square = #"{"ty": "rc", "p": {"k": [50, 40]}, "s": {"k": [20, 20]}}, {"ty": "fl", "c": {"k": [1, 0, 0]}}"#

    /// Every layer of `root`'s tree (depth first, masks included).
    static func layers(_ root: CALayer) -> [CALayer] {
        [root] + (root.mask.map(layers) ?? []) + (root.sublayers ?? []).flatMap(layers)
    }

    /// A PNG made of the signature and an IHDR chunk claiming `width × height` (RGBA, 8 bits):
    /// enough for the header to be read, nothing to decode.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let body: [UInt8] = Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + body + be(crc32(body)))
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }
}
