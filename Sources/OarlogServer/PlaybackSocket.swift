import Foundation
import HummingbirdWebSocket
import OarlogAPI
import OarlogApp
import OarlogSession

/// One phone playing a session back on `/api/sessions/{id}/playback`: a `playback` message and
/// the figures at the start, then the messages of `/api/live` as the session plays; the phone
/// sends `{"seek": S}`, `{"speed": N}`, `{"pause": true|false}` (docs/API.md). Each phone has a
/// playback of its own; it ends when the phone goes.
enum PlaybackSocket {
    static func serve(path: String, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(50_000))
        let playback: SessionPlayback
        do {
            playback = try SessionPlayback(reader: try SessionReader(path: path)) { continuation.yield($0) }
        } catch {
            try await outbound.write(.text(LiveMessage.error("this session cannot be played: \(error)")))
            return
        }
        defer {
            playback.stop()
            continuation.finish()
        }
        playback.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await message in inbound.messages(maxSize: 4096) {
                    guard case .text(let text) = message else { continue }
                    let command: PlaybackCommand
                    do { command = try PlaybackCommand(body: Array(text.utf8)) } catch {
                        continuation.yield(LiveMessage.error("\(error)"))
                        continue
                    }
                    // A control waits for the running pass to stop: off the cooperative pool.
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        DispatchQueue.global().async {
                            playback.apply(seek: command.seek, speed: command.speed, pause: command.pause)
                            done.resume()
                        }
                    }
                }
            }
            group.addTask {
                for await message in stream { try await outbound.write(.text(message)) }
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}
