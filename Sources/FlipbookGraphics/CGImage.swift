import Foundation
import FlipbookPixels
/// A bitmap image: what a layer's `contents` holds (Apple's `CGImage`, backed here by a
/// premultiplied RGBA8 `PixelBuffer`).
///
/// Immutable and `Sendable`. Create one from pixels with ``init(pixelBuffer:)``; PNG and JPEG
/// loading (`CGImage(contentsOfImageFile:)`, `CGImage(imageData:)`, `CGImage(pngData:)`,
/// `CGImage(jpegData:)`, Apple's `CGImage(jpegDataProviderSource:decode:shouldInterpolate:intent:)`)
/// is in `FlipbookRender`, so that this model module stays free of C.
public final class CGImage: Hashable, Sendable, CustomStringConvertible {
    /// The pixels (premultiplied RGBA8).
    public let pixelBuffer: PixelBuffer

    public init(pixelBuffer: PixelBuffer) { self.pixelBuffer = pixelBuffer }

    public var width: Int { pixelBuffer.width }
    public var height: Int { pixelBuffer.height }
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { pixelBuffer.bytesPerRow }

    /// Images are equal when they are the same object or hold the same pixels.
    public static func == (a: CGImage, b: CGImage) -> Bool { a === b || a.pixelBuffer == b.pixelBuffer }
    public func hash(into h: inout Hasher) { h.combine(width); h.combine(height) }

    public var description: String { "CGImage(\(width)×\(height))" }
}
