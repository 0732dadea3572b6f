import Testing
@testable import FlipbookJPEG
import FlipbookPixels

/// Pillow-made JPEGs (Fixtures/make_fixtures.py): baseline 4:2:0 and 4:4:4, progressive,
/// greyscale, restart intervals, EXIF orientation, solid colour; their pixels as Pillow's own
/// libjpeg-turbo build decodes them are in expected.json.
@Suite struct JPEGDecodeTests {
    static let names = Fixtures.expected.keys.sorted()

    /// Two builds of libjpeg-turbo (the system's, Pillow's bundled one) may round a level apart.
    static let tolerance = 2

    @Test(arguments: names)
    func decodesToWhatAnotherDecoderSees(_ name: String) throws {
        let expected = Fixtures.expected[name]!
        let image = try JPEG.decode(Fixtures.bytes(name))
        #expect(image.width == expected.width && image.height == expected.height)
        #expect(image.bytesPerRow == image.width * 4)
        let (difference, opaque) = maxDifference(image, expected.pixels)
        #expect(difference <= Self.tolerance, "\(name): off by \(difference)")
        #expect(opaque)
        let info = try JPEG.info(Fixtures.bytes(name))
        #expect(info.width == expected.width && info.height == expected.height)
        #expect(info.colorSpace.rawValue == expected.colorSpace)
        #expect(info.isProgressive == expected.progressive)
        #expect(!info.isArithmeticCoded)
    }

    @Test func theFixturesCoverTheCodingKinds() {
        let e = Fixtures.expected
        #expect(e.values.contains { $0.progressive })
        #expect(e.values.contains { $0.colorSpace == "gray" })
        #expect(e.values.contains { !$0.progressive && $0.colorSpace == "YCbCr" })
    }

    /// A solid colour survives within 2 levels (4:4:4, quality 95).
    @Test func aSolidColourDecodesToThatColour() throws {
        let image = try JPEG.decode(Fixtures.bytes("solid.jpg"))
        #expect(image.width == 16 && image.height == 16)
        for (x, y) in [(0, 0), (15, 0), (7, 8), (15, 15)] {
            let p = image[x, y]
            #expect(abs(Int(p.r) - 200) <= 2 && abs(Int(p.g) - 40) <= 2 && abs(Int(p.b) - 90) <= 2 && p.a == 255, "\(p)")
        }
    }

    /// Greyscale comes out as R = G = B.
    @Test func greyscaleBecomesEqualChannels() throws {
        let image = try JPEG.decode(Fixtures.bytes("gray.jpg"))
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                #expect(p.r == p.g && p.g == p.b && p.a == 255)
            }
        }
        #expect(try JPEG.info(Fixtures.bytes("gray.jpg")).subsampling == "gray")
    }

    /// Apple's CGImage leaves EXIF orientation alone, and so does the decoder: a 24×16 file
    /// tagged "rotate 90°" stays 24 wide, red on the left, blue on the right.
    @Test func exifOrientationIsNotApplied() throws {
        let image = try JPEG.decode(Fixtures.bytes("exif-rotate.jpg"))
        #expect(image.width == 24 && image.height == 16)
        let left = image[2, 8], right = image[21, 8]
        #expect(left.r > 200 && left.b < 50, "\(left)")
        #expect(right.b > 200 && right.r < 50, "\(right)")
    }

    @Test func subsamplingIsNamed() throws {
        #expect(try JPEG.info(Fixtures.bytes("baseline.jpg")).subsampling == "4:2:0")
        #expect(try JPEG.info(Fixtures.bytes("baseline444.jpg")).subsampling == "4:4:4")
    }

    /// ⅛-scale validation accepts every fixture and gives the header's facts.
    @Test(arguments: names)
    func validateAcceptsEveryFixture(_ name: String) throws {
        let info = try JPEG.validate(Fixtures.bytes(name))
        #expect(info == (try JPEG.info(Fixtures.bytes(name))))
    }

    @Test func theSignatureIsTheFirstThreeBytes() {
        #expect(JPEG.hasSignature(Fixtures.bytes("baseline.jpg")))
        #expect(JPEG.hasSignature([0xFF, 0xD8, 0xFF]))
        #expect(!JPEG.hasSignature([0xFF, 0xD8]))
        #expect(!JPEG.hasSignature([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }
}
