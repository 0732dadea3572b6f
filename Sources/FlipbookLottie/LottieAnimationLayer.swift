import Foundation
import Flipbook

/// A layer that plays a Lottie animation (lottie-ios's `LottieAnimationLayer`): its sublayers
/// are the animation mapped onto Core Animation layer classes, animated by real
/// `CAAnimation`s on its run loop's virtual clock.
///
///     let layer = LottieAnimationLayer(animation: try LottieAnimation.load(filepath: "logo.json"))
///     layer.loopMode = .loop
///     layer.play()
///     root.addSublayer(layer)          // and record `root` with a Recorder
///
/// It is a layer like any other: place it anywhere in a tree, animate its own position,
/// transform or opacity. The animation is drawn at its composition size, scaled to fit the
/// layer's bounds (aspect fit, centred — `LottieAnimationView`'s default content mode) and
/// clipped to the composition (``maskAnimationToBounds``). A new layer's bounds are the
/// composition's, and it shows the first frame, paused.
///
/// **Playing.** `play…` methods play a range of frames once or in a loop (``loopMode``) at
/// ``animationSpeed``; ``pause()`` freezes on the frame shown, ``stop()`` returns to the first
/// frame; setting ``currentFrame`` (or ``currentProgress`` / ``currentTime``) pauses on that
/// frame. As in lottie-ios, a play starts from the **frame shown** when that frame lies inside
/// the range played (resuming a paused animation), else from the range's first frame; a
/// negative ``animationSpeed`` plays the range backwards. The completion block is called on the
/// run loop at the virtual time the play ends, with `true`, or with `false` when the play is
/// interrupted by another play, a pause, a stop or a new current frame. It is never called for
/// a play that loops forever, unless interrupted.
///
/// **How.** Building the layer maps the composition once (``LottieLayerMapper``): each layer
/// property gets a keyframe animation spanning the whole timeline. A play wraps each layer's
/// animations in one `CAAnimationGroup` carrying the range, speed and loop mode
/// (``LottiePlayTiming``) — no per-frame work: every frame's values are Core Animation's
/// presentation values at that time.
public final class LottieAnimationLayer: CALayer, FlipbookPresentationCopying {
    /// The animation; setting it rebuilds the tree (paused on the first frame).
    public var animation: LottieAnimation? {
        didSet { if _isModel { rebuild() } }
    }

    /// How ``play(completion:)`` and the other `play` methods repeat (default `.playOnce`).
    /// Changing it during a play continues the play from the current frame with the new mode.
    public var loopMode: LottieLoopMode = .playOnce {
        didSet { if _isModel, !_isStarting, oldValue != loopMode { updateInFlightPlay() } }
    }

    /// The playback rate (default 1; 2 plays twice as fast; negative plays backwards). Changing
    /// it during a play continues the play from the current frame at the new rate.
    public var animationSpeed: CGFloat = 1 {
        didSet { if _isModel, oldValue != animationSpeed { updateInFlightPlay() } }
    }

    /// Clips the animation to its composition bounds (default true, as lottie-ios).
    public var maskAnimationToBounds: Bool = true {
        didSet { withoutActions { content?.masksToBounds = maskAnimationToBounds } }
    }

    /// Everything in the animation that is not drawn exactly: the parser's warnings, then the
    /// layer mapping's, each once.
    public private(set) var warnings: [LottieWarning] = []

    /// Where warnings are reported when the tree is built.
    public let logger: LottieLogger

    // MARK: State

    /// The mapped composition (its root layer, sized to the composition) and the layers with
    /// animations.
    private var content: CALayer?
    private var animatedLayers: [(layer: CALayer, animations: [CAAnimation])] = []
    /// The timing installed on the tree.
    private var timing: LottiePlayTiming?
    /// The play in flight: its range (before any resume), loop mode and completion.
    private var play: Play?
    private struct Play {
        let from: Double, to: Double
        let completion: Completion
        let sentinel: SentinelDelegate
    }

    /// The key of the group each animated layer gets, and of the completion sentinel.
    static let groupKey = "lottie"
    static let completionKey = "lottie.completion"

    /// False on presentation copies (they never rebuild or play).
    private var _isModel = true
    /// True while a `play` call sets ``loopMode`` (the play in flight is replaced, not updated).
    private var _isStarting = false

    // MARK: Lifecycle

    /// A layer showing `animation`'s first frame, paused, with bounds the composition's size.
    /// Warnings go to `logger` (standard error by default).
    public init(animation: LottieAnimation?, logger: LottieLogger = .shared) {
        self.animation = animation
        self.logger = logger
        super.init()
        if let animation { bounds = CGRect(origin: .zero, size: animation.size) }
        rebuild()
    }

