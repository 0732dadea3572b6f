import ArgumentParser
import FlipbookPNG

/// The `flipbook` command: Core Animation for Linux, rendered offline.
///
/// Each subcommand lives in its own file (`Command+Name.swift`); add it to `subcommands` here.
/// (ArgumentParser requires an availability annotation on an asynchronous root command.)
@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
public struct FlipbookCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "flipbook",
        abstract: "Core Animation for Linux, rendered offline: layer trees to PNG frames and video.",
        version: FlipbookVersion.string,
        subcommands: [InfoCommand.self, PatternCommand.self, RenderCommand.self, CompareCommand.self, BenchCommand.self,
                      PlanCommand.self, VerifyCommand.self, MergeCommand.self, BundleCommand.self]
    )

    public init() {}
}

/// The version `flipbook --version` prints.
public enum FlipbookVersion {
    public static let string = "0.1.0"
}
