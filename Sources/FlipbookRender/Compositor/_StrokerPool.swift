import FlipbookRaster
import Foundation

/// Path strokers kept from one stroked shape to the next, and from frame to frame.
///
/// A ``PathStroker`` keeps its scratch (the outline's sides, the centre line, the self-crossing
/// search's keys, boxes and pairs) between strokes, so a stroker used again allocates nothing
/// once its arrays have grown. The planner used to make a new one for every stroked shape of
/// every frame: on 1,500 shape layers (`w7-layers`) a tenth of the frame went to malloc, memset
/// and page faults for that scratch. The planner may plan sublayers on several threads, so the
/// strokers are handed out and taken back under a lock; at most `capacity` are kept (one per
/// planning thread is the steady state).
///
/// A stroker's results do not depend on what it stroked before (each `stroke` starts from empty
/// arrays, only their capacity is reused), so the bytes are those of a fresh stroker.
final class _StrokerPool: @unchecked Sendable {
    static let shared = _StrokerPool()
    /// The most strokers kept (more than the threads that plan at once are dropped).
    static let capacity = 16

    private let lock = NSLock()
    private var free: [PathStroker] = []

    /// A stroker no one else holds: a kept one, or a new one.
    func take() -> PathStroker {
        lock.lock()
        defer { lock.unlock() }
        return free.popLast() ?? PathStroker()
    }

    /// Gives `stroker` back; the caller must not use it afterwards.
    func give(_ stroker: PathStroker) {
        lock.lock()
        defer { lock.unlock() }
        if free.count < Self.capacity { free.append(stroker) }
    }
}
