import Flipbook
import FlipbookPixels
import FlipbookRaster
import Foundation

extension _Planner {
    /// Where the contents image lands in layer space (`contentsGravity`), given the bounds and
    /// the content size in points (`image pixels × contentsRect size / contentsScale`).
    ///
    /// Vertical names follow Core Animation on iOS, whose layer space is y-down like
    /// Flipbook's: Apple defines the gravity names in a y-up space, and with flipped contents
    /// (`contentsAreFlipped() == true`, the iOS case) `top` aligns to the bottom edge and
    /// `bottom` to the top edge. So `.top`, `.topLeft`, `.topRight` put the image at
    /// `bounds.maxY`, and `.bottom*` at `bounds.minY` (see docs/compositor.md).
    static func gravityRect(_ g: CALayerContentsGravity, bounds b: CGRect, content: (w: Double, h: Double)) -> CGRect? {
        let bx = Double(b.minX), by = Double(b.minY), bw = Double(b.width), bh = Double(b.height)
        let (cw, ch) = content
        guard cw > 0, ch > 0, cw.isFinite, ch.isFinite else { return nil }
        var w = cw, h = ch
        switch g {
        case .resize: return b
        case .resizeAspect, .resizeAspectFill:
            let s = g == .resizeAspect ? min(bw / cw, bh / ch) : max(bw / cw, bh / ch)
            w = cw * s; h = ch * s
            return CGRect(x: bx + (bw - w) / 2, y: by + (bh - h) / 2, width: w, height: h)
        default: break
        }
        let name = g.rawValue
        let x: Double = name.hasSuffix("Left") || name == "left" ? bx
            : (name.hasSuffix("Right") || name == "right" ? bx + bw - w : bx + (bw - w) / 2)
        let y: Double = name.hasPrefix("top") ? by + bh - h          // iOS: "top" is the y-down bottom
            : (name.hasPrefix("bottom") ? by : by + (bh - h) / 2)
        return CGRect(x: x, y: y, width: w, height: h)
    }

    /// Texels per device pixel at device point `(x, y)` of the map `g` (device → texels):
    /// `√|det J|`.
    static func minification(_ g: _Homography, at x: Double, _ y: Double) -> Double {
        let (U, V, W) = g.apply(x, y)
        guard W > 0 else { return 1 }
        let u = U / W, v = V / W
        let dux = (g.m.0 - u * g.m.6) / W, duy = (g.m.1 - u * g.m.7) / W
        let dvx = (g.m.3 - v * g.m.6) / W, dvy = (g.m.4 - v * g.m.7) / W
        let d = abs(dux * dvy - duy * dvx).squareRoot()
        return d.isFinite ? d : 1
    }

    /// The contents draw: gravity rectangle, `contentsRect` sub-image, `contentsCenter`
    /// nine-part stretching, filter and mip level.
    /// A `contentsCrossfade` in flight is drawn instead of `contents` (``crossfadeImage(_:)``).
    mutating func contents(_ l: RenderLayer, _ h: _Homography, clips: [_Shape], opacity: Double) {
        if let x = l.contentsCrossfade {
            for (image, alpha) in Self.crossfadeDraws(x) { contents(l, h, clips: clips, opacity: opacity * alpha, image: image) }
            return
        }
        contents(l, h, clips: clips, opacity: opacity, image: l.contents)
    }

