// swift-tools-version: 6.2
import PackageDescription

// A separate package so that normal builds of tickerd never compile the benchmark harness.
// Run from this directory: swift package benchmark
let package = Package(
    name: "tickerd-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "tickerd", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FrameBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "TickerModel", package: "tickerd"),
            ],
            path: "Benchmarks/FrameBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "package-benchmark"),
            ]
        ),
        // Not a timing: how long a content change takes to show, in model time (docs/benchmarks.md,
        // the content-change rows). Run from this directory: swift run -c release ChangeLatency [N]
        .executableTarget(
            name: "ChangeLatency",
            dependencies: [.product(name: "TickerModel", package: "tickerd")],
            path: "ChangeLatency",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
