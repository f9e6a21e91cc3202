import Foundation
import HummingbirdWebSocket
import Synchronization

/// The messages waiting to go to one WebSocket phone, bounded in bytes: the pipeline (or a
/// playback) never waits for a phone, and a phone that cannot keep up cannot make the server
/// hold more than `limit` bytes for it. Past the limit the outbox drops everything it holds,
/// takes nothing more, and the socket is closed with 1008 (policy violation, "too slow"): the
/// web app reconnects and starts again from the current status, which is better than a screen
/// silently missing strokes (docs/API.md, "Streams and exports").
final class SocketOutbox: Sendable {
    /// 1 MiB: over a minute of a live session's messages, about a second of a replay at 100×.
    static let maximumBytes = 1 << 20

    let limit: Int
    private struct State {
        var messages: [String] = []
        var head = 0
        /// Bytes pushed and not yet handed to the socket.
        var queued = 0
        var closed = false
        var overflowed = false
        var waiter: CheckedContinuation<String?, Never>?
        var onOverflow: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    init(limit: Int = SocketOutbox.maximumBytes) {
        self.limit = limit
    }

    /// Bytes waiting now.
    var queuedBytes: Int { state.withLock { $0.queued } }
    var overflowed: Bool { state.withLock { $0.overflowed } }

    /// Queues `message`; false when it is refused (the outbox went over its limit, or ended).
    @discardableResult
    func push(_ message: String) -> Bool {
        let size = message.utf8.count
        enum Outcome { case queued, refused, handed(CheckedContinuation<String?, Never>), overflowed(CheckedContinuation<String?, Never>?, (@Sendable () -> Void)?) }
        let outcome = state.withLock { s -> Outcome in
            if s.closed { return .refused }
            guard s.queued + size <= limit else {
                s.overflowed = true
                s.closed = true
                s.messages = []
                s.head = 0
                s.queued = 0
                defer { s.waiter = nil }
                return .overflowed(s.waiter, s.onOverflow)
            }
            s.queued += size
            if let waiter = s.waiter {
                s.waiter = nil
                return .handed(waiter)
            }
            s.messages.append(message)
            return .queued
        }
        switch outcome {
        case .queued: return true
        case .refused: return false
        case .handed(let waiter):
            waiter.resume(returning: message)
            return true
        case .overflowed(let waiter, let onOverflow):
            waiter?.resume(returning: nil)
            onOverflow?()
            return false
        }
    }

    /// Ends the outbox (the phone went): nothing more is taken; the writer stops.
    func finish() {
        let waiter = state.withLock { s -> CheckedContinuation<String?, Never>? in
            s.closed = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next message, or nil once the outbox has ended and is empty (or overflowed).
    private func next() async -> String? {
        await withCheckedContinuation { (c: CheckedContinuation<String?, Never>) in
            let taken = state.withLock { s -> String?? in
                if s.head < s.messages.count {
                    let m = s.messages[s.head]
                    s.head += 1
                    if s.head > 1024 && s.head * 2 > s.messages.count {
                        s.messages.removeFirst(s.head)
                        s.head = 0
                    }
                    return .some(m)
                }
                if s.closed { return .some(nil) }
                s.waiter = c
                return nil
            }
            if let taken { c.resume(returning: taken) }
        }
    }

    /// Writes every message to `outbound` until the outbox ends. On an overflow the write under
    /// way is cancelled (a write waiting for a phone that never reads would wait for ever) and
    /// this throws `SocketOutbox.TooSlow`.
    func drain(to outbound: WebSocketOutboundWriter) async throws {
        let writer = Task {
            while let message = await next() {
                try await outbound.write(.text(message))
                state.withLock { $0.queued = max(0, $0.queued - message.utf8.count) }
            }
        }
        let alreadyOver = state.withLock { s -> Bool in
            s.onOverflow = { writer.cancel() }
            return s.overflowed
        }
        if alreadyOver { writer.cancel() }
        try await withTaskCancellationHandler {
            do { try await writer.value } catch where overflowed {}
        } onCancel: {
            writer.cancel()
            finish()
        }
        if overflowed { throw TooSlow(limit: limit) }
    }

    /// One phone's socket, written once for the live stream and playbacks: `reading` (what the
    /// phone sends) beside this outbox drained to it, until either ends; then `stopping` (what
    /// feeds the outbox stops). A phone that fell too far behind is logged as `phone` and closed
    /// with 1008 (its queue is dropped already; the close frame goes once it reads).
    func serve(to outbound: WebSocketOutboundWriter, phone: String, log: @Sendable (String) -> Void,
               stopping: @escaping @Sendable () -> Void, reading: @escaping @Sendable () async throws -> Void) async throws {
        do {
            defer { stopping() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await reading() }
                group.addTask { try await self.drain(to: outbound) }
                _ = try await group.next()
                finish()
                group.cancelAll()
            }
        } catch let tooSlow as TooSlow {
            log("\(phone) was \(tooSlow): closed")
            try await outbound.close(.policyViolation, reason: tooSlow.description)
        }
    }

    struct TooSlow: Error, CustomStringConvertible {
        let limit: Int
        var description: String { "too slow: more than \(limit / 1024) KiB of messages were waiting for this phone" }
    }
}
