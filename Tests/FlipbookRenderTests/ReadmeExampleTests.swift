import Foundation
import Testing
import Flipbook
import FlipbookRender
import FlipbookPNG
import FlipbookTestSupport

/// The Swift example in README.md, verbatim between the markers, so the README stays true.
@Suite struct ReadmeExampleTests {
    @Test func readmeExampleRecordsAnImplicitMove() throws {
        let folder = TemporaryDirectory(prefix: "flipbook-readme-")
        defer { withExtendedLifetime(folder) {} }
        let dir = folder.path

        // README example begins
        let loop = VirtualRunLoop()
        let (root, card) = loop.run { () -> (CALayer, CALayer) in
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
            root.position = CGPoint(x: 160, y: 120)
            root.backgroundColor = .white
            let card = CALayer()
            card.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
            card.position = CGPoint(x: 60, y: 120)
            card.cornerRadius = 12
            card.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 1, alpha: 1)
            root.addSublayer(card)
            return (root, card)
        }
        let settings = RecordingSettings(width: 320, height: 240, fps: 30, duration: 1.5, background: .white)
        let recorder = Recorder(root: root, settings: settings)
        recorder.at(0.25) {
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            card.position.x = 260            // an implicit animation, as on iOS
            CATransaction.commit()
        }
        try recorder.record(to: PNGSequenceSink(directory: dir))
        // README example ends

        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files.count == 45 && files.first == "frame_00000.png")
        // Frame 0: the card at x = 60; frame 22 (t ≈ 0.733, the move under way): left of 260;
        // frame 44 (t ≈ 1.467, after the 1 s move): at 260.
        let f0 = try PNG.decode(contentsOf: "\(dir)/frame_00000.png")
        let f22 = try PNG.decode(contentsOf: "\(dir)/frame_00022.png")
        let f44 = try PNG.decode(contentsOf: "\(dir)/frame_00044.png")
        #expect(f0[60, 120] != .white && f0[260, 120] == .white)
        #expect(f22[60, 120] == .white && f22[260, 120] == .white)
        #expect(f44[260, 120] != .white && f44[60, 120] == .white)
    }
}
