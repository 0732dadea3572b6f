import Dispatch

/// Moving op lists instead of copying them: an op holds references (its shapes array, its
/// boxed paint, the paint's texture), and copying a list retains each of them and freeing the
/// source releases each again. With 10,000 particle draws per frame, appending the planner's
/// chunk lists and freeing the frame's list were ~6 % of a 2-thread frame, all on one thread.
///
/// A moved-from slot is re-initialised with ``placeholder`` (no references), so the source
/// array stays valid and frees trivially; the moved values keep their reference counts.
enum _OpMoves {
    /// An op without references, left in the slots ops were moved out of.
    static let placeholder = _Op.push(bounds: .empty)

    /// `ops + lists[0] + lists[1] + …`, moving every element (the lists are left holding
    /// placeholders). The same list, op for op, as appending copies.
    ///
    /// The result is a new array (an `Array` cannot be grown by moving into its spare
    /// capacity), so `ops` is moved too; that is done only when the lists hold at least as
    /// many ops as `ops` — the list at least doubles, so a tree with many parallel-planned
    /// layers moves each op O(1) times in all — and the lists are appended as copies otherwise.
    static func concatenate(_ ops: inout [_Op], _ lists: inout [[_Op]]) {
        let total = lists.reduce(ops.count) { $0 + $1.count }
        guard total > ops.count else { return }
        guard total - ops.count >= ops.count else {
            for list in lists { ops.append(contentsOf: list) }
            lists = []
            return
        }
        let merged = [_Op](unsafeUninitializedCapacity: total) { buf, count in
            var at = buf.baseAddress!
            func take(_ list: inout [_Op]) {
                list.withUnsafeMutableBufferPointer { p in
                    guard let src = p.baseAddress, p.count > 0 else { return }
                    at.moveInitialize(from: src, count: p.count)
                    src.initialize(repeating: placeholder, count: p.count)
                    at += p.count
                }
            }
            take(&ops)
            for i in lists.indices { take(&lists[i]) }
            count = total
        }
        ops = merged
        lists = []
    }

    /// Frees the ops' references on `workers` threads (contiguous slices), leaving placeholders:
    /// the release of a large frame's list no longer runs on one thread after the bands.
    static func release(_ ops: inout [_Op], workers: Int) {
        let n = ops.count
        guard workers > 1, n >= 1024 else { return }
        ops.withUnsafeMutableBufferPointer { p in
            let base = _SendableOps(p: p.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: workers) { k in
                let lo = k * n / workers, hi = (k + 1) * n / workers
                (base.p + lo).deinitialize(count: hi - lo)
                (base.p + lo).initialize(repeating: placeholder, count: hi - lo)
            }
        }
    }
}

struct _SendableOps: @unchecked Sendable { let p: UnsafeMutablePointer<_Op> }
