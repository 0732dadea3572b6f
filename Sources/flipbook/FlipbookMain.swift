import ArgumentParser
import FlipbookCLI

/// The `flipbook` executable: runs ``FlipbookCommand`` with its asynchronous entry point.
@main
struct FlipbookMain: AsyncMainProtocol {
    typealias Command = FlipbookCommand
}
