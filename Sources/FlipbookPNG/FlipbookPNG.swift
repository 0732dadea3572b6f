/// FlipbookPNG: PNG files in and out of `PixelBuffer`, through libpng (C shim `CFlipbookPNG`).
///
/// Entry points are on ``PNG``; see `docs/png.md` for the design, presets and limits.
import FlipbookPixels
