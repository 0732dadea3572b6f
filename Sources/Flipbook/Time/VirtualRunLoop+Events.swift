import Foundation
/// A callback the run loop will deliver at a media time.
struct _Event {
    enum Kind {
        case didStart(CAAnimation)
        case didStop(CAAnimation, finished: Bool)
        case completion(_CompletionGroup)
    }
    let time: CFTimeInterval
    /// Ties on `time` are broken by scheduling order.
    let id: Int
    let kind: Kind
}

/// Scheduling and delivering animation callbacks and completion blocks, in time order.
extension VirtualRunLoop {
    /// Queues `kind` at `time`; returns its id (for cancelling).
    @discardableResult
    func _post(_ kind: _Event.Kind, at time: CFTimeInterval) -> Int {
        let e = _Event(time: time, id: _nextEventID, kind: kind)
        _nextEventID += 1
        // Binary search for the first event later than `time` (equal times keep posting order).
        var lo = 0, hi = _events.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if _events[mid].time <= time { lo = mid + 1 } else { hi = mid }
        }
        _events.insert(e, at: lo)
        return e.id
    }

    func _cancel(_ id: Int) {
        guard id != 0, let i = _events.firstIndex(where: { $0.id == id }) else { return }
        _events.remove(at: i)
    }

    /// Delivers every event with time ≤ `limit`, earliest first; the clock is moved to each
    /// event's time (never backwards) and each delivery ends with committing the implicit
    /// transaction its callback may have opened.
    func _deliverEvents(upTo limit: CFTimeInterval) {
        while let first = _events.first, first.time <= limit {
            _events.removeFirst()
            if first.time > currentTime { currentTime = first.time }
            _deliver(first.kind)
            _commitImplicitIfAlone()
        }
    }

    private func _deliver(_ kind: _Event.Kind) {
        switch kind {
        case .didStart(let anim):
            anim._startEvent = 0
            anim.delegate?.animationDidStart(anim)
        case .didStop(let anim, let finished):
            anim._stopEvent = 0
            if finished, anim._phase == .scheduled {
                if anim.isRemovedOnCompletion {
                    anim._layer?._dropStoredAnimation(anim)
                    anim._phase = .removed
                } else {
                    anim._phase = .finished
                }
            }
            anim.delegate?.animationDidStop(anim, finished: finished)
            _leaveGroups(anim)
        case .completion(let g):
            let block = g.block
            g.block = nil
            block?()
        }
    }

    // MARK: Animations

    /// Resolves a pending stored copy at commit: `beginTime` 0 becomes the commit time; the
    /// start notification is posted at the begin time and the stop one at the end of the
    /// active duration (`_AnimationSchedule`).
    ///
    /// `beginTime` 0 is resolved to the commit time **in the layer's time** (its local time at
    /// the commit, which is the media time unless an ancestor's timing is not the identity).
    func _schedule(_ anim: CAAnimation) {
        if anim.beginTime == 0 { anim.beginTime = anim._layer?._localTime(atMediaTime: currentTime) ?? currentTime }
        anim._phase = .scheduled
        let (start, stop) = _AnimationSchedule.callbackTimes(of: anim, commit: currentTime)
        if anim.delegate != nil, let start { anim._startEvent = _post(.didStart(anim), at: start) }
        if let stop { anim._stopEvent = _post(.didStop(anim, finished: true), at: max(stop, start ?? stop)) }
    }

    /// A stored copy left its layer before its active duration ended.
    func _animationRemovedEarly(_ anim: CAAnimation) {
        switch anim._phase {
        case .pending:
            // Never committed: no notifications, but groups stop waiting for it.
            anim._phase = .removed
            _leaveGroups(anim)
        case .scheduled:
            anim._phase = .removed
            _cancel(anim._startEvent); anim._startEvent = 0
            _cancel(anim._stopEvent)
            anim._stopEvent = _post(.didStop(anim, finished: false), at: currentTime)
        case .finished, .removed, .detached:
            anim._phase = .removed
        }
    }

    /// Adds a new stored copy to the innermost transaction and to every open completion group.
    func _registerPending(_ anim: CAAnimation) {
        let t = _ensureTransaction()
        anim._phase = .pending
        t.pending.append(anim)
        for level in _stack {
            guard let g = level.currentGroup, !g.sealed else { continue }
            g.count += 1; g.everUsed = true
            anim._groups.append(g)
        }
    }

    private func _leaveGroups(_ anim: CAAnimation) {
        let groups = anim._groups
        anim._groups = []
        for g in groups {
            g.count -= 1
            _fireIfDone(g)
        }
    }

    func _fireIfDone(_ g: _CompletionGroup) {
        guard g.sealed, g.count <= 0, !g.fired else { return }
        g.fired = true
        _post(.completion(g), at: currentTime)
    }
}
