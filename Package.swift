// swift-tools-version:6.1
//
// Flipbook: Core Animation for Linux, rendered offline.
//
// Data flows one way (see docs/architecture.md):
//
//   Flipbook (model) ──► render-tree snapshot ──► FlipbookRender (compositor) ──► frame sinks
//        │                                              │            │
//        └──────────── FlipbookPixels ◄── FlipbookRaster (kernels)   └── FlipbookPNG (libpng),
//                                                                          FlipbookJPEG (libjpeg-turbo)
//
// `FlipbookPixels` is the one type every stage shares (the premultiplied RGBA8 buffer); it has
// no dependencies, so the model can hold image contents without importing any renderer or C.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "Flipbook",
    platforms: [.macOS(.v15)],  // Apple minimum for the Synchronization module; Linux is the supported, tested platform (README: Platforms)
    products: [
        .library(name: "FlipbookPixels", targets: ["FlipbookPixels"]),
        .library(name: "FlipbookGraphics", targets: ["FlipbookGraphics"]),
        .library(name: "Flipbook", targets: ["Flipbook"]),
        .library(name: "FlipbookRaster", targets: ["FlipbookRaster"]),
        .library(name: "FlipbookPNG", targets: ["FlipbookPNG"]),
        .library(name: "FlipbookJPEG", targets: ["FlipbookJPEG"]),
        .library(name: "FlipbookRender", targets: ["FlipbookRender"]),
        .library(name: "FlipbookScene", targets: ["FlipbookScene"]),
        .library(name: "FlipbookCompare", targets: ["FlipbookCompare"]),
        .library(name: "FlipbookTesting", targets: ["FlipbookTesting"]),
        .library(name: "FlipbookSnapshotTesting", targets: ["FlipbookSnapshotTesting"]),
        .library(name: "FlipbookLottie", targets: ["FlipbookLottie"]),
        /// The fuzz targets, shared by the fuzz driver (Fuzz/, its own package) and FuzzReplayTests.
        .library(name: "FlipbookFuzzTargets", targets: ["FlipbookFuzzTargets"]),
        .library(name: "FlipbookCLI", targets: ["FlipbookCLI"]),
        .executable(name: "flipbook", targets: ["flipbook"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // dotLottie files are zip archives (docs/lottie.md).
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // Point-Free's snapshot testing: FlipbookSnapshotTesting adds its image strategies for
        // layers and paths on Linux (docs/visual-testing.md).
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
    ],
    targets: [
        // MARK: Pixels (shared by every stage; pure Swift, no dependencies)
        .target(name: "FlipbookPixels", swiftSettings: swiftSettings),

        // MARK: Kernels (know nothing of layers or Core Graphics types)
        .target(name: "CFlipbookKernels"),
        .target(
            name: "FlipbookRaster",
            dependencies: ["FlipbookPixels", "CFlipbookKernels"],
            swiftSettings: swiftSettings
        ),

        // MARK: The Core Graphics subset (CGPath, CGColor, CGImage, CGAffineTransform, …)
        .target(
            name: "FlipbookGraphics",
            dependencies: ["FlipbookPixels", "FlipbookRaster", "CFlipbookText"],
            swiftSettings: swiftSettings
        ),

        // MARK: Fonts: FreeType outlines, HarfBuzz shaping, fontconfig lookup, bundled fonts (C shim)
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
        .target(name: "CFlipbookText", dependencies: ["CFreeType", "CHarfBuzz", "CFontconfig", "CICU"], exclude: ["fonts"]),

        // MARK: QuartzCore: the Core Animation-compatible model; re-exports FlipbookGraphics
        .target(name: "Flipbook", dependencies: ["FlipbookGraphics", "FlipbookPixels"], swiftSettings: swiftSettings),

        // MARK: PNG through libpng (chunks, decoding) and libdeflate / ISA-L / own deflate (image data)
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "zlib1g-dev", "pkg-config"])]
        ),
        // The deflate libraries behind the presets (docs/png.md): libdeflate for `default` and
        // `small`, ISA-L's igzip for flat frames in `fast`.
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CISAL", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        // zlib directly too: the shim's chunk walk checks CRCs with zlib's crc32.
        .target(name: "CFlipbookPNG", dependencies: ["CLibPNG", "CLibDeflate", "CISAL"],
                linkerSettings: [.linkedLibrary("z")]),
        .target(
            name: "FlipbookPNG",
            dependencies: ["FlipbookPixels", "CFlipbookPNG"],
            swiftSettings: swiftSettings
        ),

        // MARK: JPEG decoding through libjpeg-turbo's TurboJPEG API (no C shim: it has no setjmp to hide)
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(
            name: "FlipbookJPEG",
            dependencies: ["FlipbookPixels", "CTurboJPEG"],
            swiftSettings: swiftSettings
        ),

        // MARK: Process plumbing (a child process that dies with its parent)
        .target(name: "CFlipbookSystem"),

        // MARK: Compositor, recorder, sinks
        .target(
            name: "FlipbookRender",
            dependencies: ["Flipbook", "FlipbookPixels", "FlipbookRaster", "FlipbookPNG", "FlipbookJPEG", "CFlipbookSystem"],
            swiftSettings: swiftSettings
        ),

        // MARK: Scene files: JSON → scene description → layer tree + timeline on a Recorder
        .target(
            name: "FlipbookScene",
            dependencies: ["Flipbook", "FlipbookPixels", "FlipbookPNG", "FlipbookRender"],
            swiftSettings: swiftSettings
        ),

        // MARK: Lottie: Bodymovin JSON and dotLottie → layer trees with CAAnimations (docs/lottie.md)
        .target(
            name: "FlipbookLottie",
            dependencies: [
                "Flipbook", "FlipbookPixels", "FlipbookPNG", "FlipbookJPEG", "FlipbookScene",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Visual regression testing
        .target(
            name: "FlipbookCompare",
            dependencies: ["FlipbookPixels", "FlipbookPNG"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FlipbookFuzzTargets",
            dependencies: [
                "Flipbook", "FlipbookPixels", "FlipbookPNG", "FlipbookJPEG", "FlipbookRender", "FlipbookScene", "FlipbookLottie",
                // FlipbookLottie's module needs ZIPFoundation's (and its CZlib's) to be importable.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FlipbookTesting",
            dependencies: ["Flipbook", "FlipbookRender", "FlipbookPNG", "FlipbookPixels", "FlipbookCompare"],
            swiftSettings: swiftSettings
        ),

        // swift-snapshot-testing's `.image` strategies for `CALayer` and `CGPath` and `CGPath`'s
        // `.elementsDescription`, so iOS snapshot tests port with their import lines.
        .target(
            name: "FlipbookSnapshotTesting",
            dependencies: [
                "Flipbook", "FlipbookPixels", "FlipbookRender", "FlipbookPNG", "FlipbookCompare",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Command line
        .target(
            name: "FlipbookCLI",
            dependencies: [
                "Flipbook", "FlipbookPixels", "FlipbookRaster", "FlipbookPNG", "FlipbookJPEG", "FlipbookRender",
                "FlipbookScene", "FlipbookCompare", "FlipbookLottie",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "flipbook",
            dependencies: ["FlipbookCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),

        // MARK: Samples (samples/README.md): one small program per seed scenario
        .target(
            name: "SampleSupport",
            dependencies: ["Flipbook", "FlipbookPixels", "FlipbookPNG", "FlipbookRender"],
            path: "samples/swift/Support",
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "sample-push-transition", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/push-transition", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-disable-actions-removal", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/disable-actions-removal", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-suppressed-position", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/suppressed-position", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-explicit-duration", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/explicit-duration", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-wag", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/wag", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-default-action-push", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/default-action-push", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-pop-in", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/pop-in", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-fade-out-remove", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/fade-out-remove", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-nested-transactions", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/nested-transactions", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-overshoot", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/overshoot", swiftSettings: swiftSettings),
        .executableTarget(name: "sample-progress-draw", dependencies: ["SampleSupport", "Flipbook", "FlipbookRender", "FlipbookPixels"],
                          path: "samples/swift/progress-draw", swiftSettings: swiftSettings),

        // MARK: Tests (one target per module)
        // Shared by the test targets, not a product (as swift-collections' _CollectionsTestSupport):
        // temporary folders, the seeded generator, the Lottie reference frames (read from
        // Tests/Fixtures/lottie by path; PNGs decoded with FlipbookPNG, diffs drawn with
        // FlipbookCompare). The test pattern is FlipbookPixels' own.
        .target(name: "FlipbookTestSupport", dependencies: ["FlipbookPixels", "FlipbookPNG", "FlipbookCompare"],
                path: "Tests/FlipbookTestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "FlipbookTestSupportTests", dependencies: ["FlipbookTestSupport", "FlipbookPixels"], swiftSettings: swiftSettings),
        .testTarget(name: "FlipbookPixelsTests", dependencies: ["FlipbookPixels"], swiftSettings: swiftSettings),
        .testTarget(name: "FlipbookGraphicsTests", dependencies: ["FlipbookGraphics", "FlipbookPixels", "FlipbookTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FlipbookTests", dependencies: ["Flipbook", "FlipbookPixels"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FlipbookLottieTests",
            dependencies: [
                "FlipbookLottie", "Flipbook", "FlipbookPixels", "FlipbookRender", "FlipbookPNG", "FlipbookTestSupport",
                // The dotLottie tests build their archives.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "FlipbookRasterTests", dependencies: ["FlipbookRaster", "FlipbookPixels", "FlipbookTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FlipbookPNGTests",
            dependencies: ["FlipbookPNG", "FlipbookPixels", "FlipbookTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlipbookJPEGTests",
            dependencies: ["FlipbookJPEG", "FlipbookPixels"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlipbookRenderTests",
            dependencies: ["FlipbookRender", "Flipbook", "FlipbookPixels", "FlipbookRaster", "FlipbookPNG", "FlipbookJPEG", "FlipbookTesting",
                           "FlipbookTestSupport"],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlipbookSceneTests",
            dependencies: ["FlipbookScene", "FlipbookRender", "Flipbook", "FlipbookPixels"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlipbookTestingTests",
            dependencies: ["FlipbookTesting", "FlipbookCompare", "FlipbookRender", "Flipbook", "FlipbookPixels", "FlipbookPNG",
                           "FlipbookTestSupport"],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlipbookSnapshotTestingTests",
            dependencies: ["FlipbookSnapshotTesting", "Flipbook", "FlipbookPixels", "FlipbookPNG", "FlipbookRender",
                           "FlipbookCompare", "FlipbookTestSupport",
                           .product(name: "SnapshotTesting", package: "swift-snapshot-testing")],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FlipbookCLITests",
            dependencies: ["FlipbookCLI", "FlipbookPixels", "FlipbookPNG", "FlipbookCompare", "FlipbookTesting",
                           "FlipbookTestSupport", "FlipbookFuzzTargets", "Flipbook", "FlipbookRender"],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
    ]
)
