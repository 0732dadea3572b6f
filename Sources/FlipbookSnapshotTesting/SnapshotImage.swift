import Flipbook
import FlipbookPixels
import FlipbookPNG
import Foundation

/// The image a snapshot strategy of this module makes and compares: what `UIImage` is to
/// swift-snapshot-testing's iOS strategies and `NSImage` to its macOS ones.
///
/// An image is one of:
/// - **pixels**: a premultiplied RGBA8 ``pixelBuffer`` at scale 1 (one pixel per point);
/// - **empty**: a snapshot of something with no area (a layer whose bounds are 0 wide or high,
///   an empty path). It has a size (`0 × 30`, say) and no pixels, and it never matches any
///   reference: the comparison says the snapshot is empty;
/// - **unrenderable**: a snapshot that could not be drawn (a side over
///   `PixelBuffer.maximumDimension` pixels, a time that is not finite); ``failureReason`` says why;
/// - **unreadable**: a reference file that is not a PNG Flipbook can decode. Its bytes are
///   kept (``pngData()`` gives them back unchanged) and ``failureReason`` says what is wrong.
///
/// On disk an image is an ordinary PNG, straight (not premultiplied) alpha, written by
/// ``pngData()`` and read by ``init(data:)``. An empty or unrenderable snapshot is written as
/// a 400 × 80 red placeholder that says so (as swift-snapshot-testing does on iOS), so a file
/// recorded from it is never mistaken for a picture of the layer.
public struct SnapshotImage: Sendable, Hashable, CustomStringConvertible {
    package enum Storage: Sendable, Hashable {
        case pixels(PixelBuffer)
        case empty(width: Int, height: Int)
        case unrenderable(String)
        case unreadable(Data, String)
    }

    package let storage: Storage

    package init(storage: Storage) { self.storage = storage }

    /// An image of these pixels.
    public init(pixelBuffer: PixelBuffer) { storage = .pixels(pixelBuffer) }

    /// An image of a `CGImage`'s pixels.
    public init(cgImage: CGImage) { storage = .pixels(cgImage.pixelBuffer) }

    /// Decodes PNG bytes (Apple's `UIImage(data:)`); nil when they are not a PNG Flipbook can read.
    public init?(data: Data) {
        guard let pixels = try? PNG.decode(data) else { return nil }
        storage = .pixels(pixels)
    }

    /// What a reference file holds: its pixels, or, when the bytes do not decode, an
    /// unreadable image that keeps them and the decoder's message.
    package init(referenceData data: Data) {
        do { storage = .pixels(try PNG.decode(data)) } catch {
            storage = .unreadable(data, "\(error)")
        }
    }

    /// An empty snapshot: a picture of no area, `width × height` (one side is 0).
    package static func empty(width: Int, height: Int) -> SnapshotImage {
        SnapshotImage(storage: .empty(width: max(0, width), height: max(0, height)))
    }

    /// A snapshot that could not be drawn, and why.
    package static func unrenderable(_ reason: String) -> SnapshotImage {
        SnapshotImage(storage: .unrenderable(reason))
    }

    /// The pixels; nil for an empty, unrenderable or unreadable image.
    public var pixelBuffer: PixelBuffer? {
        if case .pixels(let p) = storage { return p }
        return nil
    }

    /// The pixels as a `CGImage` (Apple's `UIImage.cgImage`); nil when there are none.
    public var cgImage: CGImage? { pixelBuffer.map(CGImage.init(pixelBuffer:)) }

    /// Width in pixels (0 when there are no pixels and no known size).
    public var width: Int {
        switch storage {
        case .pixels(let p): return p.width
        case .empty(let w, _): return w
        case .unrenderable, .unreadable: return 0
        }
    }

    /// Height in pixels (0 when there are no pixels and no known size).
    public var height: Int {
        switch storage {
        case .pixels(let p): return p.height
        case .empty(_, let h): return h
        case .unrenderable, .unreadable: return 0
        }
    }

    /// The size in points, which at scale 1 is the size in pixels (Apple's `UIImage.size`).
    public var size: CGSize { CGSize(width: CGFloat(width), height: CGFloat(height)) }

    /// True when the snapshot has no area (zero width or height).
    public var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    /// Why there are no pixels: the decoder's message for an unreadable file, the renderer's
    /// for an unrenderable snapshot; nil otherwise.
    public var failureReason: String? {
        switch storage {
        case .unrenderable(let reason), .unreadable(_, let reason): return reason
        case .pixels, .empty: return nil
        }
    }

    /// The image as PNG bytes (Apple's `UIImage.pngData()`): the pixels as an ordinary 8-bit
    /// PNG with straight alpha (RGB when every pixel is opaque); an unreadable image's own
    /// bytes; the red placeholder for an empty or unrenderable snapshot. Nil only if encoding
    /// fails, which valid pixels never do.
    public func pngData() -> Data? {
        switch storage {
        case .pixels(let p): return try? PNG.encodedData(p, options: .small)
        case .unreadable(let data, _): return data
        case .empty, .unrenderable: return try? PNG.encodedData(Self.placeholder, options: .small)
        }
    }

    public var description: String {
        switch storage {
        case .pixels(let p): return "SnapshotImage(\(p.width)×\(p.height))"
        case .empty(let w, let h): return "SnapshotImage(empty, \(w)×\(h))"
        case .unrenderable(let r): return "SnapshotImage(unrenderable: \(r))"
        case .unreadable(let d, let r): return "SnapshotImage(unreadable, \(d.count) bytes: \(r))"
        }
    }

    /// What an empty or unrenderable snapshot is written as: 400 × 80, opaque red, with a line
    /// of text saying that no image could be made.
    package static let placeholder: PixelBuffer = LayerSnapshotRenderer.placeholder()
}
