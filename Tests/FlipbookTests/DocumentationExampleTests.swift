import Foundation
import Testing
import Flipbook

/// The Swift listings of the DocC articles (Sources/Flipbook/Flipbook.docc), verbatim between
/// the markers, so the articles stay true.
@Suite struct DocumentationExampleTests {
    /// PortingFromIOS.md: "A layer subclass".
    @Test func portingSubclassListing() {
        // PortingFromIOS subclass begins
        final class BadgeLayer: CALayer, FlipbookPresentationCopying {   // the conformance: Linux only
            var count = 0                              // a Swift stored property

            override init() {
                super.init()
                bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
                cornerRadius = 12
            }

            override init(layer: Any) {                // as on iOS
                super.init(layer: layer)
                count = (layer as? BadgeLayer)?.count ?? 0
            }
            required init?(coder: NSCoder) { super.init(coder: coder) }   // as on iOS (archives: nil)

            override func action(forKey event: String) -> CAAction? {
                if event == "position" { return nil }  // moves are immediate
                return super.action(forKey: event)
            }
        }
        // PortingFromIOS subclass ends

        // PortingFromIOS clock begins
        let loop = VirtualRunLoop()                         // the clock; nothing moves unless driven
        let onScreen = loop.run { () -> BadgeLayer? in
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
            loop.attach(root)                          // the root of a live tree
            let badge = BadgeLayer()
            badge.count = 3
            root.addSublayer(badge)
            loop.endTurn()                             // commit: the tree is live

            badge.position = CGPoint(x: 150, y: 50)    // no action: set at once
            badge.opacity = 0.5                        // implicit 0.25 s animation
            loop.endTurn()                             // the implicit transaction commits at t = 0
            loop.advance(to: 0.125)                    // media time 0.125 s
            return badge.presentation()                // what is on screen now
        }
        // onScreen is a BadgeLayer: count 3, position (150, 50), opacity between 1 and 0.5
        // PortingFromIOS clock ends
        #expect(onScreen?.count == 3)
        #expect(onScreen?.position == CGPoint(x: 150, y: 50))
        #expect(onScreen.map { $0.opacity > 0.5 && $0.opacity < 1 } == true)
        #expect(loop.currentTime == 0.125)
    }

    /// GettingStarted.md: "Drive the clock yourself".
    @Test func gettingStartedClockListing() {
        var layer: CALayer?
        var timeAfter: CFTimeInterval = -1
        // GettingStarted clock begins
        let loop = VirtualRunLoop()
        loop.run {
            let root = CALayer()
            loop.attach(root)          // root of a live tree
            loop.endTurn()             // commit: root is now live
            root.opacity = 0           // implicit transaction, implicit 0.25 s animation
            loop.endTurn()             // commits it at t = 0: animationDidStart is due
            loop.advance(to: 0.25)     // delivers animationDidStop(finished: true) at 0.25
        // GettingStarted clock ends
            layer = root
            timeAfter = CACurrentMediaTime()
        }
        #expect(timeAfter == 0.25)
        #expect(layer?.opacity == 0 && layer?.animationKeys() == nil)
    }

    /// PortingFromIOS.md: "Key-value coding".
    @Test func portingKVCListing() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = CALayer()
            loop.attach(root)
            let layer = CALayer()
            root.addSublayer(layer)
            loop.endTurn()

            // PortingFromIOS kvc begins
            layer.setValue(CGFloat(40), forKeyPath: "position.x")
            layer.setValue(CGFloat.pi / 4, forKeyPath: "transform.rotation.z")
            layer.setValue(CGFloat(2), forKey: "wobble")      // a custom key: stored, no rendering

            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0
            spin.toValue = 2 * CGFloat.pi
            spin.duration = 2
            spin.repeatCount = .infinity
            layer.add(spin, forKey: "spin")
            // PortingFromIOS kvc ends

