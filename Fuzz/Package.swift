// swift-tools-version:6.1
//
// Flipbook's fuzz targets, a package of their own (as the benchmarks): an in-process driver
// that mutates inputs and feeds them to the scene parser + builder + compositor, the PNG
// decoder, and the compositor with random trees. See docs/fuzzing.md; `make fuzz` runs it.
import PackageDescription

let package = Package(
    name: "FlipbookFuzz",
    dependencies: [
        .package(name: "Flipbook", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "flipbook-fuzz",
            dependencies: [
                .product(name: "Flipbook", package: "Flipbook"),
                .product(name: "FlipbookPixels", package: "Flipbook"),
                .product(name: "FlipbookPNG", package: "Flipbook"),
                .product(name: "FlipbookRender", package: "Flipbook"),
                .product(name: "FlipbookScene", package: "Flipbook"),
                .product(name: "FlipbookFuzzTargets", package: "Flipbook"),
                "FuzzMutation",
            ],
            // Swift 5 mode: the driver shares its globals with a watchdog thread on purpose.
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The coverage-guided targets: libFuzzer's driver calls FuzzTargets (Fuzz/libfuzzer.sh
        // builds it with -sanitize=fuzzer,address; without those flags it builds and refuses to run).
        .target(name: "CFuzzEntry"),
        /// Structure-aware JSON mutation (lottie and scene inputs), shared by both drivers.
        .target(
            name: "FuzzMutation",
            dependencies: [.product(name: "FlipbookScene", package: "Flipbook")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "flipbook-libfuzzer",
            dependencies: [
                "CFuzzEntry", "FuzzMutation",
                .product(name: "FlipbookFuzzTargets", package: "Flipbook"),
                .product(name: "FlipbookScene", package: "Flipbook"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
