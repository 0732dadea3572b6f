import Testing
@testable import FlipbookScene
import Flipbook
import Foundation

/// `"class": "text"` in scene files: every key, fonts by name and by file, the errors.
@Suite struct SceneTextTests {
    func scene(_ layer: String) -> String {
        #"{"output": {"size": "100x50", "duration": 1}, "layers": [\#(layer)]}"#
    }

    func message(_ layer: String, baseDirectory: String = "/tmp") -> String {
        do { _ = try SceneParser.parse(scene(layer), file: "scene.json", baseDirectory: baseDirectory); return "no error" } catch {
            return error.description
        }
    }

    @Test func everyKeyParsesAndBuilds() throws {
        let s = try SceneParser.parse(scene(#"""
        {"name": "t", "class": "text", "frame": [0, 0, 100, 50], "string": "Hi", "font": "DejaVu Sans",
         "fontSize": 18, "foregroundColor": "#ff0000", "isWrapped": true, "truncationMode": "middle",
         "alignmentMode": "center",
         "animations": [{"class": "basic", "keyPath": "fontSize", "fromValue": 10, "toValue": 20, "duration": 1},
                        {"class": "basic", "keyPath": "foregroundColor", "fromValue": "#000000", "toValue": "#ffffff", "duration": 1}]}
        """#))
        let d = try #require(s.root.sublayers.first)
        #expect(d.layerClass == .text && d.string == .some("Hi") && d.font == .name("DejaVu Sans") && d.fontSize == 18)
        #expect(d.isWrapped == true && d.truncationMode == .middle && d.alignmentMode == .center)
        let built = try SceneBuilder(s)
        let t = try #require(built.layer(named: "t") as? CATextLayer)
        #expect(t.string as? String == "Hi" && t.fontSize == 18 && t.isWrapped && t.truncationMode == .middle)
        #expect(t.alignmentMode == .center && t.foregroundColor?.red == 1 && t.foregroundColor?.green == 0)
        #expect((t.font as? CGFont)?.postScriptName == "DejaVuSans")
    }

    /// A font file relative to the scene's folder.
    @Test func fontFromAFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-scene-font-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir + "/fonts", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The bundled font's bytes, written out as a file.
        try CGFont.bundledFontData(0).write(to: URL(fileURLWithPath: dir + "/fonts/Mine.ttf"))
        let s = try SceneParser.parse(scene(#"{"name": "t", "class": "text", "string": "x", "font": {"file": "fonts/Mine.ttf"}}"#),
                                      file: "scene.json", baseDirectory: dir)
        #expect(s.root.sublayers.first?.font == .file(path: "fonts/Mine.ttf", resolvedPath: dir + "/fonts/Mine.ttf", index: 0))
        let t = try #require(try SceneBuilder(s).layer(named: "t") as? CATextLayer)
        #expect((t.font as? CGFont)?.postScriptName == "DejaVuSans")
        #expect(message(#"{"class": "text", "font": {"file": "fonts/Mine.ttf", "index": 3}}"#, baseDirectory: dir)
                == "scene.json:1: layers[0].font.file: \(dir)/fonts/Mine.ttf is not a font file FreeType can read (face 3)")
    }

    @Test func errorsNameTheProblemAndItsLocation() {
        #expect(message(#"{"class": "text", "font": "No Such Font Flipbook"}"#)
                == #"scene.json:1: layers[0].font: no font named "No Such Font Flipbook": the bundled fonts are "DejaVu Sans" and "Noto Sans Devanagari"; installed fonts are found by exact family, full or PostScript name (see fc-list), or give {"file": "path.ttf"}"#)
        #expect(message(#"{"class": "text", "font": {"file": "nope.ttf"}}"#)
                == "scene.json:1: layers[0].font.file: font file not found: /tmp/nope.ttf")
        #expect(message(#"{"class": "text", "font": {"file": "/tmp"}}"#)
                == "scene.json:1: layers[0].font.file: font path /tmp is a directory")
        #expect(message(#"{"string": "x"}"#)
                == #"scene.json:1: layers[0].string: "string" is a text-layer property; add "class": "text" to this layer"#)
        #expect(message(#"{"class": "text", "fontSize": -1}"#)
                == "scene.json:1: layers[0].fontSize: expected a font size from 0 to 10000, got -1")
        #expect(message(#"{"class": "text", "truncationMode": "both"}"#).contains("truncation mode"))
        #expect(message(#"{"class": "text", "alignmentMode": "middle"}"#).contains("alignment mode"))
    }
}
