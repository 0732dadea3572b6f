import Foundation
import FlipbookScene

/// Reads Bodymovin JSON (the Lottie format After Effects' Bodymovin exporter writes, described
/// by the Lottie specification) into ``LottieComposition``.
///
/// The whole document is read and checked before anything is rendered: a wrong type, a
/// missing required key or a broken reference is a ``LottieError`` naming the file, line and
/// JSON path; keys Flipbook does not read are ignored. Where real files omit things, the
/// defaults are lottie-web's and lottie-ios's (a transform value → identity, a layer's
/// `ip`/`op` → the composition's, `st` → 0, `sr` → 1 …). The bounds on hostile input are
/// listed in ``LottieLimits``.
///
/// Values are kept in the file's units (degrees, percent, 0–100 opacities), with two
/// normalisations: old-format keyframes' end values (`e`) become the next keyframe's value,
/// and colours written 0–255 (all of r, g, b above 1, the test lottie-ios uses) are scaled to
/// 0–1.
package enum LottieParser {
    /// The result of a parse: the composition and what the parser warned about.
    package struct Result: Sendable {
        package var composition: LottieComposition
        package var warnings: [LottieWarning]
    }

    /// Parses a Bodymovin JSON document held in memory. Images that are not embedded are
    /// looked up in `imagesDirectory` (`u` + `p` relative to it), or left out with a warning
    /// when it is nil.
    package static func parse(_ data: Data, file: String, imagesDirectory: URL? = nil,
                               limits: LottieLimits = .standard) throws(LottieError) -> Result {
        try parse(data, file: file, images: imagesDirectory.map { .directory($0) } ?? .none, limits: limits)
    }

    static func parse(_ data: Data, file: String, images: _LottieImageSource, limits: LottieLimits) throws(LottieError) -> Result {
        guard data.count <= limits.maximumJSONBytes else {
            throw LottieError(kind: .tooLarge, file: file, line: nil, path: "",
                              message: "the document is \(_DotLottieArchive.size(UInt64(data.count))); the limit is \(_DotLottieArchive.size(UInt64(limits.maximumJSONBytes)))")
        }
        let json: SceneJSON
        do { json = try SceneJSONParser.parse([UInt8](data)) } catch {
            throw LottieError(kind: .syntax, file: file, line: error.line, column: error.column, path: "", message: error.message)
        }
        let context = _LottieParseContext(file: file, limits: limits, images: images)
        let root = _LottieNode(json: json, path: "", file: file)
        let composition = try composition(root, context)
        try checkReferences(composition, context)
        return Result(composition: composition, warnings: context.warnings)
    }

    // MARK: The root object

    static func composition(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> LottieComposition {
        let o = try node.object()
        let limit = cx.limits.maximumDimension
        let wNode = try o.required("w", "the composition width")
        let w = try wNode.number()
        guard w > 0, w <= limit else { throw wNode.fail("expected a width between 0 (exclusive) and \(_LottieNode.format(limit)), got \(_LottieNode.format(w))", kind: w > 0 ? .tooLarge : .invalid) }
        let hNode = try o.required("h", "the composition height")
        let h = try hNode.number()
        guard h > 0, h <= limit else { throw hNode.fail("expected a height between 0 (exclusive) and \(_LottieNode.format(limit)), got \(_LottieNode.format(h))", kind: h > 0 ? .tooLarge : .invalid) }
        let fr = try frameRate(try o.required("fr", "frames per second"), cx)
        let (ip, op) = try timeline(o, cx)
        cx.compositionWidth = w; cx.compositionHeight = h
        cx.compositionInPoint = ip; cx.compositionOutPoint = op

        let layersNode = try o.required("layers", "the composition's layers")
        cx.rootLayers = layersNode
        let layers = try self.layers(layersNode, owner: nil, cx)
        var c = LottieComposition(width: w, height: h, frameRate: fr, inPoint: ip, outPoint: op, layers: layers)
        c.version = try o["v"]?.string()
        c.name = try o["nm"]?.string()
        c.is3D = try o["ddd"]?.flag() ?? false
        if let a = o["assets"] { c.assets = try assets(a, cx) }
        if let f = o["fonts"] { c.fonts = try fonts(f) }
        if let g = o["chars"] { c.glyphs = try glyphs(g, cx) }
        if let m = o["markers"] { c.markers = try markers(m) }
        return c
    }

    /// `ip` and `op`: whole-frame arithmetic must stay exact on the timeline (both within
    /// ±``LottieLimits/maximumFrameNumber``), `op` after `ip`, and the timeline at most
    /// ``LottieLimits/maximumTimelineFrames`` long (the mapping samples some values at every
    /// frame of it).
    static func timeline(_ o: _LottieObject, _ cx: _LottieParseContext) throws(LottieError) -> (ip: Double, op: Double) {
        let bound = cx.limits.maximumFrameNumber
        let ipNode = try o.required("ip", "the first frame")
        let ip = try ipNode.number()
        guard abs(ip) <= bound else {
            throw ipNode.fail("expected an in point between −\(_LottieNode.format(bound)) and \(_LottieNode.format(bound)), got \(_LottieNode.format(ip))", kind: .tooLarge)
        }
        let opNode = try o.required("op", "the frame after the last")
        let op = try opNode.number()
        guard abs(op) <= bound else {
            throw opNode.fail("expected an out point between −\(_LottieNode.format(bound)) and \(_LottieNode.format(bound)), got \(_LottieNode.format(op))", kind: .tooLarge)
        }
        guard op > ip else { throw opNode.fail("expected an out point after the in point (\(_LottieNode.format(ip))), got \(_LottieNode.format(op))") }
        let frames = cx.limits.maximumTimelineFrames
        guard op - ip <= frames else {
            throw opNode.fail("the timeline (op − ip) is \(_LottieNode.format(op - ip)) frames long; the limit is \(_LottieNode.format(frames)) frames", kind: .tooLarge)
        }
        return (ip, op)
    }

    /// `fr`: > 0 and ≤ the limit.
    static func frameRate(_ n: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> Double {
        let fr = try n.number()
        let max = cx.limits.maximumFrameRate
        guard fr > 0, fr <= max else {
            throw n.fail("expected frames per second between 0 (exclusive) and \(_LottieNode.format(max)), got \(_LottieNode.format(fr))", kind: fr > 0 ? .tooLarge : .invalid)
        }
        return fr
    }

    static func markers(_ n: _LottieNode) throws(LottieError) -> [LottieMarker] {
        var out: [LottieMarker] = []
        for m in try n.array() {
            let o = try m.object()
            let name = try o["cm"]?.string() ?? ""
            let frame = try o.required("tm", "the marker's frame").number()
            let duration = try o["dr"]?.number() ?? 0
            out.append(LottieMarker(name: name, frame: frame, duration: duration))
        }
        return out
    }
}