    /// A presentation copy (Core Animation's `init(layer:)`): the animation and settings, not
    /// the tree.
    public required override init(layer: Any) {
        let other = layer as? LottieAnimationLayer
        logger = other?.logger ?? .shared
        super.init(layer: layer)
        _isModel = false
        animation = other?.animation
        loopMode = other?.loopMode ?? .playOnce
        animationSpeed = other?.animationSpeed ?? 1
        maskAnimationToBounds = other?.maskAnimationToBounds ?? true
        warnings = other?.warnings ?? []
        timing = other?.timing
    }

    /// Archives are not supported (see `CALayer.init(coder:)`): always nil.
    public required init?(coder: NSCoder) { return nil }

    // MARK: Frames

    /// The frame shown now (on the layer's run loop clock). Setting it stops any play (its
    /// completion is called with `false`) and pauses on that frame.
    public var currentFrame: AnimationFrameTime {
        get { AnimationFrameTime(shownFrame()) }
        set { pause(atFrame: Double(newValue)) }
    }

    /// ``currentFrame`` as a progress from 0 (``LottieAnimation/startFrame``) to 1
    /// (``LottieAnimation/endFrame``); setting it pauses there.
    public var currentProgress: AnimationProgressTime {
        get { animation.map { $0.progressTime(forFrame: currentFrame) } ?? 0 }
        set { currentFrame = animation.map { $0.frameTime(forProgress: newValue) } ?? 0 }
    }

    /// ``currentFrame`` in seconds from the start frame; setting it pauses there.
    public var currentTime: TimeInterval {
        get { animation.map { $0.time(forFrame: currentFrame) } ?? 0 }
        set { currentFrame = animation.map { $0.frameTime(forTime: newValue) } ?? 0 }
    }

    /// The frame shown now (the same as ``currentFrame`` here: Flipbook's clock is virtual, so
    /// the model and what is on screen never disagree).
    public var realtimeAnimationFrame: AnimationFrameTime { currentFrame }

    /// ``realtimeAnimationFrame`` as a progress.
    public var realtimeAnimationProgress: AnimationProgressTime { currentProgress }

    /// True while a play runs (until its last iteration ends; forever for looping plays).
    public var isAnimationPlaying: Bool {
        guard play != nil, let timing else { return false }
        guard let end = timing.endLayerTime else { return true }
        return layerTimeNow() < end
    }

    // MARK: Playing

    /// Plays from the current frame (or the first) to the end, in ``loopMode``.
    public func play(completion: LottieCompletionBlock? = nil) {
        guard let animation else { return }
        start(from: Double(animation.startFrame), to: Double(animation.endFrame), loopMode: nil, completion: completion)
    }

    /// Plays from progress `fromProgress` (nil: the current one) to `toProgress`.
    public func play(fromProgress: AnimationProgressTime? = nil, toProgress: AnimationProgressTime,
                     loopMode: LottieLoopMode? = nil, completion: LottieCompletionBlock? = nil) {
        guard let animation else { return }
        start(from: Double(animation.frameTime(forProgress: fromProgress ?? currentProgress)),
              to: Double(animation.frameTime(forProgress: toProgress)), loopMode: loopMode, completion: completion)
    }

    /// Plays from frame `fromFrame` (nil: the current one) to `toFrame`; backwards when
    /// `fromFrame > toFrame`. A `loopMode` given here becomes ``loopMode``.
    public func play(fromFrame: AnimationFrameTime? = nil, toFrame: AnimationFrameTime,
                     loopMode: LottieLoopMode? = nil, completion: LottieCompletionBlock? = nil) {
        guard animation != nil else { return }
        start(from: Double(fromFrame ?? currentFrame), to: Double(toFrame), loopMode: loopMode, completion: completion)
    }

    /// Plays from the marker `fromMarker` (nil: the current frame) to the marker `toMarker`
    /// (its frame, or the frame before it when `playEndMarkerFrame` is false). Does nothing
    /// when `toMarker` does not exist.
    public func play(fromMarker: String? = nil, toMarker: String, playEndMarkerFrame: Bool = true,
                     loopMode: LottieLoopMode? = nil, completion: LottieCompletionBlock? = nil) {
        guard let animation, let to = animation.frameTime(forMarker: toMarker) else { return }
        let from = fromMarker.flatMap { animation.frameTime(forMarker: $0) } ?? currentFrame
        start(from: Double(from), to: Double(playEndMarkerFrame ? to : to - 1), loopMode: loopMode, completion: completion)
    }

