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
        scene.forEachDescription(layer: { l in
            if case let .file(path, resolved, _)? = l.font {
                let f = FontFile(path: path, resolvedPath: resolved)
                if !out.contains(f) { out.append(f) }
            }
        })
        return out
    }
}
