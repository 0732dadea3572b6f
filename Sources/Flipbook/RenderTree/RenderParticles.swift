import Foundation
import FlipbookGraphics

/// An emitter's particles at one time, flat: one small record per particle instead of one
/// `RenderLayer` each (``RenderLayer/particles``).
///
/// A frame of 10,000 particles used to build, walk and free 10,000 snapshot nodes of ~50
/// fields each; the compositor plans these records in one tight loop instead. Each record still
/// *is* a layer — ``node(_:)`` builds it — and ``RenderLayer/sublayers`` of the emitter's node
/// lists those nodes first, so every observer of the snapshot sees what it saw before:
///
///     bounds    = (0, 0, w, h),  w = image.width · contentsRect.width / contentsScale
///                                (h likewise with the height)
///     position  = the particle's position (emitter layer space)
///     transform = scale(rotation(θ, z), s, s, 1)        (CATransform3DScale of the rotation)
///     contents  = the cell's image, contentsRect, contentsScale
///     tint      = the particle's colour (nil when opaque white),  additive: plus-lighter
package struct RenderParticles: Sendable {
    /// What a cell draws, shared by its particles.
    package struct Sprite: Sendable {
        package let image: CGImage
        package let contentsRect: CGRect
        /// Finite and positive (1 when the cell's is not).
        package let contentsScale: CGFloat
        /// The particle's bounds size before scaling (points).
        package let size: CGSize
    }

    /// One particle.
    package struct Particle: Sendable {
        package var position: CGPoint
        package var rotation: Double
        package var scale: Double
        /// Straight colour multiplier; nil = none (opaque white).
        package var tint: RenderTint?
        /// Index into ``RenderParticles/sprites``.
        package var sprite: Int

        /// The layer transform: `CATransform3DScale(CATransform3DMakeRotation(θ, 0, 0, 1), s, s, 1)`.
        package var transform: CATransform3D {
            let t = CATransform3DMakeRotation(CGFloat(rotation), 0, 0, 1)
            return CATransform3DScale(t, CGFloat(scale), CGFloat(scale), 1)
        }
    }

    package var sprites: [Sprite] = []
    /// In drawing order.
    package var items: [Particle] = []
    /// `renderMode == .additive`: every particle is composited with plus-lighter.
    package var additive = false

    package init() {}

    /// The snapshot node of particle `p` (what the emitter's `sublayers` list).
    package func node(_ p: Particle) -> RenderLayer {
        let s = sprites[p.sprite]
        return RenderLayer(bounds: CGRect(origin: .zero, size: s.size), position: p.position, transform: p.transform,
                           contents: s.image, contentsRect: s.contentsRect, contentsScale: s.contentsScale,
                           tint: p.tint, blendsAdditively: additive)
    }

    /// Every particle's node, in drawing order.
    package func nodes() -> [RenderLayer] { items.map(node) }
}