    /// Plays the marker `marker` from its frame to the end of its duration. Does nothing when
    /// it does not exist.
    public func play(marker: String, loopMode: LottieLoopMode? = nil, completion: LottieCompletionBlock? = nil) {
        guard let animation, let from = animation.frameTime(forMarker: marker) else { return }
        let d = animation.durationFrameTime(forMarker: marker) ?? 0
        start(from: Double(from), to: Double(from + d), loopMode: loopMode, completion: completion)
    }

    /// Plays `markers` one after the other (each once); markers that do not exist are skipped.
    /// The completion is called once, after the last, or with `false` when one is interrupted.
    public func play(markers: [String], completion: LottieCompletionBlock? = nil) {
        guard let first = markers.first else { completion?(true); return }
        let rest = Array(markers.dropFirst())
        guard animation?.frameTime(forMarker: first) != nil else { play(markers: rest, completion: completion); return }
        play(marker: first, loopMode: .playOnce) { [weak self] finished in
            guard finished, let self else { completion?(false); return }
            if rest.isEmpty { completion?(true) } else { self.play(markers: rest, completion: completion) }
        }
    }

    /// Pauses on the frame shown; the play's completion is called with `false`.
    public func pause() { pause(atFrame: shownFrame()) }

    /// Stops and returns to the first frame; the play's completion is called with `false`.
    public func stop() { pause(atFrame: animation.map { Double($0.startFrame) } ?? 0) }

    // MARK: Markers

    /// The progress of marker `named` (nil when there is none).
    public func progressTime(forMarker named: String) -> AnimationProgressTime? { animation?.progressTime(forMarker: named) }
    /// The frame of marker `named`.
    public func frameTime(forMarker named: String) -> AnimationFrameTime? { animation?.frameTime(forMarker: named) }
    /// The duration in frames of marker `named`.
    public func durationFrameTime(forMarker named: String) -> AnimationFrameTime? { animation?.durationFrameTime(forMarker: named) }

    // MARK: Layout

    /// Setting the bounds fits the composition into them at once (as the layout pass does).
    public override var bounds: CGRect {
        didSet { if _isModel, oldValue != bounds { fitContent() } }
    }

    /// Fits the composition into the bounds (aspect fit, centred).
    public override func layoutSublayers() {
        super.layoutSublayers()
        fitContent()
    }

    // MARK: Internals

    /// Maps the animation anew and pauses on its first frame.
    private func rebuild() {
        interruptPlay()
        for (layer, _) in animatedLayers { layer.removeAnimation(forKey: Self.groupKey) }
        content?.removeFromSuperlayer()
        content = nil
        animatedLayers = []
        timing = nil
        warnings = []
        guard let animation else { return }
        let context = LottieMappingContext(composition: animation.composition)
        let root = withoutActions { LottieLayerMapper(context: context).makeRootLayer() }
        warnings = animation.parseWarnings + context.warnings
        for w in warnings { logger.warn(w.description) }
        animatedLayers = context.animatedLayers
        withoutActions {
            root.masksToBounds = maskAnimationToBounds
            addSublayer(root)
        }
        content = root
        fitContent()
        install(LottiePlayTiming(fps: animation.framerate, start: Double(animation.startFrame),
                                 end: Double(animation.endFrame), mode: .paused(frame: Double(animation.startFrame))))
    }

    /// Places the composition-sized content in the bounds: scale `min(W/w, H/h)`, centred.
    private func fitContent() {
        guard let content, let animation else { return }
        let w = Double(animation.size.width), h = Double(animation.size.height)
        let b = bounds
        var k = 1.0
        if w > 0, h > 0, b.width > 0, b.height > 0 { k = min(Double(b.width) / w, Double(b.height) / h) }
        withoutActions {
            content.anchorPoint = CGPoint(x: 0.5, y: 0.5)
            content.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            content.position = CGPoint(x: b.midX, y: b.midY)
            content.transform = k == 1 ? CATransform3DIdentity : CATransform3DMakeScale(k, k, 1)
        }
    }

    /// The layer time now (the groups' time: every internal layer has identity timing).
    private func layerTimeNow() -> Double { convertTime(_runLoop.currentTime, from: nil) }

    /// The frame the installed timing shows now.
    private func shownFrame() -> Double {
        guard let timing else { return 0 }
        return timing.frame(atLayerTime: layerTimeNow())
    }

