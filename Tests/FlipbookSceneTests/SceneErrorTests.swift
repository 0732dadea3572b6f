import Testing
@testable import FlipbookRender
import FlipbookScene
import Foundation

/// Every scene error names the file, line, JSON path and expectation — exact messages.
@Suite struct SceneErrorTests {
    /// Parses `text` and returns the error's description (or "no error").
    func message(_ text: String) -> String {
        do { _ = try SceneParser.parse(text, file: "scene.json", baseDirectory: "/tmp"); return "no error" } catch {
            return error.description
        }
    }

    /// A minimal valid scene with `layers` spliced in.
    func scene(layers: String = "[]", timeline: String = "[]", output: String = #"{"size": "100x50", "duration": 1}"#) -> String {
        """
        {
          "output": \(output),
          "layers": \(layers),
          "timeline": \(timeline)
        }
        """
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect(message("{\n  \"output\": {}\n  \"layers\": []\n}") == "scene.json: line 3, column 3: expected ',' or '}', found '\"'")
        #expect(message("[1, 2,]") == "scene.json: line 1, column 7: expected a value, found ']'")
        #expect(message("") == "scene.json: line 1, column 1: the document is empty; expected a JSON value")
        #expect(message("{\"a\": tru}") == "scene.json: line 1, column 7: invalid literal; expected 'true'")
        #expect(message("{\"a\": 1, \"a\": 2}") == "scene.json: line 1, column 10: duplicate key \"a\" (first on line 1)")
        #expect(message("{\"a\": \"x\ny\"}") == "scene.json: line 1, column 9: control character in string (escape it, e.g. \\n)")
        #expect(message("{} x") == "scene.json: line 1, column 4: unexpected 'x' after the end of the document")
        #expect(message("[01]") == "scene.json: line 1, column 3: numbers may not have leading zeros")
    }

    @Test func transformWithWrongCount() {
        let layers = """
        [
            {"name": "a"},
            {"name": "b"},
            {"name": "c"},
            {"name": "d", "transform": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0]}
          ]
        """
        #expect(message(scene(layers: layers)) == "scene.json:7: layers[3].transform: expected 16 numbers, got 15 elements")
    }

    @Test func unknownKeysSuggest() {
        #expect(message(scene(layers: #"[{"opactiy": 1}]"#)) == #"scene.json:3: layers[0]: unknown key "opactiy" (did you mean "opacity"?)"#)
        #expect(message(#"{"output": {"size": "1x1", "duration": 1}, "layer": []}"#) == #"scene.json:1: unknown key "layer" (did you mean "layers"?)"#)
        #expect(message(scene(layers: #"[{"zzz": 1}]"#)) == #"scene.json:3: layers[0]: unknown key "zzz""#)
    }

    @Test func wrongTypesAndEnums() {
        #expect(message(scene(layers: #"[{"opacity": "high"}]"#)) == "scene.json:3: layers[0].opacity: expected a number, got a string")
        #expect(message(scene(layers: #"[{"opacity": 2}]"#)) == "scene.json:3: layers[0].opacity: expected an opacity between 0 and 1, got 2")
        #expect(message(scene(layers: #"[{"contentsGravity": "centre"}]"#)) == #"scene.json:3: layers[0].contentsGravity: unknown contents gravity "centre" (did you mean "center"?)"#)
        #expect(message(scene(layers: #"[{"isHidden": 1}]"#)) == "scene.json:3: layers[0].isHidden: expected true or false, got a number")
        #expect(message(scene(layers: #"[{"position": [1e999, 0]}]"#)) == "scene.json:3: layers[0].position[0]: expected a finite number, got inf")
    }

    @Test func colours() {
        #expect(message(scene(layers: ##"[{"backgroundColor": "#12345"}]"##)) == ##"scene.json:3: layers[0].backgroundColor: invalid colour "#12345"; expected "#rrggbb" or "#rrggbbaa" (hex digits)"##)
        #expect(message(scene(layers: #"[{"backgroundColor": [1, 0, 2]}]"#)) == "scene.json:3: layers[0].backgroundColor[2]: expected a colour component between 0 and 1, got 2")
        #expect(message(scene(layers: #"[{"borderColor": [1, 0]}]"#)) == "scene.json:3: layers[0].borderColor: expected a colour [r, g, b] or [r, g, b, a], got 2 elements")
    }

