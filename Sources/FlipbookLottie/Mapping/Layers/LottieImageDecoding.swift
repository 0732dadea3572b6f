import Foundation
import Flipbook
import FlipbookPNG
import FlipbookJPEG
import FlipbookScene

/// Image assets' bytes → `CGImage`s (premultiplied RGBA8), by their content: PNG (libpng) or
/// JPEG (libjpeg-turbo). An image above ``maximumPixels`` is refused from its header, before
/// anything is decoded; bytes that are neither, or do not decode, are warned and not drawn.
package enum LottieImageDecoding {
    /// The most pixels one image may decode to (SceneBuilder's budget for a whole scene).
    package static let maximumPixels = SceneBuilder.imagePixelBudget

    /// The decoded image, or nil (warned on `context`).
    package static func decode(_ data: Data, path: String, context: LottieMappingContext) -> CGImage? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            do {
                let info = try PNG.info(bytes)
                guard info.width * info.height <= maximumPixels else {
                    context.warn("image", path: path, "the image is \(info.width) × \(info.height) pixels, above the limit of \(maximumPixels); not drawn")
                    return nil
                }
                return CGImage(pixelBuffer: try PNG.decode(bytes))
            } catch {
                context.warn("image", path: path, "the PNG image cannot be decoded (\(error.message)); not drawn")
                return nil
            }
        }
        if JPEG.hasSignature(bytes) {
            do {
                let info = try JPEG.info(bytes)
                guard info.width * info.height <= maximumPixels else {
                    context.warn("image", path: path, "the image is \(info.width) × \(info.height) pixels, above the limit of \(maximumPixels); not drawn")
                    return nil
                }
                return CGImage(pixelBuffer: try JPEG.decode(bytes))
            } catch {
                context.warn("image", path: path, "the JPEG image cannot be decoded (\(error.message)); not drawn")
                return nil
            }
        }
        context.warn("image", path: path, "the image is neither PNG nor JPEG; not drawn")
        return nil
    }
}
