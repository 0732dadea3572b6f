/// A ``CoverageSink`` that writes coverage into a dense 8-bit mask: pixel (x, y) at
/// `base[(y − y0) · width + (x − x0)]`. Pixels no span mentions are left as they were (callers
/// zero the mask first). Used for clip masks, offscreen shape coverage and multi-shape draws.
public struct CoverageMaskSink: CoverageSink {
    public let base: UnsafeMutablePointer<UInt8>
    public let x0: Int, y0: Int, width: Int

    public init(base: UnsafeMutablePointer<UInt8>, x0: Int, y0: Int, width: Int) {
        self.base = base; self.x0 = x0; self.y0 = y0; self.width = width
    }

    @inlinable
    public mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        (base + (y - y0) * width + (x - x0)).update(from: coverage.baseAddress!, count: coverage.count)
    }

    @inlinable
    public mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        (base + (y - y0) * width + (x - x0)).update(repeating: coverage, count: count)
    }
}
