import Flipbook
import FlipbookJPEG
import Foundation

/// Loading layer contents from JPEG (libjpeg-turbo through `FlipbookJPEG`; the model module
/// has no C).
///
/// Decoded images are opaque RGBA8 (alpha 255), greyscale expanded to R = G = B; EXIF
/// orientation is not applied (as Apple's `CGImage`), CMYK JPEGs are refused. For bytes that
/// may be PNG or JPEG, use `CGImage(imageData:)` / `CGImage(contentsOfImageFile:)`.
extension CGImage {
    /// Decodes JPEG bytes.
    ///
    /// - Throws: `JPEGError`: not a JPEG, truncated or corrupt data (libjpeg's warnings
    ///   included), a size above `PixelBuffer.maximumDimension`, CMYK, 12-bit or lossless coding.
    public convenience init(jpegData: [UInt8]) throws(JPEGError) {
        self.init(pixelBuffer: try JPEG.decode(jpegData))
    }

    /// Decodes JPEG `Data`.
    public convenience init(jpegData: Data) throws(JPEGError) {
        self.init(pixelBuffer: try JPEG.decode([UInt8](jpegData)))
    }
}
