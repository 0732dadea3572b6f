import Foundation
import Testing
import Flipbook
import FlipbookRender

/// The Swift listings of the DocC article RecordingAndSceneFiles.md
/// (Sources/Flipbook/Flipbook.docc), verbatim between the markers, so the article stays true.
@Suite struct DocumentationRecordingExampleTests {
    /// A 320×180 tree with one layer fading out over the first 1.5 s.
    static func makeTree() -> CALayer {
        let loop = VirtualRunLoop()
        return loop.run { () -> CALayer in
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 320, height: 180)
            root.position = CGPoint(x: 160, y: 90)
            let card = CALayer()
            card.frame = CGRect(x: 20, y: 20, width: 100, height: 60)
            card.backgroundColor = .white
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1
            fade.toValue = 0
            fade.duration = 1.5
            card.add(fade, forKey: "fade")
            root.addSublayer(card)
            return root
        }
    }

    @Test func settingsListing() throws {
        let root = Self.makeTree()
        // RecordingAndSceneFiles settings begins
        var settings = RecordingSettings(width: 320, height: 180, scale: 2, fps: 60, duration: 2, background: nil)
        settings.frames = 60...89                       // only frames 60…89: media times 1.0 s … 1.483 s
        let recorder = Recorder(root: root, settings: settings)
        let result = try recorder.record(to: NullFrameSink(), options: RecordingOptions(threads: 2))
        print(result.framesWritten, result.renderTimes.count)  // 30 frames of 640×360 pixels, 30 times
        // RecordingAndSceneFiles settings ends
        #expect(result.framesWritten == 30 && result.renderTimes.count == 30)
        #expect(settings.pixelWidth == 640 && settings.pixelHeight == 360)
        #expect(abs(settings.time(ofFrame: 89) - 1.4833333) < 1e-6)
    }

    @Test func memorySinkListing() throws {
        let root = Self.makeTree()
        let recorder = Recorder(root: root, settings: RecordingSettings(width: 320, height: 180, fps: 10, duration: 1))
        // RecordingAndSceneFiles memory begins
        let memory = MemoryFrameSink()
        try recorder.record(to: memory)
        let last = memory.frames.last                    // index, time and image of the last frame
        print(last?.index as Any, last?.time as Any, last?.image.width as Any)
        // RecordingAndSceneFiles memory ends
        #expect(memory.frames.count == 10)
        #expect(last?.index == 9 && last?.image.width == 320)
        #expect(last.map { abs($0.time - 0.9) < 1e-9 } == true)
    }

    /// Every block marked `// ARTICLE NAME begins` … `// ARTICLE NAME ends` in this file appears,
    /// dedented, in `Sources/Flipbook/Flipbook.docc/ARTICLE.md`.
    @Test func articleQuotesTheseListings() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = root.appendingPathComponent("Sources/Flipbook/Flipbook.docc")
        var blocks: [(article: String, text: String)] = []
        var open: (article: String, indent: Int, lines: [String])?
        for line in try String(contentsOf: testFile, encoding: .utf8).components(separatedBy: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count == 4, words[0] == "//", words[3] == "begins" {
                open = (words[1], line.prefix { $0 == " " }.count, [])
            } else if words.count == 4, words[0] == "//", words[3] == "ends", let o = open {
                let dedented = o.lines.map { String($0.dropFirst(min(o.indent, $0.prefix { $0 == " " }.count))) }
                blocks.append((o.article, dedented.joined(separator: "\n")))
                open = nil
            } else if open != nil {
                open!.lines.append(line)
            }
        }
        #expect(blocks.count == 2)
        for block in blocks {
            let article = try String(contentsOf: catalog.appendingPathComponent(block.article + ".md"), encoding: .utf8)
            #expect(article.contains(block.text), "\(block.article).md does not quote:\n\(block.text)")
        }
    }
}
