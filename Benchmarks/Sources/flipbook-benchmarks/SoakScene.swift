import Flipbook
import FlipbookPixels
import FlipbookRender
import Foundation

/// The soak scene (`flipbook-benchmarks soak`, docs/soak.md): one 1920×1080 tree holding every
/// layer class, animated for ever, so a recording of any length keeps changing every frame.
///
/// - `CAGradientLayer`: an axial backdrop whose colours cycle, a radial and a conic badge (the
///   conic one turning);
/// - `CAShapeLayer`: a star whose stroke draws in and out and whose dash phase runs, with a
///   shadow; a circle used as a **mask** of a photo-like image layer;
/// - `CATextLayer`: a title with a shadow, and a counter whose string changes at every event
///   (so text is typeset again during the whole run);
/// - `CAReplicatorLayer`: a 12-dot spinner (instance delay and alpha offset);
/// - `CAEmitterLayer`: confetti, two cells, about 600 particles alive;
/// - `CATransformLayer`: a six-faced cube turning in 3D;
/// - `CAScrollLayer`: a strip of tiles scrolled (implicitly animated) at every event;
/// - a drawn layer (`draw(in:)`, `setNeedsDisplay()` at every event: the display path);
/// - `CATransition`: a card whose colour and text change at every event under a fade, push,
///   move-in or reveal (subtypes in turn), so a transition is always running or about to.
///
/// Events come every ``eventInterval`` seconds of the virtual clock up to ``events(until:)``'s
/// horizon; they are scheduled before the recording starts (a recorder takes its events up
/// front), so their closures are memory the run holds from frame 0 on.
enum SoakScene {
    static let width = 1920.0, height = 1080.0
    /// Seconds of virtual time between two events (transition, counter, scroll, redraw).
    static let eventInterval = 1.5

    /// The layers the events change.
    final class Handles {
        let root: CALayer
        let card: CALayer
        let cardText: CATextLayer
        let counter: CATextLayer
        let scroll: CAScrollLayer
        let drawn: SoakDrawnLayer
        init(root: CALayer, card: CALayer, cardText: CATextLayer, counter: CATextLayer, scroll: CAScrollLayer, drawn: SoakDrawnLayer) {
            self.root = root; self.card = card; self.cardText = cardText; self.counter = counter
            self.scroll = scroll; self.drawn = drawn
        }
    }

    static func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> CGColor {
        CGColor(red: CGFloat(r), green: CGFloat(g), blue: CGFloat(b), alpha: CGFloat(a))
    }

