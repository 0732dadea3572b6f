import Foundation
import Flipbook
import FlipbookPNG
import FlipbookJPEG
import FlipbookPixels
import FlipbookScene

/// Image assets' bytes → `CGImage`s (premultiplied RGBA8), by their content: PNG (libpng) or
/// JPEG (libjpeg-turbo). The images of one mapped tree may decode to at most
/// ``maximumPixels`` in all (as a scene file's): an image that would pass the budget is refused
/// from its header, before anything is decoded; bytes that are neither, or do not decode, are
/// warned and not drawn.
package enum LottieImageDecoding {
    /// The most pixels the images of one mapped tree may decode to, together (SceneBuilder's
    /// budget for a whole scene: 1 GiB of RGBA).
    package static let maximumPixels = SceneBuilder.imagePixelBudget

    /// The pixels the images of one tree may still decode to.
    package struct Budget {
        package let total: Int
        package var remaining: Int
        package init(total: Int = LottieImageDecoding.maximumPixels) { self.total = total; remaining = total }
    }

    /// The decoded image, or nil (warned on `context`). An image is decoded only when its
    /// header's pixels fit in what remains of `budget`, and then taken from it.
    package static func decode(_ data: Data, path: String, budget: inout Budget, context: LottieMappingContext) -> CGImage? {
        let bytes = [UInt8](data)
        func fits(_ width: Int, _ height: Int) -> Bool {
            guard width * height <= budget.remaining else {
                let why = width * height > budget.total ? "above the limit of \(budget.total)"
                    : "which with the images decoded before it passes the budget of \(budget.total) for all images"
                context.warn("image", path: path, "the image is \(width) × \(height) pixels, \(why); not drawn")
                return false
            }
            return true
        }
        func decoded(_ buffer: PixelBuffer) -> CGImage {
            budget.remaining -= buffer.width * buffer.height
            return CGImage(pixelBuffer: buffer)
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            do {
                let info = try PNG.info(bytes)
                guard fits(info.width, info.height) else { return nil }
                return decoded(try PNG.decode(bytes))
            } catch {
                context.warn("image", path: path, "the PNG image cannot be decoded (\(error.message)); not drawn")
                return nil
            }
        }
        if JPEG.hasSignature(bytes) {
            do {
                let info = try JPEG.info(bytes)
                guard fits(info.width, info.height) else { return nil }
                return decoded(try JPEG.decode(bytes))
            } catch {
                context.warn("image", path: path, "the JPEG image cannot be decoded (\(error.message)); not drawn")
                return nil
            }
        }
        context.warn("image", path: path, "the image is neither PNG nor JPEG; not drawn")
        return nil
    }
}