    /// Replaces every group (and the completion sentinel) with ones of `timing`.
    private func install(_ timing: LottiePlayTiming, sentinel delegate: SentinelDelegate? = nil) {
        self.timing = timing
        for (layer, animations) in animatedLayers { layer.add(timing.group(of: animations), forKey: Self.groupKey) }
        guard let content else { return }
        if let delegate {
            let sentinel = timing.makeGroup()
            sentinel.animations = []
            sentinel.delegate = delegate
            content.add(sentinel, forKey: Self.completionKey)
        } else {
            content.removeAnimation(forKey: Self.completionKey)
        }
    }

    /// Ends the play in flight (its completion gets `false` when the sentinel is removed).
    private func interruptPlay() {
        play = nil
        content?.removeAnimation(forKey: Self.completionKey)
    }

    private func pause(atFrame f: Double) {
        guard let animation, _isModel else { return }
        interruptPlay()
        install(LottiePlayTiming(fps: animation.framerate, start: Double(animation.startFrame),
                                 end: Double(animation.endFrame), mode: .paused(frame: f)))
    }

    /// Starts playing `from → to` (lottie-ios's rules: see the type's notes). `continuing` is
    /// the completion of a play that goes on with a new loop mode or speed.
    private func start(from: Double, to: Double, loopMode mode: LottieLoopMode?, completion block: LottieCompletionBlock?,
                       continuing: Completion? = nil) {
        guard let animation, _isModel else { return }
        if let mode {
            _isStarting = true
            loopMode = mode
            _isStarting = false
        }
        let lo = Double(animation.startFrame), hi = Double(animation.endFrame)
        var from = min(max(from, lo), hi), to = min(max(to, lo), hi)
        if animationSpeed < 0 { swap(&from, &to) }
        let current = shownFrame()
        var offset = 0.0
        if (min(from, to)..<max(from, to)).contains(current.rounded(.towardZero)) {
            if loopMode == .playOnce {
                if to != current { from = current }
            } else {
                offset = abs(current - from) / animation.framerate
            }
        }
        // The play in flight ends here: its sentinel is replaced below and reports `false` —
        // unless this is the same play going on.
        if continuing != nil { play?.sentinel.isIgnored = true }
        if from == to {
            // Nothing to play: pause on that frame, done (lottie-ios calls the block at once).
            pause(atFrame: to)
            block?(true)
            return
        }
        let completion = continuing ?? Completion(block)
        let sentinel = SentinelDelegate(completion: completion, owner: self)
        play = Play(from: from, to: to, completion: completion, sentinel: sentinel)
        let t = loopMode.timing
        install(LottiePlayTiming(fps: animation.framerate, start: lo, end: hi,
                                 mode: .playing(from: from, to: to, speed: abs(Double(animationSpeed)),
                                                repeatCount: t.repeatCount, autoreverses: t.autoreverses,
                                                timeOffset: offset, beginTime: layerTimeNow())),
                sentinel: sentinel)
    }

    /// A loop mode or speed changed during a play: the same range, continued from the current
    /// frame, with the same completion.
    private func updateInFlightPlay() {
        guard let play, isAnimationPlaying else { return }
        start(from: play.from, to: play.to, loopMode: nil, completion: nil, continuing: play.completion)
    }

    /// A play's sentinel stopped.
    fileprivate func sentinelDidStop(_ sentinel: SentinelDelegate, finished: Bool) {
        if play?.sentinel === sentinel { play = nil }
    }

    /// Runs `body` with implicit animations disabled (internal layout and tree changes).
    @discardableResult
    private func withoutActions<R>(_ body: () -> R) -> R {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        return body()
    }

    /// A play's completion block, called once.
    fileprivate final class Completion {
        let block: LottieCompletionBlock?
        private var called = false
        init(_ block: LottieCompletionBlock?) { self.block = block }
        func call(_ finished: Bool) {
            guard !called else { return }
            called = true
            block?(finished)
        }
    }

    /// The delegate of one completion sentinel (an empty group with the play's timing on the
    /// content layer): its stop — at the play's end, or when it is removed — completes the play,
    /// unless the play went on in a new sentinel.
    fileprivate final class SentinelDelegate: CAAnimationDelegate {
        let completion: Completion
        weak var owner: LottieAnimationLayer?
        var isIgnored = false
        init(completion: Completion, owner: LottieAnimationLayer) { self.completion = completion; self.owner = owner }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
            guard !isIgnored else { return }
            owner?.sentinelDidStop(self, finished: flag)
            completion.call(flag)
        }
    }
}
