// swift-tools-version: 6.1
// Oarlog: a rowing instrument for a Linux SBC in a boat.
import PackageDescription

let package = Package(
    name: "Oarlog",
    products: [
        .executable(name: "oarlog", targets: ["oarlog"]),
        .executable(name: "oarlog-full", targets: ["oarlog-full"]),
        .library(name: "OarlogCore", targets: ["OarlogCore"]),
        .library(name: "OarlogDSP", targets: ["OarlogDSP"]),
        .library(name: "OarlogTrace", targets: ["OarlogTrace"]),
        .library(name: "OarlogLive", targets: ["OarlogLive"]),
        .library(name: "OarlogPipeline", targets: ["OarlogPipeline"]),
        .library(name: "OarlogSimulator", targets: ["OarlogSimulator"]),
        .library(name: "OarlogGPS", targets: ["OarlogGPS"]),
        .library(name: "OarlogFences", targets: ["OarlogFences"]),
        .library(name: "OarlogExport", targets: ["OarlogExport"]),
        .library(name: "OarlogIIO", targets: ["OarlogIIO"]),
        .library(name: "OarlogSession", targets: ["OarlogSession"]),
        .library(name: "OarlogApp", targets: ["OarlogApp"]),
        .library(name: "OarlogAPI", targets: ["OarlogAPI"]),
        .library(name: "OarlogServer", targets: ["OarlogServer"]),
        .library(name: "OarlogArchive", targets: ["OarlogArchive"]),
        .library(name: "OarlogMQTT", targets: ["OarlogMQTT"]),
        .library(name: "OarlogFleet", targets: ["OarlogFleet"]),
        .library(name: "OarlogWorkouts", targets: ["OarlogWorkouts"]),
        .library(name: "OarlogUpload", targets: ["OarlogUpload"]),
        .library(name: "OarlogTrainingSites", targets: ["OarlogTrainingSites"]),
        .library(name: "OarlogHeartRate", targets: ["OarlogHeartRate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // HMAC-SHA256 for playback share keys (already built for Hummingbird's own dependencies).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // HTTP(S) to the training sites (already built for HummingbirdTesting's live client).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // Value types shared by everything: time, samples, fixes, strokes, units, geodesy. No I/O.
        .target(name: "OarlogCore", path: "Sources/0-core/OarlogCore"),
        // Pure streaming DSP: mounting, stroke detection, rate, speed/split, distance, summary. No I/O.
        .target(name: "OarlogDSP", dependencies: ["OarlogCore"], path: "Sources/2-signal/OarlogDSP"),
        // Trace input/output: the native CSV trace and the foreign formats (SpeedCoach, NK LiNK, Talos).
        .target(name: "OarlogTrace", dependencies: ["OarlogCore"], path: "Sources/1-sensors/OarlogTrace"),
        // Geofences, timing gates and courses: GeoJSON fences, the streaming FenceMonitor, CourseTracker.
        .target(name: "OarlogFences", dependencies: ["OarlogCore"], path: "Sources/2-signal/OarlogFences"),
        // The live machinery below the pipeline: device reader threads, the bounded record queue,
        // the monotonic session clock, reconnect backoff, outage bookkeeping, the live fan-in; the
        // device seam (LiveDevice/LiveDeviceConnection, LiveClock) and the one reconnect loop
        // (LiveDeviceSource) that GPS and IIO share.
        .target(name: "OarlogLive", dependencies: ["OarlogCore"], path: "Sources/1-sensors/OarlogLive"),
        // The workout tracker: times a plan's pieces and rests as the crew rows them (pure, no I/O).
        .target(name: "OarlogWorkouts", dependencies: ["OarlogCore", "OarlogDSP"], path: "Sources/2-signal/OarlogWorkouts"),
        // A source (each delivers in time order; there is no merge stage) through the DSP, the fences and the workout, events fanned out to sinks.
        .target(name: "OarlogPipeline", dependencies: ["OarlogCore", "OarlogDSP", "OarlogFences", "OarlogLive", "OarlogWorkouts"], path: "Sources/2-signal/OarlogPipeline"),
        // A rowing-boat simulator with ground truth, for tests, demos and benchmarks.
        .target(name: "OarlogSimulator", dependencies: ["OarlogCore"], path: "Sources/1-sensors/OarlogSimulator"),
        // The accuracy evaluation on real recordings and simulated sessions (`oarlog evaluate`, EvaluationTests).
        .target(name: "OarlogEvaluation", dependencies: ["OarlogCore", "OarlogDSP", "OarlogTrace", "OarlogPipeline", "OarlogSimulator"], path: "Sources/4-application/OarlogEvaluation"),
        // libgps (Debian libgps-dev) behind a shim header that hides gpsd API differences.
        .systemLibrary(name: "CGPS", path: "Sources/c-shims/CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        // A live GPS source: a running gpsd read through libgps, one fix per epoch, reconnecting;
        // gpsd's receiver list (?DEVICES).
        .target(name: "OarlogGPS", dependencies: ["CGPS", "OarlogCore", "OarlogLive"], path: "Sources/1-sensors/OarlogGPS"),
        // libiio (Debian libiio-dev, 0.24) behind a shim header that holds the 0.x/1.0 buffer API difference.
        .systemLibrary(name: "CIIO", path: "Sources/c-shims/CIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        // A live accelerometer source: a Linux IIO device through libiio (local: or ip: via iiod).
        .target(name: "OarlogIIO", dependencies: ["CIIO", "OarlogCore", "OarlogLive"], path: "Sources/1-sensors/OarlogIIO"),
        // libdbus-1 (Debian libdbus-1-dev, 1.14) behind a shim header: the system bus, for bluetoothd.
        .systemLibrary(name: "CDBus", path: "Sources/c-shims/CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // Live heart-rate straps through bluetoothd's D-Bus API (BlueZ 5.66: Adapter1 discovery on
        // 0x180D, Device1.Connect, GattCharacteristic1.StartNotify on 0x2A37), up to 8, a seat each;
        // the Heart Rate Measurement parser; reconnects and gaps like GPS and IIO.
        .target(name: "OarlogHeartRate", dependencies: ["CDBus", "OarlogCore", "OarlogLive"], path: "Sources/1-sensors/OarlogHeartRate"),
        // Hardware CRC-32C (SSE4.2 crc32 + PCLMULQDQ, checked at run time) for the session frames.
        .target(name: "COarlogCRC", path: "Sources/c-shims/COarlogCRC"),
        // The crash-safe binary session file: writer (a pipeline sink), reader, recovery, the data directory.
        .target(name: "OarlogSession", dependencies: ["COarlogCRC", "OarlogCore", "OarlogDSP", "OarlogFences", "OarlogPipeline", "OarlogWorkouts"], path: "Sources/3-storage/OarlogSession"),
        // Session exports (GPX, TCX, FIT, per-stroke CSV, GeoJSON) as streaming pipeline sinks.
        .target(name: "OarlogExport", dependencies: ["OarlogCore", "OarlogDSP", "OarlogPipeline", "OarlogWorkouts"], path: "Sources/3-storage/OarlogExport"),
        // The archive's index: one row per session file (its figures, text, place, pieces and
        // bests) in SQLite through GRDB, with FTS5 for text; the filters and orders of `oarlog
        // sessions`. The files stay the source of truth: OarlogApp fills the index from them.
        .target(name: "OarlogArchive", dependencies: ["OarlogCore", .product(name: "GRDB", package: "GRDB.swift")], path: "Sources/3-storage/OarlogArchive"),
        // The seam to the training sites a kept session is sent to: what a site does (TrainingSite:
        // upload, check, find), what is sent (UploadItem), an account (SiteAccount) and its secrets
        // as files of mode 0600 (SecretFiles). No network: the application layer depends on this.
        .target(name: "OarlogUpload", path: "Sources/3-storage/OarlogUpload"),
        // The sites' clients over HTTPS, each as its public API documents it (Intervals.icu, Strava,
        // the Concept2 logbook; OAuth 2 refresh), given to the application layer by the interfaces.
        .target(name: "OarlogTrainingSites", dependencies: [
            "OarlogUpload", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ], path: "Sources/3-storage/OarlogTrainingSites"),
        // zlib (Debian zlib1g-dev) behind a shim header: a zip's deflated entries for the import.
        .systemLibrary(name: "CZlib", path: "Sources/c-shims/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libmosquitto (Debian libmosquitto-dev, 2.0) behind a shim header.
        .systemLibrary(name: "CMosquitto", path: "Sources/c-shims/CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // An MQTT 5 client over libmosquitto: QoS 1 with a store-and-forward outbox, reconnects,
        // subscriptions, user name and password, TLS with a club's CA.
        .target(name: "OarlogMQTT", dependencies: ["CMosquitto"], path: "Sources/1-sensors/OarlogMQTT"),
        // The fleet's messages and what a coach and a club make of them, without I/O: Signal K
        // deltas for strokes, positions, status, notes, fences, sessions and workouts (with a per-boat
        // sequence), the coach's plan topics, the boats' board with race gaps at a course's gates, and crossed paths.
        .target(name: "OarlogFleet", dependencies: ["OarlogCore", "OarlogDSP", "OarlogFences", "OarlogPipeline", "OarlogWorkouts"], path: "Sources/2-signal/OarlogFleet"),
        // A trace through the pipeline and its reports, with nothing of storage, devices or the
        // network: the analysis settings, the pipeline every mode builds, a trace opened for a replay,
        // the summary, stroke table, JSON report and collectors. OarlogApp re-exports it; the small
        // `oarlog` front runs a plain replay on it alone.
        .target(name: "OarlogReplay", dependencies: [
            "OarlogCore", "OarlogDSP", "OarlogTrace", "OarlogFences", "OarlogPipeline", "OarlogWorkouts",
        ], path: "Sources/4-application/OarlogReplay"),
        // The application layer the command line and the web server share, the one door to the kept
        // sessions (SessionStore): pipeline assembly for every mode, analysis settings, live recording,
        // the fleet's glue, report models (OarlogReplay's, re-exported).
        .target(name: "OarlogApp", dependencies: [
            "OarlogReplay", "OarlogAPI", "OarlogArchive", "OarlogCore", "OarlogDSP", "OarlogTrace", "OarlogFences", "OarlogLive", "OarlogPipeline", 
            "OarlogSession", "OarlogExport", "OarlogGPS", "OarlogIIO", "OarlogMQTT", "OarlogFleet", "OarlogWorkouts", "OarlogUpload", "CZlib",
            "OarlogHeartRate",
        ], path: "Sources/4-application/OarlogApp"),
        // What the web API accepts: paths, session ids, the token header and each call's JSON body,
        // checked and decoded without HTTP machinery (so it is fuzzed); stored text cleaned by Core's StoredText.
        .target(name: "OarlogAPI", dependencies: ["OarlogCore"], path: "Sources/4-application/OarlogAPI"),
        // The boat's web app (`oarlog serve`): Hummingbird HTTP + WebSocket, a controller per resource
        // over OarlogApp's SessionStore and LiveStation (never the storage modules); the control
        // token, the static pages (Web/) and Debian's Leaflet and Chart.js.
        .target(name: "OarlogServer", dependencies: [
            "OarlogCore", "OarlogAPI", "OarlogApp", "OarlogTrainingSites",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/5-interfaces/OarlogServer"),
        // The terminal both executables share: unbuffered standard streams, Ctrl-C as a flag, a
        // long replay's progress line.
        .target(name: "OarlogTerminal", dependencies: ["OarlogCore", "OarlogDSP", "OarlogLive", "OarlogPipeline", "OarlogReplay"],
                path: "Sources/5-interfaces/OarlogTerminal"),
        // `oarlog`: a small front that answers `--help` and runs a plain `replay` (a trace, `--json`,
        // `--strokes`, `--format`) itself, on OarlogReplay alone, and hands every other command to
        // `oarlog-full` beside it (exec, same process): a replay and the help do not load Foundation,
        // the devices' libraries, SQLite or the web server. Linked with a static standard library
        // in release builds (docs/BENCHMARKS.md: peak resident memory).
        .executableTarget(
            name: "oarlog",
            dependencies: ["OarlogReplay", "OarlogTerminal", "OarlogTrace"],
            path: "Sources/5-interfaces/oarlog",
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        // Every command (swift-argument-parser): what `oarlog` runs for all but the plain replay.
        .executableTarget(
            name: "oarlog-full",
            dependencies: [
                "OarlogCore", "OarlogDSP", "OarlogTrace", "OarlogPipeline", "OarlogSimulator", "OarlogEvaluation", "OarlogGPS",
                "OarlogFences", "OarlogExport", "OarlogIIO", "OarlogLive", "OarlogAPI", "OarlogApp", "OarlogServer",
                "OarlogFleet", "OarlogWorkouts", "OarlogTrainingSites", "OarlogTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Sources/5-interfaces/oarlog-full"
        ),
        // Helpers shared by the test targets (real-data paths, loopback ports, seeded randomness,
        // a list source and readAll, the built binaries, child processes, a process's memory, a
        // test re-run in a child, a mosquitto broker). Not a product.
        .target(name: "OarlogTestSupport", dependencies: ["OarlogCore"], path: "Tests/OarlogTestSupport"),
        .testTarget(name: "OarlogCoreTests", dependencies: ["OarlogCore", "OarlogTestSupport"]),
        .testTarget(name: "OarlogDSPTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogDSP", "OarlogSimulator", "OarlogTrace"]),
        .testTarget(name: "OarlogTraceTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogTrace"], exclude: ["Fixtures"]),
        .testTarget(name: "OarlogAppTests", dependencies: [
            "OarlogTestSupport", "OarlogAPI", "OarlogApp", "OarlogArchive", "OarlogCore", "OarlogDSP", "OarlogFences", "OarlogPipeline", 
            "OarlogSession", "OarlogSimulator", "OarlogTrace",
        ]),
        // The command line as a person runs it (the built binary); depends on it so `swift test` builds it.
        .testTarget(name: "OarlogCLITests", dependencies: ["oarlog", "oarlog-full", "OarlogTestSupport"]),
        // `oarlog serve` as a phone and a browser meet it: HTTP, WebSocket clients, headless Chromium.
        .testTarget(name: "OarlogServerTests", dependencies: [
            "oarlog", "oarlog-full", "OarlogTestSupport", "OarlogServer", "OarlogApp", "OarlogSession", "OarlogCore",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            // The routes in process (`app.test(.router)`): errors, filters, pairing, without a socket.
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ], exclude: ["browser"]),
        .testTarget(name: "OarlogAPITests", dependencies: ["OarlogAPI"]),
        // Each training site's client against a local stand-in written from its public API
        // document (Tests/Standins): success, duplicate, 401, an expired token, 429, 503.
        .testTarget(name: "OarlogUploadTests", dependencies: ["OarlogTestSupport", "OarlogUpload", "OarlogTrainingSites"]),
        // The workout tracker against the simulator's truth, live and in replay.
        .testTarget(name: "OarlogWorkoutsTests", dependencies: [
            "OarlogTestSupport", "OarlogCore", "OarlogDSP", "OarlogWorkouts", "OarlogPipeline", "OarlogSimulator",
        ]),
        // The MQTT client against a real mosquitto on loopback ports (hardware/mosquitto's ACL, a test CA).
        .testTarget(name: "OarlogMQTTTests", dependencies: ["OarlogTestSupport", "OarlogMQTT"]),
        // Signal K deltas (checked against Signal K's schema with python3-jsonschema), the coach's board, crossed paths.
        .testTarget(name: "OarlogFleetTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogDSP", "OarlogFences", "OarlogPipeline", "OarlogFleet", "OarlogSimulator", "OarlogWorkouts"],
                    exclude: ["Fixtures"]),
        // The straps against a stand-in of org.bluez (BlueZ 5.66's API documents) on a private dbus-daemon.
        .testTarget(name: "OarlogHeartRateTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogLive", "OarlogHeartRate"]),
        .testTarget(name: "OarlogLiveTests", dependencies: ["OarlogCore", "OarlogLive"]),
        .testTarget(name: "OarlogPipelineTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogDSP", "OarlogTrace", "OarlogLive", "OarlogPipeline", "OarlogSimulator"]),
        .testTarget(name: "OarlogSimulatorTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogSimulator", "OarlogDSP", "OarlogFences", "OarlogPipeline"]),
        .testTarget(name: "OarlogGPSTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogDSP", "OarlogLive", "OarlogPipeline", "OarlogGPS", "OarlogSimulator"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "OarlogExportTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogDSP", "OarlogTrace", "OarlogPipeline", "OarlogSimulator", "OarlogExport", "OarlogWorkouts"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "OarlogIIOTests", dependencies: [
            "OarlogTestSupport", "OarlogCore", "OarlogDSP", "OarlogLive", "OarlogIIO",
            // The live latency test runs `record --publish`'s pipeline: a session file, the fleet.
            "OarlogApp", "OarlogFleet", "OarlogMQTT", "OarlogPipeline", "OarlogSession",
        ]),
        .testTarget(name: "OarlogSessionTests", dependencies: ["OarlogTestSupport", "OarlogCore", "OarlogDSP", "OarlogFences", "OarlogPipeline", "OarlogSimulator", "OarlogSession"]),
        .testTarget(name: "EvaluationTests", dependencies: ["OarlogTestSupport", "OarlogEvaluation", "OarlogCore"]),
        .testTarget(name: "OarlogFencesTests", dependencies: [
            "OarlogCore", "OarlogDSP", "OarlogTrace", "OarlogPipeline", "OarlogSimulator", "OarlogFences", 
            "OarlogTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
    ]
)
