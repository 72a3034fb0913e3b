// swift-tools-version: 6.1
import PackageDescription

// A package that depends on Signals gets only the `Signals` library: it is the one product.
// The harness's dependencies (OpenCombine, AsyncAlgorithms, HdrHistogram, ArgumentParser) are
// used only by `SignalsHarness` and `bench`, which no product exposes, so SwiftPM's
// target-based resolution never fetches them for a dependent. `bench` is an executable target
// without a product entry: `swift run -c release bench` still runs it in this package.
let package = Package(
    name: "Signals",
    // Every platform that ships the `Synchronization` module (Atomic, Mutex).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    ],
    targets: [
        // The library: channels, graphs, delivery path. No dependencies beyond the toolchain.
        .target(name: "Signals", dependencies: ["SignalsFutex"]),
        // futex(2) for the mutex variant's lock (Swift does not import the variadic `syscall`).
        .target(name: "SignalsFutex"),
        // bench's allocation counts without jemalloc: the malloc family, counted and forwarded
        // (C, because the definitions must be the C symbols themselves).
        .target(
            name: "AllocationCounter",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // Workloads, subjects (the library's two variants and the peers), metrics and reports.
        .target(
            name: "SignalsHarness",
            dependencies: [
                "Signals",
                "AllocationCounter",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // `bench stress`: scenarios, the runner and its arbiter (reports through the harness's
        // tables and formats, `package` access).
        .target(name: "SignalsStress", dependencies: ["Signals", "SignalsHarness"]),
        // The command-line front end: `swift run -c release bench`.
        .executableTarget(
            name: "bench",
            dependencies: [
                "SignalsHarness",
                "SignalsStress",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SignalsTests", dependencies: ["Signals"]),
        .testTarget(
            name: "SignalsHarnessTests",
            dependencies: ["SignalsHarness", "SignalsStress", "Signals"],
            // Read by `.ci/run` through TSAN_OPTIONS, not by the tests.
            exclude: ["Stress/tsan-suppressions.txt"]
        ),
    ]
)
