/// A two-dimensional image of premultiplied RGBA8 pixels: the type every stage of Flipbook
/// renders into, samples from, encodes and decodes.
///
/// ## Layout
/// - Pixels are stored row by row, top row first, in one contiguous array of bytes.
/// - Each pixel is four bytes in the order **R, G, B, A** (memory order, independent of the
///   machine's endianness). Read as a little-endian `UInt32`, a pixel is `0xAABBGGRR`.
/// - Row `y` starts at byte `y * bytesPerRow`; `bytesPerRow >= width * 4`. Bytes between
///   `width * 4` and `bytesPerRow` in a row are padding: kept zero, never read as pixels.
///
/// ## Invariants
/// - `width >= 0`, `height >= 0`, `bytes.count == bytesPerRow * height`.
/// - Colours are **premultiplied** by alpha: for every pixel `r <= a`, `g <= a`, `b <= a`.
///   Straight (unassociated) colour is converted with ``PixelRounding/premultiply(_:alpha:)``
///   and back with ``PixelRounding/unpremultiply(_:alpha:)``; both rules are documented there
///   and in `docs/pixel-format.md`.
///
/// `PixelBuffer` is a value type with copy-on-write storage; it is `Sendable`, so finished
/// frames can be handed to encoder threads without copying. Hot loops reach the bytes through
/// ``withUnsafeMutableBytes(_:)`` and never allocate per pixel.
public struct PixelBuffer: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance in bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// The pixel bytes, `bytesPerRow * height` of them.
    /// Mutating it directly must keep the count and the premultiplied invariant.
    public var bytes: [UInt8]

    /// The largest width or height Flipbook accepts anywhere (decoded images, frames, buffers).
    ///
    /// 16384 is the texture limit of most GPUs and far above 8K video (7680×4320); a buffer at
    /// the limit on both axes is 1 GiB. Sizes above it are refused *before* allocating.
    public static let maximumDimension = 16_384
    /// The largest pixel count Flipbook accepts (`maximumDimension²`, 1 GiB of RGBA8).
    public static let maximumPixelCount = maximumDimension * maximumDimension

    /// Creates a buffer of transparent black pixels (all bytes zero).
    ///
    /// - Precondition: the size is valid (see ``validateSize(width:height:)``); use
    ///   ``init(validatingWidth:height:)`` to get a thrown error instead.
    public init(width: Int, height: Int) {
        do { try Self.validateSize(width: width, height: height) } catch {
            preconditionFailure("\(error)")
        }
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        self.bytes = [UInt8](repeating: 0, count: width * 4 * height)
    }

    /// Creates a buffer of transparent black pixels, throwing ``PixelBufferError`` for a
    /// zero, negative or oversized request instead of trapping.
    public init(validatingWidth width: Int, height: Int) throws(PixelBufferError) {
        try Self.validateSize(width: width, height: height)
        self.init(width: width, height: height)
    }

    /// Wraps existing premultiplied bytes.
    ///
    /// - Throws: ``PixelBufferError`` when the size is invalid, `bytesPerRow < width * 4`, or
    ///   `bytes.count != bytesPerRow * height`. Premultiplication (`c <= a`) is the caller's
    ///   promise and is checked only by ``isValidPremultiplied``.
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, bytes: [UInt8]) throws(PixelBufferError) {
        try Self.validateSize(width: width, height: height)
        let stride = bytesPerRow ?? width * 4
        guard stride >= width * 4 else { throw .strideTooSmall(bytesPerRow: stride, width: width) }
        guard bytes.count == stride * height else {
            throw .byteCountMismatch(expected: stride * height, actual: bytes.count)
        }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.bytes = bytes
    }

    /// Checks a requested size: both sides at least 1 and at most ``maximumDimension``.
    public static func validateSize(width: Int, height: Int) throws(PixelBufferError) {
        guard width > 0, height > 0 else { throw .emptySize(width: width, height: height) }
        guard width <= maximumDimension, height <= maximumDimension else {
            throw .tooLarge(width: width, height: height, limit: maximumDimension)
        }
    }

    /// Number of pixels (`width * height`).
    @inlinable public var pixelCount: Int { width * height }

    /// Byte offset of pixel (x, y).
    @inlinable public func offset(x: Int, y: Int) -> Int { y * bytesPerRow + x * 4 }

    /// The pixel at (x, y). Traps when out of bounds.
    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
            let o = offset(x: x, y: y)
            return RGBA8(r: bytes[o], g: bytes[o + 1], b: bytes[o + 2], a: bytes[o + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
            let o = offset(x: x, y: y)
            bytes[o] = newValue.r; bytes[o + 1] = newValue.g; bytes[o + 2] = newValue.b; bytes[o + 3] = newValue.a
        }
    }

    /// Calls `body` with the raw bytes (read-only).
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        // `Array.withUnsafeBytes` rethrows untyped; keep the typed error through a Result.
        let result: Result<R, E> = bytes.withUnsafeBytes { raw in
            do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Calls `body` with the raw bytes for writing. The caller must keep the invariants
    /// (premultiplied, padding zero).
    @inlinable
    public mutating func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = bytes.withUnsafeMutableBytes { raw in
            do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Sets every pixel to `color` (premultiplied).
    public mutating func fill(_ color: RGBA8) {
        let w = width, h = height, stride = bytesPerRow
        withUnsafeMutableBytes { raw in
            for y in 0..<h {
                let row = raw.baseAddress! + y * stride
                for x in 0..<w {
                    row.storeBytes(of: color.packed, toByteOffset: x * 4, as: UInt32.self)
                }
            }
        }
    }

    /// True when every pixel satisfies `r, g, b <= a`.
    public var isValidPremultiplied: Bool {
        for y in 0..<height {
            var o = y * bytesPerRow
            for _ in 0..<width {
                let a = bytes[o + 3]
                if bytes[o] > a || bytes[o + 1] > a || bytes[o + 2] > a { return false }
                o += 4
            }
        }
        return true
    }
}

/// Why a ``PixelBuffer`` could not be made.
public enum PixelBufferError: Error, Equatable, CustomStringConvertible, Sendable {
    case emptySize(width: Int, height: Int)
    case tooLarge(width: Int, height: Int, limit: Int)
    case strideTooSmall(bytesPerRow: Int, width: Int)
    case byteCountMismatch(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case let .emptySize(w, h):
            return "invalid image size \(w)×\(h): width and height must be at least 1"
        case let .tooLarge(w, h, limit):
            return "image size \(w)×\(h) exceeds the limit of \(limit)×\(limit) pixels"
        case let .strideTooSmall(stride, w):
            return "bytesPerRow \(stride) is smaller than width × 4 = \(w * 4)"
        case let .byteCountMismatch(expected, actual):
            return "pixel data has \(actual) bytes, expected \(expected)"
        }
    }
}
