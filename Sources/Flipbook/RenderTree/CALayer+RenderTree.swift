import Foundation
import FlipbookGraphics
/// Building the immutable render snapshot (`RenderLayer`) from a layer tree.
///
/// A snapshot is a pure function of the layer tree and a time: building one reads the model and
/// writes nothing (no layer, animation or run loop changes), so it can be taken at any time,
/// any number of times, or not at all, without changing any later snapshot. A recording can
/// therefore start at any frame without snapshotting the frames before it.
extension CALayer {
    /// A snapshot of this layer and its subtree as shown at ``VirtualRunLoop/currentTime`` of the
    /// layer's run loop: **presentation values** (the same evaluation as `presentation()`, each
    /// layer at its own local time), `contents` cross-fades, and a `CATransition` in flight as
    /// a `RenderTransition` (progress = `startProgress + (endProgress − startProgress) ×
    /// timingFunction(iteration fraction)`).
    ///
    /// Cost: a layer without stored animations copies its model values directly (no copy layer,
    /// no dictionary work beyond an `isEmpty` test of the custom keys); layer time is passed down
    /// the recursion (one multiply-add per layer whose timing is not the identity).
    ///
    /// Changes nothing: a transition's "before" picture was recorded when it was added
    /// (`CATransition._fromSnapshot`), not taken from an earlier snapshot.
    public func makeRenderTree() -> RenderLayer { makeRenderTree(at: _runLoop.currentTime) }

    /// The snapshot at media time `time` of the model as it is now: every animation (and
    /// transition) stored on the tree evaluated at `time`, which may differ from the run loop's
    /// clock. Changes nothing.
    public func makeRenderTree(at time: CFTimeInterval) -> RenderLayer { _makeRenderTree(at: time, committed: false) }

    /// The snapshot of this subtree as of its run loop's last outermost commit (each layer's
    /// `_CommittedLayer` when it changed since, else its current model) at the current time:
    /// the "before" picture of a `CATransition` added now.
    final func _makeCommittedRenderTree() -> RenderLayer { _makeRenderTree(at: _runLoop.currentTime, committed: true) }

    /// The snapshot at media time `time`, of the current model or (`committed`) the committed one.
    final func _makeRenderTree(at time: CFTimeInterval, committed: Bool, keepingIn loop: VirtualRunLoop? = nil) -> RenderLayer {
        let parentTime = _timeParent?._localTime(atMediaTime: time) ?? time
        return _buildRenderTree(parentTime: parentTime, committed: committed, keepingIn: loop)
    }

    /// The snapshot of this subtree's **model** values: no animation (and so no transition or
    /// cross-fade) is applied — what `render(in:)` draws ("renders directly from the layer tree,
    /// ignoring any animations added to the render tree").
    package final func _makeModelRenderTree() -> RenderLayer {
        _buildRenderTree(parentTime: _runLoop.currentTime, committed: false, ignoringAnimations: true)
    }

    /// The snapshot given the local time of this layer's time parent.
    ///
    /// A post-order walk with an explicit stack (not recursion), so trees of any depth build
    /// without overflowing the thread's stack: a frame is pushed per layer, its mask and then
    /// its sublayers are built (each at this layer's local time), and the node is made when
    /// the last child is done.
    /// With `keepingIn` (a reusing build, ``RenderTreeReuse``, of a tree of that run loop),
    /// children's kept nodes are taken instead of walked, and every node built whose whole
    /// subtree is time-independent is kept by its layer (`RenderLayer.isKept`; the root's tells
    /// whether the whole snapshot is).
    final func _buildRenderTree(parentTime: CFTimeInterval, committed: Bool,
                                ignoringAnimations: Bool = false, keepingIn loop: VirtualRunLoop? = nil) -> RenderLayer {
        var stack = [_RenderBuildFrame(self, parentTime: parentTime, committed: committed,
                                       contentsFlipped: contentsAreFlipped())]
        while true {
            let top = stack.count - 1
            if stack[top].next < stack[top].children.count {
                let index = stack[top].next
                let child = stack[top].children[index]
                stack[top].next += 1
                // isGeometryFlipped reflects the sublayer space, not the mask's (the owner's own space).
                let isMask = index == 0 && stack[top].hasMask
                let flipped = stack[top].contentsFlipped != (!isMask && stack[top].flipsSublayers)
                // A reusing build takes a child's kept node (an unchanged subtree in which
                // nothing moves with time) instead of walking it.
                if loop != nil, let kept = child._cachedRenderNode, child._cachedRenderNodeFlipped == flipped {
                    stack[top].built.append(kept)
                    continue
                }
                stack.append(_RenderBuildFrame(child, parentTime: stack[top].local, committed: committed,
                                               contentsFlipped: flipped))
                continue
            }
            let frame = stack.removeLast()
            let node = frame.layer._renderNode(local: frame.local, built: frame.built, committed: committed,
                                               ignoringAnimations: ignoringAnimations, contentsFlipped: frame.contentsFlipped)
            if let loop {
                // Kept for the next reusing build when the whole subtree is time-independent.
                let keep = frame.childrenKept && frame.layer._isTimeIndependent(in: loop)
                frame.layer._cachedRenderNode = keep ? node : nil
                node.isKept = keep
                frame.layer._cachedRenderNodeFlipped = frame.contentsFlipped
                if !keep, !stack.isEmpty { stack[stack.count - 1].childrenKept = false }
            }
            if stack.isEmpty { return node }
            stack[stack.count - 1].built.append(node)
        }
    }

