// swift-tools-version:6.0
// The least memory a server of `oarlog serve`'s kind can take on this platform, before any of
// Oarlog's own code (issue 30's "≤ 24 MB for `oarlog serve` recording with three phones"):
// two programs that do nothing but serve /api/live — a small JSON text ten times a second to
// every WebSocket client —, one on Hummingbird and hummingbird-websocket (the versions the
// project resolves), one on bare swift-nio. `scripts/bench-serve-floor.sh` builds both
// (dynamic and `--static-swift-stdlib`) and measures their peak RSS with three clients.
// Not part of the product or of CI.
import PackageDescription

let package = Package(
    name: "ServeFloor",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        .executableTarget(name: "floor-hummingbird", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        ]),
        .executableTarget(name: "floor-nio", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ]),
    ]
)
