// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Signals",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    ],
    targets: [
        // The library: channels, graphs, delivery path. No dependencies beyond the toolchain.
        .target(name: "Signals"),
        // Workloads, subjects (the library's two variants and the peers), metrics and reports.
        .target(
            name: "SignalsHarness",
            dependencies: [
                "Signals",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // The command-line front end: `swift run -c release bench`.
        .executableTarget(
            name: "bench",
            dependencies: [
                "SignalsHarness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SignalsTests", dependencies: ["Signals"]),
        .testTarget(
            name: "SignalsHarnessTests",
            dependencies: ["SignalsHarness", "Signals"],
            // Read by `.ci/run` through TSAN_OPTIONS, not by the tests.
            exclude: ["Stress/tsan-suppressions.txt"]
        ),
    ]
)
