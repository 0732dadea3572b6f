// FlipbookGraphics: the Core Graphics subset Flipbook's QuartzCore model is built on —
// CGAffineTransform, CGColor, CGImage, CGPath/CGMutablePath (docs/architecture.md).
// `import Flipbook` re-exports this module, as `import QuartzCore` brings Core Graphics on
// Apple platforms.
//
// The geometry types CGFloat, CGPoint, CGSize and CGRect are Foundation's on Linux, so a file
// that names them imports Foundation. Foundation is deliberately not re-exported: a
// re-export would leak every Foundation name through every Flipbook module, and typealiases
// here would make `[CGFloat](…)` ambiguous in any file that also imports Foundation.
