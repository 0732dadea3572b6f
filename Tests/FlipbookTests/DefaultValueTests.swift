import Testing
@testable import Flipbook
import Foundation

/// `defaultValue(forKey:)` of every class that has it (issue 37, item 6): for each key a class
/// declares, the value is Apple's documented default, of the property's own type, and equal to
/// what a fresh instance's property returns (and, for layers and cells, to what KVC reads).
///
/// Where Apple's values come from: the comments in the SDK headers (CALayer.h, CAShapeLayer.h,
/// CATextLayer.h, CAGradientLayer.h, CAReplicatorLayer.h, CAEmitterLayer.h, CAEmitterCell.h,
/// CAScrollLayer.h, CAAnimation.h, CAMediaTiming.h — "Defaults to …", "Default value is …"),
/// which the property pages of developer.apple.com/documentation/quartzcore repeat. Each
/// table below names its header; a line's comment quotes it where the value is not plain.
@Suite struct DefaultValueTests {
    /// One key's check: `defaultValue(forKey:)` is a `T` equal to `documented`, and so is the
    /// fresh instance's property.
    static func expectDefault<T: Equatable>(_ defaultValue: (String) -> Any?, _ key: String, _ documented: T, property: T,
                                            sourceLocation: SourceLocation = #_sourceLocation) {
        let d = defaultValue(key)
        #expect(d as? T == documented, "defaultValue(forKey: \"\(key)\") is \(String(describing: d)), not \(documented) as a \(T.self)",
                sourceLocation: sourceLocation)
        #expect(property == documented, "a fresh instance's \(key) is \(property), not \(documented)", sourceLocation: sourceLocation)
    }

    /// A key whose documented default is nil: `defaultValue(forKey:)` is nil, so is the property.
    static func expectNil(_ defaultValue: (String) -> Any?, _ key: String, property: Any?,
                         sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(defaultValue(key) == nil, "defaultValue(forKey: \"\(key)\") should be nil", sourceLocation: sourceLocation)
        #expect(_flattenOptional(property) == nil, "a fresh instance's \(key) should be nil", sourceLocation: sourceLocation)
    }

    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let black = CGColor.black   // opaque black (a gray colour, as Apple's `CGColor.black`)
    static let unitRect = CGRect(x: 0, y: 0, width: 1, height: 1)

    /// CALayer.h (and `cornerCurve`, `maskedCorners`, `wantsExtendedDynamicRangeContent` from
    /// their pages). `allowsEdgeAntialiasing` is Flipbook's documented exception (true; Apple
    /// reads it from Info.plist, docs/porting.md).
    @Test func caLayer() {
        withRunLoop { _ in
            let l = CALayer()
            let dv = CALayer.defaultValue(forKey:)
            Self.expectDefault(dv, "bounds", CGRect.zero, property: l.bounds)
            Self.expectDefault(dv, "position", CGPoint.zero, property: l.position)
            Self.expectDefault(dv, "zPosition", CGFloat(0), property: l.zPosition)
            Self.expectDefault(dv, "anchorPoint", CGPoint(x: 0.5, y: 0.5), property: l.anchorPoint)   // "Defaults to '(0.5, 0.5)'"
            Self.expectDefault(dv, "anchorPointZ", CGFloat(0), property: l.anchorPointZ)
            Self.expectDefault(dv, "transform", CATransform3DIdentity, property: l.transform)
            Self.expectDefault(dv, "sublayerTransform", CATransform3DIdentity, property: l.sublayerTransform)
            Self.expectDefault(dv, "hidden", false, property: l.isHidden)
            Self.expectDefault(dv, "doubleSided", true, property: l.isDoubleSided)                  // "Defaults to YES"
            Self.expectDefault(dv, "geometryFlipped", false, property: l.isGeometryFlipped)
            Self.expectDefault(dv, "masksToBounds", false, property: l.masksToBounds)
            Self.expectDefault(dv, "contentsRect", Self.unitRect, property: l.contentsRect)
            Self.expectDefault(dv, "contentsCenter", Self.unitRect, property: l.contentsCenter)
            Self.expectDefault(dv, "contentsGravity", CALayerContentsGravity.resize, property: l.contentsGravity)
            Self.expectDefault(dv, "contentsScale", CGFloat(1), property: l.contentsScale)
            Self.expectDefault(dv, "contentsFormat", CALayerContentsFormat.RGBA8Uint, property: l.contentsFormat)
            Self.expectDefault(dv, "minificationFilter", CALayerContentsFilter.linear, property: l.minificationFilter)
            Self.expectDefault(dv, "magnificationFilter", CALayerContentsFilter.linear, property: l.magnificationFilter)
            Self.expectDefault(dv, "minificationFilterBias", Float(0), property: l.minificationFilterBias)
            Self.expectDefault(dv, "opaque", false, property: l.isOpaque)
            Self.expectDefault(dv, "needsDisplayOnBoundsChange", false, property: l.needsDisplayOnBoundsChange)
            Self.expectDefault(dv, "drawsAsynchronously", false, property: l.drawsAsynchronously)
            Self.expectDefault(dv, "edgeAntialiasingMask", CAEdgeAntialiasingMask([.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]),
                               property: l.edgeAntialiasingMask)
            Self.expectDefault(dv, "allowsEdgeAntialiasing", true, property: l.allowsEdgeAntialiasing)
            Self.expectDefault(dv, "cornerRadius", CGFloat(0), property: l.cornerRadius)
            Self.expectDefault(dv, "maskedCorners", CACornerMask.all, property: l.maskedCorners)       // "Defaults to all four corners"
            Self.expectDefault(dv, "cornerCurve", CALayerCornerCurve.circular, property: l.cornerCurve)
            Self.expectDefault(dv, "borderWidth", CGFloat(0), property: l.borderWidth)
            Self.expectDefault(dv, "borderColor", Optional(Self.black), property: l.borderColor)      // "Defaults to opaque black"
            Self.expectDefault(dv, "opacity", Float(1), property: l.opacity)
            Self.expectDefault(dv, "allowsGroupOpacity", true, property: l.allowsGroupOpacity)
            Self.expectDefault(dv, "shouldRasterize", false, property: l.shouldRasterize)
            Self.expectDefault(dv, "rasterizationScale", CGFloat(1), property: l.rasterizationScale)
            Self.expectDefault(dv, "shadowColor", Optional(Self.black), property: l.shadowColor)      // "Defaults to opaque black"
            Self.expectDefault(dv, "shadowOpacity", Float(0), property: l.shadowOpacity)
            Self.expectDefault(dv, "shadowOffset", CGSize(width: 0, height: -3), property: l.shadowOffset) // "Defaults to (0, -3)"
            Self.expectDefault(dv, "shadowRadius", CGFloat(3), property: l.shadowRadius)              // "Defaults to 3"
            Self.expectDefault(dv, "wantsExtendedDynamicRangeContent", false, property: l.wantsExtendedDynamicRangeContent)
            Self.expectDefault(dv, "beginTime", CFTimeInterval(0), property: l.beginTime)
            Self.expectDefault(dv, "duration", CFTimeInterval(0), property: l.duration)
            Self.expectDefault(dv, "speed", Float(1), property: l.speed)
            Self.expectDefault(dv, "timeOffset", CFTimeInterval(0), property: l.timeOffset)
            Self.expectDefault(dv, "repeatCount", Float(0), property: l.repeatCount)
            Self.expectDefault(dv, "repeatDuration", CFTimeInterval(0), property: l.repeatDuration)
            Self.expectDefault(dv, "autoreverses", false, property: l.autoreverses)
            Self.expectDefault(dv, "fillMode", CAMediaTimingFillMode.removed, property: l.fillMode)
            for key in ["contents", "backgroundColor", "shadowPath", "name", "mask", "sublayers", "actions", "style",
                        "compositingFilter", "filters", "backgroundFilters"] {
                Self.expectNil(dv, key, property: l.value(forKey: key))
            }
            // The Swift names are accepted where Apple's KVC name differs.
            #expect(CALayer.defaultValue(forKey: "isDoubleSided") as? Bool == true)
        }
    }

    /// CAShapeLayer.h: "fillColor … Defaults to opaque black", "fillRule … Defaults to
    /// `non-zero'", strokeColor nil, strokeStart 0 / strokeEnd 1, "lineWidth … Defaults to
    /// one", "miterLimit … Defaults to ten", lineCap `butt`, lineJoin `miter`, phase 0,
    /// pattern nil.
    @Test func caShapeLayer() {
        withRunLoop { _ in
            let s = CAShapeLayer()
            let dv = CAShapeLayer.defaultValue(forKey:)
            Self.expectNil(dv, "path", property: s.path)
            Self.expectDefault(dv, "fillColor", Optional(Self.black), property: s.fillColor)
            Self.expectDefault(dv, "fillRule", CAShapeLayerFillRule.nonZero, property: s.fillRule)
            Self.expectNil(dv, "strokeColor", property: s.strokeColor)
            Self.expectDefault(dv, "strokeStart", CGFloat(0), property: s.strokeStart)
            Self.expectDefault(dv, "strokeEnd", CGFloat(1), property: s.strokeEnd)
            Self.expectDefault(dv, "lineWidth", CGFloat(1), property: s.lineWidth)
            Self.expectDefault(dv, "miterLimit", CGFloat(10), property: s.miterLimit)
            Self.expectDefault(dv, "lineCap", CAShapeLayerLineCap.butt, property: s.lineCap)
            Self.expectDefault(dv, "lineJoin", CAShapeLayerLineJoin.miter, property: s.lineJoin)
            Self.expectDefault(dv, "lineDashPhase", CGFloat(0), property: s.lineDashPhase)
            Self.expectNil(dv, "lineDashPattern", property: s.lineDashPattern)
            // CALayer's keys still answer through the subclass.
            Self.expectDefault(dv, "opacity", Float(1), property: s.opacity)
        }
    }

    /// CATextLayer.h: string nil, "Defaults to the Helvetica font" (Flipbook: nil, meaning its
    /// default face DejaVu Sans; docs/porting.md), "font size. Defaults to 36", foregroundColor
    /// "Defaults to opaque white", wrapped NO, truncationMode `none`, alignmentMode `natural`,
    /// "allowsFontSubpixelQuantization … Defaults to NO".
    @Test func caTextLayer() {
        withRunLoop { _ in
            let t = CATextLayer()
            let dv = CATextLayer.defaultValue(forKey:)
            Self.expectNil(dv, "string", property: t.string)
            Self.expectNil(dv, "font", property: t.font)
            Self.expectDefault(dv, "fontSize", CGFloat(36), property: t.fontSize)
            Self.expectDefault(dv, "foregroundColor", Optional(Self.white), property: t.foregroundColor)
            Self.expectDefault(dv, "wrapped", false, property: t.isWrapped)
            Self.expectDefault(dv, "truncationMode", CATextLayerTruncationMode.none, property: t.truncationMode)
            Self.expectDefault(dv, "alignmentMode", CATextLayerAlignmentMode.natural, property: t.alignmentMode)
            Self.expectDefault(dv, "allowsFontSubpixelQuantization", false, property: t.allowsFontSubpixelQuantization)
            #expect(t.value(forKey: "allowsFontSubpixelQuantization") as? Bool == false)
        }
    }

    /// CAGradientLayer.h: colors and locations nil, "startPoint … Defaults to [.5,0]",
    /// "endPoint … [.5,1]", type `axial`.
    @Test func caGradientLayer() {
        withRunLoop { _ in
            let g = CAGradientLayer()
            let dv = CAGradientLayer.defaultValue(forKey:)
            Self.expectNil(dv, "colors", property: g.colors)
            Self.expectNil(dv, "locations", property: g.locations)
            Self.expectDefault(dv, "startPoint", CGPoint(x: 0.5, y: 0), property: g.startPoint)
            Self.expectDefault(dv, "endPoint", CGPoint(x: 0.5, y: 1), property: g.endPoint)
            Self.expectDefault(dv, "type", CAGradientLayerType.axial, property: g.type)
        }
    }

    /// CAReplicatorLayer.h: "instanceCount … Defaults to one", preservesDepth NO,
    /// instanceDelay 0, instanceTransform identity, "instanceColor … Defaults to opaque white",
    /// the offsets 0.
    @Test func caReplicatorLayer() {
        withRunLoop { _ in
            let r = CAReplicatorLayer()
            let dv = CAReplicatorLayer.defaultValue(forKey:)
            Self.expectDefault(dv, "instanceCount", 1, property: r.instanceCount)
            Self.expectDefault(dv, "preservesDepth", false, property: r.preservesDepth)
            Self.expectDefault(dv, "instanceDelay", CFTimeInterval(0), property: r.instanceDelay)
            Self.expectDefault(dv, "instanceTransform", CATransform3DIdentity, property: r.instanceTransform)
            Self.expectDefault(dv, "instanceColor", Optional(Self.white), property: r.instanceColor)
            Self.expectDefault(dv, "instanceRedOffset", Float(0), property: r.instanceRedOffset)
            Self.expectDefault(dv, "instanceGreenOffset", Float(0), property: r.instanceGreenOffset)
            Self.expectDefault(dv, "instanceBlueOffset", Float(0), property: r.instanceBlueOffset)
            Self.expectDefault(dv, "instanceAlphaOffset", Float(0), property: r.instanceAlphaOffset)
        }
    }

    /// CAEmitterLayer.h: emitterCells nil, "birthRate … Default value is one", "lifetime …
    /// Defaults to one", position/size/depth zero, "emitterShape … `point' (the default)",
    /// "emitterMode … `volume' (the default)", "renderMode … `unordered' (the default)",
    /// preservesDepth NO, velocity, scale and spin "Default value is one", seed 0.
    @Test func caEmitterLayer() {
        withRunLoop { _ in
            let e = CAEmitterLayer()
            let dv = CAEmitterLayer.defaultValue(forKey:)
            Self.expectNil(dv, "emitterCells", property: e.emitterCells)
            Self.expectDefault(dv, "birthRate", Float(1), property: e.birthRate)
            Self.expectDefault(dv, "lifetime", Float(1), property: e.lifetime)
            Self.expectDefault(dv, "emitterPosition", CGPoint.zero, property: e.emitterPosition)
            Self.expectDefault(dv, "emitterZPosition", CGFloat(0), property: e.emitterZPosition)
            Self.expectDefault(dv, "emitterSize", CGSize.zero, property: e.emitterSize)
            Self.expectDefault(dv, "emitterDepth", CGFloat(0), property: e.emitterDepth)
            Self.expectDefault(dv, "emitterShape", CAEmitterLayerEmitterShape.point, property: e.emitterShape)
            Self.expectDefault(dv, "emitterMode", CAEmitterLayerEmitterMode.volume, property: e.emitterMode)
            Self.expectDefault(dv, "renderMode", CAEmitterLayerRenderMode.unordered, property: e.renderMode)
            Self.expectDefault(dv, "preservesDepth", false, property: e.preservesDepth)
            Self.expectDefault(dv, "velocity", Float(1), property: e.velocity)
            Self.expectDefault(dv, "scale", Float(1), property: e.scale)
            Self.expectDefault(dv, "spin", Float(1), property: e.spin)
            Self.expectDefault(dv, "seed", UInt32(0), property: e.seed)
            // KVC reads the same values (every key is reachable, the modes included).
            #expect(e.value(forKey: "birthRate") as? Float == 1)
            #expect(e.value(forKey: "emitterMode") as? CAEmitterLayerEmitterMode == .volume)
            #expect(e.value(forKey: "renderMode") as? CAEmitterLayerRenderMode == .unordered)
            #expect(e.value(forKey: "preservesDepth") as? Bool == false)
        }
    }

    /// CAScrollLayer.h: scrollMode "Defaults to `both'". CATransformLayer declares nothing and
    /// answers as CALayer.
    @Test func caScrollAndTransformLayer() {
        withRunLoop { _ in
            Self.expectDefault(CAScrollLayer.defaultValue(forKey:), "scrollMode", CAScrollLayerScrollMode.both,
                               property: CAScrollLayer().scrollMode)
            Self.expectDefault(CATransformLayer.defaultValue(forKey:), "opacity", Float(1), property: CATransformLayer().opacity)
            #expect(CATransformLayer.defaultValue(forKey: "instanceCount") == nil)
        }
    }

    /// CAEmitterCell.h: name nil, enabled (YES: a new cell draws), "birthRate … Default value
    /// is zero", lifetime and its range "default to zero", the emission angles and range,
    /// velocity and its range, the accelerations zero, "Scale defaults to one, range to zero",
    /// scaleSpeed and spin zero, "`color' defaults to opaque white", the colour ranges and speeds
    /// zero, contents nil, "contentsRect … Defaults to the unit rectangle", contentsScale 1
    /// (CALayer's), filters `linear` (CALayer's "Both properties default to `linear'"), bias 0,
    /// emitterCells nil ("or nil (the default value)"), style nil; CAMediaTiming's defaults.
    @Test func caEmitterCell() {
        let c = CAEmitterCell()
        let dv = CAEmitterCell.defaultValue(forKey:)
        Self.expectNil(dv, "name", property: c.name)
        Self.expectDefault(dv, "enabled", true, property: c.isEnabled)
        Self.expectDefault(dv, "birthRate", Float(0), property: c.birthRate)
        Self.expectDefault(dv, "lifetime", Float(0), property: c.lifetime)
        Self.expectDefault(dv, "lifetimeRange", Float(0), property: c.lifetimeRange)
        Self.expectDefault(dv, "emissionLatitude", CGFloat(0), property: c.emissionLatitude)
        Self.expectDefault(dv, "emissionLongitude", CGFloat(0), property: c.emissionLongitude)
        Self.expectDefault(dv, "emissionRange", CGFloat(0), property: c.emissionRange)
        Self.expectDefault(dv, "velocity", CGFloat(0), property: c.velocity)
        Self.expectDefault(dv, "velocityRange", CGFloat(0), property: c.velocityRange)
        Self.expectDefault(dv, "xAcceleration", CGFloat(0), property: c.xAcceleration)
        Self.expectDefault(dv, "yAcceleration", CGFloat(0), property: c.yAcceleration)
        Self.expectDefault(dv, "zAcceleration", CGFloat(0), property: c.zAcceleration)
        Self.expectDefault(dv, "scale", CGFloat(1), property: c.scale)
        Self.expectDefault(dv, "scaleRange", CGFloat(0), property: c.scaleRange)
        Self.expectDefault(dv, "scaleSpeed", CGFloat(0), property: c.scaleSpeed)
        Self.expectDefault(dv, "spin", CGFloat(0), property: c.spin)
        Self.expectDefault(dv, "spinRange", CGFloat(0), property: c.spinRange)
        Self.expectDefault(dv, "color", Optional(Self.white), property: c.color)
        Self.expectDefault(dv, "redRange", Float(0), property: c.redRange)
        Self.expectDefault(dv, "greenRange", Float(0), property: c.greenRange)
        Self.expectDefault(dv, "blueRange", Float(0), property: c.blueRange)
        Self.expectDefault(dv, "alphaRange", Float(0), property: c.alphaRange)
        Self.expectDefault(dv, "redSpeed", Float(0), property: c.redSpeed)
        Self.expectDefault(dv, "greenSpeed", Float(0), property: c.greenSpeed)
        Self.expectDefault(dv, "blueSpeed", Float(0), property: c.blueSpeed)
        Self.expectDefault(dv, "alphaSpeed", Float(0), property: c.alphaSpeed)
        Self.expectNil(dv, "contents", property: c.contents)
        Self.expectDefault(dv, "contentsRect", Self.unitRect, property: c.contentsRect)
        Self.expectDefault(dv, "contentsScale", CGFloat(1), property: c.contentsScale)
        Self.expectDefault(dv, "minificationFilter", "linear", property: c.minificationFilter)
        Self.expectDefault(dv, "magnificationFilter", "linear", property: c.magnificationFilter)
        Self.expectDefault(dv, "minificationFilterBias", Float(0), property: c.minificationFilterBias)
        Self.expectNil(dv, "emitterCells", property: c.emitterCells)
        Self.expectNil(dv, "style", property: c.style)
        Self.expectDefault(dv, "beginTime", CFTimeInterval(0), property: c.beginTime)
        Self.expectDefault(dv, "duration", CFTimeInterval(0), property: c.duration)
        Self.expectDefault(dv, "speed", Float(1), property: c.speed)
        Self.expectDefault(dv, "timeOffset", CFTimeInterval(0), property: c.timeOffset)
        Self.expectDefault(dv, "repeatCount", Float(0), property: c.repeatCount)
        Self.expectDefault(dv, "repeatDuration", CFTimeInterval(0), property: c.repeatDuration)
        Self.expectDefault(dv, "autoreverses", false, property: c.autoreverses)
        Self.expectDefault(dv, "fillMode", CAMediaTimingFillMode.removed, property: c.fillMode)
        #expect(CAEmitterCell.defaultValue(forKey: "noSuchKey") == nil)
    }

    /// CAAnimation.h and CAMediaTiming.h: the timing defaults (speed 1, fillMode `removed`, the
    /// rest 0 / NO), timingFunction and delegate nil, "removedOnCompletion … Defaults to YES",
    /// preferredFrameRateRange `CAFrameRateRangeDefault`; CAPropertyAnimation additive and
    /// cumulative NO, keyPath and valueFunction nil; CABasicAnimation's values nil;
    /// CAKeyframeAnimation "calculationMode … Defaults to `linear'", the rest nil; CASpringAnimation
    /// "mass … Defaults to one", "stiffness … Defaults to 100", "damping … Defaults to 10",
    /// "initialVelocity … Defaults to zero", allowsOverdamping NO; CATransition "type … Defaults
    /// to `fade'", subtype nil, start/endProgress 0 and 1; CAAnimationGroup animations nil.
    @Test func caAnimations() {
        let a = CABasicAnimation()
        let dv = CABasicAnimation.defaultValue(forKey:)
        Self.expectDefault(dv, "beginTime", CFTimeInterval(0), property: a.beginTime)
        Self.expectDefault(dv, "duration", CFTimeInterval(0), property: a.duration)
        Self.expectDefault(dv, "speed", Float(1), property: a.speed)
        Self.expectDefault(dv, "timeOffset", CFTimeInterval(0), property: a.timeOffset)
        Self.expectDefault(dv, "repeatCount", Float(0), property: a.repeatCount)
        Self.expectDefault(dv, "repeatDuration", CFTimeInterval(0), property: a.repeatDuration)
        Self.expectDefault(dv, "autoreverses", false, property: a.autoreverses)
        Self.expectDefault(dv, "fillMode", CAMediaTimingFillMode.removed, property: a.fillMode)
        Self.expectDefault(dv, "removedOnCompletion", true, property: a.isRemovedOnCompletion)
        Self.expectDefault(dv, "preferredFrameRateRange", CAFrameRateRange.default, property: a.preferredFrameRateRange)
        Self.expectNil(dv, "timingFunction", property: a.timingFunction)
        Self.expectNil(dv, "delegate", property: a.delegate)
        Self.expectDefault(dv, "additive", false, property: a.isAdditive)
        Self.expectDefault(dv, "cumulative", false, property: a.isCumulative)
        Self.expectNil(dv, "keyPath", property: a.keyPath)
        Self.expectNil(dv, "valueFunction", property: a.valueFunction)
        Self.expectNil(dv, "fromValue", property: a.fromValue)
        Self.expectNil(dv, "toValue", property: a.toValue)
        Self.expectNil(dv, "byValue", property: a.byValue)

        let k = CAKeyframeAnimation()
        let kdv = CAKeyframeAnimation.defaultValue(forKey:)
        Self.expectDefault(kdv, "calculationMode", CAAnimationCalculationMode.linear, property: k.calculationMode)
        Self.expectNil(kdv, "values", property: k.values)
        Self.expectNil(kdv, "path", property: k.path)
        Self.expectNil(kdv, "keyTimes", property: k.keyTimes)
        Self.expectNil(kdv, "timingFunctions", property: k.timingFunctions)
        Self.expectNil(kdv, "tensionValues", property: k.tensionValues)
        Self.expectNil(kdv, "continuityValues", property: k.continuityValues)
        Self.expectNil(kdv, "biasValues", property: k.biasValues)
        Self.expectNil(kdv, "rotationMode", property: k.rotationMode)
        Self.expectDefault(kdv, "additive", false, property: k.isAdditive)          // inherited answers
        Self.expectDefault(kdv, "speed", Float(1), property: k.speed)

        let s = CASpringAnimation()
        let sdv = CASpringAnimation.defaultValue(forKey:)
        Self.expectDefault(sdv, "mass", CGFloat(1), property: s.mass)
        Self.expectDefault(sdv, "stiffness", CGFloat(100), property: s.stiffness)
        Self.expectDefault(sdv, "damping", CGFloat(10), property: s.damping)
        Self.expectDefault(sdv, "initialVelocity", CGFloat(0), property: s.initialVelocity)
        Self.expectDefault(sdv, "allowsOverdamping", false, property: s.allowsOverdamping)
        Self.expectNil(sdv, "fromValue", property: s.fromValue)
        Self.expectDefault(sdv, "removedOnCompletion", true, property: s.isRemovedOnCompletion)

        let t = CATransition()
        let tdv = CATransition.defaultValue(forKey:)
        Self.expectDefault(tdv, "type", CATransitionType.fade, property: t.type)
        Self.expectNil(tdv, "subtype", property: t.subtype)
        Self.expectDefault(tdv, "startProgress", Float(0), property: t.startProgress)
        Self.expectDefault(tdv, "endProgress", Float(1), property: t.endProgress)
        Self.expectNil(tdv, "filter", property: t.filter)

        let g = CAAnimationGroup()
        Self.expectNil(CAAnimationGroup.defaultValue(forKey:), "animations", property: g.animations)
        Self.expectDefault(CAAnimationGroup.defaultValue(forKey:), "fillMode", CAMediaTimingFillMode.removed, property: g.fillMode)
        // A key of a sibling class is not declared here.
        #expect(CABasicAnimation.defaultValue(forKey: "mass") == nil && CATransition.defaultValue(forKey: "calculationMode") == nil)
    }

    /// A subclass's override answers for its own keys and changes a built-in key's default for
    /// its instances, and `super` still answers the rest — for the emitter layer too (whose
    /// keys now follow the subclass's defaults, as the shape, gradient and replicator layers'
    /// do), the cell and the animations.
    @Test func subclassOverridesKeepWorking() {
        final class Sparks: CAEmitterLayer {
            override class func defaultValue(forKey key: String) -> Any? {
                switch key {
                case "birthRate": return Float(3)
                case "renderMode": return CAEmitterLayerRenderMode.additive
                case "glow": return CGFloat(0.5)
                default: return super.defaultValue(forKey: key)
                }
            }
        }
        final class Spark: CAEmitterCell {
            override class func defaultValue(forKey key: String) -> Any? {
                key == "glow" ? CGFloat(2) : super.defaultValue(forKey: key)
            }
        }
        final class Pop: CASpringAnimation {
            override class func defaultValue(forKey key: String) -> Any? {
                key == "tag" ? "pop" : super.defaultValue(forKey: key)
            }
        }
        withRunLoop { loop in
            let e = Sparks()
            #expect(e.birthRate == 3 && e.renderMode == .additive && e.lifetime == 1)
            #expect(e.value(forKey: "glow") as? CGFloat == 0.5)
            #expect(Sparks.defaultValue(forKey: "spin") as? Float == 1)
            // The presentation copy answers with the subclass's defaults too.
            let root = liveRoot(loop)
            root.addSublayer(e)
            loop.endTurn()
            let copy = e._presentationCopy(layerTime: loop.currentTime)
            #expect((copy as? CAEmitterLayer)?.birthRate == 3)
            e.birthRate = 5
            #expect(e.birthRate == 5 && e.renderMode == .additive)
        }
        let c = Spark()
        #expect(c.value(forKey: "glow") as? CGFloat == 2 && c.value(forKey: "scale") as? CGFloat == 1)
        let p = Pop()
        #expect(p.value(forKey: "tag") as? String == "pop" && Pop.defaultValue(forKey: "mass") as? CGFloat == 1)
    }
}
