import Foundation
import FlipbookGraphics

// MARK: - What a particle reads at its birth

/// An emitter as its particles read it: the layer's values (`layer`, its `cells` nil) and its
/// cells frozen into values (sub-cells in `_CellValues.subcells`). The history keeps one per
/// segment; the snapshot makes one of the model as it is for the segment still open.
struct _EmitterValues {
    var layer: _EmitterState
    var cells: [_CellValues]

    init(_ s: _EmitterState) {
        var l = s
        l.cells = nil
        layer = l
        cells = s.cells?.map { $0._frozen() } ?? []
    }

    /// The layer keys an animation can change on these values (the animatable ones).
    static let layerKeys: [String: (get: @Sendable (_EmitterState) -> Any, set: @Sendable (inout _EmitterState, Any?) throws -> Void)] = [
        "birthRate": ({ $0.birthRate }, { $0.birthRate = try _KVCCoercion.float($1, "birthRate") }),
        "lifetime": ({ $0.lifetime }, { $0.lifetime = try _KVCCoercion.float($1, "lifetime") }),
        "velocity": ({ $0.velocity }, { $0.velocity = try _KVCCoercion.float($1, "velocity") }),
        "scale": ({ $0.scale }, { $0.scale = try _KVCCoercion.float($1, "scale") }),
        "spin": ({ $0.spin }, { $0.spin = try _KVCCoercion.float($1, "spin") }),
        "emitterZPosition": ({ $0.zPosition }, { $0.zPosition = try _KVCCoercion.cgFloat($1, "emitterZPosition") }),
        "emitterDepth": ({ $0.depth }, { $0.depth = try _KVCCoercion.cgFloat($1, "emitterDepth") }),
        "emitterPosition": ({ $0.position }, { $0.position = try _KVCCoercion.exact($1, "emitterPosition", "CGPoint") }),
        "emitterSize": ({ $0.size }, { $0.size = try _KVCCoercion.exact($1, "emitterSize", "CGSize") }),
    ]

    /// Whether an animation of `keyPath` changes what particles read: an animatable layer key
    /// (or a component of one) or a key path into the cells.
    static func touches(_ keyPath: String) -> Bool {
        let first = keyPath.prefix { $0 != "." }
        return first == "emitterCells" || layerKeys[String(first)] != nil
    }

    /// The cell at `path` (`<name>(.emitterCells.<name>)…`, the first cell with each name) and
    /// the components after it (the key and any struct components); nil when no cell has a name.
    static func _cellPath(_ cells: [_CellValues], _ path: ArraySlice<Substring>) -> (indices: [Int], rest: ArraySlice<Substring>)? {
        var list = cells, indices: [Int] = [], rest = path
        while let name = rest.first {
            guard let i = list.firstIndex(where: { $0.name == String(name) }) else { return nil }
            indices.append(i)
            rest = rest.dropFirst()
            guard let next = rest.first else { return nil }
            if next == "emitterCells", rest.count >= 2 {
                list = list[i].subcells ?? []
                rest = rest.dropFirst()
                continue
            }
            return (indices, rest)
        }
        return nil
    }

    /// The value at an emitter key path, nil when it names nothing.
    func value(atKeyPath keyPath: String) -> Any? {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = parts.first else { return nil }
        if first == "emitterCells" {
            guard let (indices, rest) = Self._cellPath(cells, parts.dropFirst()), let key = rest.first,
                  let entry = _CellValues.keys[String(key)] else { return nil }
            var cell = cells[indices[0]]
            for i in indices.dropFirst() { cell = cell.subcells![i] }
            let top = entry.get(cell)
            return rest.count == 1 ? top : top.flatMap { try? _StructKeyPath.get($0, rest.dropFirst(), keyPath: keyPath) }
        }
        guard let entry = Self.layerKeys[String(first)] else { return nil }
        let top = entry.get(layer)
        return parts.count == 1 ? top : try? _StructKeyPath.get(top, parts.dropFirst(), keyPath: keyPath)
    }

