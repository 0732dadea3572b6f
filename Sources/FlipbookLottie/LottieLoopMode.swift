import Foundation

/// How ``LottieAnimationLayer`` repeats what it plays (lottie-ios's `LottieLoopMode`).
///
/// | mode | Core Animation timing of the play |
/// |---|---|
/// | `.playOnce` | once (`repeatCount` 1) |
/// | `.loop` | forever (`repeatCount = .infinity`) |
/// | `.autoReverse` | forwards then backwards, forever (`autoreverses`) |
/// | `.repeat(n)` | `n` times, fractions allowed |
/// | `.repeatBackwards(n)` | forwards then backwards, `n` times (as lottie-ios: `autoreverses` with `repeatCount = n`) |
public enum LottieLoopMode: Hashable, Sendable {
    /// Plays once, then stops on the last frame.
    case playOnce
    /// Plays from the start to the end again and again, until stopped.
    case loop
    /// Plays forwards, then backwards, again and again, until stopped.
    case autoReverse
    /// Plays from start to end the given number of times.
    case `repeat`(Float)
    /// Plays forwards then backwards the given number of times.
    case repeatBackwards(Float)

    /// The `repeatCount` and `autoreverses` of the animation groups (lottie-ios's mapping,
    /// with `.infinity` for "forever").
    package var timing: (repeatCount: Float, autoreverses: Bool) {
        switch self {
        case .playOnce: return (1, false)
        case .loop: return (.infinity, false)
        case .autoReverse: return (.infinity, true)
        case let .repeat(n): return (n, false)
        case let .repeatBackwards(n): return (n, true)
        }
    }
}

/// Called when a play ends: `true` when it ran to its end, `false` when it was interrupted (by
/// another `play`, `pause()`, `stop()`, setting `currentFrame`, or removing the animation).
/// Called on the layer's run loop at the **virtual** time the play ends (lottie-ios's
/// `LottieCompletionBlock`).
public typealias LottieCompletionBlock = (_ completed: Bool) -> Void
