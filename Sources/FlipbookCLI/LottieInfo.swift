import Foundation
import FlipbookLottie

/// `flipbook info anim.json` (or `anim.lottie`): a Lottie file's ``LottieInspection`` — the
/// composition, layers by type, assets, markers, fonts, and the features it uses, each marked
/// when Flipbook does not draw it exactly. The marks come from the same warnings `render`
/// prints (the animation is mapped once to find them), so the two always agree.
///
///     file: logo.json
///     format: Lottie (Bodymovin 4.4.26)
///     size: 375×667 points
///     fps: 30
///     frames: ip 0 to op 179: 179 frames, 5.967 s (render frames 0..178)
///     layers: 48 (shape 45, solid 3)
///     …
///     features: 14, 1 not drawn exactly (!)
///       trim path ×40
///       ! expression ×2 (layers[3].ks.o): expression not evaluated; its static value is used
enum LottieInfo {
    struct Report {
        var path: String
        var kind: InputKind
        var inspection: LottieInspection
    }

    /// Loads and inspects the file; a bad file is the loader's one-line error (exit 1).
    static func report(path: String) -> Result<Report, CLIFailure> {
        do throws(LottieError) {
            let animation = try LottieAnimation.load(filepath: path)
            return .success(Report(path: path, kind: InputKind.of(path: path), inspection: animation.inspection()))
        } catch {
            return .failure(CLIFailure(message: error.description))
        }
    }