    /// One layer's node, given its local time and its children's nodes (the mask first when
    /// the layer has one, then the sublayers in order).
    /// With `committed`, the layer's committed state is read (when it has one); with
    /// `ignoringAnimations`, the model values are used as they are.
    final func _renderNode(local: CFTimeInterval, built: [RenderLayer], committed: Bool,
                           ignoringAnimations: Bool = false, contentsFlipped: Bool = false) -> RenderLayer {
        let saved = committed ? _committed : nil
        var s = saved?.state ?? _state
        let animations = ignoringAnimations ? [] : (saved?.animations ?? _animations)
        var crossfade: ContentsCrossfade?
        var transition: RenderTransition?
        var extras = saved?.extras ?? _extras
        if !animations.isEmpty {
            let p = _presentationCopy(layerTime: local, committed: saved)
            p._displayIfAnimatingDisplayKey()   // a custom key that needs display animates: the copy draws itself
            s = p._state
            extras = p._extras
            crossfade = p._contentsCrossfade
            transition = _activeTransition(layerTime: local, committed: saved)
        }
        let hasMask = (saved == nil ? _mask : saved?.mask) != nil
        var sublayerNodes = hasMask ? Array(built.dropFirst()) : built
        var sortsByDepth = self is CATransformLayer
        if let rep = self as? CAReplicatorLayer {
            let r = rep._replicatorState(in: extras)
            sortsByDepth = r.preservesDepth
            sublayerNodes = _replicate(r, bounds: s.bounds, instance0: sublayerNodes, local: local,
                                       committed: committed, ignoringAnimations: ignoringAnimations)
        }
        var particles: RenderParticles? = nil
        if let emitter = self as? CAEmitterLayer {
            // Particles: after the layer's own content, before its sublayers (flat records,
            // listed first by the node's `sublayers`). From the model's values and history
            // (animations of emitter values are in the history, applied at each birth), not
            // from the presentation copy's values at the time drawn.
            let p = emitter._particles(extras: saved?.extras ?? _extras, local: local, animations: !ignoringAnimations)
            if !p.items.isEmpty { particles = p }
        }
        let node = RenderLayer(
            name: s.name, bounds: s.bounds, position: s.position, zPosition: s.zPosition,
            anchorPoint: s.anchorPoint, anchorPointZ: s.anchorPointZ, transform: s.transform,
            sublayerTransform: s.effectiveSublayerTransform, isHidden: s.isHidden, opacity: s.opacity,
            allowsGroupOpacity: s.allowsGroupOpacity, masksToBounds: s.masksToBounds,
            isDoubleSided: s.isDoubleSided, backgroundColor: s.backgroundColor,
            cornerRadius: s.cornerRadius, maskedCorners: s.maskedCorners, borderWidth: s.borderWidth,
            borderColor: s.borderColor, contents: s.contents, contentsRect: s.contentsRect,
            contentsCenter: s.contentsCenter, contentsGravity: s.contentsGravity,
            contentsScale: s.contentsScale, minificationFilter: s.minificationFilter,
            magnificationFilter: s.magnificationFilter, shadowColor: s.shadowColor,
            shadowOpacity: s.shadowOpacity, shadowOffset: s.shadowOffset, shadowRadius: s.shadowRadius,
            mask: hasMask ? built.first : nil,
            sublayers: sublayerNodes,
            transition: transition,
            contentsCrossfade: crossfade,
            // A mutable path could change under a snapshot that is being rendered: copy it.
            shadowPath: s.shadowPath.map { $0 is CGMutablePath ? $0._copy() : $0 },
            shape: _renderShape(extras: extras),  // CAShapeLayer (CALayer+SubclassHooks.swift)
            contentsAreFlipped: contentsFlipped,
            allowsEdgeAntialiasing: s.allowsEdgeAntialiasing, edgeAntialiasingMask: s.edgeAntialiasingMask,
            gradient: _renderGradient(extras: extras),   // CAGradientLayer (CALayer+SubclassHooks.swift)
            isTransformLayer: self is CATransformLayer, sortsSublayersByDepth: sortsByDepth,
            cornerCurve: s.cornerCurve
        )
        node.particles = particles   // before anyone else sees the node
        // A Flipbook layer with no custom keys has no compositingFilter: no lookup.
        if !extras.isEmpty { node.compositingMode = _CompositingFilter.blendMode(extras["compositingFilter"]) }
        node.maskMode = s.maskMode
        return node
    }

