import CFlipbookPNG
import FlipbookPixels

/// PNG in and out of `PixelBuffer` (premultiplied RGBA8), through libpng.
///
/// - Decoding accepts every valid PNG (all colour types, bit depths 1–16, palette with or
///   without `tRNS`, Adam7) and returns premultiplied RGBA8; 16-bit samples are reduced with
///   `round(v · 255 / 65535)`; `gAMA`/`iCCP`/`sRGB` are ignored (samples pass through as stored).
/// - Encoding un-premultiplies with ``PixelRounding/unpremultiply(_:alpha:)``, so
///   `decode(encode(x)) == x` for every valid premultiplied buffer; opaque images are written
///   as RGB (colour type 2) unless ``PNGEncodeOptions/writesOpaqueAsRGB`` is off.
/// - Every failure is a thrown ``PNGError``; nothing is printed, nothing traps.
public enum PNG {
    /// Decodes PNG bytes to a premultiplied buffer.
    public static func decode(_ data: [UInt8]) throws(PNGError) -> PixelBuffer {
        var w: UInt32 = 0, h: UInt32 = 0
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        var err = fbpng_error()
        let status = data.withUnsafeBufferPointer { buf in
            fbpng_decode_rgba8(buf.baseAddress, buf.count, UInt32(PixelBuffer.maximumDimension), &w, &h, &pixels, &err)
        }
        guard status == 0, let pixels else { throw _error(status, err) }
        defer { fbpng_free(pixels) }
        return _premultipliedBuffer(straight: pixels, width: Int(w), height: Int(h))
    }

    /// Reads and decodes the PNG file at `path`.
    public static func decode(contentsOf path: String) throws(PNGError) -> PixelBuffer {
        let data = try _readFile(path)
        do { return try decode(data) } catch { throw error.at(path) }
    }

    /// Reads the header (size, colour type, depth, interlace, alpha, text) without decoding.
    public static func info(_ data: [UInt8]) throws(PNGError) -> PNGInfo {
        var header = fbpng_header()
        var err = fbpng_error()
        let status = data.withUnsafeBufferPointer { buf in
            fbpng_read_header(buf.baseAddress, buf.count, UInt32(PixelBuffer.maximumDimension), &header, &err)
        }
        guard status == 0 else { throw _error(status, err) }
        defer { fbpng_free_header(&header) }
        var text: [PNGTextChunk] = []
        for i in 0..<Int(header.text_count) {
            let t = header.texts[i]
            let key = _latin1String(t.key)
            let value = t.utf8 != 0 ? String(cString: t.text) : _latin1String(t.text)
            text.append(PNGTextChunk(key, value))
        }
        let colorType = PNGColorType(rawValue: Int(header.color_type)) ?? .rgba  // libpng validated IHDR
        return PNGInfo(width: Int(header.width), height: Int(header.height), bitDepth: Int(header.bit_depth),
                       colorType: colorType, isInterlaced: header.interlaced != 0,
                       hasAlpha: colorType == .rgba || colorType == .grayAlpha || header.has_trns != 0,
                       text: text)
    }

    /// Checks that `data` is a whole PNG without decoding its pixels: the signature, the header
    /// (size within the limits), then every chunk up to IEND — its length fits in the data and
    /// its CRC matches. Cheap (no inflate, no pixel memory), and it catches files cut short and
    /// damaged bytes; only a zlib stream that is itself invalid under valid CRCs (made on purpose)
    /// passes here and fails ``decode(_:)``.
    public static func validate(_ data: [UInt8]) throws(PNGError) -> PNGInfo {
        let info = try info(data)
        var err = fbpng_error()
        let status = data.withUnsafeBufferPointer { buf in fbpng_check_chunks(buf.baseAddress, buf.count, 1, &err) }
        guard status == 0 else { throw _error(status, err) }
        return info
    }

    /// ``validate(_:)`` for the file at `path`.
    public static func validate(contentsOf path: String) throws(PNGError) -> PNGInfo {
        let data = try _readFile(path)
        do { return try validate(data) } catch { throw error.at(path) }
    }

    /// Reads the header of the PNG file at `path`.
    public static func info(contentsOf path: String) throws(PNGError) -> PNGInfo {
        let data = try _readFile(path)
        do { return try info(data) } catch { throw error.at(path) }
    }

    /// Encodes `image` to PNG bytes.
    public static func encode(_ image: PixelBuffer, options: PNGEncodeOptions = .default) throws(PNGError) -> [UInt8] {
        try _encode(image, options: options)
    }

    /// Encodes `image` and writes it to `path` atomically: the bytes go to a temporary file
    /// in the same folder (`.<name>.tmp-<pid>-<n>`), which is fsync'd and renamed over `path`.
    /// On any error nothing is left behind: neither `path` (if it did not exist) nor the temporary.
    public static func write(_ image: PixelBuffer, to path: String, options: PNGEncodeOptions = .default) throws(PNGError) {
        let bytes: [UInt8]
        do { bytes = try encode(image, options: options) } catch { throw error.at(path) }
        try _writeFileAtomically(bytes, to: path)
    }

    /// The libraries in use, e.g. `libpng 1.6.39, zlib 1.2.13` (zlib: the headers' version).
    public static var libraryVersions: String { String(cString: fbpng_versions()) }

    // MARK: - Internals

    /// Maps a shim status and its message buffer to a ``PNGError``.
    static func _error(_ status: Int32, _ err: fbpng_error) -> PNGError {
        var e = err
        let message = withUnsafeBytes(of: &e.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let kind: PNGError.Kind
        switch UInt32(bitPattern: status) {
        case FBPNG_NOT_PNG.rawValue: kind = .notPNG
        case FBPNG_TRUNCATED.rawValue: kind = .truncated
        case FBPNG_TOO_LARGE.rawValue: kind = .tooLarge
        case FBPNG_INVALID_ARGUMENT.rawValue: kind = .invalidArgument
        case FBPNG_OUT_OF_MEMORY.rawValue: kind = .outOfMemory
        default: kind = .corrupt
        }
        return PNGError(kind: kind, message: message.isEmpty ? "PNG error \(status)" : message)
    }

    /// Latin-1 bytes to a String (each byte is the Unicode scalar of the same value).
    static func _latin1String(_ p: UnsafePointer<CChar>) -> String {
        var s = ""
        var q = UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self)
        while q.pointee != 0 {
            s.unicodeScalars.append(Unicode.Scalar(q.pointee))
            q += 1
        }
        return s
    }
}
