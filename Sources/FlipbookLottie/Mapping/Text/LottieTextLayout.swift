import Foundation
import Flipbook

/// Where the lines of a Lottie text document go: the characters of each line, each line's
/// origin (left end of its baseline) and the pitch between characters. Both ways of drawing
/// text (the file's glyph shapes, or a font's outlines) place characters with it, so they share
/// After Effects' text geometry as lottie-web computes it (`TextProperty.completeTextData`,
/// `TextAnimatorProperty.getMeasures`):
///
/// - **Characters** are grapheme clusters (a base and its marks, an emoji sequence), after
///   caps: `ca` 1 upper-cases the text; `ca` 2 (small caps) upper-cases lower-case letters and
///   draws them at 70 % (as ThorVG does; lottie-web leaves them).
/// - **Lines** end at `\r` (After Effects' separator), `\n` and U+0003.
/// - **Box text** (`sz`, `ps`) wraps greedily to the box width: a character that would end
///   past the width moves its word (back to the last space, which is dropped) to a new line,
///   or, in a word longer than the line, itself. The widths counted are the characters'
///   advances plus tracking, as lottie-web counts them.
/// - **Tracking** `tr` adds `tr / 1000 × size` after every character.
/// - **Line width** (for alignment): the advances and the tracking between the characters,
///   trailing spaces not counted.
/// - **Point text**: the first baseline is at y = 0; justification `j` puts each line's left
///   end at x = 0 (left), its right end at 0 (right, 1) or its centre at 0 (centre, 2).
/// - **Box text**: the same within the box `[ps.x, ps.x + sz.w]`; the first baseline is at
///   `ps.y + ascent` (the font's ascent, a percentage of the size).
/// - **Line pitch**: `lh` between baselines (`size × 1.2` when 0 or absent, as lottie-web);
///   **baseline shift** `ls` raises every line.
/// - Justified paragraphs (`j` 3–6) are aligned left, as lottie-web and ThorVG draw them
///   (the mapper warns).
package struct LottieTextLayout {
    /// One character to draw: its text (after caps) and its scale (0.7 for small caps).
    package struct Character: Equatable {
        package var text: String
        package var scale: Double
        package var isSpace: Bool { text.allSatisfy { $0 == " " || $0 == "\u{A0}" || $0 == "\t" } }
    }

    /// The characters of each line (line separators removed).
    package var lines: [[Character]]

    /// The document's characters after caps, `nil` entries marking line separators.
    package static func characters(of document: LottieTextDocument) -> [Character?] {
        var out: [Character?] = []
        let text = document.caps == 1 ? document.text.uppercased() : document.text
        for ch in text {
            if ch == "\r" || ch == "\n" || ch == "\r\n" || ch == "\u{3}" { out.append(nil); continue }
            if document.caps == 2, ch.isLowercase {
                let upper = String(ch).uppercased()
                if upper != String(ch) { out.append(Character(text: upper, scale: 0.7)); continue }
            }
            out.append(Character(text: String(ch), scale: 1))
        }
        return out
    }

    /// The tracking, in points: added after every character.
    package static func tracking(_ document: LottieTextDocument) -> Double {
        let t = document.tracking / 1000 * document.size
        return t.isFinite ? t : 0
    }

    /// Splits `document` into lines, wrapping box text with `advance` (a character's advance in
    /// points, tracking not included).
    package init(document: LottieTextDocument, advance: (Character) -> Double) {
        let chars = Self.characters(of: document)
        var lines: [[Character]] = [[]]
        for c in chars {
            if let c { lines[lines.count - 1].append(c) } else { lines.append([]) }
        }
        guard let box = document.boxSize, box.count >= 1, box[0].isFinite, box[0] > 0 else {
            self.lines = lines
            return
        }
        let width = box[0], t = Self.tracking(document)
        var wrapped: [[Character]] = []
        for paragraph in lines {
            var line: [Character] = []
            var lineWidth = 0.0
            var lastSpace: Int? = nil     // index in `line`
            for c in paragraph {
                let w = advance(c)
                if c.isSpace { lastSpace = line.count }
                if !c.isSpace, !line.isEmpty, lineWidth + w > width {
                    if let s = lastSpace {
                        // The word after the last space moves to the next line; the space goes.
                        wrapped.append(Array(line[..<s]))
                        line = Array(line[(s + 1)...])
                    } else {
                        wrapped.append(line)
                        line = []
                    }
                    lastSpace = nil
                    lineWidth = line.reduce(0) { $0 + advance($1) + t }
                }
                line.append(c)
                lineWidth += w + t
            }
            wrapped.append(line)
        }
        self.lines = wrapped
    }

    /// The width of a line whose characters have `advances` (tracking not included): the
    /// advances and the tracking between characters, trailing spaces not counted.
    package static func lineWidth(_ line: [Character], advances: [Double], tracking t: Double) -> Double {
        var end = line.count
        while end > 0, line[end - 1].isSpace { end -= 1 }
        guard end > 0 else { return 0 }
        var w = 0.0
        for i in 0..<end { w += advances[i] + t }
        return w - t
    }

    /// The origin (left end of the baseline) of line `index` of width `width`; `ascent` in
    /// points (box text only).
    package static func origin(ofLine index: Int, width: Double, document: LottieTextDocument, ascent: Double) -> CGPoint {
        let lh = document.lineHeight.flatMap { $0 != 0 && $0.isFinite ? $0 : nil } ?? document.size * 1.2
        let shift = document.baselineShift.isFinite ? document.baselineShift : 0
        var x: Double, y = Double(index) * lh - shift
        if let box = document.boxSize, box.count >= 1, box[0].isFinite, box[0] > 0 {
            let ps = document.boxPosition ?? [0, 0]
            let px = ps.count > 0 && ps[0].isFinite ? ps[0] : 0, py = ps.count > 1 && ps[1].isFinite ? ps[1] : 0
            switch document.justification {
            case 1: x = px + box[0] - width
            case 2: x = px + (box[0] - width) / 2
            default: x = px
            }
            y += py + ascent
        } else {
            switch document.justification {
            case 1: x = -width
            case 2: x = -width / 2
            default: x = 0
            }
        }
        return CGPoint(x: x, y: y)
    }
}
