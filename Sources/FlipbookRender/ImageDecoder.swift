import FlipbookJPEG
import FlipbookPixels
import FlipbookPNG

/// What an image's header says, whichever its format (``ImageDecoder/info(_:)``).
public struct ImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// Colour components before alpha: 1 for grey (PNG grey, greyscale JPEG), 3 otherwise
    /// (a palette counts as its RGB entries). The decoded buffer is RGBA8 either way.
    public var colorComponentCount: Int
    /// An alpha channel or a PNG `tRNS` chunk; never for JPEG.
    public var hasAlpha: Bool

    public init(format: ImageFormat, width: Int, height: Int, colorComponentCount: Int, hasAlpha: Bool) {
        self.format = format
        self.width = width
        self.height = height
        self.colorComponentCount = colorComponentCount
        self.hasAlpha = hasAlpha
    }
}

/// PNG or JPEG bytes (or files) to premultiplied RGBA8, the format told by the first bytes
/// (``ImageFormat/init(sniffing:)``), never by a file name. What scene files' `contents` and
/// `CGImage(contentsOfImageFile:)` / `CGImage(imageData:)` load through.
///
///     let bytes: [UInt8] = …                          // a file, or a decoded data: URI
///     let image = CGImage(pixelBuffer: try ImageDecoder.decode(bytes))
///
/// Each format's rules are its decoder's: `PNG` (FlipbookPNG: libpng, every colour type,
/// strict CRCs) and `JPEG` (FlipbookJPEG: libjpeg-turbo, opaque, EXIF orientation not applied,
/// CMYK refused). Both refuse a side above `PixelBuffer.maximumDimension` from the header,
/// before allocating. Files are read as `PNG` reads them: regular files only, at most 1 GiB.
public enum ImageDecoder {
    /// Decodes PNG or JPEG bytes.
    public static func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelBuffer {
        switch try format(of: bytes) {
        case .png:
            do { return try PNG.decode(bytes) } catch { throw ImageError(error) }
        case .jpeg:
            do { return try JPEG.decode(bytes) } catch { throw ImageError(error) }
        }
    }

    /// Reads and decodes the PNG or JPEG file at `path`.
    public static func decode(contentsOf path: String) throws(ImageError) -> PixelBuffer {
        let bytes = try readFile(path)
        do { return try decode(bytes) } catch { throw error.at(path) }
    }

    /// Reads the header of PNG or JPEG bytes without decoding the image.
    public static func info(_ bytes: [UInt8]) throws(ImageError) -> ImageInfo {
        switch try format(of: bytes) {
        case .png:
            do {
                let i = try PNG.info(bytes)
                let gray = i.colorType == .gray || i.colorType == .grayAlpha
                return ImageInfo(format: .png, width: i.width, height: i.height, colorComponentCount: gray ? 1 : 3, hasAlpha: i.hasAlpha)
            } catch { throw ImageError(error) }
        case .jpeg:
            do {
                let i = try JPEG.info(bytes)
                return ImageInfo(format: .jpeg, width: i.width, height: i.height,
                                 colorComponentCount: i.colorSpace == .gray ? 1 : 3, hasAlpha: false)
            } catch { throw ImageError(error) }
        }
    }

    /// Reads the header of the PNG or JPEG file at `path`.
    public static func info(contentsOf path: String) throws(ImageError) -> ImageInfo {
        let bytes = try readFile(path)
        do { return try info(bytes) } catch { throw error.at(path) }
    }

    /// The whole file at `path` (regular files only, at most `PNG.maximumFileSize`; a FIFO or a
    /// device is refused without blocking).
    public static func readFile(_ path: String) throws(ImageError) -> [UInt8] {
        do { return try PNG._readFile(path, what: "an image") } catch { throw ImageError(error, format: nil) }
    }

    /// The sniffed format, or an `unknownFormat` error showing the first bytes.
    package static func format(of bytes: [UInt8]) throws(ImageError) -> ImageFormat {
        if let format = ImageFormat(sniffing: bytes) { return format }
        let start = bytes.prefix(8).map { b in (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true) }.joined(separator: " ")
        let what = bytes.isEmpty ? "it is empty" : "it starts \(start)"
        throw ImageError(kind: .unknownFormat, message: "not a PNG or JPEG image (\(what))")
    }
}
