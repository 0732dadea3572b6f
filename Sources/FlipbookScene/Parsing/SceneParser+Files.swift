/// The files a scene reads besides itself, for content hashes and bundles (`flipbook plan`,
/// `flipbook bundle`; docs/scale-out.md).
extension SceneParser {
    /// A font file a text layer names by path (`"font": {"file": "fonts/x.ttf"}`).
    package struct FontFile: Sendable, Hashable {
        /// As written in the scene (relative to its folder, or absolute).
        package var path: String
        /// The absolute path it resolved to when the scene was parsed.
        package var resolvedPath: String
    }

    /// The font files a scene uses (initial layers, masks, layers added by timeline events),
    /// each once, in first-use order. Fonts named by name are not files of the scene.
    package static func fontFiles(in scene: SceneDescription) -> [FontFile] {
        var out: [FontFile] = []
        func visit(_ l: LayerDescription) {
            if case let .file(path, resolved, _)? = l.font {
                let f = FontFile(path: path, resolvedPath: resolved)
                if !out.contains(f) { out.append(f) }
            }
            if let m = l.mask { visit(m.value) }
            l.sublayers.forEach(visit)
        }
        func visit(_ t: TransactionDescription) {
            for s in t.steps {
                switch s {
                case let .add(a): if case let .new(l) = a.source { visit(l) }
                case let .transaction(n): visit(n)
                default: break
                }
            }
            if let c = t.completion { visit(c.value) }
        }
        visit(scene.root)
        scene.timeline.forEach { visit($0.transaction) }
        return out
    }
}
