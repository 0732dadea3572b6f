// Image comparison, golden-file storage and the review page (ReviewReport), without any test
// framework: used by the `flipbook compare` command and re-exported by FlipbookTesting (which
// adds the XCTest / Swift Testing assertions). Keeping XCTest out of this module keeps it out
// of the CLI.
import FlipbookPixels