    /// Sets the value at an emitter key path (throws when it names nothing or the value has
    /// the wrong type).
    mutating func set(_ value: Any?, atKeyPath keyPath: String) throws {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        func unknown() -> LayerKVCError { .unknownKeyPathComponent(keyPath: keyPath, component: String(parts.first ?? "")) }
        guard let first = parts.first else { throw unknown() }
        if first == "emitterCells" {
            guard let (indices, rest) = Self._cellPath(cells, parts.dropFirst()), let key = rest.first,
                  let entry = _CellValues.keys[String(key)] else { throw unknown() }
            func update(_ list: inout [_CellValues], _ at: ArraySlice<Int>) throws {
                let i = at.first!
                if at.count == 1 {
                    var v = value
                    if rest.count > 1 {
                        guard let top = entry.get(list[i]) else { throw unknown() }
                        v = try _StructKeyPath.set(top, rest.dropFirst(), to: value, keyPath: keyPath)
                    }
                    try entry.set(&list[i], v)
                } else {
                    var subs = list[i].subcells ?? []
                    try update(&subs, at.dropFirst())
                    list[i].subcells = subs
                }
            }
            try update(&cells, indices[...])
            return
        }
        guard let entry = Self.layerKeys[String(first)] else { throw unknown() }
        var v = value
        if parts.count > 1 { v = try _StructKeyPath.set(entry.get(layer), parts.dropFirst(), to: value, keyPath: keyPath) }
        try entry.set(&layer, v)
    }

    /// The longest a particle of any cell (sub-cells after their parents) can live, in seconds.
    var longestLife: Double {
        func life(_ c: _CellValues, _ depth: Int) -> Double {
            let own = (Double(c.lifetime) + abs(Double(c.lifetimeRange))) * Double(layer.lifetime)
            guard depth < 64, let subs = c.subcells, !subs.isEmpty else { return own }
            return own + subs.map { max(0, $0.beginTime) + life($0, depth + 1) }.max()!
        }
        return cells.map { life($0, 0) }.max() ?? 0
    }
}

/// An interval of the layer's local time from `start` to the next interval's start (the last
/// one open), during which births read `values`.
struct _EmitterInterval {
    var start: CFTimeInterval
    var values: _EmitterValues
}

// MARK: - The history

/// An animation of emitter values committed to an emitter layer, kept after it is removed:
/// the particles born while it ran read its values.
struct _EmitterAnimationRecord {
    let animation: CAAnimation
    /// Layer-local times: committed at `added`, removed (or replaced) at `removed`.
    let added: CFTimeInterval
    var removed: CFTimeInterval = .infinity

    /// Where the animation's active duration lies in the layer's time, and the equal steps it is
    /// sampled in there (none when it is not finite or has no length).
    var span: (lo: Double, hi: Double, steps: Int) {
        let m = _TimingModel(animation)
        let p0 = m.parentTime(fromLocal: 0)
        if m.speed == 0 { return (p0, p0, 0) }
        let active = m.activeDuration
        let pA = active.isFinite ? m.parentTime(fromLocal: active) : (m.speed > 0 ? .infinity : -.infinity)
        let lo = min(p0, pA), hi = max(p0, pA)
        guard lo.isFinite, hi.isFinite, hi > lo else { return (lo, hi, 0) }
        let n = ((hi - lo) * _EmitterHistory.samplesPerSecond).rounded(.up)
        return (lo, hi, Int(min(max(n, 1), Double(_EmitterHistory.maximumSamplesPerAnimation))))
    }
}

/// An emitter layer's past: the values births read, by layer-local time (see ``CAEmitterLayer``,
/// "What a particle reads at its birth"). Stored in the layer's custom-key storage, so
/// presentation copies and the committed state carry it like any other value.
///
/// `closed` segments run from their `start` to the next one's (the last to `openStart`); from
/// `openStart` on, births read the model as it is. `base` holds, per top-level cell, the births
/// counted before the oldest segment and the anchor they go on from (once older segments
/// were dropped; empty before: none counted, no anchor).
struct _EmitterHistory {
    static let storageKey = "\u{1}CAEmitterLayer.history"
    /// At most this many closed segments (the oldest dropped, with their particles).
    static let maximumSegments = 256
    /// At most this many animation records (the oldest dropped).
    static let maximumRecords = 32
    /// A finite animation is sampled this often (per second of its active duration) …
    static let samplesPerSecond = 60.0
    /// … in at most this many steps.
    static let maximumSamplesPerAnimation = 64

    var closed: [_EmitterInterval] = []
    var openStart: CFTimeInterval = -.infinity
    var base: [CAEmitterLayer._Birth] = []
    var records: [_EmitterAnimationRecord] = []

