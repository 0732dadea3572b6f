import Flipbook
import FlipbookCompare
import FlipbookPixels
import FlipbookRender
import Foundation
/// Turns a render-tree snapshot into pixels for the rendering assertions
/// (`assertRendering(of:…)`, `assertRenderings(of:…)`).
///
/// A value wrapping a closure, so a test can substitute its own renderer (a fake, another
/// compositor configuration); ``default`` is the project's ``Compositor``.
///
/// ## Request
/// The closure receives the snapshot and a ``Request``: the output size in **device pixels**,
/// the device scale (pixels per point) and the premultiplied background the frame is filled
/// with first. The snapshot's root is placed as the compositor places any root: its
/// superlayer space is the device space divided by `scale` (so a root with
/// `bounds = (0, 0, w, h)` and `position = (w/2, h/2)` fills a `w·scale × h·scale` image).
public struct LayerRenderer: Sendable {
    /// What to render: size in device pixels, scale, background.
    public struct Request: Sendable, Hashable {
        /// Output width in device pixels (≥ 1).
        public var width: Int
        /// Output height in device pixels (≥ 1).
        public var height: Int
        /// Device pixels per point.
        public var scale: CGFloat
        /// Premultiplied colour the frame is filled with before drawing.
        public var background: RGBA8

        public init(width: Int, height: Int, scale: CGFloat = 1, background: RGBA8 = .transparent) {
            self.width = width; self.height = height; self.scale = scale; self.background = background
        }
    }

    /// Renders one snapshot.
    public var renderRequest: @Sendable (_ layer: RenderLayer, _ request: Request) throws -> PixelBuffer

    /// A renderer from a closure that honours the whole ``Request``.
    public init(request render: @escaping @Sendable (RenderLayer, Request) throws -> PixelBuffer) {
        self.renderRequest = render
    }

    /// A renderer from a closure that only takes the pixel size. It is handed
    /// ``Request/width`` and ``Request/height``; scale and background are **not** passed on,
    /// so use ``init(request:)`` when the assertion sets them.
    public init(_ render: @escaping @Sendable (_ layer: RenderLayer, _ width: Int, _ height: Int) throws -> PixelBuffer) {
        self.renderRequest = { layer, request in try render(layer, request.width, request.height) }
    }

    /// Renders `layer` at `width × height` device pixels, scale 1, transparent background.
    public func render(_ layer: RenderLayer, _ width: Int, _ height: Int) throws -> PixelBuffer {
        try renderRequest(layer, Request(width: width, height: height))
    }

    /// The project's CPU compositor: `Compositor(threadCount: 1).render(layer, width:height:scale:background:)`.
    ///
    /// One worker thread, because test suites already run in parallel and the compositor's
    /// output is byte-identical for any thread count (see ``Compositor``); a new compositor per
    /// frame, because a `Compositor` is not `Sendable` and its scratch buffers are only worth
    /// keeping across the frames of one recording. Compositor errors (bad size or scale)
    /// become ``SnapshotError/render(_:)`` with the compositor's message.
    public static let `default` = LayerRenderer(request: { layer, r in
        do {
            return try Compositor(threadCount: 1).render(layer, width: r.width, height: r.height,
                                                         scale: r.scale, background: r.background)
        } catch {
            throw SnapshotError.render("the compositor refused the frame: \(error)")
        }
    })

    /// The device pixel size of `size` points at `scale`: each side is `size · scale`, rounded
    /// up to whole pixels (as an image renderer sizes its canvas), except that a product within
    /// 1e-9 of an integer is taken as that integer so `10.000000000001` stays 10.
    ///
    /// - Throws: ``SnapshotError/render(_:)`` when `scale` is not finite and positive, or a side
    ///   is not finite or gives fewer than 1 or more than `PixelBuffer.maximumDimension` pixels.
    public static func pixelSize(of size: CGSize, scale: CGFloat) throws(SnapshotError) -> (width: Int, height: Int) {
        let s = Double(scale)
        guard s.isFinite, s > 0 else {
            throw .render("invalid scale \(s): it must be finite and greater than 0")
        }
        func side(_ points: Double, _ label: String) throws(SnapshotError) -> Int {
            let p = points * s
            guard p.isFinite, p > 0 else {
                throw .render("invalid \(label) \(points) pt at scale \(s): the image must be at least 1 pixel")
            }
            let nearest = p.rounded()
            let pixels = abs(p - nearest) <= 1e-9 ? nearest : p.rounded(.up)
            guard pixels >= 1, pixels <= Double(PixelBuffer.maximumDimension) else {
                throw .render("\(label) \(points) pt at scale \(s) is \(pixels) pixels; it must be 1…\(PixelBuffer.maximumDimension)")
            }
            return Int(pixels)
        }
        return (try side(Double(size.width), "width"), try side(Double(size.height), "height"))
    }
}
