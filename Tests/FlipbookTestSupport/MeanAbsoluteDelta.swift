import FlipbookPixels

/// The mean absolute difference of two images, in levels of 0–255: Σ |a − b| over every pixel
/// and all four channels (R, G, B, A, premultiplied, as stored), divided by `width · height · 4`.
///
/// It is the figure the peers' harness reports between Lottie players and the one the Lottie
/// acceptance tests bound (``LottieReferenceFrame/tolerance``). One pixel off by 255 in one
/// channel of a 512×512 frame is 255 / 1 048 576 ≈ 0.00024; a whole frame off by one level in
/// every channel is 1.0. Row padding (`bytesPerRow > width · 4`) is not counted.
///
/// Images of different sizes are infinitely far apart (`.infinity`): a wrongly sized frame fails
/// every tolerance instead of stopping the test process.
public func meanAbsoluteDelta(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    guard a.width == b.width, a.height == b.height else { return .infinity }
    let rowBytes = a.width * 4
    var sum: UInt64 = 0
    a.withUnsafeBytes { pa in
        b.withUnsafeBytes { pb in
            for y in 0..<a.height {
                let ra = pa.baseAddress! + y * a.bytesPerRow, rb = pb.baseAddress! + y * b.bytesPerRow
                var rowSum: UInt32 = 0  // ≤ 16384 · 4 · 255 < 2³²
                for i in 0..<rowBytes {
                    let x = Int32(ra.load(fromByteOffset: i, as: UInt8.self))
                    let z = Int32(rb.load(fromByteOffset: i, as: UInt8.self))
                    rowSum &+= UInt32(abs(x - z))
                }
                sum += UInt64(rowSum)
            }
        }
    }
    return Double(sum) / Double(rowBytes * a.height)
}
