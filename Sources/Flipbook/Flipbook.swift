// Flipbook: QuartzCore for Linux — layers, actions, transactions, timing, animations, the
// virtual clock and the render-tree snapshot. As `import QuartzCore` brings Core Graphics on
// Apple platforms, `import Flipbook` brings FlipbookGraphics (CGPath, CGColor, CGImage,
// CGAffineTransform, the CG geometry types). That is the package's one re-export; Foundation
// types such as `NSNull` or `Date` need `import Foundation`, as in any Swift file on Linux.
@_exported import FlipbookGraphics
import Foundation

/// Core Foundation's time interval type, in seconds (Foundation on Linux lacks it).
public typealias CFTimeInterval = Double