    /// A replicator's sublayer nodes: instance `i` of every sublayer subtree, built at the
    /// replicator's local time `− i · instanceDelay`, wrapped (when it needs it) in a node the
    /// size of the replicator whose `sublayerTransform` is `instanceTransform`ⁱ about the
    /// bounds' centre and whose `tint` is the instance's colour multiplier.
    final func _replicate(_ r: _ReplicatorState, bounds b: CGRect, instance0: [RenderLayer], local: CFTimeInterval,
                          committed: Bool, ignoringAnimations: Bool) -> [RenderLayer] {
        // A hostile count cannot make unbounded work: at most 10,000 instances (documented).
        let count = min(max(r.instanceCount, 0), 10_000)
        guard count > 0 else { return [] }
        let children = committed ? (_committed?.sublayers ?? _sublayers) : _sublayers
        var out: [RenderLayer] = []
        var m = CATransform3DIdentity
        // Without a delay every instance after the first is built at the same time, so from
        // the same tree at the same time: the nodes of instance 1 (immutable) serve them all.
        var undelayed: [RenderLayer]?
        for i in 0..<count {
            let nodes: [RenderLayer]
            if i == 0 {
                nodes = instance0
            } else {
                if r.instanceDelay == 0, let same = undelayed {
                    nodes = same
                } else {
                    let t = local - Double(i) * r.instanceDelay
                    nodes = children.map { $0._buildRenderTree(parentTime: t, committed: committed, ignoringAnimations: ignoringAnimations) }
                    if r.instanceDelay == 0 { undelayed = nodes }
                }
                m = m * r.instanceTransform
            }
            let mult = CAReplicatorLayer._multiplier(r, instance: i)
            let tint = RenderTint(red: mult.0, green: mult.1, blue: mult.2, alpha: mult.3)
            if i == 0 && tint.isIdentity {
                out += nodes
                continue
            }
            out.append(RenderLayer(
                name: nil, bounds: b, position: CGPoint(x: b.midX, y: b.midY), anchorPoint: CGPoint(x: 0.5, y: 0.5),
                sublayerTransform: m, sublayers: nodes, tint: tint.isIdentity ? nil : tint))
        }
        return out
    }

    /// The last-added committed `CATransition` with a value at the layer's local time, as a
    /// render transition: its timing (`_TimingModel`) gives the iteration fraction `x`, and
    ///
    ///     progress = startProgress + (endProgress − startProgress) · timingFunction(x)
    ///
    /// With a `committed` state, its animations are read instead (``CAAnimation/_applies(committed:)``).
    final func _activeTransition(layerTime: CFTimeInterval, committed: _CommittedLayer? = nil) -> RenderTransition? {
        for (_, a) in (committed?.animations ?? _animations).reversed() {
            guard let t = a as? CATransition, t._applies(committed: committed != nil),
                  let from = t._fromSnapshot, t.duration > 0 else { continue }
            let st = _TimingModel(t).evaluate(parentTime: layerTime)
            guard st.hasValue else { continue }
            let x = st.iterationTime / t.duration
            let eased = t.timingFunction?._solve(x) ?? x
            let p = Double(t.startProgress) + (Double(t.endProgress) - Double(t.startProgress)) * eased
            return RenderTransition(type: t.type, subtype: t.subtype, progress: p, from: from)
        }
        return nil
    }
}

/// A layer being built by ``CALayer/_buildRenderTree(parentTime:committed:)``: its local time,
/// its children (mask first, then sublayers), how many were started, and the nodes built so far.
/// With `committed`, the layer's committed state (when it has one) gives its timing and children.
struct _RenderBuildFrame {
    let layer: CALayer
    let local: CFTimeInterval
    let children: [CALayer]
    /// Whether `children` starts with the mask.
    let hasMask: Bool
    /// This layer's `contentsAreFlipped()`, and whether it flips its sublayers' geometry.
    let contentsFlipped: Bool
    let flipsSublayers: Bool
    var next = 0
    var built: [RenderLayer] = []
    /// Whether every child built so far has a kept node (``RenderTreeReuse``).
    var childrenKept = true

    init(_ layer: CALayer, parentTime: CFTimeInterval, committed: Bool, contentsFlipped: Bool) {
        self.layer = layer
        self.contentsFlipped = contentsFlipped
        if committed, let c = layer._committed {
            let s = c.state
            let identity = s.speed == 1 && s.beginTime == 0 && s.timeOffset == 0
            local = identity ? parentTime
                : _TimingModel(beginTime: s.beginTime, duration: 0, speed: Double(s.speed), timeOffset: s.timeOffset)
                    .localTime(fromParent: parentTime)
            children = c.mask.map { [$0] + c.sublayers } ?? c.sublayers
            hasMask = c.mask != nil
            flipsSublayers = s.isGeometryFlipped
        } else {
            local = layer._hasIdentityTiming ? parentTime : layer._timing.localTime(fromParent: parentTime)
            children = layer._mask.map { [$0] + layer._sublayers } ?? layer._sublayers
            hasMask = layer._mask != nil
            flipsSublayers = layer._state.isGeometryFlipped
        }
        built.reserveCapacity(children.count)
    }
}