    /// An infinite animation of `keyPath` from `from` to `to` over `duration` seconds.
    static func forever(_ keyPath: String, _ from: Any, _ to: Any, _ duration: Double, autoreverses: Bool = false,
                        linear: Bool = true) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: keyPath)
        a.fromValue = from
        a.toValue = to
        a.duration = duration
        a.repeatCount = .infinity
        a.autoreverses = autoreverses
        a.timingFunction = CAMediaTimingFunction(name: linear ? .linear : .easeInEaseOut)
        return a
    }

    static func text(_ s: String, size: Double, frame: CGRect, color: CGColor) -> CATextLayer {
        let t = CATextLayer()
        t.frame = frame
        t.string = s
        t.fontSize = CGFloat(size)
        t.foregroundColor = color
        t.font = CGFont.bundledDefault
        t.alignmentMode = .center
        t.isWrapped = true
        return t
    }

    /// Builds the tree (call inside the tree's `loop.run`).
    static func make() -> Handles {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.position = CGPoint(x: width / 2, y: height / 2)

        // Backdrop: an axial gradient whose colours cycle.
        let backdrop = CAGradientLayer()
        backdrop.frame = root.bounds
        backdrop.colors = [color(0.10, 0.12, 0.22), color(0.05, 0.30, 0.35), color(0.20, 0.08, 0.25)]
        backdrop.startPoint = .zero
        backdrop.endPoint = CGPoint(x: 1, y: 1)
        backdrop.add(forever("colors", [color(0.10, 0.12, 0.22), color(0.05, 0.30, 0.35), color(0.20, 0.08, 0.25)],
                             [color(0.25, 0.10, 0.12), color(0.10, 0.15, 0.40), color(0.05, 0.25, 0.15)], 7, autoreverses: true),
                     forKey: "cycle")
        root.addSublayer(backdrop)

        // Title with a shadow.
        let title = text("Flipbook soak — every layer class, for as long as it takes", size: 44,
                         frame: CGRect(x: 60, y: 30, width: 1800, height: 60), color: color(1, 1, 1))
        title.shadowOpacity = 0.8
        title.shadowRadius = 6
        title.shadowOffset = CGSize(width: 0, height: 4)
        root.addSublayer(title)

        // Radial and conic gradient badges; the conic one turns, the radial one breathes.
        let radial = CAGradientLayer()
        radial.type = .radial
        radial.frame = CGRect(x: 80, y: 140, width: 260, height: 260)
        radial.colors = [color(1, 0.9, 0.3), color(1, 0.4, 0.1), color(0.4, 0.0, 0.2, 0)]
        radial.startPoint = CGPoint(x: 0.5, y: 0.5)
        radial.endPoint = CGPoint(x: 1, y: 1)
        radial.add(forever("transform.scale", 0.8, 1.1, 2.3, autoreverses: true, linear: false), forKey: "breathe")
        root.addSublayer(radial)

        let conic = CAGradientLayer()
        conic.type = .conic
        conic.frame = CGRect(x: 400, y: 140, width: 260, height: 260)
        conic.cornerRadius = 130
        conic.masksToBounds = true
        conic.colors = [color(1, 0, 0), color(1, 1, 0), color(0, 1, 0), color(0, 1, 1), color(0, 0, 1), color(1, 0, 1), color(1, 0, 0)]
        conic.startPoint = CGPoint(x: 0.5, y: 0.5)
        conic.endPoint = CGPoint(x: 1, y: 0.5)
        conic.add(forever("transform.rotation.z", 0.0, 2 * Double.pi, 4), forKey: "turn")
        root.addSublayer(conic)

        // A star: stroke drawn in and out, dashes running, a shadow.
        let star = CAShapeLayer()
        star.frame = CGRect(x: 720, y: 130, width: 280, height: 280)
        let p = CGMutablePath()
        for i in 0..<10 {
            let r = i % 2 == 0 ? 130.0 : 55.0, a = Double(i) * Double.pi / 5 - Double.pi / 2
            let pt = CGPoint(x: 140 + r * cos(a), y: 140 + r * sin(a))
            if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
        }
        p.closeSubpath()
        star.path = p
        star.fillColor = color(0.95, 0.75, 0.2, 0.85)
        star.strokeColor = color(1, 1, 1)
        star.lineWidth = 6
        star.lineJoin = .round
        star.lineDashPattern = [18, 10]
        star.shadowOpacity = 0.7
        star.shadowRadius = 12
        star.shadowOffset = CGSize(width: 6, height: 8)
        star.add(forever("strokeEnd", 0.0, 1.0, 3, autoreverses: true, linear: false), forKey: "draw")
        star.add(forever("lineDashPhase", 0.0, 56.0, 1), forKey: "dash")
        root.addSublayer(star)

        // An image layer masked by a circle that grows and shrinks.
        let photo = CALayer()
        photo.frame = CGRect(x: 1060, y: 130, width: 300, height: 300)
        photo.contents = CGImage(pixelBuffer: PixelBuffer.testPattern(width: 300, height: 300, index: 7))
        let mask = CAShapeLayer()
        mask.frame = photo.bounds
        mask.path = CGPath(ellipseIn: CGRect(x: 20, y: 20, width: 260, height: 260), transform: nil)
        mask.fillColor = color(0, 0, 0)
        mask.add(forever("transform.scale", 0.6, 1.0, 2.9, autoreverses: true, linear: false), forKey: "pulse")
        photo.mask = mask
        photo.shadowOpacity = 0.6
        photo.shadowRadius = 16
        root.addSublayer(photo)

        // The replicator spinner.
        let spinner = CAReplicatorLayer()
        spinner.frame = CGRect(x: 1440, y: 140, width: 260, height: 260)
        spinner.instanceCount = 12
        spinner.instanceTransform = CATransform3DMakeRotation(CGFloat(2 * Double.pi / 12), 0, 0, 1)
        spinner.instanceDelay = 1.0 / 12
        spinner.instanceAlphaOffset = -1.0 / 12
        let dot = CALayer()
        dot.frame = CGRect(x: 118, y: 10, width: 24, height: 60)
        dot.cornerRadius = 12
        dot.backgroundColor = color(0.9, 0.95, 1)
        dot.add(forever("opacity", 1.0, 0.2, 1, autoreverses: true), forKey: "blink")
        spinner.addSublayer(dot)
        spinner.add(forever("transform.rotation.z", 0.0, 2 * Double.pi, 6), forKey: "turn")
        root.addSublayer(spinner)

        // The transform-layer cube.
        let cube = CATransformLayer()
        cube.frame = CGRect(x: 160, y: 520, width: 240, height: 240)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 800
        let faces: [(CATransform3D, CGColor)] = [
            (CATransform3DMakeTranslation(0, 0, 100), color(0.9, 0.3, 0.3, 0.9)),
            (CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0), color(0.3, 0.9, 0.3, 0.9)),
            (CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0), color(0.3, 0.3, 0.9, 0.9)),
            (CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0), color(0.9, 0.9, 0.3, 0.9)),
            (CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0), color(0.3, 0.9, 0.9, 0.9)),
            (CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0), color(0.9, 0.3, 0.9, 0.9)),
        ]
        for (m, c) in faces {
            let f = CALayer()
            f.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            f.position = CGPoint(x: 120, y: 120)
            f.transform = m
            f.backgroundColor = c
            f.borderColor = color(1, 1, 1)
            f.borderWidth = 3
            f.cornerRadius = 16
            cube.addSublayer(f)
        }
        let holder = CALayer()
        holder.frame = cube.frame
        cube.frame = holder.bounds
        holder.sublayerTransform = perspective
        holder.addSublayer(cube)
        let spin = CABasicAnimation(keyPath: "transform")
        spin.fromValue = CATransform3DMakeRotation(0, 1, 1, 0)
        spin.toValue = CATransform3DMakeRotation(CGFloat(Double.pi * 0.999), 1, 1, 0)
        spin.duration = 5
        spin.repeatCount = .infinity
        spin.autoreverses = true
        cube.add(spin, forKey: "spin")
        root.addSublayer(holder)

        // The transition card: colour and text change at every event.
        let card = CALayer()
        card.frame = CGRect(x: 520, y: 500, width: 520, height: 300)
        card.cornerRadius = 28
        card.backgroundColor = color(0.2, 0.5, 0.9)
        card.shadowOpacity = 0.5
        card.shadowRadius = 20
        card.shadowOffset = CGSize(width: 0, height: 10)
        let cardText = text("card 0", size: 64, frame: CGRect(x: 20, y: 100, width: 480, height: 100), color: color(1, 1, 1))
        card.addSublayer(cardText)
        root.addSublayer(card)

        // The scroll layer: a strip of 24 tiles, 4 visible.
        let scroll = CAScrollLayer()
        scroll.frame = CGRect(x: 1120, y: 500, width: 720, height: 180)
        scroll.masksToBounds = true
        scroll.backgroundColor = color(0, 0, 0, 0.3)
        for i in 0..<24 {
            let tile = CALayer()
            tile.frame = CGRect(x: Double(i) * 180 + 10, y: 10, width: 160, height: 160)
            tile.cornerRadius = 20
            tile.backgroundColor = color(0.3 + 0.7 * Double(i % 4) / 3, 0.4, 1 - 0.7 * Double(i % 5) / 4)
            let label = text("\(i)", size: 72, frame: CGRect(x: 0, y: 35, width: 160, height: 90), color: color(1, 1, 1))
            tile.addSublayer(label)
            scroll.addSublayer(tile)
        }
        root.addSublayer(scroll)

        // The drawn layer (draw(in:) every event).
        let drawn = SoakDrawnLayer()
        drawn.frame = CGRect(x: 1120, y: 720, width: 300, height: 300)
        drawn.setNeedsDisplay()
        root.addSublayer(drawn)

        // The counter.
        let counter = text("event 0", size: 36, frame: CGRect(x: 1440, y: 820, width: 420, height: 60), color: color(1, 1, 0.8))
        root.addSublayer(counter)

        // The emitter: confetti from a line along the top, falling over everything.
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: width / 2, y: -10)
        emitter.emitterShape = .line
        emitter.emitterSize = CGSize(width: width, height: 1)
        emitter.seed = 40
        var piece = PixelBuffer(width: 10, height: 6)
        piece.fill(RGBA8(r: 255, g: 255, b: 255, a: 255))
        let image = CGImage(pixelBuffer: piece)
        emitter.emitterCells = [color(1, 0.4, 0.4), color(0.4, 0.8, 1)].map { c in
            let cell = CAEmitterCell()
            cell.birthRate = 80
            cell.lifetime = 4
            cell.velocity = 250
            cell.velocityRange = 100
            cell.emissionLongitude = .pi / 2
            cell.emissionRange = .pi / 6
            cell.yAcceleration = 120
            cell.spin = 2
            cell.spinRange = 4
            cell.color = c
            cell.contents = image
            return cell
        }
        root.addSublayer(emitter)
        return Handles(root: root, card: card, cardText: cardText, counter: counter, scroll: scroll, drawn: drawn)
    }

    /// Event `k` (at `k · eventInterval` seconds): the card changes under a transition, the
    /// counter's text changes, the strip scrolls (implicit animation) and the drawn layer redraws.
    static func event(_ k: Int, _ h: Handles) {
        let types: [CATransitionType] = [.fade, .push, .moveIn, .reveal]
        let subtypes: [CATransitionSubtype] = [.fromLeft, .fromRight, .fromTop, .fromBottom]
        let t = CATransition()
        t.type = types[k % 4]
        t.subtype = subtypes[(k / 4) % 4]
        t.duration = 0.8
        h.card.add(t, forKey: kCATransition)
        let hue = Double(k % 7) / 7
        h.card.backgroundColor = color(0.3 + 0.6 * hue, 0.7 - 0.5 * hue, 0.4 + 0.5 * (1 - hue))
        h.cardText.string = "card \(k)"
        h.counter.string = "event \(k) · t = \(String(format: "%.1f", Double(k) * eventInterval)) s"
        h.scroll.scroll(to: CGPoint(x: Double(k % 21) * 180, y: 0))
        h.drawn.tick = k
        h.drawn.setNeedsDisplay()
    }
}

