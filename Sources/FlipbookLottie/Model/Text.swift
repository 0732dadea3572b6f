import Foundation
import Flipbook

/// A text layer's `t`: the document keyframes (`d`), path options (`p`), more options (`m`)
/// and animators (`a`, kept for warnings).
package struct LottieTextData: Sendable, Equatable {
    /// `d.k[]`: text documents, each shown from its `t` until the next.
    package var documents: [Entry]
    package struct Entry: Sendable, Equatable {
        package var time: Double
        package var document: LottieTextDocument
        package init(time: Double, document: LottieTextDocument) { self.time = time; self.document = document }
    }
    /// `m.a`: grouping alignment [x, y] (percent); `a.count` animators present.
    package var alignment: [Double] = [0, 0]
    package var animatorCount: Int = 0
    /// `p` present with a mask: text on a path (not drawn on the path: warned).
    package var hasPath: Bool = false
    package init(documents: [Entry]) { self.documents = documents }
}

/// `d.k[].s`: one text document.
package struct LottieTextDocument: Sendable, Hashable {
    /// `t`: the text (`\r` separates lines); `f`: font name (``LottieFont/name``); `s`: size.
    package var text: String
    package var fontName: String
    package var size: Double
    /// `j`: 0 left, 1 right, 2 centre, 3–6 justified.
    package var justification: Int = 0
    /// `tr`: tracking (1/1000 em); `lh`: line height; `ls`: baseline shift.
    package var tracking: Double = 0
    package var lineHeight: Double?
    package var baselineShift: Double = 0
    /// `fc`, `sc` colours 0–1; `sw` stroke width; `of`: stroke over fill.
    package var fillColor: [Double]?
    package var strokeColor: [Double]?
    package var strokeWidth: Double = 0
    package var strokeOverFill: Bool = false
    /// `sz`, `ps`: box text size and position (paragraph text).
    package var boxSize: [Double]?
    package var boxPosition: [Double]?
    /// `ca`: 0 regular, 1 all caps, 2 small caps.
    package var caps: Int = 0
    package init(text: String, fontName: String, size: Double) { self.text = text; self.fontName = fontName; self.size = size }
}
