import Foundation
import FlipbookGraphics
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
    ///
    /// A post-order walk with an explicit stack (not recursion), so trees of any depth build
    /// without overflowing the thread's stack: a frame is pushed per layer, its mask and then
    /// its sublayers are built (each at this layer's local time), and the node is made when
    /// the last child is done.
    final func _buildRenderTree(parentTime: CFTimeInterval, record: Bool) -> CARenderLayer {
        var stack = [_RenderBuildFrame(self, parentTime: parentTime)]
        while true {
            let top = stack.count - 1
            if stack[top].next < stack[top].children.count {
                let child = stack[top].children[stack[top].next]
                stack[top].next += 1
                stack.append(_RenderBuildFrame(child, parentTime: stack[top].local))
                continue
            }
            let frame = stack.removeLast()
            let node = frame.layer._renderNode(local: frame.local, built: frame.built, record: record)
            if stack.isEmpty { return node }
            stack[stack.count - 1].built.append(node)
        }
    }

    /// One layer's node, given its local time and its children's nodes (the mask first when
    /// the layer has one, then the sublayers in order).
    final func _renderNode(local: CFTimeInterval, built: [CARenderLayer], record: Bool) -> CARenderLayer {
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
        let hasMask = _mask != nil
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
            mask: hasMask ? built.first : nil,
            sublayers: hasMask ? Array(built.dropFirst()) : built,
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

/// A layer being built by ``CALayer/_buildRenderTree(parentTime:record:)``: its local time, its
/// children (mask first, then sublayers), how many were started, and the nodes built so far.
struct _RenderBuildFrame {
    let layer: CALayer
    let local: CFTimeInterval
    let children: [CALayer]
    var next = 0
    var built: [CARenderLayer] = []

    init(_ layer: CALayer, parentTime: CFTimeInterval) {
        self.layer = layer
        local = layer._hasIdentityTiming ? parentTime : layer._timing.localTime(fromParent: parentTime)
        children = layer._mask.map { [$0] + layer._sublayers } ?? layer._sublayers
        built.reserveCapacity(children.count)
    }
}
