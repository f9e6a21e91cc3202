import Foundation
import Hummingbird
import HummingbirdWebSocket
import OarlogAPI
import OarlogApp
import Synchronization

/// The playbacks running on this server: at most `maximum` at once, on `queues` serial queues
/// (no thread of its own for any of them: each is a timer on one of these queues). One more is
/// told to try again later (docs/API.md, "Streams and exports").
final class PlaybackPool: Sendable {
    /// Eight: a crew of eight and a cox each on a phone is the most a boat needs; 150 at once at
    /// 60× made 150 threads and 1 GB before this.
    static let maximumPlaybacks = 8

    let maximum: Int
    private let queues: [DispatchQueue]
    private let running = Mutex((count: 0, next: 0))

    init(maximum: Int = PlaybackPool.maximumPlaybacks, queues: Int = 2) {
        self.maximum = maximum
        self.queues = (0..<queues).map { DispatchQueue(label: "oarlog-playback-\($0)") }
    }

    /// A place for one more playback and the queue it runs on, or nil when `maximum` run.
    func reserve() -> DispatchQueue? {
        running.withLock { r in
            guard r.count < maximum else { return nil }
            r.count += 1
            r.next += 1
            return queues[r.next % queues.count]
        }
    }

    func release() {
        running.withLock { $0.count -= 1 }
    }

    var count: Int { running.withLock { $0.count } }
}

/// One phone playing a session back on `/api/sessions/{id}/playback`: a `playback` message and
/// the figures at the start, then the messages of `/api/live` as the session plays; the phone
/// sends `{"seek": S}`, `{"speed": N}`, `{"pause": true|false}` (docs/API.md). Each phone has a
/// playback of its own; it ends when the phone goes.
enum PlaybackSocket {
    /// A playback waits for its phone while more than this is queued for it (a quarter of what
    /// the socket may hold).
    static let behindBytes = SocketOutbox.maximumBytes / 4

    /// Whether the upgrade request may play session `id` back: the token (as a bearer header or
    /// a WebSocket subprotocol) or the session's share key (`?share=`).
    static func allows(_ request: Request, session id: String, access: ServerAccess) -> Bool {
        access.allowsPlayback(session: id, authorization: request.headers[.authorization],
                              webSocketProtocols: request.headers[.secWebSocketProtocol],
                              shareKey: request.uri.queryParameters["share"].map(String.init))
    }

    /// The upgrade's answer: a browser that offered subprotocols must get one of them back.
    static func upgradeHeaders(_ request: Request) -> HTTPFields {
        guard let offered = request.headers[.secWebSocketProtocol], offered.split(separator: ",")
            .contains(where: { $0.trimmingCharacters(in: .whitespaces) == "oarlog" }) else { return [:] }
        return [.secWebSocketProtocol: "oarlog"]
    }

    static func serve(session id: String, sessions: SessionStore, pool: PlaybackPool, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
                      log: @escaping @Sendable (String) -> Void) async throws {
        guard let queue = pool.reserve() else {
            try await outbound.write(.text(LiveMessage.error("too many playbacks: \(pool.maximum) are running; try again when one has ended")))
            // 1013: try again later.
            try await outbound.close(.unknown(1013), reason: "too many playbacks at once")
            return
        }
        defer { pool.release() }
        let outbox = SocketOutbox()
        let playback: SessionPlayback
        do {
            // The session's strokes are read here: on the playback's queue, not the event loop.
            playback = try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result {
                        try sessions.playback(id: id, queue: queue, phoneIsReady: { outbox.queuedBytes < behindBytes }) { outbox.push($0) }
                    })
                }
            }
        } catch {
            try await outbound.write(.text(LiveMessage.error("this session cannot be played: \(error)")))
            return
        }
        defer { outbox.finish() }
        playback.start()
        try await outbox.serve(to: outbound, phone: "a playback's phone", log: log, stopping: { playback.stop() }) {
            try await commands(inbound, playback: playback, outbox: outbox)
        }
    }

    /// The phone's commands, applied in order on the playback's queue (none waits here).
    private static func commands(_ inbound: WebSocketInboundStream, playback: SessionPlayback, outbox: SocketOutbox) async throws {
        for try await message in inbound.messages(maxSize: 4096) {
            guard case .text(let text) = message else { continue }
            do {
                let command = try PlaybackCommand(body: Array(text.utf8))
                playback.apply(seek: command.seek, speed: command.speed, pause: command.pause)
            } catch {
                outbox.push(LiveMessage.error("\(error)"))
            }
        }
    }
}
