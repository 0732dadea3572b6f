@_exported import FlipbookPixels
