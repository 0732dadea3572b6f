/// Portable SIMD (Swift `SIMD8<UInt32>`, any CPU) source-over with a constant opacity: the
/// `.portable` backend's bulk path for ``SpanBlend/sourceOver(_:source:count:opacity:coverage:backend:)``
/// without coverage. Bit-identical to the scalar twin `_sourceOverScalar` (tested).
///
/// Two channels per 32-bit lane: `rb = p & 0x00FF00FF` holds R and B, `ag = (p >> 8) & 0x00FF00FF`
/// holds G and A, each in a 16-bit half. Products `c · k` (both <= 255) stay below 65536, and
///
///     div255x2(x): t = x + 0x00800080;  ((t + ((t >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF
///
/// is ``PixelRounding/div255(_:)`` on both halves at once (no carry crosses a half:
/// t + (t >> 8) <= 65407). Sums `Sca' + div255(…)` (<= 510) saturate to 255 like the scalar rule.
extension SpanBlend {
    @usableFromInline typealias _V = SIMD8<UInt32>

    @inlinable @inline(__always)
    static func _div255x2(_ x: _V) -> _V {
        let mask = _V(repeating: 0x00FF_00FF)
        let t = x &+ _V(repeating: 0x0080_0080)
        return ((t &+ ((t &>> 8) & mask)) &>> 8) & mask
    }

    /// min(255, v) on both 16-bit halves, for v <= 510.
    @inlinable @inline(__always)
    static func _saturate2(_ v: _V) -> _V {
        let over = (v &>> 8) & _V(repeating: 0x0001_0001)
        return (v | (over &* 0xFF)) & _V(repeating: 0x00FF_00FF)
    }

    /// Processes the largest multiple of 8 pixels of the span; returns how many it did.
    @inlinable
    static func _sourceOverSIMD(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>,
                                count: Int, opacity: UInt32) -> Int {
        let mask = _V(repeating: 0x00FF_00FF)
        let k = _V(repeating: opacity)
        var i = 0
        while i + 8 <= count {
            var s = UnsafeRawPointer(source + i).loadUnaligned(as: _V.self)
            let d = UnsafeRawPointer(dst + i).loadUnaligned(as: _V.self)
            if opacity != 255 {   // Sca' = div255(Sca · opacity)
                s = _div255x2((s & mask) &* k) | (_div255x2(((s &>> 8) & mask) &* k) &<< 8)
            }
            // Dca' = min(255, Sca' + div255(Dca · (255 − Sa')))
            let ia = _V(repeating: 255) &- (s &>> 24)
            let rb = _saturate2((s & mask) &+ _div255x2((d & mask) &* ia))
            let ag = _saturate2(((s &>> 8) & mask) &+ _div255x2(((d &>> 8) & mask) &* ia))
            UnsafeMutableRawPointer(dst + i).storeBytes(of: rb | (ag &<< 8), as: _V.self)
            i &+= 8
        }
        return i
    }
}
