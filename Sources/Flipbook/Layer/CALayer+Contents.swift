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