    @Test func missingRequiredFields() {
        #expect(message(#"{"layers": []}"#) == #"scene.json:1: missing required key "output" (the output settings)"#)
        #expect(message(#"{"output": {"size": "10x10"}}"#) == #"scene.json:1: output: missing "duration" (seconds) or "frames" (e.g. "0..59")"#)
        #expect(message(scene(layers: #"[{"animations": [{"class": "basic", "toValue": 1}]}]"#)) == #"scene.json:3: layers[0].animations[0]: missing required key "keyPath" (the animated property)"#)
    }

    @Test func namesAndReferences() {
        #expect(message(scene(layers: #"[{"name": "a"}, {"name": "a"}]"#)) == #"scene.json:3: layers[1].name: duplicate layer name "a" (first declared on line 3)"#)
        let timeline = #"[{"at": 1, "do": [{"layer": "bx", "set": {"opacity": 0}}]}]"#
        #expect(message(scene(layers: #"[{"name": "box"}]"#, timeline: timeline)) == #"scene.json:4: timeline[0].do[0].layer: unknown layer "bx" (did you mean "box"?)"#)
        #expect(message(scene(layers: #"[{"name": "root"}]"#)) == #"scene.json:3: layers[0].name: the name "root" is reserved for the root layer"#)
    }

    @Test func absurdSizes() {
        #expect(message(scene(output: #"{"size": "20000x10", "duration": 1}"#)) == "scene.json:2: output.size: the frame would be 20000×10 pixels (size × scale), above the limit of 16384×16384")
        #expect(message(scene(output: #"{"size": "10000x10", "scale": 2, "duration": 1}"#)) == "scene.json:2: output.scale: the frame would be 20000×20 pixels (size × scale), above the limit of 16384×16384")
        #expect(message(scene(output: #"{"size": "0x10", "duration": 1}"#)) == "scene.json:2: output.size: expected a positive size, got 0×10")
    }

    @Test func missingImageNamesResolvedPath() {
        #expect(message(scene(layers: #"[{"contents": "img/../logo.png"}]"#)) == "scene.json:3: layers[0].contents: image not found: /tmp/logo.png")
    }

    /// A directory, a FIFO or a device named as an image is refused when the scene is parsed —
    /// without opening it (a FIFO would block the open until a writer came, forever).
    @Test func nonRegularImagePathsAreRefusedWithoutOpening() throws {
        let dir = "/tmp/flipbook-scene-fifo-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/pipe.png", 0o644) == 0)
        let parse = { (layers: String) -> String in
            do { _ = try SceneParser.parse(self.scene(layers: layers), file: "scene.json", baseDirectory: dir); return "no error" } catch {
                return "\(error)"
            }
        }
        #expect(parse(#"[{"contents": "pipe.png"}]"#) == "scene.json:3: layers[0].contents: image path \(dir)/pipe.png is not a regular file, not an image file")
        #expect(parse(#"[{"contents": "."}]"#) == "scene.json:3: layers[0].contents: image path \(dir) is a directory, not an image file")
        #expect(parse(#"[{"contents": "/dev/zero"}]"#) == "scene.json:3: layers[0].contents: image path /dev/zero is not a regular file, not an image file")
    }

    /// An image that exists but cannot be decoded is reported with the scene line and JSON path
    /// of the layer that names it.
    @Test func undecodableImageNamesItsLayer() throws {
        let dir = "/tmp/flipbook-scene-bad-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: dir + "/bad.png", contents: Data("not a png".utf8))
        let text = scene(layers: "[\n  {\"name\": \"a\"},\n  {\"contents\": \"bad.png\"}\n]")
        let description = try SceneParser.parse(text, file: "scene.json", baseDirectory: dir)
        do {
            _ = try SceneBuilder.loadImages(description, file: "scene.json")
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix("scene.json:5: layers[1].contents: image \"bad.png\" (\(dir)/bad.png) cannot be used: "), "\(error.description)")
        }
    }
}
