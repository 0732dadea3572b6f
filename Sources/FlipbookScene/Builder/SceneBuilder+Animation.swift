import Flipbook
import Foundation

/// ``AnimationDescription`` → `CAAnimation` of the described class.
extension SceneBuilder {
    /// A new animation object. `eventKey` is the action key when the animation is an action
    /// (its `keyPath` may be absent: `CAAnimation.run(forKey:…)` then fills in the key, as
    /// Core Animation does).
    func animation(_ d: AnimationDescription, eventKey: String?) -> CAAnimation {
        let a: CAAnimation
        switch d.kind {
        case let .basic(b):
            let x = CABasicAnimation()
            fill(x, b)
            a = x
        case let .spring(s):
            let x = CASpringAnimation()
            fill(x, s.basic)
            if let v = s.mass { x.mass = CGFloat(v) }
            if let v = s.stiffness { x.stiffness = CGFloat(v) }
            if let v = s.damping { x.damping = CGFloat(v) }
            if let v = s.initialVelocity { x.initialVelocity = CGFloat(v) }
            a = x
        case let .keyframe(k):
            let x = CAKeyframeAnimation()
            property(x, k.property)
            x.values = k.values?.map { value($0) ?? NSNull() }
            if let p = k.path { x.path = p }
            x.keyTimes = k.keyTimes?.map { NSNumber(value: $0) }
            x.timingFunctions = k.timingFunctions?.map(\.timingFunction)
            if let m = k.calculationMode { x.calculationMode = m }
            if let r = k.rotationMode { x.rotationMode = r }
            x.tensionValues = k.tensionValues?.map { NSNumber(value: $0) }
            x.continuityValues = k.continuityValues?.map { NSNumber(value: $0) }
            x.biasValues = k.biasValues?.map { NSNumber(value: $0) }
            a = x
        case let .group(children):
            let x = CAAnimationGroup()
            x.animations = children.map { animation($0, eventKey: nil) }
            a = x
        case let .transition(t):
            let x = CATransition()
            x.type = t.type
            x.subtype = t.subtype
            if let v = t.startProgress { x.startProgress = Float(v) }
            if let v = t.endProgress { x.endProgress = Float(v) }
            a = x
        }
        if let v = d.beginTime { a.beginTime = v }
        if let v = d.duration { a.duration = v }
        if let v = d.speed { a.speed = Float(v) }
        if let v = d.timeOffset { a.timeOffset = v }
        if let v = d.repeatCount { a.repeatCount = Float(v) }
        if let v = d.repeatDuration { a.repeatDuration = v }
        if let v = d.autoreverses { a.autoreverses = v }
        if let v = d.fillMode { a.fillMode = v }
        if let v = d.timingFunction { a.timingFunction = v.timingFunction }
        if let v = d.isRemovedOnCompletion { a.isRemovedOnCompletion = v }
        return a
    }

    private func property(_ x: CAPropertyAnimation, _ p: AnimationDescription.PropertyFields) {
        x.keyPath = p.keyPath
        if let v = p.isAdditive { x.isAdditive = v }
        if let v = p.isCumulative { x.isCumulative = v }
        if let v = p.valueFunction { x.valueFunction = CAValueFunction(name: v) }
    }

    private func fill(_ x: CABasicAnimation, _ b: AnimationDescription.BasicAnimation) {
        property(x, b.property)
        x.fromValue = b.fromValue.flatMap { value($0) }
        x.toValue = b.toValue.flatMap { value($0) }
        x.byValue = b.byValue.flatMap { value($0) }
    }

}
