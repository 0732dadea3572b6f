import Foundation
@testable import FlipbookPNG
import FlipbookPixels

enum Fixtures {
    /// Folder of the committed fixture files.
    static let folder: String = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    static func path(_ name: String) -> String { folder + "/" + name }

    static func bytes(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path(name))!)
    }

    struct Expected: Decodable {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool
        var rgba: String

        var pixels: [UInt8] {
            var out: [UInt8] = []
            var it = rgba.makeIterator()
            while let hi = it.next(), let lo = it.next() { out.append(UInt8(String([hi, lo]), radix: 16)!) }
            return out
        }
    }

    /// expected.json: the premultiplied pixels each fixture must decode to (make_fixtures.py).
    static let expected: [String: Expected] = {
        let data = FileManager.default.contents(atPath: path("expected.json"))!
        return try! JSONDecoder().decode([String: Expected].self, from: data)
    }()
}

/// Every valid premultiplied (value, alpha) pair: for each alpha a and each c ≤ a one pixel,
/// with the three colour channels exercising different c (32,896 pixels, 257 × 128 image).
func allPremultipliedPairsImage() -> PixelBuffer {
    var pixels: [UInt8] = []
    for a in 0...255 {
        for c in 0...a {
            pixels += [UInt8(c), UInt8(a - c), UInt8(c / 2), UInt8(a)]
        }
    }
    let count = pixels.count / 4  // 32,896 = 257 × 128
    return try! PixelBuffer(width: 257, height: count / 257, bytes: pixels)
}
