/// Building the immutable render snapshot (`CARenderLayer`) from a layer tree.
extension CALayer {
    /// A snapshot of this layer and its subtree from the *model* values (the presentation
    /// integration later substitutes presentation values), at ``CARunLoop/currentTime`` of the
    /// layer's run loop. A `CATransition` active at that time is included as
    /// `CARenderTransition` with linear progress (`startProgress`…`endProgress`; the timing
    /// function is applied by the integration).
    ///
    /// Each layer remembers the snapshot built for it last, which is what a `CATransition`
    /// added later draws as its "before" state.
    public func makeRenderTree() -> CARenderLayer { _makeRenderTree(at: _runLoop.currentTime, record: true) }

    final func _makeRenderTree(at time: CFTimeInterval, record: Bool) -> CARenderLayer {
        let s = _state
        let node = CARenderLayer(
            name: s.name, bounds: s.bounds, position: s.position, zPosition: s.zPosition,
            anchorPoint: s.anchorPoint, anchorPointZ: s.anchorPointZ, transform: s.transform,
            sublayerTransform: s.sublayerTransform, isHidden: s.isHidden, opacity: s.opacity,
            allowsGroupOpacity: s.allowsGroupOpacity, masksToBounds: s.masksToBounds,
            isDoubleSided: s.isDoubleSided, backgroundColor: s.backgroundColor,
            cornerRadius: s.cornerRadius, maskedCorners: s.maskedCorners, borderWidth: s.borderWidth,
            borderColor: s.borderColor, contents: s.contents, contentsRect: s.contentsRect,
            contentsCenter: s.contentsCenter, contentsGravity: s.contentsGravity,
            contentsScale: s.contentsScale, minificationFilter: s.minificationFilter,
            magnificationFilter: s.magnificationFilter, shadowColor: s.shadowColor,
            shadowOpacity: s.shadowOpacity, shadowOffset: s.shadowOffset, shadowRadius: s.shadowRadius,
            mask: _mask?._makeRenderTree(at: time, record: record),
            sublayers: _sublayers.map { $0._makeRenderTree(at: time, record: record) },
            transition: _activeTransition(at: time)
        )
        if record { _lastRendered = node }
        return node
    }

    /// The last-added `CATransition` in its active time at `time`, as a render transition.
    final func _activeTransition(at time: CFTimeInterval) -> CARenderTransition? {
        for (_, a) in _animations.reversed() {
            guard let t = a as? CATransition, t._phase == .scheduled, let from = t._fromSnapshot else { continue }
            let active = _AnimationSchedule.activeDuration(of: t)
            guard time >= t.beginTime, time < t.beginTime + active, t.duration > 0 else { continue }
            let local = ((time - t.beginTime) * Double(abs(t.speed))).truncatingRemainder(dividingBy: t.duration)
            let f = local / t.duration
            let p = Double(t.startProgress) + (Double(t.endProgress) - Double(t.startProgress)) * f
            return CARenderTransition(type: t.type.rawValue, subtype: t.subtype?.rawValue, progress: p, from: from)
        }
        return nil
    }
}
