// The Core Animation-compatible model: layers, actions, transactions, timing, animations.
@_exported import Foundation
@_exported import FlipbookPixels
