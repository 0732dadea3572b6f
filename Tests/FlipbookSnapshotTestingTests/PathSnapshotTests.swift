import Flipbook
import FlipbookPixels
import FlipbookSnapshotTesting
import Foundation
import SnapshotTesting
import Testing

/// `Snapshotting<CGPath, SnapshotImage>.image` (macOS's strategy) and
/// `Snapshotting<CGPath, String>.elementsDescription` (swift-snapshot-testing's text, byte for byte).
@Suite struct PathSnapshotTests {
    static let black = RGBA8(r: 0, g: 0, b: 0, a: 255)

    /// swift-snapshot-testing's test path (its `CGPath.heart`, TestHelpers.swift): every element
    /// type, and an ellipse.
    static var heart: CGPath {
        let scale: CGFloat = 30.0
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0.0 * scale, y: 0.0 * scale))
        path.addLine(to: CGPoint(x: 0.0 * scale, y: 2.0 * scale))
        path.addQuadCurve(to: CGPoint(x: 1.0 * scale, y: 3.0 * scale), control: CGPoint(x: 0.125 * scale, y: 2.875 * scale))
        path.addQuadCurve(to: CGPoint(x: 2.0 * scale, y: 2.0 * scale), control: CGPoint(x: 1.875 * scale, y: 2.875 * scale))
        path.addCurve(to: CGPoint(x: 3.0 * scale, y: 1.0 * scale), control1: CGPoint(x: 2.5 * scale, y: 2.0 * scale),
                      control2: CGPoint(x: 3.0 * scale, y: 1.5 * scale))
        path.addCurve(to: CGPoint(x: 2.0 * scale, y: 0.0 * scale), control1: CGPoint(x: 3.0 * scale, y: 0.5 * scale),
                      control2: CGPoint(x: 2.5 * scale, y: 0.0 * scale))
        path.addLine(to: CGPoint(x: 0.0 * scale, y: 0.0 * scale))
        path.closeSubpath()
        path.addEllipse(in: CGRect(origin: CGPoint(x: 2.0 * scale, y: 2.0 * scale), size: CGSize(width: scale, height: scale)))
        return path
    }

    /// swift-snapshot-testing 1.19.7's reference for it,
    /// `Tests/SnapshotTestingTests/__Snapshots__/SnapshotTestingTests/testCGPath.macOS.txt`
    /// (the iOS and tvOS files are the same bytes).
    static let heartReference = """
        MoveTo (0.0, 0.0)
        LineTo (0.0, 60.0)
        QuadCurveTo (3.75, 86.25) (30.0, 90.0)
        QuadCurveTo (56.25, 86.25) (60.0, 60.0)
        CurveTo (75.0, 60.0) (90.0, 45.0) (90.0, 30.0)
        CurveTo (90.0, 15.0) (75.0, 0.0) (60.0, 0.0)
        LineTo (0.0, 0.0)
        Close\u{20}

        MoveTo (90.0, 75.0)
        CurveTo (90.0, 83.284) (83.284, 90.0) (75.0, 90.0)
        CurveTo (66.716, 90.0) (60.0, 83.284) (60.0, 75.0)
        CurveTo (60.0, 66.716) (66.716, 60.0) (75.0, 60.0)
        CurveTo (83.284, 60.0) (90.0, 66.716) (90.0, 75.0)
        Close\u{20}

        """

    // MARK: elementsDescription

    @Test func elementsDescriptionIsSwiftSnapshotTestingsTextByteForByte() {
        let text = take(Self.heart, Snapshotting<CGPath, String>.elementsDescription)
        #expect(text == Self.heartReference)
        #expect(Array(text.utf8).suffix(7) == Array("Close \n".utf8))
    }

    @Test func defaultFormatterWritesOneToThreeDecimalsOnLinuxToo() {
        let f = PathElementsDescription.defaultNumberFormatter()
        let cases: [(Double, String)] = [
            (0, "0.0"), (60, "60.0"), (83.28427124746191, "83.284"), (1.0 / 3.0, "0.333"), (-1.5, "-1.5"),
            (1_234_567.25, "1234567.25"), (3.75, "3.75"), (0.0015, "0.002"), (0.0025, "0.002"),
        ]
        for (x, expected) in cases {
            #expect(PathElementsDescription.format(x, with: f) == expected, "\(x)")
        }
    }

    @Test func aCustomFormatterIsHonouredAsOnApplePlatforms() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 83.28427, y: 60))
        path.addLine(to: CGPoint(x: 1.005, y: -2))
        let two = NumberFormatter()
        two.minimumFractionDigits = 2
        two.maximumFractionDigits = 2
        #expect(take(path as CGPath, .elementsDescription(numberFormatter: two)) == "MoveTo (83.28, 60.00)\nLineTo (1.00, -2.00)\n")
        let none = NumberFormatter()   // no fraction digits
        #expect(take(path as CGPath, .elementsDescription(numberFormatter: none)) == "MoveTo (83, 60)\nLineTo (1, -2)\n")
        let comma = NumberFormatter()
        comma.decimalSeparator = ","
        comma.minimumFractionDigits = 1
        comma.maximumFractionDigits = 4
        #expect(take(path as CGPath, .elementsDescription(numberFormatter: comma)) == "MoveTo (83,2843, 60,0)\nLineTo (1,005, -2,0)\n")
    }

    @Test func emptyPathsAndEveryElementName() {
        #expect(take(CGMutablePath() as CGPath, .elementsDescription) == "")
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 3, y: 4))
        path.closeSubpath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 0.5, y: 0.25))
        #expect(take(path as CGPath, .elementsDescription)
                == "MoveTo (1.0, 2.0)\nQuadCurveTo (3.0, 4.0) (5.0, 6.0)\nClose \n\nMoveTo (0.0, 0.0)\nLineTo (0.5, 0.25)\n")
    }

    // MARK: image

    @Test func theImageIsTheBoundingBoxFilledEvenOdd() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 10, y: 20, width: 30, height: 40))
        path.addRect(CGRect(x: 20, y: 30, width: 10, height: 20))   // a hole, even-odd
        let p = pixels(take(path as CGPath, .image))
        #expect(p.width == 30 && p.height == 40)
        #expect(p[0, 0] == Self.black && p[29, 39] == Self.black)
        #expect(p[15, 20] == .transparent)
        // `.fill` (non-zero, both rectangles wound the same way) has no hole.
        let filled = pixels(take(path as CGPath, .image(drawingMode: .fill)))
        #expect(filled[15, 20] == Self.black)
    }

    @Test func yGrowsUpAsOnMacOS() {
        // A right triangle with its right angle at the box's origin (minX, minY).
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 5, y: 5))
        path.addLine(to: CGPoint(x: 25, y: 5))
        path.addLine(to: CGPoint(x: 5, y: 25))
        path.closeSubpath()
        let p = pixels(take(path as CGPath, .image))
        #expect(p.width == 20 && p.height == 20)
        #expect(p[1, 18] == Self.black)          // bottom-left: the right angle
        #expect(p[18, 1] == .transparent)        // top-right: outside the hypotenuse
    }

    @Test func strokesUseLineWidthOneOpaqueBlackOnTransparent() {
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        let p = pixels(take(path, .image(drawingMode: .stroke)))
        #expect(p.width == 10)
        // Half of the 1-pt line lies inside the box: half-covered black on the edges.
        #expect(p[5, 0].r == 0 && p[5, 0].a >= 126 && p[5, 0].a <= 129)
        #expect(p[5, 5] == .transparent)
    }

    @Test func pathsWithNoAreaAreEmpty() throws {
        #expect(take(CGMutablePath() as CGPath, .image).isEmpty)
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 0, y: 3))
        line.addLine(to: CGPoint(x: 10, y: 3))
        let image = take(line as CGPath, .image)
        #expect(image.isEmpty && image.width == 10 && image.height == 0)
        let ref = SnapshotImage(pixelBuffer: Fixture.buffer(10, 1, .transparent))
        #expect(try #require(diff(ref, image)).message.contains("empty"))
    }

    @Test func fractionalBoxesRoundUp() {
        let path = CGPath(ellipseIn: CGRect(x: 0.5, y: 0, width: 10.5, height: 3.2), transform: nil)
        let image = take(path, .image)
        #expect(image.width == 11 && image.height == 4)
    }
}