    /// A number without a trailing `.0` when whole.
    static func format(_ v: Double) -> String {
        v.isFinite && v.rounded() == v && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// The `key: value` lines.
    static func lines(_ r: Report) -> [String] {
        let i = r.inspection
        let f = format
        var out = ["file: \(r.path)",
                   "format: \(r.kind == .dotLottie ? "dotLottie" : "Lottie")" + (i.version.map { " (Bodymovin \($0))" } ?? "")]
        if let name = i.name, !name.isEmpty { out.append("name: \(name.replacingNewlines())") }
        out.append("size: \(f(i.width))×\(f(i.height)) points" + (i.is3D ? " (3D)" : ""))
        out.append("fps: \(f(i.framerate))")
        out.append("frames: ip \(f(i.startFrame)) to op \(f(i.endFrame)): \(i.frameCount) frames, \(String(format: "%.3f", i.duration)) s"
                   + " (render frames 0..\(i.frameCount - 1))")
        let byType = LottieInspection.LayerType.allCases.compactMap { t in i.layers[t].map { "\(t.rawValue) \($0)" } }
        out.append("layers: \(i.layerCount)" + (byType.isEmpty ? "" : " (\(byType.joined(separator: ", ")))"))
        out.append("precompositions: \(i.precompositions.count)")
        for p in i.precompositions {
            out.append("  \(p.id.replacingNewlines()): \(p.layerCount) layer\(p.layerCount == 1 ? "" : "s"), used \(p.uses)×"
                       + (p.framerate.map { ", \(f($0)) fps" } ?? ""))
        }
        let embedded = i.images.filter(\.isEmbedded).count
        out.append("images: \(i.images.count)" + (i.images.isEmpty ? "" : " (\(embedded) embedded, \(i.images.count - embedded) external)"))
        for m in i.images {
            let source = m.isEmbedded ? "embedded" : "file \(m.file ?? "")"
            out.append("  \(m.id.replacingNewlines()): \(f(m.width))×\(f(m.height)), \(source.replacingNewlines()), "
                       + (m.isLoaded ? RenderSession.bytes(m.byteCount) : "not found: not drawn"))
        }
        out.append("markers: \(i.markers.count)")
        for m in i.markers { out.append("  \(m.name.replacingNewlines()): frame \(f(m.frame)), \(f(m.duration)) frames") }
        out.append("fonts: \(i.fonts.count)" + (i.glyphCount > 0 ? " (\(i.glyphCount) glyphs in the file)" : ""))
        for font in i.fonts {
            let how: String
            switch font.availability {
            case .exact: how = "found"
            case .familyOnly: how = "style not installed: the family's regular face"
            case .missing: how = "not installed: DejaVu Sans"
            }
            out.append("  \(font.name.replacingNewlines()): \(font.family.replacingNewlines()) \(font.style.replacingNewlines()), "
                       + (font.glyphs > 0 ? "\(font.glyphs) glyphs in the file, font \(how)" : how))
        }
        let inexact = i.features.filter { !$0.isExact }.count
        out.append("features: \(i.features.count)" + (inexact > 0 ? ", \(inexact) not drawn exactly (!)" : ", all drawn exactly"))
        for feature in i.features {
            var line = "  " + (feature.isExact ? "" : "! ") + "\(feature.name) ×\(feature.count)"
            if let w = feature.warnings.first {
                line += " (\(w.path.isEmpty ? feature.firstPath : w.path)): \(w.message)"
                if feature.warnings.count > 1 { line += " (+\(feature.warnings.count - 1) more)" }
            }
            out.append(line.replacingNewlines())
        }
        out.append("warnings: \(i.warnings.count)")
        for w in i.warnings { out.append("  " + w.description.replacingNewlines()) }
        return out
    }

    /// `info --json`'s object (keys sorted when encoded).
    struct Facts: Encodable {
        var file: String, format: String, version: String?, name: String?
        var width: Double, height: Double, fps: Double, ip: Double, op: Double, frameCount: Int, duration: Double
        var is3D: Bool
        var layers: [String: Int], layerCount: Int
        struct Precomposition: Encodable { var id: String, layers: Int, uses: Int, fps: Double? }
        var precompositions: [Precomposition]
        struct Image: Encodable { var id: String, width: Double, height: Double, embedded: Bool, file: String?, loaded: Bool, bytes: Int }
        var images: [Image]
        struct Marker: Encodable { var name: String, frame: Double, duration: Double }
        var markers: [Marker]
        struct Font: Encodable { var name: String, family: String, style: String, glyphs: Int, availability: String }
        var fonts: [Font]
        var glyphs: Int
        struct Feature: Encodable { var name: String, count: Int, path: String, exact: Bool, warnings: [String] }
        var features: [Feature]
        struct Warning: Encodable { var feature: String, path: String, message: String }
        var warnings: [Warning]
    }

    static func facts(_ r: Report) -> Facts {
        let i = r.inspection
        var layers: [String: Int] = [:]
        for (t, n) in i.layers { layers[t.rawValue] = n }
        return Facts(
            file: r.path, format: r.kind == .dotLottie ? "dotlottie" : "lottie", version: i.version, name: i.name,
            width: i.width, height: i.height, fps: i.framerate, ip: i.startFrame, op: i.endFrame, frameCount: i.frameCount,
            duration: i.duration, is3D: i.is3D, layers: layers, layerCount: i.layerCount,
            precompositions: i.precompositions.map { .init(id: $0.id, layers: $0.layerCount, uses: $0.uses, fps: $0.framerate) },
            images: i.images.map { .init(id: $0.id, width: $0.width, height: $0.height, embedded: $0.isEmbedded, file: $0.file,
                                         loaded: $0.isLoaded, bytes: $0.byteCount) },
            markers: i.markers.map { .init(name: $0.name, frame: $0.frame, duration: $0.duration) },
            fonts: i.fonts.map { .init(name: $0.name, family: $0.family, style: $0.style, glyphs: $0.glyphs, availability: $0.availability.rawValue) },
            glyphs: i.glyphCount,
            features: i.features.map { .init(name: $0.name, count: $0.count, path: $0.firstPath, exact: $0.isExact,
                                             warnings: $0.warnings.map(\.description)) },
            warnings: i.warnings.map { .init(feature: $0.feature, path: $0.path, message: $0.message) })
    }
}
