@_exported import Flipbook
@_exported import FlipbookRaster