            #expect(layer.position.x == 40)
            #expect(abs((layer.value(forKeyPath: "transform.rotation.z") as? CGFloat ?? 0) - .pi / 4) < 1e-9)
            #expect(layer.value(forKey: "wobble") as? CGFloat == 2)
            loop.endTurn()
            loop.advance(to: 0.5)
            let angle = layer.presentation()?.value(forKeyPath: "transform.rotation.z") as? CGFloat
            #expect(angle.map { abs($0 - .pi / 2) < 1e-6 } == true)
        }
    }

    /// DrawingAndLayout.md: "A layer that draws itself" and "Custom animatable properties".
    @Test func drawingAndLayoutListings() throws {
        // DrawingAndLayout bar begins
        final class BarLayer: CALayer {
            var progress: CGFloat {                              // iOS: @NSManaged var progress: CGFloat
                get { value(forKey: "progress") as? CGFloat ?? 0 }
                set { setValue(newValue, forKey: "progress") }
            }
            var color = CGColor(red: 0.2, green: 0.4, blue: 1, alpha: 1)

            override init() {
                super.init()
                contentsScale = 2                                // iOS: UIScreen.main.scale
            }

            override init(layer: Any) {                          // presentation copies keep the colour
                super.init(layer: layer)
                color = (layer as? BarLayer)?.color ?? color
            }
            required init?(coder: NSCoder) { super.init(coder: coder) }

            override class func needsDisplay(forKey key: String) -> Bool {
                key == "progress" || super.needsDisplay(forKey: key)
            }

            override class func defaultValue(forKey key: String) -> Any? {
                key == "progress" ? CGFloat(0) : super.defaultValue(forKey: key)
            }

            override func draw(in ctx: CGContext) {             // y down, in bounds coordinates
                ctx.setFillColor(color)
                ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
            }
        }
        // DrawingAndLayout bar ends

        let loop = VirtualRunLoop()
        try loop.run {
            // DrawingAndLayout animate begins
            let bar = BarLayer()
            bar.bounds = CGRect(x: 0, y: 0, width: 100, height: 8)
            let grow = CABasicAnimation(keyPath: "progress")
            grow.fromValue = CGFloat(0)
            grow.toValue = CGFloat(1)
            grow.duration = 1
            bar.progress = 1                       // the model: drawn once at the commit
            bar.add(grow, forKey: "progress")      // the frames: drawn from the presentation copy
            // DrawingAndLayout animate ends
            loop.endTurn()
            let model = try #require(bar.contents as? CGImage)
            #expect(model.width == 200 && model.height == 16)
            #expect(model.pixelBuffer[199, 15].a == 255)
            let mid = try #require(bar.makeRenderTree(at: 0.5).contents)
            // Linear (no timing function): progress 0.5 → 100 of 200 pixels, blue.
            #expect(mid.pixelBuffer[99, 0].a == 255 && mid.pixelBuffer[100, 0].a == 0)
            #expect(mid.pixelBuffer[0, 0].b == 255)
        }
    }

    /// Every block marked `// ARTICLE NAME begins` … `// ARTICLE NAME ends` in this file appears,
    /// dedented, in `Sources/Flipbook/Flipbook.docc/ARTICLE.md`: the listings above are the
    /// articles' listings.
    @Test func articlesQuoteTheseListings() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = root.appendingPathComponent("Sources/Flipbook/Flipbook.docc")
        let lines = try String(contentsOf: testFile, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [(article: String, text: String)] = []
        var open: (article: String, indent: Int, lines: [String])?
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let words = trimmed.split(separator: " ").map(String.init)
            if words.count == 4, words[0] == "//", words[3] == "begins" {
                open = (words[1], line.prefix { $0 == " " }.count, [])
            } else if words.count == 4, words[0] == "//", words[3] == "ends", let o = open {
                blocks.append((o.article, o.lines.map { String($0.dropFirst(min(o.indent, $0.prefix { $0 == " " }.count))) }
                    .joined(separator: "\n")))
                open = nil
            } else if open != nil {
                open!.lines.append(line)
            }
        }
        #expect(blocks.count == 6)
        for block in blocks {
            let article = try String(contentsOf: catalog.appendingPathComponent(block.article + ".md"), encoding: .utf8)
            #expect(article.contains(block.text), "\(block.article).md does not quote:\n\(block.text)")
        }
    }
}
