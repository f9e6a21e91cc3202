// swift-tools-version: 6.1
// Throughput benchmarks for Oarlog, a separate package so that the main package's
// `swift build` / `swift test` never build the benchmark framework. See docs/BENCHMARKS.md.
import PackageDescription

let package = Package(
    name: "OarlogBenchmarks",
    dependencies: [
        // The root package, named so the products resolve whatever the checkout directory is called.
        .package(name: "Oarlog", path: ".."),
        // MallocInterposer gives the malloc counters (zero allocations in the hot loops is asserted
        // through them); the runtime interposer is not needed here.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The benchmark data: the float32 surge file the scipy peer also reads, the native CSV
        // trace made from it, and in-memory records.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "OarlogCore", package: "Oarlog"),
                .product(name: "OarlogDSP", package: "Oarlog"),
                .product(name: "OarlogTrace", package: "Oarlog"),
            ]
        ),
        // Makes the CSV trace once and counts strokes for scripts/bench.sh (the Swift side of the
        // comparison with scipy).
        .executableTarget(
            name: "oarlog-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "OarlogCore", package: "Oarlog"),
                .product(name: "OarlogDSP", package: "Oarlog"),
                .product(name: "OarlogTrace", package: "Oarlog"),
                .product(name: "OarlogPipeline", package: "Oarlog"),
            ]
        ),
        // The archive at scale (docs/BENCHMARKS.md "The archive"): makes N small simulated
        // sessions, then times the index built from nothing, searches, bests and a re-sync,
        // beside the same answers from scanning the files without an index.
        // Course attempts at scale (docs/BENCHMARKS.md "Courses"): makes N simulated outings near
        // a 2 km course, then times a new course searched for in all of them, beside reading every
        // file without the index's box test and replaying sessions through the whole pipeline.
        .executableTarget(
            name: "oarlog-course-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "OarlogApp", package: "Oarlog"),
                .product(name: "OarlogCore", package: "Oarlog"),
                .product(name: "OarlogFences", package: "Oarlog"),
                .product(name: "OarlogPipeline", package: "Oarlog"),
                .product(name: "OarlogSession", package: "Oarlog"),
                .product(name: "OarlogSimulator", package: "Oarlog"),
                .product(name: "OarlogTrace", package: "Oarlog"),
            ]
        ),
        .executableTarget(
            name: "oarlog-archive-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "OarlogApp", package: "Oarlog"),
                .product(name: "OarlogArchive", package: "Oarlog"),
                .product(name: "OarlogCore", package: "Oarlog"),
                .product(name: "OarlogSession", package: "Oarlog"),
                .product(name: "OarlogSimulator", package: "Oarlog"),
                .product(name: "OarlogTrace", package: "Oarlog"),
            ]
        ),
        // The fleet at scale (docs/BENCHMARKS.md "The fleet"): N boats, each its own MQTT client,
        // through a real mosquitto (and a launch→club bridge) to a coach; messages per second and
        // latency from publish to the coach, beside a bare libmosquitto subscriber.
        .executableTarget(
            name: "oarlog-fleet-bench",
            dependencies: [
                .product(name: "OarlogApp", package: "Oarlog"),
                .product(name: "OarlogCore", package: "Oarlog"),
                .product(name: "OarlogFleet", package: "Oarlog"),
                .product(name: "OarlogMQTT", package: "Oarlog"),
            ]
        ),
        // The package-benchmark suite: detector, analyzer and CSV replay throughput, mallocs.
        .executableTarget(
            name: "OarlogThroughput",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OarlogCore", package: "Oarlog"),
                .product(name: "OarlogDSP", package: "Oarlog"),
                .product(name: "OarlogTrace", package: "Oarlog"),
                .product(name: "OarlogPipeline", package: "Oarlog"),
            ],
            path: "Benchmarks/OarlogThroughput",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // Session file write and read-back throughput, bytes per sample (docs/SESSION_FORMAT.md).
        .executableTarget(
            name: "SessionRecorder",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OarlogCore", package: "Oarlog"),
                .product(name: "OarlogSession", package: "Oarlog"),
            ],
            path: "Benchmarks/SessionRecorder",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
