/// FlipbookLottie: After Effects animations exported as Lottie (Bodymovin JSON, dotLottie),
/// rendered through Flipbook's Core Animation layer classes (docs/lottie.md).
@_exported import Flipbook