    /// The contents draw of `image` laid out as `l`'s contents.
    mutating func contents(_ l: RenderLayer, _ h: _Homography, clips: [_Shape], opacity: Double, image: CGImage?) {
        guard let image, image.width > 0, image.height > 0, let deviceToLayer = h.inverse else { return }
        let iw = Double(image.width), ih = Double(image.height)
        let cr = l.contentsRect
        guard Self.isFinite(cr), cr.width > 0, cr.height > 0 else { return }
        let cs = Double(l.contentsScale).isFinite && l.contentsScale > 0 ? Double(l.contentsScale) : 1
        // Source region in texels (image rows top-down).
        let sx0 = Double(cr.minX) * iw, sy0 = Double(cr.minY) * ih
        let sw = Double(cr.width) * iw, sh = Double(cr.height) * ih
        // A contentsRect far outside any image (±1e19) draws nothing rather than overflow.
        guard [sx0, sy0, sx0 + sw, sy0 + sh].allSatisfy({ abs($0) < 1e9 }) else { return }
        guard let d = Self.gravityRect(l.contentsGravity, bounds: l.bounds, content: (sw / cs, sh / cs)),
              d.width > 0, d.height > 0, let own = shape(d, h, aliased: Self.aliasedEdges(l)) else { return }
        var clipList = clips
        if ownClipGroup != nil {
            // Inside its own clip group: the group clips; contents filling the bounds need no edge of their own.
        } else if l.masksToBounds, let bs = shape(l.bounds, h, radii: radii(l), continuous: Self.continuous(l), aliased: Self.aliasedEdges(l)) {
            clipList.append(bs)
        } else if l.masksToBounds { return }
        let dx0 = Double(d.minX), dy0 = Double(d.minY), dw = Double(d.width), dh = Double(d.height)
        // layer → texel (level 0)
        let toTexel = _Homography.scaleTranslate(sx: sw / dw, sy: sh / dh, tx: sx0 - dx0 * sw / dw, ty: sy0 - dy0 * sh / dh)
        // contentsAreFlipped (an odd number of superlayers with isGeometryFlipped): the image is
        // reflected within its rectangle (layer y ↦ minY + maxY − y) so it stays upright.
        let inv = l.contentsAreFlipped
            ? _Homography.scaleTranslate(sx: 1, sy: -1, tx: 0, ty: 2 * dy0 + dh) * deviceToLayer : deviceToLayer
        let cc = l.contentsCenter
        // contentsCenter far outside 0…1 (1e308) cannot stretch anything: drawn without it.
        let nine = Self.isFinite(cc) && cc != CGRect(x: 0, y: 0, width: 1, height: 1)
            && [cc.minX, cc.minY, cc.maxX, cc.maxY].allSatisfy { abs($0) <= 1e6 }
        // Filter and mip level from the minification at the rectangle's centre.
        let centre = h.apply(dx0 + dw / 2, dy0 + dh / 2)
        let rho = centre.2 > 0 ? Self.minification(toTexel * inv, at: centre.0 / centre.2, centre.1 / centre.2) : 1
        let magnifying = rho < 1
        let filter = magnifying ? l.magnificationFilter : l.minificationFilter
        var level = 0
        if filter != .nearest && !nine {
            if filter == .trilinear, rho > 1.4142 { level = Int((log2(rho) + 0.5).rounded(.down)) }
            else if rho >= 2 { level = Int(log2(rho).rounded(.down)) }
        }
        let levels = mips.levels(for: image, upTo: level)
        level = min(level, levels.count - 1)
        let tex = levels[level].texture
        let lsx = Double(tex.width) / iw, lsy = Double(tex.height) / ih
        let toLevel = _Homography.scaleTranslate(sx: lsx, sy: lsy, tx: 0, ty: 0)
        // Readable texels: the contents rect, rounded outwards, inside the image.
        let cx0 = max(0, Int((sx0 * lsx).rounded(.down))), cy0 = max(0, Int((sy0 * lsy).rounded(.down)))
        let cx1 = min(tex.width, Int(((sx0 + sw) * lsx).rounded(.up))), cy1 = min(tex.height, Int(((sy0 + sh) * lsy).rounded(.up)))
        guard cx1 > cx0, cy1 > cy0 else { return }
        var paint = _ImagePaint(texture: tex, inverse: toLevel * toTexel * inv, nearest: filter == .nearest,
                                cx0: cx0, cy0: cy0, cx1: cx1, cy1: cy1, ninePart: nil, tint: contentsTint,
                                bordered: levels[level].bordered)
        if nine {
            // Caps keep their size in points (texels / contentsScale), shrunk together if they do not fit.
            let capL = Double(cc.minX) * sw / cs, capR = (1 - Double(cc.maxX)) * sw / cs
            let capT = Double(cc.minY) * sh / cs, capB = (1 - Double(cc.maxY)) * sh / cs
            let fx = min(1, dw / max(capL + capR, 1e-12)), fy = min(1, dh / max(capT + capB, 1e-12))
            paint.inverse = inv
            paint.ninePart = NinePartMap(
                dx: (dx0, dx0 + capL * fx, dx0 + dw - capR * fx, dx0 + dw),
                sx: (sx0, sx0 + Double(cc.minX) * sw, sx0 + Double(cc.maxX) * sw, sx0 + sw),
                dy: (dy0, dy0 + capT * fy, dy0 + dh - capB * fy, dy0 + dh),
                sy: (sy0, sy0 + Double(cc.minY) * sh, sy0 + Double(cc.maxY) * sh, sy0 + sh))
        }
        if let g = ownClipGroup, d == l.bounds {
            let a = Self.alpha(opacity)
            if a > 0 { ops.append(.draw(_Draw(shapes: [], paint: .image(_ImagePaintBox(paint)), alpha: a, bounds: g.intersection(own.bounds)))) }
            return
        }
        emit(own, clips: clipList, paint: .image(_ImagePaintBox(paint)), opacity: opacity)
    }
}

