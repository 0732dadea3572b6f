import Foundation
import FlipbookGraphics
extension CALayer {
    /// The image drawn in the bounds. Typed `Any?` as on Apple; Flipbook draws a `CGImage`.
    /// Setting anything else is ignored (with a message on standard error), like any other
    /// wrong-typed KVC value.
    public var contents: Any? {
        get { _state.contents }
        set {
            if newValue == nil { _set(\.contents, nil, key: "contents"); return }
            guard let image = newValue as? CGImage else {
                _KVCDiagnostics.report(.wrongType(key: "contents", expected: "CGImage", got: newValue))
                return
            }
            _set(\.contents, image, key: "contents")
        }
    }
}

extension CALayer {
    /// The shape of the shadow (nil: the layer's own shape). Stored under the KVC key
    /// `shadowPath` (so `setValue(_:forKey: "shadowPath")` and this accessor agree) and
    /// animatable like Apple's (the implicit action covers it; paths do not interpolate, the
    /// value switches halfway).
    public var shadowPath: CGPath? {
        get { _extras["shadowPath"] as? CGPath }
        set {
            let old = _extras["shadowPath"]
            if _kvcEqual(old, newValue) { return }
            _change("shadowPath", old: old, new: newValue) { $0._extras["shadowPath"] = newValue }
        }
    }
}
