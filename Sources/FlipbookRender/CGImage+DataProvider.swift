import Flipbook
import FlipbookPixels
import Foundation

/// Apple's image initializers from a data provider, for JPEG and PNG.
///
///     let provider = CGDataProvider(data: jpegBytes as CFData)!
///     let image = CGImage(jpegDataProviderSource: provider, decode: nil,
///                         shouldInterpolate: true, intent: .defaultIntent)
///
/// As on Apple they are failable: nil when the provider's bytes are not that format (PNG bytes
/// to the JPEG initializer, and the reverse) or cannot be decoded. Unlike Apple, the image is
/// decoded at once (Apple decodes at first draw), so a truncated or corrupt file gives nil here
/// rather than an image that draws grey; the thrown errors that say why are
/// `CGImage(jpegData:)`, `CGImage(pngData:)` and `CGImage(imageData:)`.
///
/// `shouldInterpolate` and `intent` are accepted and change nothing: a layer samples its
/// contents with its `minificationFilter`/`magnificationFilter`, a context with its
/// `interpolationQuality`, and Flipbook has no colour management. `decode` is honoured.
extension CGImage {
    /// Decodes the provider's JPEG bytes (Apple's initializer); nil when they are not a JPEG
    /// Flipbook decodes.
    ///
    /// - Parameter decode: nil, or Apple's decode array: a `(min, max)` pair per colour
    ///   component (one for a greyscale JPEG, three otherwise) remapping each value `v` in 0…1
    ///   to `min + v · (max − min)`; `[1, 0, 1, 0, 1, 0]` inverts an RGB image.
    public convenience init?(jpegDataProviderSource source: CGDataProvider, decode: UnsafePointer<CGFloat>?,
                             shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        guard let pixels = Self._decodeProvider(source, as: .jpeg, decode: decode) else { return nil }
        self.init(pixelBuffer: pixels)
    }

    /// Decodes the provider's PNG bytes (Apple's initializer); nil when they are not a PNG
    /// Flipbook decodes.
    ///
    /// - Parameter decode: nil, or Apple's decode array: a `(min, max)` pair per colour
    ///   component (one for grey, three for RGB and palette images), then one for alpha when
    ///   the PNG has an alpha channel or `tRNS`.
    public convenience init?(pngDataProviderSource source: CGDataProvider, decode: UnsafePointer<CGFloat>?,
                             shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        guard let pixels = Self._decodeProvider(source, as: .png, decode: decode) else { return nil }
        self.init(pixelBuffer: pixels)
    }

    /// The provider's pixels when its bytes are `format`, with `decode` applied.
    static func _decodeProvider(_ source: CGDataProvider, as format: ImageFormat, decode: UnsafePointer<CGFloat>?) -> PixelBuffer? {
        let bytes = [UInt8](source.data)
        guard ImageFormat(sniffing: bytes) == format, var pixels = try? ImageDecoder.decode(bytes) else { return nil }
        if let decode {
            guard let info = try? ImageDecoder.info(bytes) else { return nil }
            _applyDecodeArray(decode, to: &pixels, colorComponents: info.colorComponentCount, hasAlpha: info.hasAlpha)
        }
        return pixels
    }

    /// Remaps premultiplied pixels by a decode array: each straight colour value `c` (and alpha
    /// `a` when `hasAlpha`) in 0…1 becomes `min + c · (max − min)`, clamped to 0…1 (NaN → 0),
    /// then is premultiplied again with rounding to nearest. One pair serves R, G and B when
    /// `colorComponents` is 1. The identity `[0, 1, …]` leaves every byte as it was.
    static func _applyDecodeArray(_ decode: UnsafePointer<CGFloat>, to image: inout PixelBuffer, colorComponents: Int, hasAlpha: Bool) {
        func unit(_ x: CGFloat) -> Double { x.isNaN ? 0 : min(max(Double(x), 0), 1) }
        let pairs = (0..<(colorComponents + (hasAlpha ? 1 : 0))).map { k in (lo: Double(decode[2 * k]), hi: Double(decode[2 * k + 1])) }
        let colour = colorComponents == 1 ? [pairs[0], pairs[0], pairs[0]] : Array(pairs[0..<3])
        let alpha = hasAlpha ? pairs[colorComponents] : nil
        let (width, height, stride) = (image.width, image.height, image.bytesPerRow)
        image.withUnsafeMutableBytes { p in
            for y in 0..<height {
                for x in 0..<width {
                    let o = y * stride + x * 4
                    let a = Double(p[o + 3]) / 255
                    let a2 = alpha.map { unit(CGFloat($0.lo + a * ($0.hi - $0.lo))) } ?? a
                    for c in 0..<3 {
                        let straight = p[o + 3] == 0 ? 0 : Double(p[o + c]) / Double(p[o + 3])
                        let v = unit(CGFloat(colour[c].lo + straight * (colour[c].hi - colour[c].lo)))
                        p[o + c] = UInt8((v * a2 * 255).rounded())
                    }
                    p[o + 3] = UInt8((a2 * 255).rounded())
                }
            }
        }
    }
}
