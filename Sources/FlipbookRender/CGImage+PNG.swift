import Flipbook
import FlipbookPNG
import Foundation

/// Loading layer contents from PNG (libpng through `FlipbookPNG`; the model module has no C).
///
/// Decoded images are premultiplied RGBA8 whatever the file's colour type (palette, gray,
/// 16-bit and tRNS are expanded by the decoder), ready for `layer.contents`. JPEG is
/// `CGImage(jpegData:)`; either format, sniffed from the bytes, `CGImage(imageData:)` and
/// `CGImage(contentsOfImageFile:)`; Apple's `CGImage(pngDataProviderSource:…)` is in
/// `CGImage+DataProvider.swift`.
extension CGImage {
    /// Decodes the PNG file at `path`.
    ///
    /// - Throws: `PNGError` naming the path: missing file, not a PNG, truncated or corrupt data,
    ///   a size above `PixelBuffer.maximumDimension`.
    public convenience init(contentsOfPNGFile path: String) throws(PNGError) {
        self.init(pixelBuffer: try PNG.decode(contentsOf: path))
    }

    /// Decodes PNG bytes.
    public convenience init(pngData: [UInt8]) throws(PNGError) {
        self.init(pixelBuffer: try PNG.decode(pngData))
    }

    /// Decodes PNG `Data`.
    public convenience init(pngData: Data) throws(PNGError) {
        self.init(pixelBuffer: try PNG.decode(Array(pngData)))
    }
}
