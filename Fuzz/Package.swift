// swift-tools-version: 6.1
// libFuzzer targets for Oarlog's input parsers: each trace reader, the GeoJSON fence reader, the
// session reader and recovery, and the web API's request checks. A separate package so the main build never carries the sanitizer
// flags. Build and run with scripts/fuzz.sh (see docs/FUZZING.md).
import PackageDescription

let package = Package(
    name: "OarlogFuzz",
    dependencies: [
        .package(name: "Oarlog", path: ".."),
    ],
    targets: [
        // One binary for every target (one build): OARLOG_FUZZ_TARGET picks the parser.
        .executableTarget(
            name: "oarlog-fuzz",
            dependencies: [
                .product(name: "OarlogAPI", package: "Oarlog"),
                .product(name: "OarlogCore", package: "Oarlog"),
                .product(name: "OarlogTrace", package: "Oarlog"),
                .product(name: "OarlogFences", package: "Oarlog"),
                .product(name: "OarlogFleet", package: "Oarlog"),
                .product(name: "OarlogPipeline", package: "Oarlog"),
                .product(name: "OarlogApp", package: "Oarlog"),
                .product(name: "OarlogSession", package: "Oarlog"),
                .product(name: "OarlogWorkouts", package: "Oarlog"),
            ]
        ),
    ]
)