    /// The intervals births read, from the oldest kept to the open one whose values are `live`;
    /// with `animations`, the recorded animations applied (sampled in steps across a finite
    /// active duration; an infinite one at `now`, the time drawn).
    func intervals(live: _EmitterValues, now: CFTimeInterval, animations: Bool) -> [_EmitterInterval] {
        var base = closed
        base.append(_EmitterInterval(start: openStart, values: live))
        guard animations, !records.isEmpty else { return base }
        let baseStart = base[0].start
        let spans = records.map(\.span)
        var points = base.map(\.start)
        for (r, sp) in zip(records, spans) {
            points.append(r.added)
            if r.removed.isFinite { points.append(r.removed) }
            if sp.steps > 0 {
                let h = (sp.hi - sp.lo) / Double(sp.steps)
                for i in 0...sp.steps {
                    let p = i == sp.steps ? sp.hi : sp.lo + Double(i) * h
                    if p > r.added, p < r.removed { points.append(p) }
                }
            } else {
                for p in [sp.lo, sp.hi] where p.isFinite && p > r.added && p < r.removed { points.append(p) }
            }
        }
        points = Array(Set(points.filter { $0 >= baseStart && !$0.isNaN })).sorted()
        var result: [_EmitterInterval] = []
        result.reserveCapacity(points.count)
        var b = 0
        for (n, p) in points.enumerated() {
            while b + 1 < base.count, base[b + 1].start <= p { b += 1 }
            var values = base[b].values
            let next = n + 1 < points.count ? points[n + 1] : .infinity
            for (r, sp) in zip(records, spans) where r.added <= p && p < r.removed {
                let tau: Double
                if sp.steps > 0 {
                    let mid = next.isFinite ? p + (next - p) / 2 : p
                    if mid >= sp.lo, mid < sp.hi {
                        let h = (sp.hi - sp.lo) / Double(sp.steps)
                        let step = min(max(Int(((mid - sp.lo) / h).rounded(.down)), 0), sp.steps - 1)
                        tau = sp.lo + (Double(step) + 0.5) * h
                    } else {
                        tau = p
                    }
                } else if sp.hi.isInfinite || sp.lo.isInfinite {
                    tau = p >= sp.lo ? now : p          // unbounded: its value at the time drawn
                } else {
                    tau = p
                }
                let state = _TimingModel(r.animation).evaluate(parentTime: tau)
                if state.hasValue { Self.apply(r.animation, state, to: &values) }
            }
            result.append(_EmitterInterval(start: p, values: values))
        }
        return result
    }

    /// Applies an animation (a group's children) at `state` to `values`, as a presentation
    /// copy applies it to a layer.
    static func apply(_ a: CAAnimation, _ state: _TimingState, to values: inout _EmitterValues) {
        switch a {
        case let g as CAAnimationGroup:
            for c in g._children(atGroupTime: state.iterationTime) { apply(c.animation, c.state, to: &values) }
        case let pa as CAPropertyAnimation:
            guard let kp = pa.keyPath, _EmitterValues.touches(kp) else { return }
            let base = values.value(atKeyPath: kp)
            if let v = pa._evaluate(at: state.iterationTime, iteration: state.iteration, base: base) {
                try? values.set(_AnimValue._unwrap(v), atKeyPath: kp)
            }
        default:
            break
        }
    }

    /// Drops the oldest segment when there are too many, keeping the births counted before
    /// the new oldest one (so no later particle changes), and the records that no longer matter.
    mutating func prune(now: CFTimeInterval) {
        while closed.count > Self.maximumSegments {
            let newBase = closed[1].start
            let intervals = self.intervals(live: closed[closed.count - 1].values, now: now, animations: true)
                .filter { $0.start < newBase }
            let cellCount = intervals.map { $0.values.cells.count }.max() ?? 0
            var births: [CAEmitterLayer._Birth] = []
            for i in 0..<cellCount {
                var unused: [CAEmitterLayer._Run]? = nil
                births.append(CAEmitterLayer._walk(intervals, cell: { i < $0.cells.count ? $0.cells[i] : nil },
                                                   base: i < base.count ? base[i] : .init(), now: .infinity, end: newBase,
                                                   runs: &unused))
            }
            base = births
            closed.removeFirst()
        }
        let start = closed.first?.start ?? openStart
        records.removeAll { r in
            if r.removed <= start { return true }
            let sp = r.span
            return sp.hi.isFinite && sp.hi <= start && !_TimingModel(r.animation).evaluate(parentTime: start).hasValue
        }
        if records.count > Self.maximumRecords { records.removeFirst(records.count - Self.maximumRecords) }
    }
}

