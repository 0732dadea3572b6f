import CFlipbookPNG
import FlipbookPixels

extension PNG {
    /// Encode: validate, pick the output layout, un-premultiply if needed, call the shim.
    ///
    /// Fast path: when every pixel is opaque, premultiplied == straight, so libpng reads the
    /// buffer's own rows (no copy, no un-premultiply) and, by default, drops the alpha byte
    /// (colour type 2). Otherwise the rows are un-premultiplied into one straight copy first.
    static func _encode(_ image: PixelBuffer, options: PNGEncodeOptions) throws(PNGError) -> [UInt8] {
        // PixelBuffer cannot be empty, but a buffer that breaks its invariants still must not reach C.
        guard image.width > 0, image.height > 0 else {
            throw PNGError(kind: .invalidArgument,
                           message: "cannot encode a \(image.width)×\(image.height) image: width and height must be at least 1")
        }
        guard image.width <= PixelBuffer.maximumDimension, image.height <= PixelBuffer.maximumDimension else {
            throw PNGError(kind: .invalidArgument,
                           message: "cannot encode a \(image.width)×\(image.height) image: the limit is \(PixelBuffer.maximumDimension) per side")
        }
        guard image.bytesPerRow >= image.width * 4, image.bytes.count == image.bytesPerRow * image.height else {
            throw PNGError(kind: .invalidArgument,
                           message: "cannot encode: \(image.bytes.count) pixel bytes do not match \(image.width)×\(image.height) with \(image.bytesPerRow) bytes per row")
        }
        try _validate(options)
        let textStorage = try _textStorage(options.text)

        let opaque = _isOpaque(image)
        var format = options._format
        if format == .automatic { format = opaque && options.writesOpaqueAsRGB ? .rgb8 : .rgba8 }

        var params = fbpng_encode_params()
        params.level = Int32(options.compressionLevel)
        params.strategy = options.strategy.zlibValue
        params.filters = options.filter.libpngMask
        params.mem_level = Int32(options.memoryLevel ?? 0)
        params.window_bits = Int32(options.windowBits ?? 0)
        params.buffer_size = options.bufferSize ?? 0
        params.output = format.rawValue
        params.interlace = options.interlaced ? 1 : 0

        if opaque {
            return try image.withUnsafeBytes { (raw) throws(PNGError) -> [UInt8] in
                try _callEncoder(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), image.width, image.height,
                                 image.bytesPerRow, &params, textStorage)
            }
        }
        let straight = _straightCopy(image)
        return try straight.withUnsafeBufferPointer { (buf) throws(PNGError) -> [UInt8] in
            try _callEncoder(buf.baseAddress!, image.width, image.height, image.width * 4, &params, textStorage)
        }
    }

    private static func _callEncoder(_ rows: UnsafePointer<UInt8>, _ width: Int, _ height: Int, _ stride: Int,
                                     _ params: inout fbpng_encode_params,
                                     _ text: (storage: [UInt8], offsets: [(key: Int, value: Int)])) throws(PNGError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var err = fbpng_error()
        let status = text.storage.withUnsafeBufferPointer { store -> Int32 in
            let base = UnsafeRawPointer(store.baseAddress!).assumingMemoryBound(to: CChar.self)
            var chunks = text.offsets.map { fbpng_text(key: base + $0.key, text: base + $0.value, utf8: 0) }
            return chunks.withUnsafeMutableBufferPointer { chunkBuf -> Int32 in
                params.texts = UnsafePointer(chunkBuf.baseAddress)
                params.text_count = Int32(chunkBuf.count)
                defer { params.texts = nil }
                return fbpng_encode(rows, UInt32(width), UInt32(height), stride, &params, &out, &size, &err)
            }
        }
        guard status == 0, let out else { throw _error(status, err) }
        defer { fbpng_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// Knob ranges (the shim checks them again).
    static func _validate(_ o: PNGEncodeOptions) throws(PNGError) {
        func bad(_ what: String) -> PNGError { PNGError(kind: .invalidArgument, message: "invalid PNG option: \(what)") }
        let levels = o.strategy.levelRange
        guard levels.contains(o.compressionLevel) else {
            throw bad("compressionLevel \(o.compressionLevel) is outside \(levels.lowerBound)...\(levels.upperBound) for strategy \(o.strategy.rawValue)")
        }
        if let m = o.memoryLevel, !(1...9).contains(m) { throw bad("memoryLevel \(m) is outside 1...9") }
        if let w = o.windowBits, !(8...15).contains(w) { throw bad("windowBits \(w) is outside 8...15") }
        if let b = o.bufferSize, !(1...(1 << 30)).contains(b) { throw bad("bufferSize \(b) is outside 1...2^30") }
    }

    /// tEXt chunks as NUL-terminated Latin-1 strings in one array, with each string's offset.
    /// Keyword: 1–79 printable Latin-1 characters, no leading/trailing/double spaces. Text:
    /// Latin-1 without NUL.
    static func _textStorage(_ chunks: [PNGTextChunk]) throws(PNGError) -> (storage: [UInt8], offsets: [(key: Int, value: Int)]) {
        var storage: [UInt8] = [0]  // never empty, so baseAddress exists
        var offsets: [(key: Int, value: Int)] = []
        for chunk in chunks {
            func bad(_ why: String) -> PNGError {
                PNGError(kind: .invalidArgument, message: "invalid PNG text keyword \"\(chunk.keyword)\": \(why)")
            }
            let key = chunk.keyword.unicodeScalars
            guard (1...79).contains(key.count) else { throw bad("must be 1 to 79 characters") }
            guard key.allSatisfy({ (32...126).contains($0.value) || (161...255).contains($0.value) }) else {
                throw bad("only printable Latin-1 characters are allowed")
            }
            guard key.first != " ", key.last != " ", !chunk.keyword.contains("  ") else {
                throw bad("no leading, trailing or consecutive spaces")
            }
            guard chunk.text.unicodeScalars.allSatisfy({ $0.value >= 1 && $0.value <= 255 }) else {
                throw PNGError(kind: .invalidArgument,
                               message: "invalid PNG text for \"\(chunk.keyword)\": tEXt holds Latin-1 characters only, without NUL")
            }
            let k = storage.count
            storage += key.map { UInt8($0.value) } + [0]
            let v = storage.count
            storage += chunk.text.unicodeScalars.map { UInt8($0.value) } + [0]
            offsets.append((k, v))
        }
        return (storage, offsets)
    }
}
