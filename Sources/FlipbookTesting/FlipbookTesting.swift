/// Visual regression testing for Flipbook: compare rendered frames with reviewed reference PNGs.
///
/// - ``ImageComparison`` is the engine (pure Swift on `PixelBuffer`): per-channel deltas,
///   differing pixels, PSNR, perceptual ΔE (CIEDE2000), judged against a ``Tolerance``.
/// - ``DiffImage`` draws what changed over a dimmed grayscale copy of the reference.
/// - ``SnapshotVerifier`` does the file work (reference lookup, record modes, failure
///   artifacts) and returns a ``SnapshotOutcome``; it never reports anything itself.
/// - `assertSnapshot(of:named:…)`, `assertSnapshots(_:…)`, `assertRendering(of:…)` (a render
///   tree, or a live `CALayer` at a media time) and `assertRenderings(of:at:…)` (an animation's
///   frames) report an outcome's failure to Swift Testing (`Issue.record`) or XCTest (`XCTFail`).
/// - With `FLIPBOOK_REPORT=DIR` set, every assertion's comparison is also added to the review
///   page `DIR/index.html` (``ReviewReport``; heat maps by ``HeatMapImage``).
/// - ``LayerRenderer`` turns a render tree into pixels; ``LayerRenderer/default`` is the
///   project's ``Compositor``.
///
/// `docs/visual-testing.md` is the user guide.
import FlipbookRender
import FlipbookCompare