/// A layer drawing with Core Graphics calls (a dial whose hand shows the event count), redrawn
/// at every event of the soak: the `display()` → `draw(in:)` → `contents` path.
final class SoakDrawnLayer: CALayer {
    var tick = 0

    override func draw(in ctx: CGContext) {
        let r = bounds.insetBy(dx: 10, dy: 10)
        ctx.setFillColor(SoakScene.color(0.1, 0.1, 0.15, 0.9))
        ctx.fillEllipse(in: r)
        ctx.setStrokeColor(SoakScene.color(1, 1, 1))
        ctx.setLineWidth(4)
        ctx.strokeEllipse(in: r)
        for i in 0..<12 {
            let a = Double(i) * Double.pi / 6
            ctx.move(to: CGPoint(x: r.midX + 0.8 * r.width / 2 * cos(a), y: r.midY + 0.8 * r.height / 2 * sin(a)))
            ctx.addLine(to: CGPoint(x: r.midX + 0.95 * r.width / 2 * cos(a), y: r.midY + 0.95 * r.height / 2 * sin(a)))
        }
        ctx.strokePath()
        let a = Double(tick) * Double.pi / 30 - Double.pi / 2
        ctx.setStrokeColor(SoakScene.color(1, 0.5, 0.2))
        ctx.setLineWidth(8)
        ctx.setLineCap(.round)
        ctx.move(to: CGPoint(x: r.midX, y: r.midY))
        ctx.addLine(to: CGPoint(x: r.midX + 0.7 * r.width / 2 * cos(a), y: r.midY + 0.7 * r.height / 2 * sin(a)))
        ctx.strokePath()
    }
}