// MARK: - Stamping changes into the history

extension CAEmitterLayer {
    final var _history: _EmitterHistory? {
        get { _extras[_EmitterHistory.storageKey] as? _EmitterHistory }
        set { _extras[_EmitterHistory.storageKey] = newValue }
    }

    /// Called before any change to what particles read (a layer emitter value, `emitterCells`,
    /// a key path into a cell): closes the segment that was open — its values frozen as they
    /// are now, before the change — at the layer's current local time, and opens a new one
    /// there. Nothing for presentation copies, for a layer never committed (its values are the
    /// ones it starts with), and for a second change at the same time.
    ///
    /// A change at a local time before the open segment's start (the layer's time went back: an
    /// ancestor's timing changed) starts the history again: the values before the change are
    /// taken to have held until then.
    final func _stampEmitterChange() {
        guard _modelLayer == nil, !_isStandingInForPresentation, _runLoop._commitCount != _createdAtCommit else { return }
        let t = _currentLocalTime
        var h = _history ?? _EmitterHistory()
        if t < h.openStart {
            h.closed = []
            h.base = []
            h.openStart = -.infinity
        }
        guard t.isFinite, t > h.openStart else { return }
        _saveCommittedState()   // the committed state keeps the history as it was
        h.closed.append(_EmitterInterval(start: h.openStart, values: _EmitterValues(_emitter)))
        h.openStart = t
        h.prune(now: t)
        _history = h
    }

    /// Around a change of the layer's own timing (`beginTime`, `speed`, `timeOffset`): the
    /// history's times are local times, so they are carried to the new timing — a segment that
    /// began at some moment still begins then. (The common `emitter.beginTime =
    /// CACurrentMediaTime()` restarts the layer's clock at 0; births already stamped keep their
    /// moment.) Not done when either timing is not running forwards (speed ≤ 0); the recorded
    /// animations are not moved (their own timing is in the layer's time, as a stored
    /// animation's is).
    final func _retimingHistory(_ change: () -> Void) {
        guard _modelLayer == nil, !_isStandingInForPresentation, var h = _history else { return change() }
        let old = _timing
        change()
        let new = _timing
        guard old != new, old.speed > 0, new.speed > 0 else { return }
        func map(_ t: CFTimeInterval) -> CFTimeInterval {
            t.isFinite ? new.localTime(fromParent: old.parentTime(fromLocal: t)) : t
        }
        for i in h.closed.indices { h.closed[i].start = map(h.closed[i].start) }
        h.openStart = map(h.openStart)
        _history = h
    }

    /// Called when an animation of this layer is committed: one that changes emitter values is
    /// recorded, so the particles born while it runs keep the values it gave them after it is
    /// gone.
    final func _recordAnimation(_ anim: CAAnimation) {
        guard _modelLayer == nil, !_isStandingInForPresentation, Self._animatesEmitterValues(anim) else { return }
        let t = _currentLocalTime
        guard t.isFinite else { return }
        var h = _history ?? _EmitterHistory()
        h.records.append(_EmitterAnimationRecord(animation: anim, added: t))
        h.prune(now: t)
        _history = h
    }

    /// Called when a committed animation leaves the layer (removed, replaced, or dropped at
    /// its end): its record ends now.
    final func _recordAnimationRemoved(_ anim: CAAnimation) {
        guard _modelLayer == nil, !_isStandingInForPresentation, var h = _history,
              let i = h.records.firstIndex(where: { $0.animation === anim }) else { return }
        let t = _currentLocalTime
        guard t.isFinite, t < h.records[i].removed else { return }
        h.records[i].removed = max(t, h.records[i].added)
        _history = h
    }

    static func _animatesEmitterValues(_ a: CAAnimation) -> Bool {
        switch a {
        case let g as CAAnimationGroup: return (g.animations ?? []).contains { _animatesEmitterValues($0) }
        case let p as CAPropertyAnimation: return p.keyPath.map(_EmitterValues.touches) ?? false
        default: return false
        }
    }
}
