// swift-tools-version: 6.1
// The benchmark suite is its own package (as swift-nio does it), so users of the Signals
// library never resolve package-benchmark. Run from this directory:
//   swift package benchmark                      (or ../scripts/benchmarks-check)
import PackageDescription

let package = Package(
    name: "SignalsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Signals", path: ".."),
        // MallocInterposer only: it backs the malloc counters. The default RuntimeInterposer
        // trait is left off.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "DeliveryVariants",
            dependencies: [
                .product(name: "Signals", package: "Signals"),
                .product(name: "SignalsWorkloadRegistry", package: "Signals"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DeliveryVariants",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
