import Foundation
import Flipbook

/// Rendering a Lottie file frame by frame, as `lottie2gif` (rlottie), ThorVG and
/// `skottie_tool` do — the scene the command line and the benchmarks record.
///
///     let scene = LottieRendering.scene(for: animation, size: .fit(width: 512, height: 512))
///     let recorder = Recorder(root: scene.root, settings: RecordingSettings(
///         width: 512, height: 512, fps: scene.framerate, frames: 0...(scene.frameCount - 1), background: nil))
///     try recorder.record(to: PNGSequenceSink(directory: "out"))
///
/// The scene is a root layer of the output size holding a ``LottieAnimationLayer`` that fills
/// it — so the composition is fitted preserving its aspect ratio and centred (`scale =
/// min(W / w, H / h)`, half the slack on each side) or, with ``Size/scale(_:)``, drawn at
/// `w·s × h·s` — playing the whole animation once from the moment the scene is built: **frame
/// k of the file (`ip + k`) is the tree at ``Scene/time(ofFrame:)`` = start + k / fps**, and any
/// other time shows the file's frame at that time (so resampling to another frame rate is only
/// a question of which times are recorded). After the last frame the last one stays.
///
/// Build the scene on the run loop that will record it (`loop.run { … }`, or the thread's
/// own), with its clock where recording starts — a new run loop's 0.
public enum LottieRendering {
    /// The output size.
    public enum Size: Sendable, Hashable {
        /// `width × height` points, the composition fitted inside (aspect preserved, centred).
        case fit(width: Double, height: Double)
        /// The composition's size times the factor.
        case scale(Double)
    }

    /// A scene ready to record.
    public struct Scene {
        /// The root layer: the output size, at the origin.
        public let root: CALayer
        /// The animation layer filling it.
        public let animationLayer: LottieAnimationLayer
        /// The output size in points.
        public let size: CGSize
        /// The file's frames: `op − ip` (rounded up; at least 1). Frame k is the file's `ip + k`.
        public let frameCount: Int
        /// The file's frames per second.
        public let framerate: Double
        /// The run-loop time the play started (frame 0).
        public let startTime: Double

        /// The run-loop time at which the file's frame `ip + k` is shown.
        public func time(ofFrame k: Int) -> Double { startTime + Double(k) / framerate }
    }

    /// The scene of `animation` at `size`, over `background` (nil: transparent), built on
    /// `VirtualRunLoop.current`. Warnings go to `logger` (and the layer's `warnings`).
    public static func scene(for animation: LottieAnimation, size: Size = .scale(1), background: CGColor? = nil,
                             logger: LottieLogger = .shared) -> Scene {
        let w = Double(animation.size.width), h = Double(animation.size.height)
        let out: CGSize
        switch size {
        case let .fit(width, height): out = CGSize(width: max(width, 0), height: max(height, 0))
        case let .scale(s): out = CGSize(width: max(w * s, 0), height: max(h * s, 0))
        }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let root = CALayer()
        root.name = "lottie scene"
        root.anchorPoint = .zero
        root.position = .zero
        root.bounds = CGRect(origin: .zero, size: out)
        root.backgroundColor = background
        let layer = LottieAnimationLayer(animation: animation, logger: logger)
        layer.frame = root.bounds
        root.addSublayer(layer)
        layer.layoutIfNeeded()
        let start = VirtualRunLoop.current.currentTime
        layer.play()
        CATransaction.commit()
        let frames = max(1, Int((Double(animation.endFrame - animation.startFrame)).rounded(.up)))
        return Scene(root: root, animationLayer: layer, size: out, frameCount: frames,
                     framerate: animation.framerate, startTime: start)
    }
}
