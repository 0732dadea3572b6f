/// One premultiplied RGBA8 pixel (`r, g, b <= a` for a valid premultiplied colour).
public struct RGBA8: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    @inlinable
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Premultiplies a straight (unassociated) colour with ``PixelRounding/premultiply(_:alpha:)``.
    @inlinable
    public init(straightR r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.init(r: PixelRounding.premultiply(r, alpha: a), g: PixelRounding.premultiply(g, alpha: a),
                  b: PixelRounding.premultiply(b, alpha: a), a: a)
    }

    /// The pixel as it sits in memory, read as a little-endian `UInt32` (`0xAABBGGRR`).
    @inlinable
    public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    /// The inverse of ``packed``.
    @inlinable
    public init(packed p: UInt32) {
        self.init(r: UInt8(truncatingIfNeeded: p), g: UInt8(truncatingIfNeeded: p >> 8),
                  b: UInt8(truncatingIfNeeded: p >> 16), a: UInt8(truncatingIfNeeded: p >> 24))
    }

    public static let transparent = RGBA8(r: 0, g: 0, b: 0, a: 0)
    public static let black = RGBA8(r: 0, g: 0, b: 0, a: 255)
    public static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)

    public var description: String { "RGBA8(\(r), \(g), \(b), \(a))" }
}
