import ArgumentParser

/// `flipbook-benchmarks`: Flipbook's benchmark suite (docs/performance.md).
///
///     swift run -c release --package-path Benchmarks flipbook-benchmarks --workload w1 --json --save /tmp/fb
///     swift run -c release --package-path Benchmarks flipbook-benchmarks png
///
/// Without a subcommand the workload suite runs (`suite`, the default). Run release builds
/// for numbers; a debug build is only a smoke test (`make test` runs one).
@main
struct FlipbookBenchmarks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flipbook-benchmarks",
        abstract: "Flipbook's benchmark suite: the peers' workloads, end to end, scaling sweeps, PNG encoder knobs.",
        subcommands: [SuiteCommand.self, PNGCommand.self, LottieCommand.self, SoakCommand.self],
        defaultSubcommand: SuiteCommand.self
    )
}

/// A benchmark that could not run (printed as `Error: <message>`, exit code 1).
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
