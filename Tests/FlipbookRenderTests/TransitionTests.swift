import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// Each CATransition type × subtype at 0, 50 and 100 %, on an 8×8 layer filling an 8×8 frame.
@Suite struct TransitionTests {
    static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)

    /// An 8×8 image whose left half is `l` and right half `r`.
    static func halves(_ l: RGBA8, _ r: RGBA8) -> CGImage {
        var b = PixelBuffer(width: 8, height: 8)
        for y in 0..<8 { for x in 0..<8 { b[x, y] = x < 4 ? l : r } }
        return CGImage(pixelBuffer: b)
    }

    static let fromImage = halves(.red, .blue)
    static let toImage = halves(.green, white)

    static func scene(_ type: String, _ subtype: String?, _ p: Double) -> RenderLayer {
        let frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        let from = TestScene.box(frame, nil, contents: fromImage) { $0.filter = .nearest }
        let t = RenderTransition(type: CATransitionType(rawValue: type), subtype: subtype.map(CATransitionSubtype.init(rawValue:)),
                                 progress: p, from: from)
        return TestScene.root(8, 8, [TestScene.box(frame, nil, contents: toImage) { $0.filter = .nearest; $0.transition = t }])
    }

    static let types = ["fade", "moveIn", "push", "reveal"]
    static let subtypes = ["fromLeft", "fromRight", "fromTop", "fromBottom"]

    @Test(arguments: types, subtypes)
    func endpointsShowFromThenTo(_ type: String, _ subtype: String) throws {
        let start = try TestScene.render(Self.scene(type, subtype, 0), 8, 8)
        let end = try TestScene.render(Self.scene(type, subtype, 1), 8, 8)
        for y in 0..<8 {
            for x in 0..<8 {
                #expect(start[x, y] == Self.fromImage.pixelBuffer[x, y], "\(type) \(subtype) 0% at (\(x), \(y))")
                #expect(end[x, y] == Self.toImage.pixelBuffer[x, y], "\(type) \(subtype) 100% at (\(x), \(y))")
            }
        }
    }

    @Test func fadeHalfwayIsAnExactCrossDissolve() throws {
        let img = try TestScene.render(Self.scene("fade", nil, 0.5), 8, 8)
        // k = round(0.5·255) = 128: from·127 + to·128 per channel.
        #expect(img[1, 1] == RGBA8(r: 127, g: 128, b: 0, a: 255))   // red → green
        #expect(img[6, 1] == RGBA8(r: 128, g: 128, b: 255, a: 255)) // blue → white
    }

    /// Columns 1 and 6 at 50 %: which half of which image is where tells the type apart.
    @Test(arguments: [
        ("moveIn", "fromLeft", white, RGBA8.blue), ("push", "fromLeft", white, RGBA8.red),
        ("reveal", "fromLeft", RGBA8.green, RGBA8.red),
        ("moveIn", "fromRight", RGBA8.red, RGBA8.green), ("push", "fromRight", RGBA8.blue, RGBA8.green),
        ("reveal", "fromRight", RGBA8.blue, white),
    ])
    func horizontalHalfway(_ type: String, _ subtype: String, _ col1: RGBA8, _ col6: RGBA8) throws {
        let img = try TestScene.render(Self.scene(type, subtype, 0.5), 8, 8)
        #expect(img[1, 3] == col1)
        #expect(img[6, 3] == col6)
    }

    @Test(arguments: ["moveIn", "push", "reveal"], ["fromTop", "fromBottom"])
    func verticalHalfway(_ type: String, _ subtype: String) throws {
        // Column 1: `to` is green there, `from` red. fromTop: new content in the top half
        // (y-down minY edge) — except reveal, where the old content slides away downwards/upwards.
        let img = try TestScene.render(Self.scene(type, subtype, 0.5), 8, 8)
        let top = img[1, 1], bottom = img[1, 6]
        let newOnTop = subtype == "fromTop"
        let expectedTop: RGBA8, expectedBottom: RGBA8
        switch type {
        case "reveal":
            // to is still; from moves away from the subtype edge: it uncovers that edge.
            expectedTop = newOnTop ? .green : .red
            expectedBottom = newOnTop ? .red : .green
        default:
            expectedTop = newOnTop ? .green : .red
            expectedBottom = newOnTop ? .red : .green
        }
        #expect(top == expectedTop)
        #expect(bottom == expectedBottom)
    }
}
