import ArgumentParser
import FlipbookPNG
import FlipbookScene

// Closed option sets of the command line, as ArgumentParser values: `--help` lists the choices
// and a wrong value is a usage error (exit 2) naming them.

extension OutputFormat: ExpressibleByArgument {}
extension PNGPreset: ExpressibleByArgument {}
