import Foundation
/// A layer is a timed object: its `beginTime`, `speed` and `timeOffset` map its superlayer's
/// time to its own (see `CALayer+Timing.swift`). The typed properties themselves are declared in
/// the class body (`CALayer.swift`), so that subclasses can override them as on Apple.
extension CALayer: CAMediaTiming {}
