import Foundation
/// How a layer's `mask` is read — a **Flipbook extension** (Apple's Core Animation has no such
/// API: a mask is always read by its alpha). It exists for importers of After Effects / Lottie
/// files, whose track mattes come in four kinds; it is package API (`CALayer._maskMode`), not
/// part of Flipbook's public, Apple-shaped surface.
///
/// Each mode turns a pixel of the rendered mask, premultiplied `(R, G, B, A)` in 0…255, into the
/// factor `m` (0…255) that multiplies the masked layer's pixel:
///
/// | mode | `m` |
/// |---|---|
/// | `alpha` | `A` (Apple's behaviour, the default) |
/// | `alphaInverted` | `255 − A` |
/// | `luminance` | `Y = ⌊(2125·R + 7154·G + 721·B + 5000) / 10000⌋` |
/// | `luminanceInverted` | `255 − Y` |
///
/// `Y` is the Rec. 709 luma with the weights 0.2125, 0.7154, 0.0721 (those of SVG's
/// `luminanceToAlpha`, lottie-web's luma mattes and ThorVG's `LumaMask`), rounded to nearest
/// (halves up). It is taken on the **premultiplied** channels, so it is the straight colour's
/// luminance times its alpha: a transparent mask pixel has `Y = 0` (hides, as SVG's luminance
/// masks), opaque white `Y = 255`. The inverted modes are `255 −` the plain ones, as ThorVG's
/// `InvAlphaMask` / `InvLumaMask`: where the mask draws nothing — including everywhere outside
/// the mask layer — the content is **fully shown**.
package enum _LayerMaskMode: UInt8, Sendable, Hashable, CaseIterable {
    case alpha, alphaInverted, luminance, luminanceInverted

    /// Whether a transparent mask pixel shows the content (`m = 255` there): the content is
    /// then not limited to where the mask draws.
    package var isInverted: Bool { self == .alphaInverted || self == .luminanceInverted }

    /// `m` for the premultiplied mask pixel `p` (packed `0xAABBGGRR`), per the table above.
    @inlinable @inline(__always)
    package func factor(_ p: UInt32) -> UInt32 {
        switch self {
        case .alpha: return p >> 24
        case .alphaInverted: return 255 - (p >> 24)
        case .luminance: return Self.luminance(p)
        case .luminanceInverted: return 255 - Self.luminance(p)
        }
    }

    /// `Y` of the premultiplied pixel `p`: `⌊(2125·R + 7154·G + 721·B + 5000) / 10000⌋` (the
    /// weights sum to 10000, so opaque white gives exactly 255).
    @inlinable @inline(__always)
    package static func luminance(_ p: UInt32) -> UInt32 {
        let r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF
        return (2125 &* r &+ 7154 &* g &+ 721 &* b &+ 5000) / 10000
    }
}

extension CALayer {
    /// How this layer's ``mask`` is read: its alpha (`.alpha`, Apple's behaviour and the
    /// default), one minus its alpha, its luminance or one minus its luminance (see
    /// ``_LayerMaskMode``). A **Flipbook extension** for Lottie-style track mattes; Apple has no
    /// such property. Set on the layer that owns the mask. Stored with the layer's values, so
    /// presentation copies, `init(layer:)` and render snapshots carry it; not animatable, no
    /// action is searched when it changes.
    package var _maskMode: _LayerMaskMode {
        get { _state.maskMode }
        set {
            guard newValue != _state.maskMode else { return }
            if _modelLayer == nil && !_isStandingInForPresentation {
                _runLoop._ensureTransaction()
                _saveCommittedState()   // the transaction's "before" state; drops kept render nodes
            }
            _state.maskMode = newValue
        }
    }
}
