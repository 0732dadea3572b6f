// swift-tools-version:6.1
//
// Flipbook's benchmark suite, a package of its own so that nothing of it is compiled into
// the shipped products (as swift-nio and swift-collections keep their benchmarks). It depends
// on the Flipbook package by path and uses only its public API.
//
//   swift run -c release --package-path Benchmarks flipbook-benchmarks --workload w1 --json --save /tmp/fb
//   swift run -c release --package-path Benchmarks flipbook-benchmarks png      # PNG encoder knobs
//   make bench                                                                  # the whole suite
//
// The workloads, their protocol and the latest numbers: docs/performance.md.
import PackageDescription

let package = Package(
    name: "FlipbookBenchmarks",
    dependencies: [
        // `name:` because a path dependency is otherwise known by its folder's name, which is
        // whatever the repository was cloned into.
        .package(name: "Flipbook", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "flipbook-benchmarks",
            dependencies: [
                .product(name: "Flipbook", package: "Flipbook"),
                .product(name: "FlipbookPixels", package: "Flipbook"),
                .product(name: "FlipbookRaster", package: "Flipbook"),
                .product(name: "FlipbookPNG", package: "Flipbook"),
                .product(name: "FlipbookRender", package: "Flipbook"),
                .product(name: "FlipbookLottie", package: "Flipbook"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
