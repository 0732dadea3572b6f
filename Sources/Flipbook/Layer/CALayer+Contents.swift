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
    /// The shape of the shadow, in the layer's coordinates (nil: the shadow follows the
    /// layer's composited alpha). A typed property like the others, also reachable as the KVC
    /// key `shadowPath`, and animatable like Apple's (the implicit action covers it; paths do
    /// not interpolate, the value switches halfway).
    public var shadowPath: CGPath? {
        get { _state.shadowPath }
        set { _set(\.shadowPath, newValue, key: "shadowPath") }
    }
}
