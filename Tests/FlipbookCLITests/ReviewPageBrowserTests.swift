import Foundation
import Glibc
import Testing
import Flipbook
import FlipbookCompare
@testable import FlipbookCLI
import FlipbookPNG
import FlipbookPixels
import FlipbookRender
import FlipbookTestSupport

/// The review page of `flipbook compare --report` in a real headless Chromium, loaded from disk
/// (file://) and driven through the DevTools protocol (``HeadlessChromium``): no console errors,
/// every image loads, the keys, the slider and the filter change what is shown, and screenshots
/// show the images' own pixels, unsmoothed, in each view. A 1,000-frame report opens in under 2 s.
///
/// Skipped when no chromium is installed, except on CI (`CI` set), where that is a failure:
/// `make setup` and `.ci/run` install Debian's `chromium`.
/// `FLIPBOOK_REVIEW_SCREENSHOT=docs/review-page.png` saves the side-by-side screenshot (how the
/// README's picture is made).
@Suite(.serialized) struct ReviewPageBrowserTests {
    static let runs = HeadlessChromium.executable != nil || HeadlessChromium.isCI
    let folder = TemporaryDirectory(prefix: "flipbook-review-page-")
    var root: String { folder.path }

    /// A small card: a rounded panel, a bar and a circle, on an opaque background (`width` may
    /// grow the background for the size-mismatch frame).
    static func card(circleX: Double, bar: Double, width: Int = 96, height: Int = 64) -> PixelBuffer {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: width, height: height)
            root.backgroundColor = CGColor(red: 0.93, green: 0.94, blue: 0.96, alpha: 1)
            let card = CALayer()
            card.frame = CGRect(x: 8, y: 8, width: 80, height: 48)
            card.backgroundColor = CGColor(red: 0.23, green: 0.39, blue: 0.85, alpha: 1)
            card.cornerRadius = 8
            root.addSublayer(card)
            let b = CALayer()
            b.frame = CGRect(x: 8, y: 8, width: bar, height: 6)
            b.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            b.cornerRadius = 3
            card.addSublayer(b)
            let dot = CALayer()
            dot.frame = CGRect(x: circleX, y: 20, width: 20, height: 20)
            dot.backgroundColor = CGColor(red: 1, green: 0.62, blue: 0.1, alpha: 1)
            dot.cornerRadius = 10
            card.addSublayer(dot)
            return try! Compositor(threadCount: 1).render(root.makeRenderTree(), width: width, height: height, background: .transparent)
        }
    }

    func write(_ image: PixelBuffer, _ path: String) throws {
        try SnapshotFileSystem.makeDirectories(SnapshotFileSystem.directory(of: "\(root)/\(path)"))
        try PNG.write(image, to: "\(root)/\(path)")
    }

    /// Five frames, three failing: `card.png` differs, `new.png` has no reference, `wide.png`
    /// has another size; `legend.png` is identical and `noise.png` within the tolerance
    /// (`--max-channel-delta 1`).
    func makeReport() throws -> (expected: PixelBuffer, actual: PixelBuffer, noise: PixelBuffer) {
        let expected = Self.card(circleX: 46, bar: 30), actual = Self.card(circleX: 52, bar: 40)
        var noise = expected
        for x in stride(from: 0, to: 96, by: 7) { noise[x, 30].g &+= 1 }
        try write(expected, "exp/card.png"); try write(actual, "act/card.png")
        try write(expected, "exp/legend.png"); try write(expected, "act/legend.png")
        try write(expected, "exp/noise.png"); try write(noise, "act/noise.png")
        try write(expected, "exp/wide.png"); try write(Self.card(circleX: 46, bar: 30, width: 112), "act/wide.png")
        try write(actual, "act/new.png")
        let result = try CompareCommand.parse(["\(root)/exp", "\(root)/act", "--max-channel-delta", "1",
                                               "--report", "\(root)/report"]).execute().get()
        #expect(result.exitCode == 2)   // the size mismatch is bad input; the page still lists it
        return (expected, actual, noise)
    }

    /// The viewport rectangle `[left, top, width, height]` of the first element matching `selector`.
    func rect(_ tab: HeadlessChromium.Tab, _ selector: String) throws -> [Double] {
        let r = try tab.evaluate("(() => { const e = document.querySelector(\(json(selector))); if (!e) return null; "
                                 + "const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
        return try #require(r as? [Double], "no element \(selector)")
    }

    func json(_ s: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [s]), as: UTF8.self).dropFirst().dropLast().description
    }

    /// Waits until every image of the stage has loaded and two frames were painted; returns
    /// `[className, naturalWidth]` of each.
    @discardableResult
    func settle(_ tab: HeadlessChromium.Tab, _ scope: String = "#stage img") throws -> [[Any]] {
        let r = try tab.evaluate("""
            (async () => {
              const imgs = [...document.querySelectorAll(\(json(scope)))];
              await Promise.all(imgs.map(i => i.decode().catch(() => null)));
              await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
              return imgs.map(i => [i.className, i.complete ? i.naturalWidth : 0]);
            })()
            """)
        return r as? [[Any]] ?? []
    }

    /// Checks that the screenshot shows `image` at the viewport position of `selector`, each
    /// image pixel as a solid `zoom × zoom` block of exactly its colour (`image-rendering:
    /// pixelated`: no smoothing). `columns` limits the check to image columns whose blocks lie
    /// entirely within that viewport x range (for the swipe view). Returns the blocks checked.
    @discardableResult
    func expectShows(_ shot: PixelBuffer, _ image: PixelBuffer, at r: [Double], columns: ClosedRange<Double>? = nil,
                     _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let zoom = r[2] / Double(image.width)
        guard zoom >= 1, zoom == zoom.rounded(), r[0] == r[0].rounded(), r[1] == r[1].rounded(),
              r[3] == Double(image.height) * zoom else {
            Issue.record("\(what): not an integer zoom at whole pixels: \(r) for \(image.width)×\(image.height)", sourceLocation: sourceLocation)
            return 0
        }
        let z = Int(zoom), left = Int(r[0]), top = Int(r[1])
        var checked = 0, bad: [String] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let x0 = left + x * z
                if let c = columns, !(Double(x0) >= c.lowerBound && Double(x0 + z) <= c.upperBound) { continue }
                checked += 1
                let want = image[x, y]
                for dy in 0..<z { for dx in 0..<z where x0 + dx < shot.width && top + y * z + dy < shot.height {
                    let got = shot[x0 + dx, top + y * z + dy]
                    if got != want && bad.count < 5 { bad.append("(\(x),\(y))+(\(dx),\(dy)): \(got) ≠ \(want)") }
                } }
            }
        }
        #expect(bad.isEmpty, "\(what): the screenshot differs from the image: \(bad.joined(separator: "; "))", sourceLocation: sourceLocation)
        return checked
    }

    @Test(.enabled(if: runs, "chromium is not installed (apt-get install chromium, or make setup); the review page test needs it"))
    func reviewPageInChromium() throws {
        let chromiumPath = HeadlessChromium.executable
        try #require(chromiumPath != nil, "CI must install chromium (.ci/run, make setup)")
        let (expected, actual, noise) = try makeReport()
        let heat = try HeatMapImage.make(actual: actual, expected: expected, tolerance: .perChannel(1))
        let browser = try HeadlessChromium()
        defer { browser.close() }
        let tab = try browser.open("file://\(root)/report/index.html")
        #expect(try tab.evaluate("document.documentElement.dataset.ready") is String)

        // The list: every frame, failures first, each with its verdict.
        let rows = try #require(try tab.evaluate("[...document.querySelectorAll('#list > li.row')].map(r => "
                                                 + "[r.querySelector('.name').textContent, r.dataset.status, r.dataset.key])") as? [[String]])
        #expect(rows.map { $0[0] } == ["card.png", "new.png", "wide.png", "legend.png", "noise.png"])
        #expect(rows.map { $0[1] } == ["different", "missing-expected", "size-mismatch", "same", "same"])
        #expect(try tab.evaluate("document.getElementById('summary').textContent") as? String == "5 images · 3 failed · 2 passed")
        let thumbs = try settle(tab, "#list img")
        #expect(thumbs.count == 5 && thumbs.allSatisfy { ($0[1] as? Int ?? 0) > 0 }, "thumbnails: \(thumbs)")

        // Side by side: expected, actual and heat map, pixel for pixel.
        func stage(_ attribute: String) throws -> String? {
            try tab.evaluate("document.getElementById('stage').dataset.\(attribute)") as? String
        }
        #expect(try stage("key") == rows[0][2] && stage("mode") == "side")
        #expect(try settle(tab).map { $0[0] as? String } == ["px expected", "px actual", "px heat"])
        var shot = try tab.screenshot()
        if let path = ProcessInfo.processInfo.environment["FLIPBOOK_REVIEW_SCREENSHOT"], !path.isEmpty {
            try PNG.write(shot, to: path, options: .small)
        }
        expectShows(shot, expected, at: try rect(tab, "#stage img.expected"), "side by side: expected")
        expectShows(shot, actual, at: try rect(tab, "#stage img.actual"), "side by side: actual")
        expectShows(shot, heat, at: try rect(tab, "#stage img.heat"), "side by side: heat map")
        #expect(try tab.evaluate("document.querySelector('#accept pre').textContent") as? String
                == "cp \(root)/act/card.png \(root)/exp/card.png")
        #expect(try tab.evaluate("document.getElementById('figures').textContent.includes('of 6144 pixels differ')") as? Bool == true)

        // Zoom: + doubles the blocks (still unsmoothed), 0 goes back to fit.
        let fit = try #require(Double(try stage("zoom") ?? ""))
        try tab.press("=")
        let zoomed = try #require(Double(try stage("zoom") ?? ""))
        #expect(zoomed > fit && zoomed == zoomed.rounded())
        try settle(tab)
        shot = try tab.screenshot()
        let zr = try rect(tab, "#stage img.expected")
        #expect(zr[2] == 96 * zoomed)
        let visibleColumns = 0.0...Double(shot.width)   // the zoomed panel may run past the viewport
        #expect(expectShows(shot, expected, at: zr, columns: visibleColumns, "zoomed expected") > 0)
        try tab.press("0")
        #expect(try stage("zoom") == String(format: "%g", fit))

        // Swipe: expected left of the line, actual right of it; arrows, a click on the slider
        // and a drag on the image move the line.
        try tab.press("2")
        #expect(try stage("mode") == "swipe")
        func checkSwipe(_ label: String) throws {
            let s = try #require(Double(try tab.evaluate("document.getElementById('slider').value") as? String ?? ""))
            let clip = try tab.evaluate("document.querySelector('#stage img.actual').style.clipPath") as? String
            #expect(clip == "inset(0px 0px 0px \(Int(s))%)", "\(label): clip-path \(clip ?? "nil") for slider \(s)")
            try settle(tab)
            let shot = try tab.screenshot(), r = try rect(tab, "#stage img.expected")
            let line = r[0] + r[2] * s / 100
            let left = expectShows(shot, expected, at: r, columns: r[0]...(line - 2), "\(label): expected left of the line")
            let right = expectShows(shot, actual, at: try rect(tab, "#stage img.actual"), columns: (line + 2)...(r[0] + r[2]),
                                    "\(label): actual right of the line")
            #expect(left + right >= 96 * 64 - 2 * 64, "\(label): \(left) + \(right) blocks checked")
        }
        try checkSwipe("swipe at 50")
        try tab.press("ArrowRight"); try tab.press("ArrowRight")
        #expect(try tab.evaluate("document.getElementById('slider').value") as? String == "60")
        try checkSwipe("swipe at 60")
        let sr = try rect(tab, "#slider")
        try tab.click(x: sr[0] + sr[2] * 0.25, y: sr[1] + sr[3] / 2)
        let clicked = Int(try tab.evaluate("document.getElementById('slider').value") as? String ?? "") ?? -1
        #expect((20...30).contains(clicked), "a click at a quarter of the slider set \(clicked)")
        try checkSwipe("swipe after a click on the slider")
        let st = try rect(tab, "#stage .stack")
        try tab.click(x: st[0] + st[2] * 0.75, y: st[1] + st[3] / 2)
        let dragged = Int(try tab.evaluate("document.getElementById('slider').value") as? String ?? "") ?? -1
        #expect((74...76).contains(dragged), "a click at three quarters of the image set \(dragged)")
        try checkSwipe("swipe after a click on the image")

        // Onion skin: the slider is actual's opacity; at 100 the actual shows, at 0 the expected.
        try tab.press("3")
        #expect(try stage("mode") == "onion")
        for _ in 0..<6 { try tab.press("ArrowRight") }
        #expect(try tab.evaluate("document.querySelector('#stage img.actual').style.opacity") as? String == "1")
        try settle(tab)
        expectShows(try tab.screenshot(), actual, at: try rect(tab, "#stage img.actual"), "onion skin at 100")
        for _ in 0..<20 { try tab.press("ArrowLeft") }
        #expect(try tab.evaluate("document.querySelector('#stage img.actual').style.opacity") as? String == "0")
        try settle(tab)
        expectShows(try tab.screenshot(), expected, at: try rect(tab, "#stage img.expected"), "onion skin at 0")

        // Heat map alone.
        try tab.press("4")
        #expect(try stage("mode") == "heat")
        #expect(try settle(tab).map { $0[0] as? String } == ["px heat"])
        expectShows(try tab.screenshot(), heat, at: try rect(tab, "#stage img.heat"), "heat map view")

        // j / k walk the list; every image of every frame loads.
        try tab.press("1")
        let expectedImages: [[String]] = [["px expected", "px actual", "px heat"], ["px actual"], ["px expected", "px actual"],
                                          ["px expected", "px actual"], ["px expected", "px actual", "px heat"]]
        for (i, row) in rows.enumerated() {
            #expect(try stage("key") == row[2], "row \(i)")
            let imgs = try settle(tab)
            #expect(imgs.map { $0[0] as? String } == expectedImages[i], "\(row[0])")
            #expect(imgs.allSatisfy { ($0[1] as? Int ?? 0) > 0 }, "\(row[0]): an image did not load: \(imgs)")
            #expect(try tab.evaluate("document.querySelector('#list li.selected').dataset.key") as? String == row[2])
            try tab.press(i % 2 == 0 ? "j" : "ArrowDown")
        }
        #expect(try stage("key") == rows[4][2])            // j at the end stays there
        expectShows(try tab.screenshot(), noise, at: try rect(tab, "#stage img.actual"), "noise.png actual")
        try tab.press("k"); try tab.press("ArrowUp")
        #expect(try stage("key") == rows[2][2])

        // Failures only: f hides the passing rows, and j stops at the last failure.
        try tab.press("f")
        #expect(try tab.evaluate("document.getElementById('failed-only').checked") as? Bool == true)
        #expect(try tab.evaluate("[...document.querySelectorAll('#list > li.row')].filter(r => r.offsetParent !== null).length") as? Int == 3)
        try tab.press("j")
        #expect(try stage("key") == rows[2][2])
        try tab.press("f")
        #expect(try tab.evaluate("[...document.querySelectorAll('#list > li.row')].filter(r => r.offsetParent !== null).length") as? Int == 5)
        // A click on a row selects it.
        let row3 = try rect(tab, "#list > li.row:nth-child(4)")
        try tab.click(x: row3[0] + 20, y: row3[1] + row3[3] / 2)
        #expect(try stage("key") == rows[3][2])

        #expect(try tab.evaluate("location.hash") as? String == "#legend.png")   // the address follows the selection

        #expect(tab.problems.isEmpty, "the page reported problems: \(tab.problems)")
        #expect(tab.consoleMessages.isEmpty, "the page logged: \(tab.consoleMessages)")

        // A link to one image opens it.
        let linked = try browser.open("file://\(root)/report/index.html#wide.png")
        #expect(try linked.evaluate("document.getElementById('stage').dataset.key") as? String == rows[2][2])
        #expect(linked.problems.isEmpty, "\(linked.problems)")
    }

    /// A report of 1,000 frames (100 failing) opens in under 2 s: the data is one JSON blob, the
    /// list one innerHTML, thumbnails load lazily. Timed in the page (navigation start to the
    /// end of the first render, and to the load event).
    @Test(.enabled(if: runs, "chromium is not installed (apt-get install chromium, or make setup); the review page test needs it"))
    func thousandFrameReportOpensQuickly() throws {
        try #require(HeadlessChromium.executable != nil, "CI must install chromium (.ci/run, make setup)")
        // Small frames (32×24): the page's cost is in the list, not in the pixels, and the
        // debug-build comparison of 1,000 frames stays quick.
        func frame(_ shift: Int) -> PixelBuffer {
            var p = PixelBuffer(width: 32, height: 24)
            for y in 0..<24 { for x in 0..<32 {
                p[x, y] = RGBA8(r: UInt8(8 * x), g: UInt8(10 * y), b: (x + shift) / 6 % 2 == 0 ? 200 : 60, a: 255)
            } }
            return p
        }
        // Every frame is a hard link to one of seven files: 2,000 names in milliseconds.
        try SnapshotFileSystem.makeDirectories("\(root)/exp")
        try SnapshotFileSystem.makeDirectories("\(root)/act")
        for shift in 0...6 { try PNG.write(frame(shift), to: "\(root)/f\(shift).png", options: .fast) }
        for i in 0..<1000 {
            let name = "frame_\(String(repeating: "0", count: 4 - String(i).count))\(i).png"
            #expect(link("\(root)/f0.png", "\(root)/exp/\(name)") == 0)
            #expect(link("\(root)/f\(i % 10 == 3 ? 1 + i % 6 : 0).png", "\(root)/act/\(name)") == 0)
        }
        let result = try CompareCommand.parse(["\(root)/exp", "\(root)/act", "--report", "\(root)/report"]).execute().get()
        #expect(result.entries.count == 1000 && result.count(.different) > 0)

        let browser = try HeadlessChromium()
        defer { browser.close() }
        let tab = try browser.open("file://\(root)/report/index.html")
        let ready = try #require(Double(try tab.evaluate("document.documentElement.dataset.ready") as? String ?? ""))
        let load = try #require(try tab.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") as? Double)
        #expect(ready < 2000, "first render done \(ready) ms after navigation start")
        #expect(load < 2000, "load event done \(load) ms after navigation start")
        #expect(try tab.evaluate("document.querySelectorAll('#list > li.row').length") as? Int == 1000)
        #expect(try tab.evaluate("document.querySelectorAll('#list > li.row.fail').length") as? Int == result.count(.different))
        #expect(try tab.evaluate("[...document.querySelectorAll('#list > li.row')].slice(0, \(result.count(.different))).every(r => r.dataset.status === 'different')") as? Bool == true)
        // Lazy: the first thumbnails load, the last (far below the fold) does not.
        let first = try settle(tab, "#list > li.row:first-child img")
        #expect((first.first?[1] as? Int ?? 0) > 0)
        #expect(try tab.evaluate("document.querySelector('#list > li.row:last-child img').naturalWidth") as? Int == 0)
        let imgs = try settle(tab)
        #expect(imgs.count == 3 && imgs.allSatisfy { ($0[1] as? Int ?? 0) > 0 }, "\(imgs)")
        try tab.press("j")
        #expect(try settle(tab).allSatisfy { ($0[1] as? Int ?? 0) > 0 })
        #expect(tab.problems.isEmpty, "\(tab.problems)")

        // An empty report is a page too.
        try ReviewReport(directory: "\(root)/empty").writeIndex()
        let empty = try browser.open("file://\(root)/empty/index.html")
        #expect(try empty.evaluate("document.getElementById('empty').textContent") as? String == "No comparisons in this report yet.")
        #expect(empty.problems.isEmpty && empty.consoleMessages.isEmpty, "\(empty.problems)")
    }
}
