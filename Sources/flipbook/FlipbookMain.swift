import ArgumentParser
import FlipbookCLI

#if canImport(Glibc)
import Glibc
#endif

/// The `flipbook` executable.
///
/// Runs ``FlipbookCommand`` asynchronously and maps ArgumentParser's usage-error exit code (64,
/// `EX_USAGE`) to Flipbook's documented `2`, so the exit codes are: 0 success, 1 invalid scene or
/// input, 2 usage, 3 output failed (see `docs/recording.md`).
@main
struct FlipbookMain {
    static func main() async {
        // A reader that goes away (`flipbook render … 2>&1 | head -1`) must not kill the render:
        // with SIGPIPE ignored, writes to a closed pipe fail with EPIPE — dropped for progress and
        // diagnostics, an output failure (exit 3) for data written to stdout.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try FlipbookCommand.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if FlipbookCommand.exitCode(for: error) == .validationFailure {
                let message = FlipbookCommand.fullMessage(for: error)
                let line = message.hasSuffix("\n") ? message : message + "\n"
                _ = line.withCString { write(2, $0, strlen($0)) }
                exit(2)
            }
            FlipbookCommand.exit(withError: error)
        }
    }
}
