/// How colours outside a destination's gamut are mapped (Apple's `CGColorRenderingIntent`).
///
/// Taken by the image initializers that mirror Apple's
/// (`CGImage(jpegDataProviderSource:decode:shouldInterpolate:intent:)` and the PNG one) so that
/// code calling them compiles unchanged. Flipbook has no colour management (every image is
/// sRGB-as-stored), so the intent changes nothing.
public enum CGColorRenderingIntent: Int32, Sendable, Hashable, CaseIterable {
    case defaultIntent = 0
    case absoluteColorimetric = 1
    case relativeColorimetric = 2
    case perceptual = 3
    case saturation = 4
}
