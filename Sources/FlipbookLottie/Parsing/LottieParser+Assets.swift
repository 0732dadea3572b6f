import Foundation

/// `assets[]`: precompositions (`layers`) and images (`p`), and the bytes of images.
extension LottieParser {
    /// Ids must be unique. An asset with `layers` is a precomposition (its own `fr`, when
    /// given, is checked like the composition's); one with `p` is an image, unless its `t` says
    /// sound (2) or data (3); those and any other kind are left out with a warning.
    static func assets(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> [LottieAsset] {
        var out: [LottieAsset] = []
        var seen: [String: Int] = [:]
        for a in try node.array() {
            let o = try a.object()
            let idNode = try o.required("id", "the asset's id")
            let id = try idNode.identifier()
            if let first = seen[id] { throw idNode.fail("duplicate asset id \"\(id)\" (first on line \(first))") }
            seen[id] = idNode.json.line
            if let layersNode = o["layers"] {
                let fr = try o["fr"].map { (f) throws(LottieError) in try frameRate(f, cx) }
                out.append(LottieAsset(id: id, kind: .precomposition(layers: try layers(layersNode, owner: id, cx), frameRate: fr)))
            } else if let t = o["t"], t.isNumber, let what = [2: "a sound", 3: "a data"][try t.integer()] {
                cx.warn("asset", a, "asset \"\(id)\" is \(what) asset (t \(try t.integer())); left out")
            } else if let pNode = o["p"] {
                let p = try pNode.string()
                let u = try o["u"]?.string() ?? ""
                let embedded = try (o["e"]?.flag() ?? false) || p.hasPrefix("data:")
                let data = try imageData(path: p, directory: u, node: pNode, cx)
                out.append(LottieAsset(id: id, kind: .image(width: try o["w"]?.number() ?? 0, height: try o["h"]?.number() ?? 0,
                                                            directory: u, path: p, embedded: embedded, data: data)))
            } else {
                cx.warn("asset", a, "asset \"\(id)\" is neither a precomposition (layers) nor an image (p); left out")
            }
        }
        return out
    }

    // MARK: Image bytes

    /// The bytes of an image asset, or nil with a warning (never an error, except a dotLottie
    /// entry over the size bounds):
    /// - `data:<type>;base64,<payload>`: the decoded payload (malformed base64 warns);
    /// - `http:`/`https:` paths: not fetched (warns);
    /// - otherwise the file `u` + `p`: beside the JSON document (a leading `/` of `u` is
    ///   relative to the document's directory too, as in dotLottie archives; only a regular file
    ///   of at most ``LottieLimits/maximumEntryBytes`` is read), or in the dotLottie archive
    ///   (`u` + `p`, then `i/` + `p`, then `images/` + `p`).
    ///
    /// Whatever the source, the bytes must begin like a PNG or a JPEG (decoding them is the
    /// mapping's job); anything else is left out with a warning.
    static func imageData(path p: String, directory u: String, node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> Data? {
        let data: Data
        if p.hasPrefix("data:") {
            guard let comma = p.firstIndex(of: ",") else {
                cx.warn("image", node, "malformed data URI (no ','); the image is left out"); return nil
            }
            let header = p[p.index(p.startIndex, offsetBy: 5)..<comma]
            guard header.lowercased().hasSuffix(";base64") else {
                cx.warn("image", node, "only base64 data URIs are read (got \"data:\(header)\"); the image is left out"); return nil
            }
            guard let decoded = Data(base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters),
                  !decoded.isEmpty else {
                cx.warn("image", node, "malformed base64 in the data URI; the image is left out"); return nil
            }
            data = decoded
        } else {
            let name = u + p
            if ["http:", "https:", "ftp:"].contains(where: { u.lowercased().hasPrefix($0) || p.lowercased().hasPrefix($0) }) {
                cx.warn("image", node, "remote image \"\(name)\" is not fetched; the image is left out"); return nil
            }
            let relative = String(name.drop(while: { $0 == "/" }))
            let found: Data?
            switch cx.images {
            case .none:
                cx.warn("image", node, "image file \"\(name)\" not looked up: the document was loaded from memory; the image is left out")
                return nil
            case let .directory(base):
                switch readImageFile(base.appendingPathComponent(relative), node, cx) {
                case let .read(d): found = d
                case .absent: found = nil
                case .refused: return nil
                }
            case let .archive(archive):
                found = try archive.imageData(candidates: [relative, "i/" + p, "images/" + p])
            }
            guard let found else {
                cx.warn("image", node, "image file \"\(relative)\" not found; the image is left out"); return nil
            }
            data = found
        }
        guard isPNG(data) || isJPEG(data) else {
            cx.warn("image", node, "the image data is not a PNG or JPEG image; the image is left out"); return nil
        }
        return data
    }

    static func isPNG(_ d: Data) -> Bool { d.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
    static func isJPEG(_ d: Data) -> Bool { d.starts(with: [0xFF, 0xD8, 0xFF]) }

    enum _FileRead { case read(Data), absent, refused }

    /// A regular file of at most the entry bound; `/dev/zero`, directories and larger files
    /// are refused with a warning.
    static func readImageFile(_ url: URL, _ node: _LottieNode, _ cx: _LottieParseContext) -> _FileRead {
        let path = url.resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return .absent }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            cx.warn("image", node, "\"\(url.path)\" is not a regular file; the image is left out"); return .refused
        }
        let limit = cx.limits.maximumEntryBytes
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.read(upToCount: limit + 1) else {
            cx.warn("image", node, "\"\(url.path)\" cannot be read; the image is left out"); return .refused
        }
        try? handle.close()
        guard data.count <= limit else {
            cx.warn("image", node, "\"\(url.path)\" is larger than \(_DotLottieArchive.size(UInt64(limit))); the image is left out"); return .refused
        }
        return .read(data)
    }
}
