#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Flipbook
/// State shared while parsing one scene file: where images resolve from, every layer name
/// declared (to refuse duplicates) and every name referenced (checked once the whole file is
/// read, so an event may name a layer that a later event adds).
final class _SceneParseContext {
    let file: String
    let baseDirectory: String
    /// Declared layer names → line of declaration.
    var names: [String: Int] = ["root": 0]
    /// Referenced names with the node that referenced them.
    var references: [(name: String, node: _SceneNode)] = []
    /// Every image used, in first-use order, without duplicates.
    var images: [SceneImage] = []
    /// Frame size limit in pixels (checked against images? no — output only).
    init(file: String, baseDirectory: String) {
        self.file = file; self.baseDirectory = baseDirectory
    }

    func declare(_ name: String, at node: _SceneNode) throws(SceneError) {
        if name == "root" { throw node.fail("the name \"root\" is reserved for the root layer") }
        if let first = names[name] {
            throw node.fail("duplicate layer name \"\(name)\" (first declared on line \(first))")
        }
        names[name] = node.json.line
    }

    func reference(_ name: String, at node: _SceneNode) { references.append((name, node)) }

    /// Throws for the first reference to an undeclared name.
    func checkReferences() throws(SceneError) {
        for r in references where names[r.name] == nil {
            var m = "unknown layer \"\(r.name)\""
            if let near = _SceneNode.suggestion(for: r.name, in: Array(names.keys).sorted()) { m += " (did you mean \"\(near)\"?)" }
            throw r.node.fail(m)
        }
    }

    /// A `font` value: a name (`"DejaVu Sans"`, an installed family, full or PostScript name)
    /// or `{"file": "fonts/My.ttf", "index": 0}` relative to the scene's folder. Checked now, so
    /// a missing font is an error with its location, never a silent substitution.
    func font(_ node: _SceneNode) throws(SceneError) -> SceneFont {
        if case .string = node.json.value {
            let name = try node.string()
            guard !name.isEmpty else { throw node.fail("expected a font name, got an empty string") }
            guard CGFont(name) != nil else {
                throw SceneError(kind: .missingFont, file: file, line: node.json.line, path: node.path,
                                 message: "no font named \"\(name)\": the bundled fonts are \"DejaVu Sans\" and \"Noto Sans Devanagari\"; "
                                     + "installed fonts are found by exact family, full or PostScript name (see fc-list), or give {\"file\": \"path.ttf\"}")
            }
            return .name(name)
        }
        let o = try node.object(allowed: ["file", "index"])
        guard let f = o["file"] else { throw node.fail("expected a font name or {\"file\": \"path\"}") }
        let path = try f.string()
        guard !path.isEmpty else { throw f.fail("expected a font file path, got an empty string") }
        var index = 0
        if let i = o["index"] {
            let n = try i.number()
            guard n >= 0, n < 65_536, n == n.rounded() else { throw i.fail("expected a face index from 0 to 65535, got \(_SceneNode.format(n))") }
            index = Int(n)
        }
        let joined = path.hasPrefix("/") ? path : baseDirectory + "/" + path
        let resolved = URL(fileURLWithPath: joined).standardizedFileURL.path
        var st = stat()
        guard stat(resolved, &st) == 0 else {
            throw SceneError(kind: .missingFont, file: file, line: f.json.line, path: f.path, message: "font file not found: \(resolved)")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw SceneError(kind: .missingFont, file: file, line: f.json.line, path: f.path,
                             message: "font path \(resolved) is \((st.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file")")
        }
        guard CGFont(contentsOfFile: resolved, index: index) != nil else {
            throw SceneError(kind: .missingFont, file: file, line: f.json.line, path: f.path,
                             message: "\(resolved) is not a font file FreeType can read (face \(index))")
        }
        return .file(path: path, resolvedPath: resolved, index: index)
    }

    /// Resolves an image path against the scene's folder and checks the file exists.
    func image(_ node: _SceneNode) throws(SceneError) -> SceneImage {
        let path = try node.string()
        guard !path.isEmpty else { throw node.fail("expected an image path, got an empty string") }
        let joined = path.hasPrefix("/") ? path : baseDirectory + "/" + path
        let resolved = URL(fileURLWithPath: joined).standardizedFileURL.path
        var st = stat()
        guard stat(resolved, &st) == 0 else {
            throw SceneError(kind: .missingImage, file: file, line: node.json.line, path: node.path,
                             message: "image not found: \(resolved)")
        }
        if (st.st_mode & S_IFMT) != S_IFREG {
            // Checked without opening: a FIFO would block an open, a device would read forever.
            let kind = (st.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
            throw SceneError(kind: .missingImage, file: file, line: node.json.line, path: node.path,
                             message: "image path \(resolved) is \(kind), not an image file")
        }
        let image = SceneImage(path: path, resolvedPath: resolved, line: node.json.line, jsonPath: node.path)
        if !images.contains(image) { images.append(image) }
        return image
    }
}
