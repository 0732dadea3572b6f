/// Building the immutable render snapshot (`CARenderLayer`) from a layer tree.
extension CALayer {
    /// A snapshot of this layer and its subtree as shown at ``CARunLoop/currentTime`` of the
    /// layer's run loop: **presentation values** (the same evaluation as `presentation()`, each
    /// layer at its own local time), `contents` cross-fades, and a `CATransition` in flight as
    /// a `CARenderTransition` (progress = `startProgress + (endProgress − startProgress) ×
    /// timingFunction(iteration fraction)`).
    ///
    /// Cost: a layer without stored animations copies its model values directly (no copy layer,
    /// no dictionary work beyond an `isEmpty` test of the custom keys); layer time is passed down
    /// the recursion (one multiply-add per layer whose timing is not the identity).
    ///
    /// Each layer remembers the snapshot built for it last, which is what a `CATransition`
    /// added later draws as its "before" state.
    public func makeRenderTree() -> CARenderLayer { _makeRenderTree(at: _runLoop.currentTime, record: true) }

    /// The snapshot at media time `time`.
    final func _makeRenderTree(at time: CFTimeInterval, record: Bool) -> CARenderLayer {
        let parentTime = _timeParent?._localTime(atMediaTime: time) ?? time
        return _buildRenderTree(parentTime: parentTime, record: record)
    }

    /// The snapshot given the local time of this layer's time parent.
    final func _buildRenderTree(parentTime: CFTimeInterval, record: Bool) -> CARenderLayer {
        let local = _hasIdentityTiming ? parentTime : _timing.localTime(fromParent: parentTime)
        var s = _state
        var crossfade: CAContentsCrossfade?
        var shadowPath: CGPath? = _extras.isEmpty ? nil : _extras["shadowPath"] as? CGPath
        var transition: CARenderTransition?
        if !_animations.isEmpty {
            let p = _presentationCopy(layerTime: local)
            s = p._state
            crossfade = p._contentsCrossfade
            if !p._extras.isEmpty { shadowPath = p._extras["shadowPath"] as? CGPath }
            transition = _activeTransition(layerTime: local)
        }
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
            mask: _mask?._buildRenderTree(parentTime: local, record: record),
            sublayers: _sublayers.map { $0._buildRenderTree(parentTime: local, record: record) },
            transition: transition,
            contentsCrossfade: crossfade,
            shadowPath: shadowPath?.elements
        )
        if record { _lastRendered = node }
        return node
    }

    /// The last-added committed `CATransition` with a value at the layer's local time, as a
    /// render transition: its timing (`_TimingModel`) gives the iteration fraction `x`, and
    ///
    ///     progress = startProgress + (endProgress − startProgress) · timingFunction(x)
    final func _activeTransition(layerTime: CFTimeInterval) -> CARenderTransition? {
        for (_, a) in _animations.reversed() {
            guard let t = a as? CATransition, t._phase == .scheduled || t._phase == .finished,
                  let from = t._fromSnapshot, t.duration > 0 else { continue }
            let st = _TimingModel(t).evaluate(parentTime: layerTime)
            guard st.hasValue else { continue }
            let x = st.iterationTime / t.duration
            let eased = t.timingFunction?._solve(x) ?? x
            let p = Double(t.startProgress) + (Double(t.endProgress) - Double(t.startProgress)) * eased
            return CARenderTransition(type: t.type.rawValue, subtype: t.subtype?.rawValue, progress: p, from: from)
        }
        return nil
    }
}
