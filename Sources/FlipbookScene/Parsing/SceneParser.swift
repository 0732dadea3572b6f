import Foundation
/// Reads scene files (`docs/scene-format.md`) into ``SceneDescription``.
///
/// Parsing is all-or-nothing: the whole file is read, every value type-checked, every layer
/// name and reference resolved and every image located before a description is returned, so
/// a wrong scene never produces a frame. Errors are ``SceneError``s naming the file, line,
/// JSON path and the expectation: `scene.json:12: layers[3].transform: expected 16 numbers, got 15`.
public enum SceneParser {
    /// Reads and parses the scene file at `path`. Images resolve against its folder; messages
    /// name the file as `displayName` (default: `path` as given).
    public static func parse(contentsOf path: String, displayName: String? = nil) throws(SceneError) -> SceneDescription {
        let name = displayName ?? path
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw SceneError(kind: .unreadable, file: name, line: nil, path: "",
                             message: exists ? "cannot read the file" : "no such file: \(url.path)")
        }
        return try parse(Array(data), file: name, baseDirectory: url.deletingLastPathComponent().path)
    }

    /// Parses scene text. `file` names it in messages; images resolve against `baseDirectory`.
    public static func parse(_ text: String, file: String = "scene.json",
                             baseDirectory: String = FileManager.default.currentDirectoryPath) throws(SceneError) -> SceneDescription {
        try parse(Array(text.utf8), file: file, baseDirectory: baseDirectory)
    }

    /// Parses scene bytes (UTF-8 JSON).
    public static func parse(_ bytes: [UInt8], file: String, baseDirectory: String) throws(SceneError) -> SceneDescription {
        let json: SceneJSON
        do { json = try SceneJSONParser.parse(bytes) } catch {
            throw SceneError(kind: .syntax, file: file, line: error.line, column: error.column, path: "", message: error.message)
        }
        let base = URL(fileURLWithPath: baseDirectory).standardizedFileURL.path
        let ctx = _SceneParseContext(file: file, baseDirectory: base)
        let top = try _SceneNode(json: json, path: "", file: file).object(allowed: ["output", "root", "layers", "timeline"])

        let output = try self.output(top.required("output", "the output settings"))

        var root = LayerDescription(name: "root")
        if let r = top["root"] {
            root = try layer(r, ctx, isRoot: true)
        }
        root.name = "root"
        root.bounds = CGRect(x: 0, y: 0, width: output.recording.width, height: output.recording.height)
        root.position = CGPoint(x: output.recording.width / 2, y: output.recording.height / 2)
        if root.backgroundColor == nil { root.backgroundColor = .some(output.recording.background) }
        if let layers = top["layers"] {
            for item in try layers.array() { root.sublayers.append(try layer(item, ctx, isRoot: false)) }
        }

        var timeline: [EventDescription] = []
        if let t = top["timeline"] {
            for item in try t.array() { timeline.append(try event(item, ctx)) }
        }
        // Stable sort: events at the same time keep file order.
        timeline = timeline.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)

        try ctx.checkReferences()
        return SceneDescription(recording: output.recording, duration: output.duration, format: output.format,
                                root: root, timeline: timeline, baseDirectory: base)
    }

    /// The images a scene uses, each once, in first-use order.
    public static func images(in scene: SceneDescription) -> [SceneImage] {
        var out: [SceneImage] = []
        func add(_ i: SceneImage?) { if let i, !out.contains(i) { out.append(i) } }
        func visit(_ v: SceneValue?) { if case let .image(i)? = v { add(i) } }
        func visit(_ a: AnimationDescription) {
            switch a.kind {
            case let .basic(b): [b.fromValue, b.toValue, b.byValue].forEach(visit)
            case let .spring(s): [s.basic.fromValue, s.basic.toValue, s.basic.byValue].forEach(visit)
            case let .keyframe(k): k.values?.forEach { visit($0) }
            case let .group(g): g.forEach(visit)
            case .transition: break
            }
        }
        func visit(_ actions: [String: ActionDescription]?) {
            for (_, a) in (actions ?? [:]).sorted(by: { $0.key < $1.key }) { if case let .animation(x) = a { visit(x) } }
        }
        func visit(_ s: StyleDescription?) {
            guard let s else { return }
            s.properties.forEach { visit($0.value) }
            visit(s.actions)
            visit(s.style?.value)
        }
        func visit(_ c: EmitterCellDescription) {
            add(c.contents)
            c.emitterCells.forEach(visit)
        }
        scene.forEachDescription(layer: { l in
            add(l.contents)
            l.emitterCells?.forEach(visit)
            l.animations.forEach(visit)
            visit(l.actions)
            visit(l.style)
        }, step: { s in
            switch s {
            case let .set(_, props): props.forEach { visit($0.value) }
            case let .addAnimation(_, a): visit(a)
            default: break
            }
        })
        return out
    }
}
