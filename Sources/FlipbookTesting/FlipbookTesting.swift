@_exported import FlipbookRender
