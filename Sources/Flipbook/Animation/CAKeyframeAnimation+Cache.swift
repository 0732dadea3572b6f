import Foundation
import Synchronization

/// What a keyframe animation derives from its `values` and `keyTimes` once instead of at every
/// evaluation: the values boxed as ``_AnimValue``s (boxing an `Any` is a chain of dynamic
/// casts, by far the largest cost of evaluating an animation of many keyframes) and the key
/// times actually used.
///
/// **Invalidation without observers.** An entry is keyed by the *storage* of the array it was
/// made from (the address of its elements, and its count), and it holds that array, so:
/// - setting `values` (or `keyTimes`) to another array gives another storage → a miss;
/// - changing an element in place (`a.values![0] = x`) copies the storage first, because the
///   entry still holds the old one (copy-on-write sees two owners) → a miss;
/// - the storage cannot be freed and its address reused while the entry holds it.
/// So the cache needs no `didSet` and stays right under a subclass that overrides the
/// properties. A boxed value refers to the same objects as the array (a `CGMutablePath` value
/// is boxed by reference), so what evaluation reads is what it read before the cache existed.
/// The key times of the paced modes depend on the values' distances and are not cached.
///
/// A snapshot may be built on any thread: the entry is behind a `Mutex` (uncontended, a few
/// nanoseconds per evaluation).
///
/// `@unchecked Sendable`: the arrays hold the animation's own values (not `Sendable` types), and
/// the entry is only read and written under the animation's lock, handing out copies of
/// immutable arrays of immutable boxes.
struct _KeyframeCache: @unchecked Sendable {
    /// The `values` array the boxed values were made from (nil: none yet).
    var source: [Any]?
    var sourceIsNil = false
    var boxed: [_AnimValue] = []
    /// The `keyTimes` array (nil when it was nil), the count and mode the key times were made for.
    var keyTimesSource: [NSNumber]?
    var keyTimesCount = -1
    var keyTimesMode: CAAnimationCalculationMode?
    var keyTimes: [Double] = []

    /// Carries a non-`Sendable` value into the lock's closure.
    struct Unchecked<T>: @unchecked Sendable { var value: T; init(_ value: T) { self.value = value } }

    /// Whether `a` and `b` share their element storage (same address and count).
    static func sameStorage<T>(_ a: [T], _ b: [T]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress }
        }
    }
}

extension CAKeyframeAnimation {
    /// `values` boxed (elements that cannot be boxed left out), from the cache when `values`
    /// is the array it was made from.
    func _convertedValues() -> [_AnimValue] {
        let current = _KeyframeCache.Unchecked(values)
        return _cache.withLock { c in
            let current = current.value
            switch (current, c.source) {
            case (nil, _) where c.sourceIsNil:
                return c.boxed
            case let (v?, s?) where _KeyframeCache.sameStorage(v, s):
                return c.boxed
            default:
                let boxed = (current ?? []).compactMap { _AnimValue($0) }
                c.source = current; c.sourceIsNil = current == nil; c.boxed = boxed
                return boxed
            }
        }
    }

    /// ``_effectiveKeyTimes(count:distances:)`` without distances (every mode but the paced
    /// ones), from the cache when `keyTimes`, the count and the mode are those it was made for.
    func _cachedKeyTimes(count n: Int) -> [Double] {
        let kt0 = _KeyframeCache.Unchecked(keyTimes), mode = calculationMode
        return _cache.withLock { c in
            let kt = kt0.value
            let sameSource: Bool
            switch (kt, c.keyTimesSource) {
            case (nil, nil): sameSource = true
            case let (a?, b?): sameSource = _KeyframeCache.sameStorage(a, b)
            default: sameSource = false
            }
            if c.keyTimesCount == n, c.keyTimesMode == mode, sameSource { return c.keyTimes }
            let k = _effectiveKeyTimes(count: n)
            c.keyTimesSource = kt; c.keyTimesCount = n; c.keyTimesMode = mode; c.keyTimes = k
            return k
        }
    }
}
