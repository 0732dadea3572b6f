#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FlipbookPixels

/// `Foundation.Data` conveniences over the `[UInt8]` entry points.
extension PNG {
    public static func decode(_ data: Data) throws(PNGError) -> PixelBuffer {
        try decode([UInt8](data))
    }

    public static func info(_ data: Data) throws(PNGError) -> PNGInfo {
        try info([UInt8](data))
    }

    public static func encodedData(_ image: PixelBuffer, options: PNGEncodeOptions = .default) throws(PNGError) -> Data {
        Data(try encode(image, options: options))
    }
}
