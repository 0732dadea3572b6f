// The Core Animation-compatible model: layers, actions, transactions, timing, animations.
@_exported import Foundation
@_exported import FlipbookPixels

/// Core Foundation's time interval type, in seconds (Foundation on Linux lacks it).
public typealias CFTimeInterval = Double