/// One level of an image's mip pyramid: its texels, and for small levels a copy with a
/// repeated one-texel border (`BorderedTexture`) that the clamp-to-edge bilinear kernels
/// sample without gathers at the edges (the same bytes; W6a's 32×32 tiles: most blocks touch
/// an edge).
struct _MipLevel: Sendable {
    let texture: PixelBuffer
    let bordered: BorderedTexture?

    /// Levels of at most this many texels with the border (256 KiB: up to a 254 × 254 image)
    /// get a bordered copy. Larger images have a smaller share of edge blocks, where the copy
    /// pays, and the copy would add their size again.
    static let borderedTexelLimit = 65_536

    init(_ texture: PixelBuffer) {
        self.texture = texture
        bordered = (texture.width + 2) * (texture.height + 2) <= Self.borderedTexelLimit ? BorderedTexture(texture) : nil
    }

    /// Calls `body` with the texels the fused samplers read: the bordered copy's view when
    /// there is one (as `_ImagePaintBox.withFastRaster`), else the texture's.
    @inline(__always)
    func withFastRaster<R>(_ body: (RasterImage) throws -> R) rethrows -> R {
        if bordered != nil { return try bordered!.withRasterImage(body) }
        return try texture.withRasterImage(body)
    }
}

/// Mipmap pyramids (`Mipmap.downsample2x`: 2×2 box, rounded to nearest), built on demand and
/// kept between frames for images still in use.
final class _MipCache: @unchecked Sendable {
    private var cache: [ObjectIdentifier: (image: CGImage, levels: [_MipLevel], used: Bool)] = [:]
    /// Planning may run on several threads (`_Planner.planSublayers`).
    private let lock = NSLock()

    func levels(for image: CGImage, upTo level: Int) -> [_MipLevel] {
        lock.lock(); defer { lock.unlock() }
        let id = ObjectIdentifier(image)
        var entry = cache[id] ?? (image, [_MipLevel(image.pixelBuffer)], true)
        entry.used = true
        while entry.levels.count <= level, let last = entry.levels.last?.texture, last.width > 1 || last.height > 1 {
            entry.levels.append(_MipLevel(Mipmap.downsample2x(last)))
        }
        cache[id] = entry
        return entry.levels
    }

    /// Drops images not used since the last call.
    func endFrame() {
        lock.lock(); defer { lock.unlock() }
        cache = cache.filter { $0.value.used }
        for k in cache.keys { cache[k]?.used = false }
    }
}
