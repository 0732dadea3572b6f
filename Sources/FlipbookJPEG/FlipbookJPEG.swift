/// FlipbookJPEG: JPEG bytes to `PixelBuffer`, through libjpeg-turbo's TurboJPEG API
/// (system library `CTurboJPEG`). Decoding only: Flipbook writes PNG and video, never JPEG.
///
/// Entry points are on ``JPEG``; `CGImage(jpegDataProviderSource:decode:shouldInterpolate:intent:)`
/// and the format-sniffing `ImageDecoder` are in FlipbookRender. Limits: docs/limits.md.
import FlipbookPixels
