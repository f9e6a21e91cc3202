import Foundation
import Hummingbird
import HummingbirdWebSocket
import OarlogAPI
import OarlogApp
import OarlogCore

/// One phone on `/api/live`: the current status first, then every message in order until it
/// closes. The pipeline never waits for a phone: what a phone has not taken yet waits in its
/// `SocketOutbox`, at most 1 MiB; a phone that falls further behind is closed with 1008 (the
/// web app reconnects and starts again from the current status).
enum LiveSocket {
    static func serve(station: LiveStation, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
                      log: @escaping @Sendable (String) -> Void) async throws {
        let outbox = SocketOutbox()
        let id = station.subscribe { outbox.push($0) }
        defer { outbox.finish() }
        try await outbox.serve(to: outbound, phone: "a live phone", log: log, stopping: { station.unsubscribe(id) }) {
            for try await _ in inbound {}  // the phone says nothing; this ends when it closes
        }
    }
}
