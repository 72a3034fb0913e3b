// swift-tools-version: 6.1
import PackageDescription

// A package that depends on Signals gets the `Signals` library (and, for Benchmarks/, the
// workload registry, which needs nothing beyond `Signals`).
// The harness's dependencies (OpenCombine, AsyncAlgorithms, HdrHistogram, ArgumentParser) are
// used only by `SignalsWorkloads` and `bench`, which no product exposes, so SwiftPM's
// target-based resolution never fetches them for a dependent. `bench` is an executable target
// without a product entry: `swift run -c release bench` still runs it in this package.
let package = Package(
    name: "Signals",
    // Every platform that ships the `Synchronization` module (Atomic, Mutex).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
        // The workloads, declared once: Benchmarks/ (its own package) registers its
        // package-benchmark benchmarks from this list, as `bench` does its workloads.
        .library(name: "SignalsWorkloadRegistry", targets: ["SignalsWorkloadRegistry"]),
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
        // bench's latency clock: the CPU's time-stamp counter (`rdtsc`, `cntvct_el0`), which Swift
        // cannot read without C (Sources/SignalsWorkloads/Metrics/LatencyClock.swift).
        .target(name: "CycleCounter"),
        // The `floor` subject of `bench run`: a C model of the single-thread delivery path
        // (claim, gates, map, handler, release; the re-entrant ring; fan-out), what the machine
        // allows, measured beside the library (include/DeliveryFloor.h says what it models).
        .target(name: "DeliveryFloor"),
        // bench's allocation counts without jemalloc: the malloc family, counted and forwarded
        // (C, because the definitions must be the C symbols themselves).
        .target(
            name: "AllocationCounter",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // The harness, by concern, with `package` access (bench and the tests are its only users):
        //   SignalsReports    statistics and reports
        //   SignalsWorkloads  workloads and measurement: bench run, bench ab   -> SignalsReports
        //   SignalsStress     bench stress, bench explore                       -> SignalsReports
        // Statistics and reports: the report model (identifiers, parameters, results, argument
        // checks), the paired statistics, every report's renderings (bench ab's included),
        // `bench compare` and the targets: computation and rendering, no workload, no peer. It also
        // holds what `bench stress` shares with the rest, the harness's clock and the delivery
        // variant's command-line spelling (`lockfree`, `mutex`): the one reason it imports Signals.
        // Workload names, summaries and rows come from the workload registry.
        .target(name: "SignalsReports", dependencies: ["Signals", "SignalsWorkloadRegistry"]),
        // The workload registry: each workload's declaration (its `bench run` shape, its
        // instruction-count case, its package-benchmark benchmark) in a file of its own, and
        // the one list of them. Public, for Benchmarks/; depends on the library only.
        .target(name: "SignalsWorkloadRegistry", dependencies: ["Signals"]),
        // Workloads and measurement: the workloads, their drivers and checkers, the subjects (the
        // library's two variants and the peers), the metrics (latency, allocations, machine) and
        // `bench ab`'s runners (served rounds, calibration).
        .target(
            name: "SignalsWorkloads",
            dependencies: [
                "SignalsReports",
                "SignalsWorkloadRegistry",
                "Signals",
                "AllocationCounter",
                "CycleCounter",
                "DeliveryFloor",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // `bench stress` and `bench explore`: Stress/ (the runner, the support scenarios build on,
        // the scenarios by the part of the library they race), Explore/ (the controlled scheduler,
        // its strategies and scenarios) and Generated/ (random cases, run by both); reports
        // through SignalsReports' tables and formats. No workload, metric or peer of `bench run`.
        .target(name: "SignalsStress", dependencies: ["Signals", "SignalsReports"]),
        // The command-line front end: `swift run -c release bench`.
        .executableTarget(
            name: "bench",
            dependencies: [
                "SignalsReports",
                "SignalsWorkloads",
                "SignalsStress",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "SignalsTests",
            dependencies: ["Signals"],
            // The map of test folders to source folders, for readers; not a resource.
            exclude: ["README.md"]
        ),
        // The harness's tests: reports, statistics, workloads, subjects, the CLI and stress.
        .testTarget(
            name: "SignalsHarnessTests",
            dependencies: ["SignalsReports", "SignalsWorkloadRegistry", "SignalsWorkloads", "SignalsStress", "Signals", "DeliveryFloor"],
            // Read by `.ci/run` through TSAN_OPTIONS, not by the tests.
            exclude: ["Stress/tsan-suppressions.txt"]
        ),
    ]
)
