import CTurboJPEG
import FlipbookPixels

/// JPEG bytes to `PixelBuffer` (RGBA8, opaque), through libjpeg-turbo's TurboJPEG API.
///
/// - Decoding accepts 8-bit baseline, extended and progressive JPEGs, Huffman- or
///   arithmetic-coded, in YCbCr, RGB or greyscale (greyscale becomes R = G = B) with any
///   chroma subsampling; every pixel's alpha is 255, so the buffer is trivially premultiplied.
/// - libjpeg's accurate integer IDCT and its smooth ("fancy") chroma upsampling are used, whose
///   SIMD paths give the same bytes as its C code: decoding is deterministic across machines.
/// - **EXIF orientation is not applied**, as Apple's `CGImage(jpegDataProviderSource:…)` does
///   not apply it: the pixels come out as stored (a camera's portrait photo tagged
///   "rotate 90°" decodes sideways). ICC profiles are ignored (samples pass through as stored).
/// - **CMYK and YCCK JPEGs are refused** (``JPEGError/Kind/unsupported``): turning inks into
///   screen colours needs the file's ICC profile, and the naive formulas differ between
///   decoders by whole shades; save such images as RGB.
/// - **Strict**: a truncated file, and any file libjpeg *warns* about (a damaged scan,
///   extraneous bytes, a missing EOI), is an error rather than an image with grey or garbage
///   blocks, as the PNG decoder refuses a bad CRC.
/// - Sizes are checked from the frame header before anything is allocated: each side at most
///   `PixelBuffer.maximumDimension` (the PNG decoder's limit). A progressive JPEG may have at
///   most 500 scans (libjpeg-turbo's limit against scan floods), so no input hangs the decoder.
/// - Every failure is a thrown ``JPEGError``; nothing is printed, nothing traps.
///
/// Decoding from files and telling PNG from JPEG by their first bytes is FlipbookRender's
/// `ImageDecoder` (and `CGImage(contentsOfImageFile:)`).
public enum JPEG {
    /// Whether `data` starts like a JPEG: the SOI marker and the first byte of the next marker,
    /// `FF D8 FF`. Says nothing of the rest.
    public static func hasSignature(_ data: some Collection<UInt8>) -> Bool {
        data.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// Decodes JPEG bytes to an opaque RGBA8 buffer.
    public static func decode(_ data: [UInt8]) throws(JPEGError) -> PixelBuffer {
        let result: Result<PixelBuffer, JPEGError> = data.withUnsafeBufferPointer { d in
            do throws(JPEGError) { return .success(try _decode(d)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads the header (size, colour space, subsampling, coding) without decoding the scans.
    ///
    /// The segments up to the first scan are checked as ``decode(_:)`` checks them, so `info`
    /// fails for a file cut short in its header, but not for one cut short in its scans: use
    /// ``validate(_:)`` for that.
    public static func info(_ data: [UInt8]) throws(JPEGError) -> JPEGInfo {
        let result: Result<JPEGInfo, JPEGError> = data.withUnsafeBufferPointer { d in
            do throws(JPEGError) {
                let handle = try _makeHandle()
                defer { tjDestroy(handle) }
                return .success(try _header(handle, d))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Checks that `data` is a whole JPEG that ``decode(_:)`` accepts, decoding it at ⅛ scale:
    /// every scan's entropy-coded data is read (so truncation and damage are found) while the
    /// output and the inverse DCTs are 64 times smaller than a full decode's.
    public static func validate(_ data: [UInt8]) throws(JPEGError) -> JPEGInfo {
        let result: Result<JPEGInfo, JPEGError> = data.withUnsafeBufferPointer { d in
            do throws(JPEGError) {
                let handle = try _makeHandle()
                defer { tjDestroy(handle) }
                let info = try _header(handle, d)
                let (w, h) = ((info.width + 7) / 8, (info.height + 7) / 8)
                var scratch = [UInt8](repeating: 0, count: w * h * 4)
                let status = scratch.withUnsafeMutableBufferPointer { out in
                    tjDecompress2(handle, d.baseAddress, UInt(d.count), out.baseAddress, Int32(w), Int32(w * 4), Int32(h),
                                  Int32(TJPF_RGBA.rawValue), _flags)
                }
                guard status == 0 else { throw _libraryError(handle) }
                return .success(info)
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: - Internals

    /// Stop at libjpeg's first warning (strictness) and at a progressive JPEG's 501st scan.
    static let _flags = Int32(TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)

    static func _decode(_ d: UnsafeBufferPointer<UInt8>) throws(JPEGError) -> PixelBuffer {
        let handle = try _makeHandle()
        defer { tjDestroy(handle) }
        let info = try _header(handle, d)
        let (w, h) = (info.width, info.height)
        let count = w * h * 4
        var status: Int32 = 0
        // Not zero-filled first: libjpeg writes every byte, and a failed decode is thrown away.
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            status = tjDecompress2(handle, d.baseAddress, UInt(d.count), out.baseAddress, Int32(w), Int32(w * 4), Int32(h),
                                   Int32(TJPF_RGBA.rawValue), _flags)
            initialized = status == 0 ? count : 0
        }
        guard status == 0 else { throw _libraryError(handle) }
        do { return try PixelBuffer(width: w, height: h, bytes: bytes) } catch {
            throw JPEGError(kind: .corrupt, message: "corrupt JPEG: \(error)")  // unreachable: the size was checked
        }
    }

    /// The marker walk, then libjpeg's own header read (for the colour space, which depends on
    /// the JFIF and Adobe markers and the component ids); refuses what ``decode(_:)`` cannot
    /// produce.
    static func _header(_ handle: tjhandle, _ d: UnsafeBufferPointer<UInt8>) throws(JPEGError) -> JPEGInfo {
        let frame = try _walkHeader(d)
        var w: Int32 = 0, h: Int32 = 0, subsamp: Int32 = 0, cs: Int32 = 0
        var colorSpace: JPEGInfo.ColorSpace
        if tjDecompressHeader3(handle, d.baseAddress, UInt(d.count), &w, &h, &subsamp, &cs) == 0 {
            guard Int(w) == frame.width, Int(h) == frame.height else {
                throw JPEGError(kind: .corrupt, message: "corrupt JPEG: libjpeg reads a \(w)x\(h) header where the frame header says \(frame.width)x\(frame.height)")
            }
            switch cs {
            case Int32(TJCS_GRAY.rawValue): colorSpace = .gray
            case Int32(TJCS_RGB.rawValue): colorSpace = .rgb
            case Int32(TJCS_CMYK.rawValue): colorSpace = .cmyk
            case Int32(TJCS_YCCK.rawValue): colorSpace = .ycck
            default: colorSpace = .yCbCr
            }
        } else {
            let error = _libraryError(handle)
            // TurboJPEG 2 refuses to describe sampling factors it has no name for, although
            // libjpeg decodes them: the component count then tells the colour space.
            guard error.message.contains("subsampling") else { throw error }
            colorSpace = frame.sampling.count == 1 ? .gray : frame.sampling.count == 3 ? .yCbCr : .cmyk
        }
        if colorSpace == .cmyk || colorSpace == .ycck {
            throw JPEGError(kind: .unsupported, message: "unsupported JPEG: \(colorSpace) colour is not decoded (it needs the file's ICC profile); save the image as RGB")
        }
        return JPEGInfo(width: frame.width, height: frame.height, colorSpace: colorSpace, subsampling: frame.subsampling,
                        isProgressive: frame.isProgressive, isArithmeticCoded: frame.isArithmeticCoded)
    }

    static func _makeHandle() throws(JPEGError) -> tjhandle {
        guard let handle = tjInitDecompress() else {
            throw JPEGError(kind: .outOfMemory, message: "out of memory: cannot create a JPEG decompressor")
        }
        return handle
    }

    /// The handle's last error as a ``JPEGError``, classified by libjpeg's message.
    static func _libraryError(_ handle: tjhandle) -> JPEGError {
        var message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? ""
        if let colon = message.firstRange(of: "(): ") { message = String(message[colon.upperBound...]) }  // "tjDecompress2(): …"
        if message.isEmpty { message = "libjpeg failed without a message" }
        if message.contains("Premature end of JPEG file") {
            return JPEGError(kind: .truncated, message: "truncated JPEG: \(message)")
        }
        if message.contains("Insufficient memory") {
            return JPEGError(kind: .outOfMemory, message: "out of memory: \(message)")
        }
        if message.hasPrefix("Unsupported") {
            return JPEGError(kind: .unsupported, message: "unsupported JPEG: \(message)")
        }
        return JPEGError(kind: .corrupt, message: "corrupt JPEG: \(message)")
    }
}
