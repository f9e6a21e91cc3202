// The floor with Hummingbird: one WebSocket route, /api/live, that sends a small JSON text ten
// times a second to each client, as `oarlog serve` does. Nothing of Oarlog, and no Foundation
// imported here (Hummingbird's URL-encoded form coder links it: `DateFormatter`).
//
//   floor-hummingbird [PORT]
import Hummingbird
import HummingbirdWebSocket

let port = Int(CommandLine.arguments.dropFirst().first ?? "8099") ?? 8099
let router = Router(context: BasicWebSocketRequestContext.self)
router.ws("/api/live") { _, _ in .upgrade([:]) } onUpgrade: { _, outbound, _ in
    var count = 0
    while !Task.isCancelled {
        count += 1
        try await outbound.write(.text("{\"t\":\(count),\"split_s\":121.4,\"rate_spm\":24.0,\"distance_m\":\(count * 4)}"))
        try await Task.sleep(for: .milliseconds(100))
    }
}
let app = Application(router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
                      configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
