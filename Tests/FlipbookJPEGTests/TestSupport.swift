import Foundation
import FlipbookPixels

enum Fixtures {
    /// Folder of the committed fixture files (written by Fixtures/make_fixtures.py).
    static let folder: String = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    static func path(_ name: String) -> String { folder + "/" + name }

    static func bytes(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path(name))!)
    }

    struct Expected: Decodable {
        var width: Int
        var height: Int
        var colorSpace: String
        var progressive: Bool
        /// The RGB8 pixels Pillow (its own libjpeg-turbo build) decodes the file to, base64.
        var rgb: String

        var pixels: [UInt8] { [UInt8](Data(base64Encoded: rgb)!) }
    }

    /// expected.json, keyed by file name.
    static let expected: [String: Expected] = {
        let data = FileManager.default.contents(atPath: path("expected.json"))!
        return try! JSONDecoder().decode([String: Expected].self, from: data)
    }()
}

/// The largest difference between a decoded buffer's R, G, B and `rgb` (RGB8, same size), and
/// whether every alpha is 255.
func maxDifference(_ image: PixelBuffer, _ rgb: [UInt8]) -> (difference: Int, opaque: Bool) {
    var worst = 0
    var opaque = true
    for y in 0..<image.height {
        for x in 0..<image.width {
            let p = image[x, y]
            let o = (y * image.width + x) * 3
            worst = max(worst, abs(Int(p.r) - Int(rgb[o])), abs(Int(p.g) - Int(rgb[o + 1])), abs(Int(p.b) - Int(rgb[o + 2])))
            opaque = opaque && p.a == 255
        }
    }
    return (worst, opaque)
}
