import Flipbook
import Foundation

/// Loading layer contents from PNG or JPEG, whichever the bytes are (``ImageDecoder``).
extension CGImage {
    /// Decodes the PNG or JPEG file at `path`, told apart by its first bytes (a JPEG named
    /// `.png` loads). What a scene file's `contents` path goes through.
    ///
    /// - Throws: ``ImageError`` naming the path: missing or unreadable file, neither format,
    ///   truncated or corrupt data, a size above `PixelBuffer.maximumDimension`, a CMYK JPEG.
    public convenience init(contentsOfImageFile path: String) throws(ImageError) {
        self.init(pixelBuffer: try ImageDecoder.decode(contentsOf: path))
    }

    /// Decodes PNG or JPEG bytes, e.g. the payload of a `data:image/…;base64,` URI.
    public convenience init(imageData: [UInt8]) throws(ImageError) {
        self.init(pixelBuffer: try ImageDecoder.decode(imageData))
    }

    /// Decodes PNG or JPEG `Data`.
    public convenience init(imageData: Data) throws(ImageError) {
        self.init(pixelBuffer: try ImageDecoder.decode([UInt8](imageData)))
    }
}
